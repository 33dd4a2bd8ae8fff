from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/health/", consumers.HealthConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/matches/<int:match_id>/", consumers.MatchConsumer.as_asgi()),
]
