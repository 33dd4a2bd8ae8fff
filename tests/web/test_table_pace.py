"""The table pace on the settings page: stored, read back by the match page (its stages for
table.js), and a choice that is not offered refused with words."""

from __future__ import annotations

import json
import re

import pytest

from games import services
from games.models import PlayerSettings, TablePace

pytestmark = pytest.mark.django_db


def test_quick_is_the_default_and_relaxed_is_kept_with_the_forced_card(alice, alice_page):
    page = alice_page.get("/settings/").content.decode()
    assert re.search(r'value="quick"[^>]*checked', page)
    answer = alice_page.post("/settings/pace", {"pace": "relaxed", "forced_card": "on"})
    assert answer.status_code == 302 and answer["Location"] == "/settings/"
    row = PlayerSettings.objects.get(user=alice)
    assert (row.table_pace, row.forced_card) == (TablePace.RELAXED, True)
    assert re.search(r'value="relaxed"[^>]*checked', alice_page.get("/settings/").content.decode())


def test_the_match_page_carries_the_players_pace_and_every_paces_stages(alice, alice_page):
    services.player_table_pace_set(user=alice, pace=TablePace.RELAXED, forced_card=True)
    match = services.match_create_computer(user=alice, strength="easy")
    page = alice_page.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-pace="relaxed" data-forced-card' in page
    paces = json.loads(re.search(r'id="table-paces"[^>]*>(.*?)</script>', page).group(1))
    assert set(paces) == {"quick", "relaxed"}
    assert paces["relaxed"]["summary"] > paces["quick"]["summary"] == 0


def test_a_pace_not_offered_is_refused_with_words(alice, alice_page):
    answer = alice_page.post("/settings/pace", {"pace": "instant"})
    assert answer.status_code == 400
    assert "Select a valid choice" in answer.content.decode()
    assert not PlayerSettings.objects.filter(user=alice, table_pace="instant").exists()
