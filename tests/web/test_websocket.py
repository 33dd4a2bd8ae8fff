"""Websockets through the full ASGI application: origin checks and the channel layer."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from euchre_site.asgi import application


def health_socket(origin: bytes, host: bytes = b"testserver", scheme: str = "ws"):
    communicator = WebsocketCommunicator(
        application, "/ws/health/", headers=[(b"host", host), (b"origin", origin)]
    )
    communicator.scope["scheme"] = scheme
    return communicator


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_health_socket_answers_after_a_round_trip_through_the_channel_layer():
    communicator = health_socket(b"http://testserver")
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
@pytest.mark.parametrize(
    ("host", "origin", "scheme"),
    [
        (b"127.0.0.1:8000", b"http://127.0.0.1:8000", "ws"),
        (b"127.0.0.1", b"http://127.0.0.1", "ws"),
        (b"localhost:8443", b"https://localhost:8443", "wss"),
        (b"testserver", b"https://euchre.example", "ws"),  # in CSRF_TRUSTED_ORIGINS
    ],
)
async def test_a_socket_from_the_sites_own_origin_is_let_in(settings, host, origin, scheme):
    settings.CSRF_TRUSTED_ORIGINS = ["https://euchre.example"]
    communicator = health_socket(origin, host, scheme)
    assert (await communicator.connect())[0]
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("host", "origin", "scheme"),
    [
        (b"testserver", b"http://evil.example", "ws"),
        (b"127.0.0.1:8000", b"http://127.0.0.1:9999", "ws"),  # another port
        (b"127.0.0.1", b"ftp://127.0.0.1", "ws"),  # another scheme
        (b"127.0.0.1", b"https://127.0.0.1", "ws"),  # https page, plain socket: not this site
        (b"127.0.0.1:8000", b"http://localhost:8000", "ws"),  # another allowed host
        (b"evil.example", b"http://evil.example", "ws"),  # a host this site does not serve
        (b"testserver", b"null", "ws"),
        (b"testserver", b"", "ws"),
        (b"testserver", b"http://euchre.example", "ws"),  # trusted only over https
    ],
)
async def test_a_socket_from_another_origin_is_refused(settings, host, origin, scheme):
    settings.CSRF_TRUSTED_ORIGINS = ["https://euchre.example"]
    communicator = health_socket(origin, host, scheme)
    assert not (await communicator.connect())[0]
