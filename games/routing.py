from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/health/", consumers.HealthConsumer.as_asgi()),
]
