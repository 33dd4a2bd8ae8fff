from django.urls import path, re_path

from ..api.consumers import StreamConsumer
from ..web import converters  # noqa: F401  (converters registers <match:>)
from . import consumers, lobby

websocket_urlpatterns = [
    path("ws/health/", consumers.HealthConsumer.as_asgi()),
    path("ws/lobby/", lobby.LobbyConsumer.as_asgi()),
    path("ws/me/", lobby.UserConsumer.as_asgi()),
    path("ws/matches/<match:match_id>/", consumers.MatchConsumer.as_asgi()),
    re_path(r"", consumers.NoSuchSocket.as_asgi()),  # any other address: said so, in words
]

api_websocket_urlpatterns = [
    path("api/v1/ws/account", StreamConsumer.as_asgi()),
    path("api/v1/ws/matches/<match:match_id>", StreamConsumer.as_asgi()),
    path("api/v1/ws/arenas/<id:arena_id>", StreamConsumer.as_asgi()),
    re_path(r"", consumers.NoSuchSocket.as_asgi()),
]
