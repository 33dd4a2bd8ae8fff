"""A finished match's end screen links to its analysis once the worker has stored it, and the
replay shows the analysis beside each step."""

from __future__ import annotations

import pytest

from games.models import MatchAnalysis
from tests.matches import play_to_the_end, start

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_replay_shows_the_analysis_after_the_worker_has_run(
    live_server_url, new_page, alice, bob
):
    match = play_to_the_end(start(alice, bob, target=3, rated=False), seed=2)
    page = new_page(logged_in=alice)
    page.goto(f"{live_server_url}/matches/{match.pk}/")
    page.wait_for_selector("[data-result]")
    # "Analysis ready" arrives by itself (pushed when the worker stores it), no reload.
    page.click("[data-analysis-ready]", timeout=60_000)
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
