"""The reference client (clients/python/euchre_bot.py) plays whole matches against a live
server: one against the medium computer (a real task worker makes its moves), and one against
a person at the match page's socket, who challenged the bot from the site."""

from __future__ import annotations

import asyncio
import json

import pytest

from games import services
from games.models import Challenge, Match, MatchStatus
from tests.support.api import token_for
from tests.support.clients import bot, first_event, match_started, rematch_played
from tests.support.players import Player, session_cookie
from tests.support.servers import Server, Worker, server_env

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_client_plays_a_whole_match_against_the_medium_computer(alice):
    env = server_env(COMPUTER_MOVE_DELAY_SECONDS="0")
    server = Server(env).start()
    worker = Worker(env, server).start()
    try:
        process = bot(server, token_for(alice), "--computer", "medium", "--target", "5")
        out, _ = process.communicate(timeout=240)
    finally:
        worker.stop()
        server.stop()
    assert process.returncode == 0
    result = json.loads(out.strip().splitlines()[-1])
    match = Match.objects.get(pk=result["match"])
    assert match.status == MatchStatus.FINISHED and match.computer == "medium"
    assert max(match.snapshot["scores"]) >= 5 and result["winner"] in (0, 1)


def test_the_client_accepts_a_persons_challenge_and_plays_them(alice, bob):
    services.player_bot_set(user=alice)
    # Neither player waits to think: the person's moves are not held to a person's pace.
    server = Server(server_env(MOVE_LIMIT_PER_10_SECONDS="1000")).start()
    process = bot(server, token_for(alice))
    try:
        challenge = services.challenge_create(
            user=bob, challenged=alice, target=5, move_seconds=None
        )
        # The person's account stream names the match once the bot has accepted.
        started = first_event(server, token_for(bob), "account", match_started, [process], 20)
        match_id = started["match"]["id"]
        assert Challenge.objects.get(pk=challenge.pk).match_id == match_id
        asyncio.run(play_as_a_person(server, session_cookie(bob), match_id))
    finally:
        process.terminate()
        process.wait(timeout=10)
        server.stop()
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED and match.end_reason == "played_out"


def test_the_client_accepts_a_persons_rematch_and_plays_it(alice, bob):
    """Its policy hook's default: a person's offer is accepted; the new match is played."""
    services.player_bot_set(user=alice)
    services.player_bot_challenges_set(user=bob, allowed=True)
    server = Server(server_env(MOVE_LIMIT_PER_10_SECONDS="1000")).start()
    process = bot(server, token_for(alice))
    try:
        new = rematch_played(server, alice, bob)
    finally:
        process.terminate()
        process.wait(timeout=10)
        server.stop()
    assert new.status == MatchStatus.ACTIVE and {new.player0, new.player1} == {alice, bob}


async def play_as_a_person(server: Server, cookie: str, match_id: int) -> None:
    """The match page's way: the board pushed over the socket, the first action it offers
    sent back, until the match is over."""
    person = await Player("bob", cookie).connect(server, match_id)
    async with asyncio.timeout(240):
        while "data-match-over" not in person.board:
            if person.my_turn:
                await person.act()
                await person.wait_for(person.version + 1)
            else:
                await person.wait_for(person.version + 1, timeout=30)
    await person.ws.close()
