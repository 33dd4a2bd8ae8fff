"""Websockets through the full ASGI application: origin checks and the channel layer."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from euchre_site.asgi import application


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_health_socket_answers_after_a_round_trip_through_the_channel_layer():
    communicator = WebsocketCommunicator(
        application, "/ws/health/", headers=[(b"origin", b"http://testserver")]
    )
    connected, _ = await communicator.connect()
    assert connected
    message = await communicator.receive_json_from(timeout=5)
    assert message["status"] == "ok"
    assert message["channel_layer"] in {"InMemoryChannelLayer", "RedisPubSubChannelLayer"}
    await communicator.send_json_to({"ping": 1})
    assert await communicator.receive_json_from(timeout=5) == {"status": "ok", "echo": {"ping": 1}}
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_from_another_origin_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/health/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert not connected
