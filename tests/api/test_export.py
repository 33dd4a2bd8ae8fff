"""A match's record through the API (docs/EXPORT.md): refused while the match is played, and
once it is over a record the engine replays to the same end, whose seed verify accepts, in
JSON and in a text form that reads back."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.test import Client

from games import services
from games.engine import Rules, state_to_json
from games.engine.cards import card_codes
from games.engine.rules import deal
from games.engine.serialize import record, record_from_text, record_state, record_text
from games.models import Match, Move
from tests.support.api import program, token_for
from tests.support.matches import play_to_the_end, resign, start

pytestmark = pytest.mark.django_db


def export(client: Client, match: Match, **headers):
    return client.get(f"/api/v1/matches/{match.pk}/export", headers=headers)


def refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and body["detail"], body
    return body


@pytest.fixture
def carol_api(carol) -> Client:
    return program(token_for(carol, scopes=("read",)))


@pytest.fixture
def finished(alice, bob) -> Match:
    return play_to_the_end(start(alice, bob, target=5, stick_the_dealer=True), seed=3)


def test_a_finished_match_exports_every_action_and_replays_to_the_same_end(finished, carol_api):
    response = export(carol_api, finished)  # a spectator's read token is enough
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert "Accept" in response["Vary"]  # the text form is the same address's
    record = response.json()
    assert record["format"] == "euchre-record" and record["format_version"] == 1
    assert record["match_id"] == finished.pk
    assert [(p["seat"], p["username"], p["bot"]) for p in record["players"]] == [
        (0, "alice", False), (1, "bob", False),
    ]  # fmt: skip
    assert record["rules"] == finished.rules.as_dict() and record["rules"]["stick_the_dealer"]
    assert record["rated"] is True and record["move_seconds"] == finished.move_seconds
    assert record["seed"] == finished.seed
    assert record["started_at"] == finished.started_at.isoformat()
    assert record["ended_at"] == finished.finished_at.isoformat()
    winner = finished.players.index(finished.winner)
    assert record["result"] == {
        "status": "finished", "end_reason": "played_out", "winner": winner,
        "scores": list(finished.state.scores),
    }  # fmt: skip
    moves = Move.objects.filter(match=finished).order_by("seq")
    assert [(a["seq"], a["seat"], a["action"], a["version"]) for a in record["actions"]] == [
        (m.seq, m.seat, m.action, m.version) for m in moves
    ]
    assert len(record["actions"]) == finished.move_count
    replayed = record_state(record)
    assert state_to_json(replayed) == finished.snapshot
    assert replayed.is_over and replayed.winner == winner and max(replayed.scores) >= 5


def test_each_played_hand_is_told_as_a_self_play_transcript_line(finished, alice_api):
    record = export(alice_api, finished).json()
    final = record_state(record)
    assert [line["hand"] for line in record["hands"]] == [r.number for r in final.results]
    for line, result in zip(record["hands"], final.results, strict=True):
        dealt = deal(int(record["seed"]), result.number, record["rules"]["deck"])
        assert line["hands"] == [card_codes(dealt.hands[0]), card_codes(dealt.hands[1])]
        assert line["points"] == list(result.points) and line["match"] == finished.pk
        for trick in line["tricks"]:
            assert all(card in legal for _seat, card, legal in trick["plays"])
    assert record["hands"][-1]["score"] == record["result"]["scores"]


def test_verify_accepts_the_records_seed_and_deals_its_hands(finished, alice_api):
    record = export(alice_api, finished).json()
    command = [sys.executable, "-m", "games.engine.verify", "--seed", record["seed"],
               "--commitment", record["commitment"], "--deck", str(record["rules"]["deck"]),
               "--hands", str(len(record["hands"]))]  # fmt: skip
    checked = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
    for line, printed in zip(record["hands"], checked.stdout.splitlines()[1:], strict=True):
        assert printed.startswith(f"hand {line['hand']}: seat 0 {' '.join(line['hands'][0])} |")
    command[4] = str(int(record["seed"]) + 1)  # any other seed is refused
    assert subprocess.run(command, capture_output=True, timeout=60).returncode == 1


def test_the_text_form_by_query_or_accept_header_reads_back_as_the_record(finished, alice_api):
    record = export(alice_api, finished).json()
    response = alice_api.get(f"/api/v1/matches/{finished.pk}/export?format=text")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert "Accept" in [v.strip() for v in response["Vary"].split(",")]
    text = response.content.decode()
    assert export(alice_api, finished, accept="text/plain").content.decode() == text
    json_anyway = alice_api.get(
        f"/api/v1/matches/{finished.pk}/export?format=json", headers={"accept": "text/plain"}
    )
    assert json_anyway.json() == record
    lines = text.splitlines()
    assert lines[0] == '[Format "euchre-record 1"]' and f'[Seed "{finished.seed}"]' in lines
    assert lines[lines.index("") + 1].startswith("1. ")
    assert lines[-1].endswith("}")  # the last hand's summary: the match was played out
    read = record_from_text(text)
    assert read["actions"] == [{**a, "version": None} for a in record["actions"]]
    for key in ("match_id", "rules", "rated", "move_seconds", "seed", "commitment",
                "started_at", "ended_at", "result"):  # fmt: skip
        assert read[key] == record[key], key
    assert [p["username"] for p in read["players"]] == ["alice", "bob"]
    assert state_to_json(record_state(read)) == finished.snapshot


def test_a_match_open_or_in_play_is_refused_and_shows_no_seed(alice, bob, alice_api, bob_api):
    waiting = services.match_create(user=alice)
    body = refused(export(alice_api, waiting), 409, "not_over")
    assert "over" in body["detail"] and waiting.seed not in str(body)
    playing = start(alice, bob)
    for client in (alice_api, bob_api):
        body = refused(export(client, playing), 409, "not_over")
        assert playing.seed not in str(body)
    refused(export(alice_api, playing, accept="text/plain"), 409, "not_over")


def test_a_resigned_match_exports_the_hand_it_ended_in(alice, bob, alice_api):
    match = resign(alice, start(alice, bob))
    record = export(alice_api, match).json()
    assert record["result"]["end_reason"] == "resigned" and record["result"]["winner"] == 1
    assert record["actions"] and record["hands"] == []  # no hand was played out
    assert state_to_json(record_state(record)) == Match.objects.get(pk=match.pk).snapshot
    text = export(alice_api, match, accept="text/plain").content.decode()
    assert text.splitlines()[-1].startswith("1. ") and not text.endswith("}\n")


def test_a_match_called_off_before_anyone_joined_exports_an_empty_seat(alice, alice_api):
    match = services.match_abort(user=alice, match_id=services.match_create(user=alice).pk)
    record = export(alice_api, match).json()
    assert record["players"][1] == {"seat": 1, "id": None, "username": None, "bot": False}
    assert record["result"] == {"status": "aborted", "end_reason": "aborted", "winner": None,
                                "scores": [0, 0]}  # fmt: skip
    assert record["actions"] == [] and record["started_at"] is None
    read = record_from_text(export(alice_api, match, accept="text/plain").content.decode())
    assert read["players"][1]["username"] is None and read["actions"] == []


def test_watchers_are_refused_while_the_players_keep_it_closed(alice, bob, carol_api):
    match = start(alice, bob, spectators_allowed=False)
    refused(export(carol_api, match), 403, "not_open_to_watch")
    match = resign(bob, match)
    assert export(carol_api, match).json()["result"]["winner"] == 0


def test_the_export_needs_a_read_token_and_a_match_and_a_format_it_knows(alice, finished):
    url = f"/api/v1/matches/{finished.pk}/export"
    refused(Client().get(url), 401, "unauthorized")
    refused(program(token_for(alice, scopes=("play",))).get(url), 403, "scope_missing")
    reader = program(token_for(alice, scopes=("read",)))
    refused(reader.get("/api/v1/matches/999999/export"), 404, "no_such_match")
    refused(reader.get(url + "?format=pgn"), 400, "invalid")
    assert reader.get(url).status_code == 200


def test_the_schema_documents_the_record_the_text_form_and_the_refusal(alice_api):
    schema = Client().get("/api/v1/openapi.json").json()
    operation = schema["paths"]["/api/v1/matches/{match_id}/export"]["get"]
    assert set(operation["responses"]["200"]["content"]) == {"application/json", "text/plain"}
    assert "409" in operation["responses"]
    [format_] = [p for p in operation["parameters"] if p["name"] == "format"]
    assert "text" in str(format_["schema"])


def test_the_text_reader_says_what_is_wrong_and_where():
    with pytest.raises(ValueError, match="starts with"):
        record_from_text("1. 0:pass\n")
    with pytest.raises(ValueError, match="lacks the tags Seed"):
        record_from_text('[Format "euchre-record 1"]\n[Deck "24"]\n')
    header = (
        '[Format "euchre-record 1"]\n[Seed "7"]\n[Deck "24"]\n[Target "10"]\n'
        '[StickTheDealer "no"]\n[DealerMustTakeUp "no"]\n\n'
    )
    assert record_from_text(header + "1. 0:pass 1:pass {a comment} ")["actions"][1] == {
        "seq": 2, "seat": 1, "action": "pass", "version": None,
    }  # fmt: skip
    with pytest.raises(ValueError, match="line 8: 'play:XX' is not an action"):
        record_from_text(header + "1. 0:play:XX\n")
    with pytest.raises(ValueError, match="line 8: '2:pass' is not seat:action"):
        record_from_text(header + "1. 2:pass\n")
    with pytest.raises(ValueError, match="line 8: hand 2 comes next, not 3."):
        record_from_text(header + "1. 0:pass 3. 1:pass\n")
    with pytest.raises(ValueError, match="StickTheDealer cannot be 'maybe'"):
        record_from_text(header.replace('"no"', '"maybe"', 1))
    with pytest.raises(ValueError, match="this reader knows 1"):
        record_from_text(header.replace("record 1", "record 2"))


def test_a_tag_value_keeps_its_quotes_and_backslashes():
    name = 'a "b" \\ c'
    written = record(
        match_id=1, players=[{"username": name}, {"username": "d"}], rules=Rules(), rated=False,
        move_seconds=None, seed=7, started_at=None, ended_at=None, status="aborted",
        end_reason="aborted", winner=None, actions=[],
    )  # fmt: skip
    text = record_text(written)
    assert '[Seat0 "a \\"b\\" \\\\ c"]' in text and '[Winner ""]' in text
    read = record_from_text(text)
    assert read["players"][0]["username"] == name and read["result"]["winner"] is None
