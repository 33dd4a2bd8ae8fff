"""Websocket consumers."""

from __future__ import annotations

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class HealthConsumer(AsyncJsonWebsocketConsumer):
    """``/ws/health/``: answers once a message has made a round trip through the channel layer.

    Operators (and the browser test) use it to see that websockets and the layer (Redis in
    production) both work from where the player sits.
    """

    async def connect(self) -> None:
        await self.accept()
        await self.channel_layer.send(self.channel_name, {"type": "health.echo"})

    async def health_echo(self, event: dict) -> None:
        await self.send_json({"status": "ok", "channel_layer": type(self.channel_layer).__name__})

    async def receive_json(self, content, **kwargs) -> None:
        await self.send_json({"status": "ok", "echo": content})
