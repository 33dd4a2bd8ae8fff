"""The history dates each match to the minute, its time zone named; a voided match keeps its
replay (said to be voided), from the history as from its address."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.test import Client

from games import services
from games.models import Match, MatchAnalysis
from tests.support.matches import play_to_the_end, resign, start
from tests.support.tasks import run_due_tasks

VOIDED_WORDS = "A moderator voided this match: it does not count."


def client_for(user, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


def void(match: Match, django_user_model) -> Match:
    moderator = django_user_model.objects.create_user("mod", password="Moderate-me-1")
    return services.match_void(moderator=moderator, match_id=match.pk, reason="Seen in the logs")


def history_row(client: Client, match: Match) -> str:
    page = client.get("/history/").content.decode()
    return re.search(rf'<tr data-match="{match.pk}">(.*?)</tr>', page, re.S).group(1)


@pytest.mark.django_db
def test_the_history_shows_when_each_match_ended_to_the_minute(alice, bob):
    match = resign(
        bob, services.match_join(user=alice, match_id=services.match_create(user=bob).pk)
    )
    Match.objects.filter(pk=match.pk).update(finished_at=datetime(2026, 3, 14, 15, 9, tzinfo=UTC))
    row = history_row(client_for(alice), match)
    assert '<time datetime="2026-03-14T15:09:00+00:00">03/14/2026 3:09 p.m.&nbsp;UTC</time>' in row
    thai = history_row(client_for(alice, "th"), match)
    assert ">14 มี.ค. 2026, 15:09&nbsp;UTC</time>" in thai


@pytest.mark.django_db
def test_a_match_voided_in_play_keeps_its_replay_without_an_analysis(alice, bob, django_user_model):
    match = start(alice, bob, rated=True)
    for _ in range(3):
        match = play_one(match)
    match = void(match, django_user_model)
    row = history_row(client_for(alice), match)
    assert "data-voided" in row and f'href="/matches/{match.pk}/replay"' in row
    table = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/replay" data-replay' in table  # the end screen's link too
    answer = client_for(bob).get(f"/matches/{match.pk}/replay?step=2")
    page = answer.content.decode()
    assert answer.status_code == 200
    assert VOIDED_WORDS in page and 'data-step="2"' in page and 'data-steps="3"' in page
    # No analysis (a voided match has none to show): no toggle, nothing pending if asked.
    assert "data-analysis-toggle" not in page
    asked = client_for(bob).get(f"/matches/{match.pk}/replay?analysis=1").content.decode()
    assert "data-analysis" not in asked and VOIDED_WORDS in asked


@pytest.mark.django_db(transaction=True)
def test_a_finished_match_voided_later_keeps_its_replay_not_its_analysis(
    alice, bob, django_user_model
):
    match = play_to_the_end(start(alice, bob, target=3, rated=False), seed=3)
    run_due_tasks()  # its analysis
    assert MatchAnalysis.objects.filter(match=match).exists()
    void(match, django_user_model)
    row = history_row(client_for(alice), match)
    assert f'href="/matches/{match.pk}/replay"' in row
    page = client_for(alice).get(f"/matches/{match.pk}/replay?analysis=1").content.decode()
    assert VOIDED_WORDS in page and "data-summary" in page
    assert "data-analysis" not in page  # it no longer counts: neither toggle nor analysis


def play_one(match: Match) -> Match:
    from games.engine import legal_actions

    state = match.state
    return services.move_apply(
        user=match.players[state.turn], match_id=match.pk,
        action=str(legal_actions(state)[0]), version=match.version,
    ).match  # fmt: skip
