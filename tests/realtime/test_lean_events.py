"""What travels through Redis: every message of a whole match, read off the wire. A push says
which match changed and its version, never a card or the seed (they stay in the database)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import threading

import msgpack
import pytest
from django.conf import settings

from games import services
from games.engine.cards import CODES
from tests.support.players import ACTION, Player, moves_are_whole, session_cookie
from tests.support.servers import Server, server_env

pytestmark = pytest.mark.django_db(transaction=True)

EVENT_KEYS = {"type", "match_id", "version", "presence", "opened"}


class Wiretap:
    """Every message the channel layer publishes on Redis for this match's group and the
    lobby's (every lobby socket hears of a match that starts or ends). Pub/sub ignores Redis
    database numbers: other test runs' groups on the same Redis are left out."""

    def __init__(self, url: str, match_id: int):
        import redis

        prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
        self.pubsub = redis.Redis.from_url(url).pubsub()
        self.pubsub.psubscribe(f"{prefix}*")
        self.ours = {
            f"{prefix}__group__match_{match_id}".encode(),
            f"{prefix}__group__lobby".encode(),
        }
        self.messages: list[bytes] = []
        self.running = True
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()

    def _listen(self) -> None:
        while self.running:
            message = self.pubsub.get_message(timeout=0.1)
            if message and message["type"] == "pmessage":
                if message["channel"] in self.ours:
                    self.messages.append(message["data"])

    def stop(self) -> list[bytes]:
        self.running = False
        self.thread.join()
        self.pubsub.close()
        return self.messages


def decoded(raw: bytes) -> dict:
    """A channel layer message: msgpack, after channels_redis's random prefix."""
    for start in range(32):
        with contextlib.suppress(Exception):  # not a message from this offset
            value = msgpack.unpackb(raw[start:])
            if isinstance(value, dict):
                return value
    raise AssertionError(f"not a channel layer message: {raw!r}")


def test_no_redis_message_of_a_whole_match_carries_a_card_or_the_seed(alice, bob):
    url = os.environ.get("REDIS_URL")
    if not (url and os.environ.get("DATABASE_URL")):
        pytest.skip("needs DATABASE_URL and REDIS_URL: runs in CI's PostgreSQL + Redis pass")
    match = services.match_join(user=bob, match_id=services.match_create(user=alice, target=5).pk)
    cookies = session_cookie(alice), session_cookie(bob)
    tap = Wiretap(url, match.pk)
    server = Server(server_env(MOVE_LIMIT_PER_10_SECONDS="1000")).start()  # a fast pair
    try:

        async def scenario():
            a = await Player("alice", cookies[0]).connect(server, match.pk)
            b = await Player("bob", cookies[1]).connect(server, match.pk)
            rng = random.Random(3)
            while "data-match-over" not in a.board:
                mover = a if a.my_turn else b
                target = mover.version + 1
                action = rng.choice(ACTION.findall(mover.board))  # all passes never end
                await mover.ws.send(json.dumps({"action": action, "version": mover.version}))
                for player in (a, b):
                    await player.wait_for(target)
            await a.close()
            await b.close()

        asyncio.run(scenario())
    finally:
        server.stop()
        messages = tap.stop()
    moves_are_whole(match)
    match.refresh_from_db()
    assert match.is_over and len(messages) > match.version  # every move, and presence, went out
    seed = match.seed.encode()
    cards = {code.encode() for code in CODES}
    for raw in messages:
        assert seed not in raw
        event = decoded(raw)
        assert set(event) <= EVENT_KEYS, event
        strings = [v.encode() for v in event.values() if isinstance(v, str)]
        assert not [s for s in strings if s in cards or s.upper() in cards], event
