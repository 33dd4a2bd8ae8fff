"""What one player may have at once, and how often: open matches, computer matches in play,
reports. Each refusal says why in words and changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import Match, MatchStatus, Report
from tests.support.matches import start

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_player_may_have_a_few_open_matches_and_no_more(alice, settings):
    settings.OPEN_MATCHES_PER_PLAYER = 3
    client = client_of(alice)
    form = {"deck": 24, "target": 10, "move_seconds": 60, "rated": "on"}
    for _ in range(3):
        assert client.post("/play/create", form).status_code == 302
    refused = client.post("/play/create", form)
    assert refused.status_code == 409
    assert "You already have 3 open matches waiting for an opponent" in refused.content.decode()
    assert Match.objects.filter(player0=alice, status=MatchStatus.OPEN).count() == 3
    services.match_abort(user=alice, match_id=Match.objects.filter(player0=alice).first().pk)
    assert client.post("/play/create", form).status_code == 302  # one freed: one more


def test_a_player_may_have_two_computer_matches_in_play_and_no_more(alice, settings):
    settings.COMPUTER_MATCHES_PER_PLAYER = 2
    client = client_of(alice)
    form = {"computer-strength": "easy", "computer-deck": 24, "computer-target": 10}
    for _ in range(2):
        assert client.post("/play/computer", form).status_code == 302
    refused = client.post("/play/computer", form)
    assert refused.status_code == 409
    assert "You already have 2 matches in play against the computer" in refused.content.decode()
    assert Match.objects.filter(player0=alice).exclude(computer="").count() == 2
    services.match_resign(user=alice, match_id=Match.objects.filter(player0=alice).first().pk)
    assert client.post("/play/computer", form).status_code == 302


def report(client, match):
    return client.post(f"/matches/{match.pk}/report", {"reason": "abuse", "details": "rude"})


def test_a_second_open_report_on_the_same_match_is_refused(alice, bob):
    match = start(alice, bob)
    client = client_of(alice)
    assert report(client, match).status_code == 302
    again = report(client, match)
    assert again.status_code == 409
    assert "You have already reported this match" in again.content.decode()
    assert Report.objects.count() == 1
    assert report(client_of(bob), match).status_code == 302  # the other player may


def test_reports_are_limited_per_player_per_hour(alice, django_user_model, settings):
    settings.REPORTS_PER_HOUR = 3
    client = client_of(alice)
    for number in range(3):
        opponent = django_user_model.objects.create_user(f"opponent{number}")
        assert report(client, start(alice, opponent)).status_code == 302
    refused = report(client, start(alice, django_user_model.objects.create_user("one_more")))
    assert refused.status_code == 429
    assert "You have sent 3 reports in the last hour" in refused.content.decode()
    assert Report.objects.count() == 3
