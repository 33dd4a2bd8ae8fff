"""Provably fair deals: the commitment shown in play, checked with the seed afterwards."""

from __future__ import annotations

import hashlib
import subprocess
import sys

from games.engine import deal
from games.engine.cards import card_codes
from games.engine.verify import commitment


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine.verify", *args],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_the_commitment_is_the_sha256_of_the_seed():
    assert commitment(1234) == hashlib.sha256(b"1234").hexdigest()


def test_verify_confirms_the_commitment_and_prints_every_deal():
    seed = 2**100 + 7
    result = run(
        "--seed", str(seed), "--commitment", commitment(seed), "--deck", "25", "--hands", "3"
    )
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"OK: SHA-256 of the seed is {commitment(seed)}"
    first = deal(seed, 0, 25)
    assert lines[1].startswith(f"hand 0: seat 0 {' '.join(card_codes(first.hands[0]))} |")
    assert len(lines) == 4


def test_verify_refuses_a_seed_that_was_not_committed_to():
    result = run("--seed", "5", "--commitment", commitment(6))
    assert result.returncode == 1 and "MISMATCH" in result.stderr
