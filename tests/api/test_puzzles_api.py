"""Puzzles through the API: the next one for the account, and its answer (once)."""

from __future__ import annotations

import pytest

from games.models import Puzzle, PuzzleRating
from tests.support.api import program, token_for
from tests.support.matches import play_to_the_end, start
from tests.support.tasks import run_due_tasks

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_program_gets_the_next_puzzle_and_answers_it_once(alice, bob, carol):
    play_to_the_end(start(alice, bob, target=5, rated=False), seed=3)
    run_due_tasks()
    client = program(token_for(carol))
    found = client.get("/api/v1/puzzles/next")
    assert found.status_code == 200
    body = found.json()
    puzzle = Puzzle.objects.get(pk=body["id"])
    assert body["seat"] == puzzle.seat and body["view"]["seat"] == puzzle.seat
    assert sorted(body["options"]) == sorted(body["view"]["legal_actions"])
    assert "answer" not in body  # not before it is answered
    url = f"/api/v1/puzzles/{puzzle.pk}/answer"
    answered = client.post(url, {"action": puzzle.answer}, content_type="application/json")
    assert answered.status_code == 200
    result = answered.json()
    assert result["correct"] is True and result["answer"] == puzzle.answer
    assert result["rating"]["after"] > result["rating"]["before"] == 1500
    assert PuzzleRating.objects.get(user=carol).value == result["rating"]["after"]
    assert result["match_id"] is None  # its players did not let puzzles name them
    again = client.post(url, {"action": puzzle.answer}, content_type="application/json")
    assert again.status_code == 409 and again.json()["code"] == "puzzle_answered"
    wrong = client.post(
        "/api/v1/puzzles/999999/answer", {"action": "pass"}, content_type="application/json"
    )
    assert wrong.status_code == 404 and wrong.json()["detail"] == "There is no such puzzle"


def test_no_puzzle_left_and_a_bad_theme_are_refused_in_words(carol):
    client = program(token_for(carol))
    none = client.get("/api/v1/puzzles/next")
    assert none.status_code == 404 and none.json()["code"] == "no_puzzle_left"
    bad = client.get("/api/v1/puzzles/next?theme=nonsense")
    assert bad.status_code == 404 and bad.json()["code"] == "no_such_theme"
    read_only = program(token_for(carol, scopes=("read",), name="reader"))
    post = read_only.post(
        "/api/v1/puzzles/1/answer", {"action": "pass"}, content_type="application/json"
    )
    assert post.status_code in (401, 403)
