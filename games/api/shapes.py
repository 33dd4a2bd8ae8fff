"""Matches, views and players as the API shows them: every card that reaches a program comes
from ``view_for`` for its seat (or a spectator's), exactly as the pages' boards do."""

from __future__ import annotations

from ..engine import State, view_for
from ..engine.verify import commitment
from ..models import Match, MatchStatus, Move, is_bot


def player(user) -> dict | None:
    if user is None:
        return None
    return {"id": user.pk, "username": user.username, "bot": is_bot(user)}


def match_public(match: Match, state: State | None = None, players: list | None = None) -> dict:
    """What anyone who may follow the match may know of it: never a hand, the stock or the
    seed while it is played (its SHA-256, the commitment, from the first deal on).
    ``state``: the match's, when the caller has it parsed; ``players``: the players' shapes,
    when the caller knows them (else read from ``match.player0`` and ``player1``)."""
    state = state if state is not None else match.state
    seats = {match.player0_id: 0, match.player1_id: 1}
    active = match.status == MatchStatus.ACTIVE
    return {
        "id": match.pk,
        "status": match.status,
        "version": match.version,
        "move_count": match.move_count,
        "players": players if players is not None else [player(p) for p in match.players],
        "computer": match.computer or None,
        "options": match.options(),
        "created_at": match.created_at.isoformat() if match.created_at else None,
        "deadline": match.deadline.isoformat() if active and match.deadline else None,
        "turn": state.turn if state is not None and active else None,
        "scores": list(state.scores) if state is not None else [0, 0],
        "winner": seats.get(match.winner_id) if match.winner_id else None,
        "end_reason": match.end_reason or None,
        "commitment": commitment(int(match.seed)) if state is not None else None,
        "seed": match.seed if match.is_over else None,
        "arena_id": match.arena_id,
        "rematch": {"state": match.rematch_state or None, "seat": match.rematch_seat},
    }


def match_view(match: Match, seat: int | None, state: State | None = None) -> dict | None:
    """The match as ``seat`` sees it (None: a spectator); None before the first deal."""
    state = state if state is not None else match.state
    if state is None:
        return None
    return view_for(state, seat).as_dict()


def match_for(match: Match, user, players: list | None = None) -> dict:
    """The match and the caller's view of it: their seat's if they play, else a spectator's."""
    seat = match.seat_of(user)
    state = match.state  # parsed once, for both
    return {
        "match": match_public(match, state, players),
        "seat": seat,
        "view": match_view(match, seat, state),
    }


def move(row: Move, *, seat: int | None, over: bool) -> dict:
    """One move as ``seat`` may know it: a discard's card only for the dealer who made it,
    until the match is over (then the replay shows every card anyway)."""
    action = row.action
    if action.startswith("discard:") and row.seat != seat and not over:
        action = "discard"
    return {"seq": row.seq, "seat": row.seat, "action": action, "version": row.version}
