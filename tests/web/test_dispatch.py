"""The consumers' ``Dispatch`` seam: Channels' ``dispatch`` without its per-message database
clean-up (a trip to the database thread for every frame and push; bench/load measured
the difference). These tests pin what the seam assumes about Channels."""

from __future__ import annotations

import ast
import inspect
import textwrap

import pytest
from channels import consumer as channels_consumer
from channels.consumer import AsyncConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.testing import WebsocketCommunicator

from euchre_site.asgi import application
from games.realtime.consumers import HealthConsumer, MatchConsumer
from games.realtime.lobby import LobbyConsumer, UserConsumer
from games.realtime.sockets import Dispatch


def called_names(function) -> set[str]:
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    return {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }


def test_channels_dispatch_is_still_lookup_cleanup_handler():
    """If a Channels upgrade gives ``dispatch`` another step, the seam would silently skip it:
    this fails first, so the seam is looked at again."""
    assert called_names(AsyncConsumer.dispatch) == {
        "getattr", "get_handler_name", "aclose_old_connections", "handler", "ValueError",
    }  # fmt: skip
    assert called_names(Dispatch.dispatch) == {
        "getattr", "get_handler_name", "handler", "ValueError",
    }  # fmt: skip


def test_every_consumer_goes_through_the_seam():
    for consumer in (HealthConsumer, MatchConsumer, LobbyConsumer, UserConsumer):
        assert consumer.dispatch is Dispatch.dispatch


@pytest.mark.asyncio
async def test_an_unknown_message_type_is_refused_as_channels_refuses_it():
    with pytest.raises(ValueError, match="No handler for message type no.such"):
        await HealthConsumer().dispatch({"type": "no.such"})


class Plain(AsyncJsonWebsocketConsumer):
    """Channels as it is: the same echo as the health socket's, without the seam."""

    async def receive_json(self, content, **kwargs) -> None:
        await self.send_json({"echo": content})


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_frames_skip_the_clean_up_trip_that_channels_makes(monkeypatch):
    trips = []
    original = channels_consumer.aclose_old_connections

    async def counted():
        trips.append(1)
        await original()

    monkeypatch.setattr(channels_consumer, "aclose_old_connections", counted)
    for app, path, seam in ((application, "/ws/health/", True), (Plain.as_asgi(), "/", False)):
        trips.clear()
        headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
        socket = WebsocketCommunicator(app, path, headers=headers)
        connected, _ = await socket.connect()
        assert connected
        for number in range(3):
            await socket.send_json_to({"n": number})
        answers = [await socket.receive_json_from() for _ in range(3 + seam)]
        assert {"n": 2} in [answer.get("echo") for answer in answers]
        await socket.disconnect()
        assert len(trips) == (0 if seam else 5)  # connect, three frames, disconnect
