"""Every refusal a service raises is a code with facts; the edges have words for each."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone, translation

from games import services
from games.engine.errors import IllegalAction
from games.presentation import refusals

SERVICES = Path(services.__file__).parent
RAISED = re.compile(r"\b(?:GameError|NotFound|NotAllowed|Conflict)\(\s*\"(\w+)\"((?:,[^)]*)?)\)")


def raised_codes() -> dict[str, set[str]]:
    """Every code the services raise, with the names of the facts each carries."""
    codes: dict[str, set[str]] = {}
    for path in sorted(SERVICES.glob("*.py")):
        for code, params in RAISED.findall(path.read_text()):
            codes.setdefault(code, set()).update(re.findall(r"(\w+)=", params))
    return codes


def test_the_services_raise_codes_not_words():
    codes = raised_codes()
    assert len(codes) >= 25
    for path in SERVICES.glob("*.py"):
        assert "gettext" not in path.read_text(), f"services/{path.name} speaks player words"


@pytest.mark.parametrize("language", ["en", "so", "am"])
def test_every_code_a_service_raises_has_words_in_each_language(language):
    facts = {"low": 10, "high": 3600, "player": "bob", "minutes": 1, "seconds": 5, "reason": "x",
             "count": 30, "placeholders": "PLAYER",
             "origin": "ftp://x", "most": 10, "days": "1, 3, 7", "version": 12}  # fmt: skip
    facts["until"] = timezone.now() + timedelta(minutes=5)  # a chat time out's end
    facts["refusal"] = IllegalAction("It is not your turn", "not_your_turn")
    with translation.override(language):
        for code, params in raised_codes().items():
            error = services.GameError(code, **{name: facts[name] for name in params})
            said = refusals.words(error)
            assert said.strip() and said != code and "%(" not in said, (code, said)


def test_each_kind_of_refusal_answers_with_its_status():
    assert refusals.status(services.NotFound("no_such_match")) == 404
    assert refusals.status(services.NotAllowed("not_playing")) == 403
    assert refusals.status(services.Conflict("stale")) == 409
    assert refusals.status(services.GameError("bad_strength")) == 400
