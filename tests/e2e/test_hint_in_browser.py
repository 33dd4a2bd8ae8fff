"""The Hint button of a casual match against the computer answers on the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_hint_button_shows_the_computers_choice_and_why(live_server_url, new_page, alice):
    match = services.match_create_computer(user=alice, strength="hard")
    page = new_page(logged_in=alice)
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    # The computer may move first (its task, a beat later): then the button comes with the
    # push. A board pushed meanwhile (the socket's first, the computer's move) replaces the
    # answer, and a click that raced the computer's move is refused: ask again, as a player
    # would, until the answer stays long enough to be read.
    answer = ""
    for _ in range(10):
        try:
            page.click("#board [data-action=hint]", timeout=15_000)
            page.wait_for_selector("#hint [data-hint-why]", timeout=8_000)  # slow under load
            answer = page.locator("#hint [data-hint-action]").inner_text(timeout=1_000)
            break
        except PlaywrightTimeout:
            continue
    assert answer.startswith("Hint:"), answer
