"""A native speaker corrects a word on the site: from the page it is on, through the footer's
"Improve this translation"; a moderator accepts it in the admin, and the page says it anew."""

from __future__ import annotations

import shutil

import pytest
from django.conf import settings

from games.models import TranslationSuggestion
from tests.support.browser import ROOT
from tests.support.servers import Server, server_env

pytestmark = pytest.mark.django_db(transaction=True)

BETTER = "Kala sarreynta ciyaartoyda"


def test_a_players_wording_accepted_by_a_moderator_is_on_the_page(
    new_page, alice, moderators_group, django_user_model, tmp_path
):
    # The server writes an accepted suggestion into its catalogues: a copy of the project's.
    shutil.copytree(ROOT / "locale", tmp_path / "locale")
    server = Server(server_env(LOCALE_PATH=str(tmp_path / "locale"))).start()
    try:
        moderator = django_user_model.objects.create_user("mod", password="x", is_staff=True)
        moderator.groups.add(moderators_group)
        page = new_page(width=390, height=844, logged_in=alice)
        page.context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "so", "domain": "127.0.0.1",
              "path": "/"}]
        )  # fmt: skip
        page.goto(f"{server.url}/leaderboard/")
        heading = page.locator("h1").inner_text()
        assert heading != BETTER
        page.click("[data-improve-form] button")
        page.wait_for_selector("[data-came-from]")
        item = page.locator(
            "[data-message]", has=page.locator("[data-msgid]", has_text="Leaderboard")
        )
        item = item.filter(has=page.locator("[data-msgstr]", has_text=heading)).first
        box = item.locator("textarea[name=text]")
        assert box.input_value() == heading  # open, ready to type in, with today's wording
        box.fill(BETTER)
        item.locator("input[name=note]").fill("Liiska ciyaartoyda ayaa la kala sarreeyaa")
        item.locator("input[name=credit]").check()
        item.locator("[data-action=suggest]").click()
        page.wait_for_selector("[data-suggestion-sent]")
        assert page.locator("[data-waiting]").count() == 1
        assert TranslationSuggestion.objects.get().text == BETTER

        admin = new_page(logged_in=moderator)
        admin.goto(f"{server.url}/admin/games/translationsuggestion/")
        assert BETTER in admin.locator("#result_list").inner_text()
        admin.check("input.action-select")
        admin.select_option("select[name=action]", "accept_suggestions")
        admin.click("button[name=index]")
        admin.wait_for_selector(".messagelist")
        assert "Accepted, and written into the catalogue: 1." in admin.inner_text(".messagelist")

        page.goto(f"{server.url}/leaderboard/")
        assert page.locator("h1").inner_text() == BETTER
        page.goto(f"{server.url}/translate/thanks/")
        assert "alice" in page.locator("[data-credits]").inner_text()
    finally:
        server.stop()
    assert (ROOT / "locale" / "so" / "LC_MESSAGES" / "django.po").read_text().count(BETTER) == 0
