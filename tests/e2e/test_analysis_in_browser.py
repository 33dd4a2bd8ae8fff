"""A finished match's end screen links to its analysis once the worker has stored it, and the
replay shows the analysis beside each step."""

from __future__ import annotations

import pytest

from games.models import MatchAnalysis
from tests.support.browser import ROOT, TAKE_SCREENSHOTS, analysed
from tests.support.matches import play_to_the_end, start

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_replay_shows_the_analysis_after_the_worker_has_run(
    live_server_url, new_page, alice, bob
):
    match = play_to_the_end(start(alice, bob, target=3, rated=False), seed=2)
    page = new_page(logged_in=alice)
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    page.wait_for_selector("[data-result]")
    # "Analysis ready" arrives by itself (pushed when the worker stores it), no reload.
    page.click("[data-analysis-ready]", timeout=120_000)  # a failure guard: seconds of search
    page.wait_for_selector("[data-analysis]")
    assert MatchAnalysis.objects.filter(match=match).exists()
    assert page.locator("[data-accuracy] tbody tr").count() == 2
    # The first bid weighed at its own position, before it was made (step 0).
    page.wait_for_selector("#replay[data-step='0'] [data-analysis-options] [data-chosen]")
    moments = page.locator("[data-key-moments] a")
    if moments.count():
        # The moment's step, so the wait below is for the page its click brings, not the one
        # already shown (clicking the toggle while that swap is in flight lost the click in CI).
        step = moments.first.get_attribute("href").split("step=")[1].split("&")[0]
        moments.first.click()
        page.wait_for_selector(f"#replay[data-step='{step}'] [data-analysis-move][data-flag]")
        page.wait_for_function("!document.querySelector('.htmx-request')")
    page.click("[data-analysis-toggle]")
    page.wait_for_selector("[data-analysis]", state="detached")
    assert page.locator("[data-analysis-toggle]").inner_text() == "Analysis"


SHOTS = ROOT / "artifacts" / "screenshots" / "analysis"


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_a_key_moment_shows_its_reason_its_best_lines_and_the_chances_graph(
    live_server_url, new_page, alice, bob, size
):
    match = play_to_the_end(start(alice, bob, target=5, rated=False), seed=4)
    page = new_page(*size, logged_in=alice)
    analysed(page, live_server_url, match)
    stored = MatchAnalysis.objects.get(match=match).result
    page.goto(f"{live_server_url}/matches/{match.pk}/replay?analysis=1")
    # The worst moment, from the key moments' list: the step before its move.
    worst = page.locator("[data-key-moments] a").first
    step = int(worst.get_attribute("href").split("step=")[1].split("&")[0])
    decision = next(d for d in stored["decisions"] if d["index"] == step)
    worst.click()
    page.wait_for_selector(f"#replay[data-step='{step}'] [data-analysis-move][data-flag]")
    assert page.locator("#replay").get_attribute("data-step") == str(step)
    assert page.locator("[data-analysis-reason]").inner_text().startswith("Better: ")
    lines = page.locator("[data-line]")
    assert lines.count() == 2
    first = lines.first
    moves = first.locator("[data-line-moves] > li")
    assert moves.count() == len(decision["lines"][0]["moves"])
    # Step through the best line: one move at a time, the rest faded, each read out.
    now = first.locator("[data-line-now]")
    assert now.inner_text().startswith(f"1/{moves.count()}: ")
    assert first.locator("[data-line-back]").is_disabled()
    first.locator("[data-line-next]").click()
    assert now.inner_text().startswith(f"2/{moves.count()}: ")
    assert "now" in (moves.nth(1).get_attribute("class") or "")
    assert "now" not in (moves.first.get_attribute("class") or "")
    for later in range(2, moves.count()):  # the rest of the line still to come, faded
        assert "later" in (moves.nth(later).get_attribute("class") or "")
    seat, text = decision["lines"][0]["moves"][1]
    if text.startswith("play:"):
        assert moves.nth(1).locator("[data-card]").get_attribute("data-card") == text[5:]
    # The graph of alice's chances, and the same in words.
    graph = page.locator("[data-chance-graph]")
    graph.scroll_into_view_if_needed()
    assert graph.is_visible()
    assert graph.get_attribute("aria-label").startswith("Chance to win for alice")
    page.locator(".chances-table summary").click()
    rows = page.locator("[data-chances] tbody tr")
    assert rows.count() == len(stored["hands"])
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    if TAKE_SCREENSHOTS:  # the analysis panel alone (SCREENSHOTS=1, as for every shot)
        SHOTS.mkdir(parents=True, exist_ok=True)
        name = "desktop" if size[0] > 600 else "phone"
        page.locator("[data-analysis]").screenshot(path=str(SHOTS / f"key-moment-{name}.png"))
