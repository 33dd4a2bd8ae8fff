"""A whole match in two browsers (one at a phone's width), every move clicked: at the end each
move log holds the last hand's actions, all of them, in order, and nothing of an earlier hand;
and the end screen, once shown, never leaves the page, not even when a rematch is offered at
once and declined (the boards sent again then must not replay the last trick's beat)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import expect

from games import services
from games.engine import view_for
from games.models import Match, MatchStatus
from tests.support.browser import act_in_turn
from tests.support.matches import start

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.engines]

# From the page's first board on: whether the result has been seen, and every frame after
# that in which it was not (or the last trick was back on the felt).
WATCH = """() => {
  window.watched = {shown: false, lost: 0, trickBack: 0};
  (function look() {
    var result = document.querySelector("#board [data-result]");
    var trick = document.querySelector("#board [data-trick-pause]");
    var seen = !!result && result.checkVisibility({visibilityProperty: true});
    if (seen) window.watched.shown = true;
    else if (window.watched.shown) window.watched.lost += 1;
    var trickOn = !!trick && trick.checkVisibility({visibilityProperty: true}) &&
      !trick.classList.contains("collected");
    if (window.watched.shown && trickOn) window.watched.trickBack += 1;
    requestAnimationFrame(look);
  })();
}"""


# Nothing on the felt is moving: the last trick's beat (and any a board sent again would
# start as it is swapped in) has run its course.
STILL = """() => !document.querySelector("#board .felt").getAnimations({subtree: true})
  .some(a => a.playState === "running")"""


def log_keys(page) -> list[str]:
    return page.eval_on_selector_all(
        "#move-log li[data-key]", "lines => lines.map(l => l.dataset.key)"
    )


def test_a_whole_match_ends_on_its_last_hand_and_its_end_screen_stays(
    live_server_url, new_page, alice, bob
):
    match = start(alice, bob, target=3, move_seconds=None)
    pages = {alice: new_page(logged_in=alice), bob: new_page(width=375, height=800, logged_in=bob)}
    for page in pages.values():
        page.goto(f"{live_server_url}/matches/{match.pk}/")
        page.wait_for_selector("#board .scorebox")
        page.evaluate(WATCH)
    b = pages[bob]
    while Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE:
        act_in_turn({user.username: page for user, page in pages.items()}, match.pk)
    # The winner offers a rematch at once, during the last trick's beat; the other declines
    # it as soon as the button shows.
    match.refresh_from_db()
    with ThreadPoolExecutor(1) as pool:  # off the thread where Playwright runs its loop
        pool.submit(services.rematch_offer, user=match.winner, match_id=match.pk).result()
    winner, loser = (
        (pages[alice], pages[bob]) if match.winner == alice else (pages[bob], pages[alice])
    )
    loser.click("[data-action=decline-rematch]")
    winner.wait_for_selector("[data-rematch-declined]")
    expect(loser.locator("[data-action=accept-rematch]")).to_have_count(0)
    for page in pages.values():  # every beat is over, the boards sent again included
        page.wait_for_function(STILL)

    match.refresh_from_db()
    state = match.state
    last = state.results[-1].number
    for user, page in pages.items():
        watched = page.evaluate("window.watched")
        assert watched["shown"] and watched["lost"] == 0, watched
        assert watched["trickBack"] == 0, watched
        expected = [e for e in view_for(state, match.seat_of(user)).log if e.hand == last]
        keys = log_keys(page)  # the earlier hands' lines stay above the last one's
        assert keys[-len(expected) :] == [f"{last}-{n}" for n in range(1, len(expected) + 1)]
        assert keys[0] == "0-1" and len(set(keys)) == len(keys)  # from the first hand on
        assert page.locator("#move-log li").last.inner_text().strip()  # the hand's result
    assert b.evaluate("document.documentElement.scrollWidth") <= 375
