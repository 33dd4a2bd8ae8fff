"""An ended match's record (docs/EXPORT.md) from its row and its moves, for the API's export
and the replay page's download: the engine writes it (``engine.serialize.record``), this
gives it the match's facts, its name as a file, and the words of its refusal."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..engine.serialize import record, record_text
from ..models import Match, is_bot
from ..public.shapes import shown_name

# A move as the record takes it: (seq, seat, action, version).
MoveRow = tuple[int, int, str, int | None]

TEXT_TYPE = "text/plain; charset=utf-8"


def match_record(match: Match, moves: list[MoveRow]) -> dict:
    """The JSON record of ``match``, which is over, whose moves are ``moves`` in order."""
    seats = {match.player0_id: 0, match.player1_id: 1}
    return record(
        match_id=match.pk,
        players=[_player(seat, user) for seat, user in enumerate(match.players)],
        rules=match.rules,
        rated=match.rated,
        move_seconds=match.move_seconds,
        seed=int(match.seed),
        started_at=_when(match.started_at),
        ended_at=_when(match.finished_at),
        status=match.status,
        end_reason=match.end_reason or None,
        winner=seats.get(match.winner_id) if match.winner_id else None,
        actions=moves,
    )


def match_record_text(match: Match, moves: list[MoveRow]) -> str:
    return record_text(match_record(match, moves))


def _player(seat: int, user) -> dict:
    if user is None:  # an open match called off before anyone took the seat
        return {"seat": seat, "id": None, "username": None, "bot": False}
    return {"seat": seat, "id": user.pk, "username": shown_name(user.username), "bot": is_bot(user)}


def _when(moment) -> str | None:
    return moment.isoformat() if moment else None


def filename(match: Match, extension: str) -> str:
    """The downloaded file's name: ``euchre-match-42.txt``."""
    return f"euchre-match-{match.pk}.{extension}"


def not_over_words() -> str:
    """Why a match in play (or still open) has no record yet."""
    return _("The record of a match opens when it is over: until then it would give away the deal.")
