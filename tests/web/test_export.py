"""The replay page's "Download the record": the same record as the API's export, as a JSON
or a text file, to whoever may see the replay, and only once the match is over."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.engine import state_to_json
from games.engine.serialize import record_from_text, record_state
from tests.support.api import program, token_for
from tests.support.matches import play_to_the_end, resign, start

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_replay_links_to_both_files_of_the_record(alice, bob, carol):
    match = play_to_the_end(start(alice, bob, target=3), seed=1)
    page = logged_in(carol).get(f"/matches/{match.pk}/replay").content.decode()
    assert f'href="/matches/{match.pk}/record.json" download' in page
    assert f'href="/matches/{match.pk}/record.txt" download' in page
    assert "Download the record (JSON)" in page and "Download the record (text)" in page


def download(user, match, extension: str, content_type: str) -> bytes:
    """The record's file as ``user`` downloads it from the replay page's link."""
    response = logged_in(user).get(f"/matches/{match.pk}/record.{extension}")
    assert response.status_code == 200 and response["Content-Type"] == content_type
    disposition = f'attachment; filename="euchre-match-{match.pk}.{extension}"'
    assert response["Content-Disposition"] == disposition
    return response.content


def test_the_json_file_is_the_apis_record_as_an_attachment(alice, bob, carol):
    match = play_to_the_end(start(alice, bob, target=3), seed=2)
    record = json.loads(download(carol, match, "json", "application/json"))
    api = program(token_for(carol, scopes=("read",)))
    assert record == api.get(f"/api/v1/matches/{match.pk}/export").json()
    assert state_to_json(record_state(record)) == match.snapshot


def test_the_text_file_reads_back_and_replays_to_the_end(alice, bob):
    match = play_to_the_end(start(alice, bob, target=3), seed=3)
    read = record_from_text(download(bob, match, "txt", "text/plain; charset=utf-8").decode())
    assert read["match_id"] == match.pk and read["seed"] == match.seed
    assert state_to_json(record_state(read)) == match.snapshot


def test_no_record_while_the_match_is_played_nor_to_whom_it_is_closed(alice, bob, carol):
    match = start(alice, bob, spectators_allowed=False)
    for extension in ("json", "txt"):
        url = f"/matches/{match.pk}/record.{extension}"
        playing = logged_in(alice).get(url)
        assert playing.status_code == 409 and "when it is over" in playing.content.decode()
        assert match.seed not in playing.content.decode()
        assert logged_in(carol).get(url).status_code == 403
        assert Client().get(url).status_code == 302  # to the log-in page, as the replay
        assert (
            logged_in(carol).get(f"/matches/{match.pk + 1}/record.{extension}").status_code == 404
        )
    match = resign(alice, match)
    read = record_from_text(
        logged_in(carol).get(f"/matches/{match.pk}/record.txt").content.decode()
    )
    assert read["result"]["end_reason"] == "resigned" and read["result"]["winner"] == 1
