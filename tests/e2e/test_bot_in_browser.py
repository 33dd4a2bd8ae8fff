"""A person in the browser challenges a bot account from its profile; the reference client
(clients/python/euchre_bot.py) accepts through the API and the two play a whole match."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Match, MatchStatus
from tests.support.browser import PREFERRED, shot
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


def test_a_person_plays_the_reference_bot_a_whole_match(live_server_url, new_page, alice, bob):
    services.player_bot_set(user=alice)
    _row, token = services.api_token_create(user=alice, name="bot", scopes=["read", "play"])
    bot = subprocess.Popen(
        [sys.executable, str(ROOT / "clients" / "python" / "euchre_bot.py"),
         "--url", live_server_url],
        env={"EUCHRE_TOKEN": token, "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    try:
        page = new_page(logged_in=bob)
        page.goto(live_server_url + "/users/alice/")
        assert page.locator("h1 [data-bot]").inner_text() == "BOT"
        page.click("[data-action=challenge]")
        page.select_option("#id_challenge-target", "5")
        page.select_option("#id_challenge-move_seconds", "")
        page.click("[data-action=send-challenge]")
        page.wait_for_selector("#board .scorebox", timeout=20_000)  # the bot accepted
        assert page.locator("#board [data-bot]").count() >= 1
        # The bot follows the match on its stream: at the table, as a person's open page is.
        expect(page.locator("#board [data-presence]")).to_have_attribute(
            "data-presence", "here", timeout=10_000
        )
        deadline = time.monotonic() + 180
        while page.locator("#board[data-match-over]").count() == 0:
            assert time.monotonic() < deadline, "the match did not end in three minutes"
            # One read of the board: the bot answers so fast that two reads may see two boards.
            version, my_turn = page.evaluate(BOARD)
            if my_turn:
                for kind in PREFERRED:
                    button = page.locator(
                        f"#board[data-version='{version}'] button[data-action={kind}]"
                    )
                    if button.count():
                        button.first.click()
                        break
            page.wait_for_function(MOVED_ON, arg=version, timeout=10_000)
        page.wait_for_selector("[data-result]", state="visible")  # after the last trick's beat
        shot(page, "match-against-a-bot")
    finally:
        bot.terminate()
        bot.wait(timeout=10)
    match = Match.objects.get()
    assert match.status == MatchStatus.FINISHED and match.end_reason == "played_out"
