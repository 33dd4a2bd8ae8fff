"""The JavaScript reference client (clients/js/euchre_bot.js, run by Node 20) plays whole
matches against a live server: one against the medium computer (a real task worker makes its
moves), and one against the Python reference client, two bot accounts in two processes."""

from __future__ import annotations

import json
import subprocess

import pytest

from games import services
from games.models import Challenge, Match, MatchStatus
from tests.support.api import token_for
from tests.support.clients import (
    JS_CLIENT,
    first_event,
    match_over,
    match_started,
    rematch_played,
)
from tests.support.clients import bot as python_bot
from tests.support.servers import Server, Worker, server_env

pytestmark = pytest.mark.django_db(transaction=True)


def js_bot(node: str, server: Server, token: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [node, str(JS_CLIENT), "--url", server.url, *args],
        env={"EUCHRE_TOKEN": token, "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_the_js_client_plays_a_whole_match_against_the_medium_computer(node, alice):
    env = server_env(COMPUTER_MOVE_DELAY_SECONDS="0")
    server = Server(env).start()
    worker = Worker(env, server).start()
    try:
        process = js_bot(node, server, token_for(alice), "--computer", "medium", "--target", "5")
        out, err = process.communicate(timeout=240)
    finally:
        worker.stop()
        server.stop()
    assert process.returncode == 0, err
    result = json.loads(out.strip().splitlines()[-1])
    match = Match.objects.get(pk=result["match"])
    assert match.status == MatchStatus.FINISHED and match.computer == "medium"
    assert match.player0 == alice or match.player1 == alice
    assert max(match.snapshot["scores"]) >= 5 and result["winner"] in (0, 1)
    assert result["scores"] == match.snapshot["scores"]


def test_the_js_client_and_the_python_client_play_a_whole_match(node, alice, bob):
    """Two bot accounts: the Python one challenges, the JavaScript one accepts, and each plays
    from its own process until the match is over."""
    services.player_bot_set(user=alice)
    services.player_bot_set(user=bob)
    services.player_bot_challenges_set(user=alice, allowed=True)
    server = Server(server_env()).start()
    js = js_bot(node, server, token_for(alice))
    python = python_bot(server, token_for(bob))
    eyes = token_for(bob, name="the test's eyes")  # bob's own streams: the match as he sees it
    try:
        challenge = services.challenge_create(
            user=bob, challenged=alice, target=5, move_seconds=None
        )
        started = first_event(server, eyes, "account", match_started, [js, python], 20)
        match_id = started["match"]["id"]  # the JavaScript bot accepted the challenge
        assert Challenge.objects.get(pk=challenge.pk).match_id == match_id
        first_event(server, eyes, f"matches/{match_id}", match_over, [js, python], 240)
    finally:
        for process in (js, python):
            process.terminate()
            process.wait(timeout=10)
        server.stop()
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED and match.end_reason == "played_out"
    assert {match.player0, match.player1} == {alice, bob}
    assert max(match.snapshot["scores"]) >= 5 and match.winner in (alice, bob)
    assert set(match.moves.values_list("seat", flat=True)) == {0, 1}  # both played


def test_the_js_client_accepts_a_persons_rematch_and_plays_it(node, alice, bob):
    """Its policy hook's default: a person's offer is accepted; the new match is played."""
    services.player_bot_set(user=alice)
    services.player_bot_challenges_set(user=bob, allowed=True)
    server = Server(server_env(MOVE_LIMIT_PER_10_SECONDS="1000")).start()
    js = js_bot(node, server, token_for(alice))
    try:
        new = rematch_played(server, alice, bob)
    finally:
        js.terminate()
        js.wait(timeout=10)
        server.stop()
    assert new.status == MatchStatus.ACTIVE and {new.player0, new.player1} == {alice, bob}
