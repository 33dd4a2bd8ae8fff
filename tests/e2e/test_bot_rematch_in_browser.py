"""A person in the browser plays a bot account run by the reference client
(clients/python/euchre_bot.py), resigns once both have begun, and presses Rematch on the end
screen: the bot hears the offer on its account stream, accepts it through its policy hook, the
person's page goes to the new match, and the bot plays its first move there."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from games import services
from games.models import Match, MatchStatus, Move
from tests.support.browser import PREFERRED, shot
from tests.support.matches import start
from tests.support.servers import ROOT

pytestmark = pytest.mark.django_db(transaction=True)
BOARD = """() => {
  const board = document.querySelector("#board");
  return [Number(board.dataset.version), board.hasAttribute("data-your-turn")];
}"""
MOVED_ON = """(version) => {
  const board = document.querySelector("#board");
  return Number(board.dataset.version) > version || board.hasAttribute("data-match-over");
}"""


def act(page, version: int) -> None:
    """The person's move on the board at ``version``: the first preferred action offered."""
    for kind in PREFERRED:
        button = page.locator(f"#board[data-version='{version}'] button[data-action={kind}]")
        if button.count():
            button.first.click()
            return


def test_a_person_offers_the_reference_bot_a_rematch_and_it_plays_it(
    live_server_url, new_page, alice, bob
):
    services.player_bot_set(user=alice)
    services.player_bot_challenges_set(user=bob, allowed=True)  # the bot may sit with bob
    first = start(bob, alice, move_seconds=None)  # in play as the bot's stream opens
    _row, token = services.api_token_create(user=alice, name="bot", scopes=["read", "play"])
    bot = subprocess.Popen(
        [sys.executable, str(ROOT / "clients" / "python" / "euchre_bot.py"),
         "--url", live_server_url],
        env={"EUCHRE_TOKEN": token, "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    try:
        page = new_page(logged_in=bob, width=1280)
        page.goto(f"{live_server_url}/matches/{first.pk}/")
        page.wait_for_selector("#board .scorebox")
        # Both make a first move (from then on resigning counts), the bot through the API.
        deadline = time.monotonic() + 60
        while not Match.objects.get(pk=first.pk).both_acted:
            assert time.monotonic() < deadline, "the bot made no first move"
            version, my_turn = page.evaluate(BOARD)
            if my_turn:
                act(page, version)
            page.wait_for_function(MOVED_ON, arg=version, timeout=10_000)
        page.once("dialog", lambda dialog: dialog.accept())  # "Resign this match? ..."
        page.click("#board [data-action=resign]")
        page.wait_for_selector("#board [data-result]", state="visible")
        assert Match.objects.get(pk=first.pk).status == MatchStatus.FINISHED

        page.click("[data-action=rematch]")
        # The bot accepts through its policy hook: the page is taken to the new match.
        page.wait_for_url(lambda url: f"/matches/{first.pk}/" not in url, timeout=20_000)
        new = Match.objects.get(pk=first.pk).next_match
        assert new is not None and new.status == MatchStatus.ACTIVE
        assert page.url == f"{live_server_url}/matches/{new.pk}/"
        page.wait_for_selector("#board .scorebox")
        assert page.locator("#board [data-bot]").count() >= 1
        bot_seat = new.seat_of(alice)
        # The bot plays in it: its first move (the person's first, if theirs comes first).
        deadline = time.monotonic() + 30
        while not Move.objects.filter(match=new, seat=bot_seat).exists():
            assert time.monotonic() < deadline, "the bot did not play the rematch"
            version, my_turn = page.evaluate(BOARD)
            if my_turn:
                act(page, version)
            page.wait_for_function(MOVED_ON, arg=version, timeout=10_000)
        bot_moved = Move.objects.filter(match=new, seat=bot_seat).order_by("seq").first()
        page.wait_for_function(MOVED_ON, arg=bot_moved.version - 1)  # the page shows it
        shot(page, "rematch-against-a-bot")
        page.set_viewport_size({"width": 375, "height": 667})
        shot(page, "rematch-against-a-bot-phone")
    finally:
        bot.terminate()
        bot.wait(timeout=10)
