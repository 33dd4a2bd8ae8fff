"""The public face as the API's JSON: a match (``PublicMatch``), a seat's view of it, a player
and a move. Every card that reaches a program comes from ``view_for`` for its seat (or a
spectator's), exactly as the pages' boards do. ``games.api.schemas`` declares these shapes;
``tests/api/test_public_shapes.py`` checks each against the other."""

from __future__ import annotations

from datetime import datetime

from ..engine import State, view_for
from ..models import Match, MatchStatus, Move, RematchState, is_bot, is_deleted
from .match import PublicMatch

# A deleted account as the API names it (the API speaks English, as its codes do).
DELETED_NAME = "deleted player"
# The API's match shows no rating: its public face is built without reading them.
NO_RATINGS = ("", "")


def public(match: Match) -> PublicMatch:
    """The public face of a match a service or a selector gave, as the API shows it."""
    return PublicMatch.of(match, NO_RATINGS)


def player(user) -> dict | None:
    """A player (a user row: an account, a challenge's, an arena's standing)."""
    if user is None:
        return None
    return {"id": user.pk, "username": shown_name(user.username), "bot": is_bot(user)}


def shown_name(username: str) -> str:
    """A player's name as programs get it: a deleted account's as "deleted player" (never the
    name it had, nor the reserved form it has now)."""
    return DELETED_NAME if is_deleted(username) else username


def players(match: PublicMatch) -> list[dict | None]:
    """The match's seats: seat 0, seat 1 (None: not taken yet)."""
    return [
        None if pk is None else {"id": pk, "username": shown_name(name), "bot": bot}
        for pk, name, bot in zip(match.player_ids, match.names, match.bots, strict=True)
    ]


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def match_public(match: PublicMatch, state: State | None) -> dict:
    """What anyone who may follow the match may know of it: never a hand, the stock or the
    seed while it is played (its SHA-256, the commitment, from the first deal on). ``state``:
    the match's (``Match.state``, a table's)."""
    active = match.status == MatchStatus.ACTIVE
    return {
        "id": match.pk,
        "status": match.status,
        "version": match.version,
        "move_count": match.move_count,
        "players": players(match),
        "computer": match.computer or None,
        "options": match.options(),
        "created_at": _iso(match.created_at),
        "deadline": _iso(match.deadline) if active else None,
        "turn": state.turn if state is not None and active else None,
        "scores": list(state.scores) if state is not None else [0, 0],
        "winner": match.winner_seat,
        "end_reason": match.end_reason or None,
        "commitment": match.commitment or None,
        "seed": match.revealed_seed or None,
        "arena_id": match.arena_id,
        "rematch": rematch(match),
    }


def rematch(match: PublicMatch) -> dict:
    """Where the match's rematch stands: the offer (who made it, until when it stands), its
    answer, or the match it started."""
    offered = match.rematch_state == RematchState.OFFERED
    return {
        "state": match.rematch_state or None,
        "seat": match.rematch_seat,
        "until": _iso(match.rematch_until) if offered else None,
        "next_match_id": match.next_match_id,
    }


def match_view(state: State | None, seat: int | None) -> dict | None:
    """The match as ``seat`` sees it (None: a spectator); None before the first deal."""
    return None if state is None else view_for(state, seat).as_dict()


def match_for(match: PublicMatch, state: State | None, user) -> dict:
    """The match and the caller's view of it: their seat's if they play, else a spectator's."""
    seat = match.seat_of(user)
    return {"match": match_public(match, state), "seat": seat, "view": match_view(state, seat)}


def answer(match: Match, user) -> dict:
    """``match_for`` of a match a service or a selector gave: its public face built first."""
    return match_for(public(match), match.state, user)


def move(row: Move, *, seat: int | None, over: bool) -> dict:
    """One move as ``seat`` may know it: a discard's card only for the dealer who made it,
    until the match is over (then the replay shows every card anyway)."""
    action = row.action
    if action.startswith("discard:") and row.seat != seat and not over:
        action = "discard"
    return {"seq": row.seq, "seat": row.seat, "action": action, "version": row.version}
