"""Hypothesis-made messages on a match socket: every one is answered (an error frame, or the
board when it happened to be a legal move), the socket stays open, and nothing else changes.
"""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import async_to_sync
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Match, Move
from tests.support.matches import start
from tests.support.sockets import socket

pytestmark = pytest.mark.django_db(transaction=True)

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True), st.text(max_size=30),
    st.sampled_from(["pass", "order_up", "play:JH", "name:S", "discard:9C", "\x00"]),
)  # fmt: skip
payloads = st.one_of(
    st.fixed_dictionaries({"action": scalars, "version": scalars}),
    st.dictionaries(st.text(max_size=8), scalars, max_size=4),
    st.lists(scalars, max_size=3),
    scalars,
)
messages = st.one_of(
    payloads.map(json.dumps),
    st.text(max_size=200),
    st.just("{" * 1000),
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(batch=st.lists(messages, min_size=1, max_size=8))
def test_any_message_on_the_socket_is_answered_and_the_socket_stays_open(
    alice, bob, figures, batch
):
    match = Match.objects.filter(status="active").first() or start(alice, bob, move_seconds=None)
    moves_before = Move.objects.count()
    applied = async_to_sync(send_all)(match, alice if match.seat_of(alice) == 0 else bob, batch)
    figures["messages sent"] += len(batch)
    assert Move.objects.count() == moves_before + applied  # only legal moves were applied


async def send_all(match: Match, user, batch: list[str]) -> int:
    ws = await socket(user, f"/ws/matches/{match.pk}/")
    connected, _ = await ws.connect()
    assert connected
    version = await _board_version(ws)
    applied = 0
    for text in batch:
        # send_input, not send_to: the test communicator refuses an empty text frame itself.
        await ws.send_input({"type": "websocket.receive", "text": text})
        frame = await ws.receive_from(timeout=5)
        while "data-presence" in frame and "data-error" not in frame and _version(frame) == version:
            frame = await ws.receive_from(timeout=5)  # a presence push crossed the reply
        if "data-error" in frame:
            assert len(re.sub(r"<[^>]+>", "", frame).strip()) > 10  # words for the player
        else:
            assert _version(frame) == version + 1  # it was a legal move: the new board
            version += 1
            applied += 1
    await ws.send_to(text_data="still there?")
    frame = await ws.receive_from(timeout=5)
    while "data-presence" in frame and "data-error" not in frame and _version(frame) == version:
        frame = await ws.receive_from(timeout=5)  # a presence push crossed the reply
    assert "data-error" in frame  # not dropped
    await ws.disconnect()
    return applied


async def _board_version(ws) -> int:
    return _version(await ws.receive_from(timeout=5))


def _version(frame: str) -> int:
    found = re.search(r'data-version="(\d+)"', frame)
    return int(found.group(1)) if found else -1
