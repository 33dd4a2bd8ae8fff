from django.urls import path

from . import consumers, converters  # noqa: F401  (converters registers <match:>)

websocket_urlpatterns = [
    path("ws/health/", consumers.HealthConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/me/", consumers.UserConsumer.as_asgi()),
    path("ws/matches/<match:match_id>/", consumers.MatchConsumer.as_asgi()),
]
