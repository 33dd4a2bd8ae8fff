"""Report on a player's profile: the match's report form, sent without a match, to the
moderators' queue in the admin; refused in words for oneself, a guest, twice, or too often."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from games.models import Report
from tests.support.second_factors import log_in

pytestmark = pytest.mark.django_db


def browser(user) -> Client:
    client = Client()
    log_in(client, user)
    return client


def words(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def moderator(django_user_model, moderators_group):
    user = django_user_model.objects.create_user("mod", password="Moderate-me-1", is_staff=True)
    user.groups.add(moderators_group)
    return user


def test_a_player_reports_another_from_their_profile_to_the_moderators_queue(alice, bob, moderator):
    bob_browser = browser(bob)
    profile = words(bob_browser.get("/users/alice/"))
    assert "Report alice" in profile and 'action="/users/alice/report"' in profile
    sent = bob_browser.post(
        "/users/alice/report",
        {"reason": "abuse", "details": "Insults in a challenge's name", "back": "/users/alice/"},
        follow=True,
    )
    assert sent.redirect_chain == [("/users/alice/", 302)]
    assert "Thank you: a moderator will look at your report." in words(sent)
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.match, report.reason) == (
        bob, alice, None, "abuse",
    )  # fmt: skip
    queue = words(browser(moderator).get("/admin/games/report/?status__exact=open"))
    assert "Insults" not in queue  # details are on the report's own page
    assert f"/admin/games/report/{report.pk}/change/" in queue and "from the profile" in queue
    page = words(browser(moderator).get(f"/admin/games/report/{report.pk}/change/"))
    assert "Insults in a challenge's name" in page


def test_ones_own_profile_offers_no_report_and_a_report_of_oneself_is_refused_in_words(alice):
    client = browser(alice)
    assert 'action="/users/alice/report"' not in client.get("/users/alice/").content.decode()
    refused = client.post("/users/alice/report", {"reason": "abuse"})
    assert refused.status_code == 400
    assert "You cannot report yourself" in words(refused)
    assert not Report.objects.exists()


def test_a_guest_is_told_to_sign_up_to_report(alice):
    guest = Client()
    guest.post("/accounts/guest/")
    refused = guest.post("/users/alice/report", {"reason": "abuse"})
    assert refused.status_code == 403
    assert "Guests cannot send reports: sign up to report a player" in words(refused)
    assert not Report.objects.exists()


def test_the_computer_cannot_be_reported_and_a_bad_reason_is_refused(alice, django_user_model):
    django_user_model.objects.create_user("computer-easy")
    client = browser(alice)
    assert "Report computer-easy" not in client.get("/users/computer-easy/").content.decode()
    refused = client.post("/users/computer-easy/report", {"reason": "abuse"})
    assert refused.status_code == 403 and "nobody to report" in words(refused)
    bad = client.post("/users/computer-easy/report", {"reason": "boring"})
    assert bad.status_code == 400 and "Choose a reason from the list" in words(bad)


def test_one_open_report_about_a_player_and_a_few_an_hour(alice, bob, carol, settings):
    settings.REPORTS_PER_HOUR = 2
    client = browser(alice)
    assert client.post("/users/bob/report", {"reason": "abuse"}).status_code == 302
    again = client.post("/users/bob/report", {"reason": "other"})
    assert again.status_code == 409
    assert "You have already reported bob: a moderator will look at that report" in words(again)
    assert client.post("/users/carol/report", {"reason": "stalling"}).status_code == 302
    dave = type(alice).objects.create_user("dave")
    too_often = client.post(f"/users/{dave.username}/report", {"reason": "abuse"})
    assert too_often.status_code == 429
    assert "You have sent 2 reports in the last hour: send the next one later" in words(too_often)
    assert Report.objects.count() == 2
