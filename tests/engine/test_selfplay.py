"""The self-play transcript: a fixed interface that others check the engine through."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stdout

import pytest

from games.bots import selfplay as bots_selfplay
from games.engine import selfplay

KEYS = {
    "match",
    "hand",
    "rules",
    "dealer",
    "hands",
    "upcard",
    "stock",
    "bidding",
    "discard",
    "trump",
    "maker",
    "tricks",
    "points",
    "score",
    "winner",
}
RANKS = "789TJQKA"
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}


def run(*args: str) -> list[dict]:
    """The engine's command line, or the bots' one when a ``--policy`` is asked for."""
    command = bots_selfplay.main if "--policy" in args else selfplay.main
    out = io.StringIO()
    with redirect_stdout(out):
        assert command(list(args)) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def effective_suit(card: str, trump: str) -> str:
    """Written again from docs/RULES.md, independently of the engine, to check its transcript."""
    if card == "JK":
        return trump
    if card[0] == "J" and card[1] == SAME_COLOUR[trump]:
        return trump
    return card[1]


def power(card: str, trump: str, led: str) -> int:
    suit = effective_suit(card, trump)
    if suit == trump:
        if card == "JK":
            return 300
        if card[0] == "J":
            return 290 if card[1] == trump else 280
        return 200 + RANKS.index(card[0])
    return 100 + RANKS.index(card[0]) if suit == led else 0


def check_hand(line: dict) -> None:
    deck = line["rules"]["deck"]
    cards = line["hands"][0] + line["hands"][1] + [line["upcard"]] + line["stock"]
    assert len(cards) == len(set(cards)) == deck
    assert len(line["hands"][0]) == len(line["hands"][1]) == 5
    trump = line["trump"]
    if trump is None:
        assert line["tricks"] == [] and line["points"] == [0, 0] and line["maker"] is None
        calls = [call for _, call in line["bidding"]]
        assert calls[-4:] == ["pass"] * 4
        return
    held = [set(line["hands"][0]), set(line["hands"][1])]
    dealer = line["dealer"]
    calls = [call for _, call in line["bidding"]]
    if "take_up" in calls or "accept" in calls:
        held[dealer].add(line["upcard"])
        assert line["discard"] in held[dealer]
        held[dealer].discard(line["discard"])
    else:
        assert line["discard"] is None
    won = [0, 0]
    leader = dealer ^ 1
    for trick in line["tricks"]:
        assert trick["leader"] == leader
        (s1, c1, legal1), (s2, c2, legal2) = trick["plays"]
        assert (s1, s2) == (leader, leader ^ 1)
        assert legal1 == sorted(held[s1]) and c1 in legal1
        led = effective_suit(c1, trump)
        follow = sorted(c for c in held[s2] if effective_suit(c, trump) == led)
        assert legal2 == (follow or sorted(held[s2])) and c2 in legal2
        held[s1].remove(c1)
        held[s2].remove(c2)
        winner = s2 if power(c2, trump, led) > power(c1, trump, led) else s1
        assert trick["winner"] == winner
        won[winner] += 1
        leader = winner
    assert len(line["tricks"]) == 5
    maker = line["maker"]
    expected = [0, 0]
    if won[maker] == 5:
        expected[maker] = 2
    elif won[maker] >= 3:
        expected[maker] = 1
    else:
        expected[maker ^ 1] = 2
    assert line["points"] == expected


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--deck", "32"],
        ["--deck", "25"],
        ["--target", "5", "--stick-the-dealer"],
        ["--dealer-must-take-up", "--deck", "25"],
        ["--policy", "easy"],
        ["--policy", "medium", "--deck", "32"],
        ["--policy", "hard", "--deck", "25", "--stick-the-dealer"],
    ],
)
def test_transcript_follows_the_rules_hand_by_hand(options):
    lines = run("--seed", "11", "--matches", "3", *options)
    assert lines
    target = int(options[options.index("--target") + 1]) if "--target" in options else 10
    matches: dict[int, list[dict]] = {}
    for line in lines:
        assert set(line) == KEYS
        matches.setdefault(line["match"], []).append(line)
        check_hand(line)
        assert line["rules"]["stick_the_dealer"] == ("--stick-the-dealer" in options)
    assert sorted(matches) == [0, 1, 2]
    for hands in matches.values():
        assert [h["hand"] for h in hands] == list(range(len(hands)))
        score = [0, 0]
        for previous, line in zip([None, *hands], hands, strict=False):
            if previous is not None:
                assert line["dealer"] == previous["dealer"] ^ 1  # also after a pass-out
            score = [score[0] + line["points"][0], score[1] + line["points"][1]]
            assert line["score"] == score
        assert all(h["winner"] is None for h in hands[:-1])
        last = hands[-1]
        assert last["score"][last["winner"]] >= target > last["score"][last["winner"] ^ 1]


def test_the_same_arguments_print_the_same_transcript():
    assert run("--seed", "5", "--matches", "2") == run("--seed", "5", "--matches", "2")
    assert run("--seed", "5", "--matches", "1") != run("--seed", "6", "--matches", "1")


def test_bot_policies_play_differently_from_random_seats():
    random_seats = run("--seed", "5", "--matches", "1")
    hard = run("--seed", "5", "--matches", "1", "--policy", "hard")
    assert hard == run("--seed", "5", "--matches", "1", "--policy", "hard")
    # Same deals (the deal seeds depend on --seed only), different decisions.
    assert hard[0]["hands"] == random_seats[0]["hands"]
    assert [h["bidding"] for h in hard] != [h["bidding"] for h in random_seats]


def test_every_bidding_path_appears_in_a_long_transcript():
    lines = run("--seed", "3", "--matches", "30", "--deck", "25")
    calls = {call.split(":")[0] for line in lines for _, call in line["bidding"]}
    assert calls == {"pass", "order_up", "accept", "take_up", "leave", "name", "joker"}
    assert any(line["trump"] is None for line in lines)  # a pass-out


def run_module(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True)


@pytest.mark.parametrize(
    "command",
    [["games.engine.selfplay"], ["games.bots.selfplay", "--policy", "hard"]],
)
def test_the_command_lines_run_as_modules(command):
    result = run_module(*command, "--seed", "1", "--matches", "1")
    assert result.returncode == 0, result.stderr
    first = json.loads(result.stdout.splitlines()[0])
    assert first["match"] == 0 and first["hand"] == 0


def test_the_engines_command_line_knows_no_computer_player():
    result = run_module("games.engine.selfplay", "--seed", "1", "--policy", "hard")
    assert result.returncode == 2 and "--policy" in result.stderr


def test_bad_options_get_a_clear_message():
    result = run_module("games.engine.selfplay", "--seed", "1", "--target", "0")
    assert result.returncode == 2 and "target" in result.stderr
