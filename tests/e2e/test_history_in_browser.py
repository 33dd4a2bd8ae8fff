"""The match history on a phone: every row's result, score, rating change and replay link in
view without scrolling sideways, the score on one line, in a language whose words are long."""

from __future__ import annotations

import pytest

from games.models import PlayerSettings
from tests.support.browser import shot
from tests.support.matches import play_to_the_end, start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("code", ["my", "en"])
def test_the_history_on_a_phone_shows_each_rows_rating_and_replay(
    live_server_url, new_page, alice, bob, code
):
    PlayerSettings.objects.update_or_create(user=alice, defaults={"language": code})
    for seed in (1, 2):
        play_to_the_end(start(alice, bob, target=5), seed=seed)
    page = new_page(width=375, height=667, logged_in=alice)
    page.goto(f"{live_server_url}/history/")
    page.wait_for_selector("[data-history] tr[data-match]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    rows = page.locator("[data-history] tr[data-match]")
    assert rows.count() == 2
    for n in range(rows.count()):
        row = rows.nth(n)
        for cell in ("td.score", "td.replay-link a", "td[data-label]:nth-child(5)"):
            box = row.locator(cell).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375, (cell, box)
        score = row.locator("td.score")
        # One line: the score's text box is no taller than one line of it.
        height = score.evaluate(
            "td => { const r = document.createRange(); r.selectNodeContents(td.lastChild);"
            " return r.getClientRects().length; }"
        )
        assert height == 1
    shot(page, f"history-phone-{code}")
