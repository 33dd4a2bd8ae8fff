"""The lobby's "Play the computer" and what it refuses."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match

pytestmark = pytest.mark.django_db


def test_the_lobby_offers_the_computer_at_three_strengths(client, alice):
    client.force_login(alice)
    page = client.get(reverse("lobby")).content.decode()
    assert "Play the computer" in page
    for words in ("Easy: plays any legal card", "Medium: plays by the rules of thumb", "Hard"):
        assert words in page
    assert "never change your rating" in page


def test_choosing_a_strength_starts_the_match_at_once(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("match_create_computer"),
        {"computer-strength": "hard", "computer-deck": "25", "computer-target": "7"},
        follow=True,
    )
    match = Match.objects.get()
    assert response.redirect_chain == [(reverse("match_detail", args=[match.pk]), 302)]
    page = response.content.decode()
    assert "Computer (hard)" in page and "Waiting for an opponent" not in page
    assert (match.deck, match.target, match.rated) == (25, 7, False)


def test_an_unknown_strength_gets_the_lobby_back_with_words_and_no_match(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("match_create_computer"),
        {"computer-strength": "grandmaster", "computer-deck": "24", "computer-target": "10"},
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not Match.objects.exists()


def test_playing_the_computer_needs_a_login(client):
    response = client.post(reverse("match_create_computer"), {"computer-strength": "easy"})
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert not Match.objects.exists()


def test_nobody_can_sign_up_under_a_computer_players_name(client):
    response = client.post(
        reverse("signup"),
        {"username": "Computer-Hard", "password1": "long pass 123", "password2": "long pass 123"},
    )
    assert response.status_code == 400
    assert "belong to the computer players" in response.content.decode()


def test_the_computer_is_always_at_the_table_and_cannot_be_reported(client, alice):
    from games import services
    from games.models import Report

    match = services.match_create_computer(user=alice, strength="easy")
    client.force_login(alice)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert 'data-presence="here"' in page
    assert "Report computer-easy" not in page
    response = client.post(reverse("match_report", args=[match.pk]), {"reason": "cheating"})
    assert response.status_code == 403
    assert "nobody to report" in response.content.decode()
    assert not Report.objects.exists()
