"""What this machine has: in CI (CI=true) a missing service or browser fails the run;
elsewhere it skips the tests that need it, saying what is missing."""

from __future__ import annotations

import os

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"


def missing(what: str) -> None:
    """A test needs ``what`` and this machine lacks it: fail in CI, skip elsewhere."""
    if IN_CI:
        pytest.fail(f"{what} is required in CI", pytrace=False)
    pytest.skip(f"{what} is not available here")
