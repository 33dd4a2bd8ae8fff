"""Anyone can check a record's deals (docs/DEALS.md). The two reference verifiers, Python's
and JavaScript's, share no code with the site: each accepts the exported record of a finished
match under every deck and option, and names the hand and the field of a record whose deal or
commitment was altered. The specification's worked example is what the engine deals."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client

from games.engine import deal, first_dealer
from games.engine.cards import DECKS, card_codes
from games.engine.verify import commitment
from games.models import Match
from tests.support.matches import play_to_the_end, start

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]

PYTHON_VERIFIER = ROOT / "clients" / "python" / "verify_deals.py"
JS_VERIFIER = ROOT / "clients" / "js" / "verify_deals.js"
RULE_SETS = [
    {"deck": deck, **options}
    for deck in (24, 25, 32)
    for options in ({}, {"stick_the_dealer": True, "dealer_must_take_up": True})
]


def exported(client: Client, match: Match, folder: Path) -> Path:
    """The record as a player downloads it through the API, saved byte for byte."""
    response = client.get(f"/api/v1/matches/{match.pk}/export")
    assert response.status_code == 200, response.content
    path = folder / f"euchre-match-{match.pk}.json"
    path.write_bytes(response.content)
    return path


def verified(request, record: Path) -> Iterator[subprocess.CompletedProcess]:
    """Both verifiers' verdicts on ``record``, one after the other: Python in isolated mode
    from another folder (so the site's code cannot be imported), then Node (skipped where it
    is missing, once Python's verdict was checked; a failure in CI)."""
    run = {"capture_output": True, "text": True, "timeout": 30, "cwd": record.parent}
    yield subprocess.run([sys.executable, "-I", str(PYTHON_VERIFIER), str(record)], **run)
    yield subprocess.run([request.getfixturevalue("node"), str(JS_VERIFIER), str(record)], **run)


def named(rules: dict) -> str:
    return f"deck{rules['deck']}" + ("-stuck-must-take-up" if len(rules) > 1 else "")


@pytest.mark.parametrize("rules", RULE_SETS, ids=named)
def test_both_verifiers_accept_a_finished_matchs_record(
    request, rules, alice, bob, alice_api, tmp_path
):
    match = play_to_the_end(start(alice, bob, **rules))
    path = exported(alice_api, match, tmp_path)
    hands = len(json.loads(path.read_text())["hands"])
    assert hands == len(match.state.results) >= 2
    for verdict in verified(request, path):
        assert verdict.returncode == 0, verdict.stderr
        assert verdict.stdout == (
            "OK: the seed is the one committed to and deals every hand of the record"
            f" (hands checked: {hands}, deck {rules['deck']})\n"
        )


def a_card_swapped_with_the_stock(hand: dict) -> str:
    hand["hands"][1][2], hand["stock"][0] = hand["stock"][0], hand["hands"][1][2]
    return "hands[1]"


def the_other_dealer(hand: dict) -> str:
    hand["dealer"] ^= 1
    return "dealer"


def the_stock_reordered(hand: dict) -> str:
    hand["stock"][-1], hand["stock"][-2] = hand["stock"][-2], hand["stock"][-1]
    return "stock"


def test_both_verifiers_name_the_first_hand_and_field_that_differ(
    request, alice, bob, alice_api, tmp_path
):
    match = play_to_the_end(start(alice, bob, deck=25, target=5))
    path = exported(alice_api, match, tmp_path)
    number = len(json.loads(path.read_text())["hands"]) // 2
    for alter in (a_card_swapped_with_the_stock, the_other_dealer, the_stock_reordered):
        record = json.loads(path.read_text())
        field = alter(record["hands"][number])
        the_other_dealer(record["hands"][number + 1])  # a later difference goes unnamed
        altered = tmp_path / f"{alter.__name__}.json"
        altered.write_text(json.dumps(record))
        for verdict in verified(request, altered):
            assert verdict.returncode == 1 and verdict.stdout == "", alter.__name__
            assert verdict.stderr.startswith(
                f"MISMATCH: hand {number}, {field}: the record has "
            ), verdict.stderr


def test_both_verifiers_refuse_a_commitment_the_seed_does_not_give(
    request, alice, bob, alice_api, tmp_path
):
    match = play_to_the_end(start(alice, bob, target=3))
    record = json.loads(exported(alice_api, match, tmp_path).read_text())
    right = record["commitment"]
    record["commitment"] = commitment(int(record["seed"]) + 1)
    altered = tmp_path / "altered.json"
    altered.write_text(json.dumps(record))
    for verdict in verified(request, altered):
        assert verdict.returncode == 1
        assert verdict.stderr == (
            f"MISMATCH: commitment: the record has {record['commitment']}, the seed gives {right}\n"
        )


def worked_example(seed: int) -> str:
    """docs/DEALS.md's worked example: the digests and draws as the text specifies them,
    checked here against what the engine deals."""
    person = {"digest_size": 32, "person": b"two-hand-euchre"}
    lines = [f"seed        {seed}", f"commitment  {commitment(seed)}", ""]
    message = b"%d:first dealer" % seed
    digest = hashlib.blake2b(message, **person).digest()
    assert digest[0] & 1 == first_dealer(seed)
    lines += [
        "first dealer",
        f"  message   {message.decode()}",
        f"  digest    {digest.hex()}",
        f"  dealer    seat {digest[0] & 1} (the digest's first byte, 0x{digest[0]:02x}, & 1)",
        "",
    ]
    message = b"%d:0" % seed
    digest = hashlib.blake2b(message, **person).digest()
    x = int.from_bytes(digest, "big")
    lines += ["hand 0, deck 24", f"  message   {message.decode()}", f"  digest    {digest.hex()}"]
    lines.append(f"  x         {x}")
    cards, draws = list(DECKS[24]), []
    for i in range(len(cards) - 1):
        x, r = divmod(x, len(cards) - i)
        draws.append(r)
        cards[i], cards[i + r] = cards[i + r], cards[i]
    dealt = deal(seed, 0, 24)
    assert cards == [*dealt.hands[0], *dealt.hands[1], dealt.upcard, *dealt.stock]
    lines += [
        f"  draws     {' '.join(map(str, draws))}",
        f"  shuffled  {' '.join(card_codes(cards))}",
        f"  seat 0    {' '.join(card_codes(dealt.hands[0]))}",
        f"  seat 1    {' '.join(card_codes(dealt.hands[1]))}",
        f"  upcard    {card_codes([dealt.upcard])[0]}",
        f"  stock     {' '.join(card_codes(dealt.stock))}",
        "",
        "more hands of this seed, shuffled:",
    ]
    for number, deck in ((1, 24), (0, 25), (0, 32)):
        dealt = deal(seed, number, deck)
        order = [*dealt.hands[0], *dealt.hands[1], dealt.upcard, *dealt.stock]
        lines.append(f"  hand {number}, deck {deck}, dealer seat {first_dealer(seed) ^ number}:")
        lines.append(f"    {' '.join(card_codes(order))}")
    return "\n".join(lines) + "\n"


def test_the_specifications_worked_example_is_what_the_engine_deals():
    example = worked_example(271828182845904523536028747135266249775)
    assert example in (ROOT / "docs" / "DEALS.md").read_text(), example
