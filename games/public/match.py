"""A match's public face: what anyone allowed to follow it may know, as a plain value.

Boards and the API's JSON (``games.public.shapes``) are built from this and one seat's view
(``engine.view_for``), never from the database row: the value holds no seed while the match
is in play, no hand, no stock and no discard, so it can be built once for an event and shared
by the boards and streams of every viewer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..engine import State, first_dealer, view_for
from ..engine.verify import commitment
from ..engine.view import View
from ..models import Match, MatchStatus, PlayerRating, closed_to_watchers, is_bot

# What a match is read with for its public face: its players' ratings and settings (bot
# accounts), so that building it needs no further query.
PLAYERS = ("player0__rating", "player0__settings", "player1__rating", "player1__settings", "winner")


@dataclass(frozen=True)
class RatingLine:
    """One player's rating change from a finished match."""

    name: str
    before: int
    after: int
    delta: int


@dataclass(frozen=True)
class PublicMatch:
    pk: int
    status: str
    version: int
    move_count: int
    created_at: datetime | None
    player_ids: tuple[int | None, int | None]
    names: tuple[str, str]
    ratings: tuple[str, str]  # as the players' profiles show them ("" for the computer)
    bots: tuple[bool, bool]  # which players are bot accounts (they play through the API)
    computer: str
    # The options, as the match page and pieces.jinja's match_options show them.
    rated: bool
    spectators_allowed: bool
    deck: int
    target: int
    stick_the_dealer: bool
    dealer_must_take_up: bool
    move_seconds: int | None
    days_per_move: int | None  # a correspondence match
    arena_id: int | None  # the arena that paired its players
    both_acted: bool
    dealt: bool  # the first hand is dealt: there is a state to view
    # The seed's hash from the first deal on; the seed itself only once the match is over.
    commitment: str
    revealed_seed: str
    first_dealer: int | None
    deadline: datetime | None  # when the player to act loses on time
    claim_opens_at: datetime | None  # when a player who left may be claimed from
    winner_id: int | None
    end_reason: str
    rematch_state: str
    rematch_seat: int | None
    rematch_until: datetime | None
    next_match_id: int | None
    rating_changes: tuple[RatingLine, ...]
    analysed: bool  # the worker has stored the match's analysis

    @property
    def id(self) -> int:
        return self.pk

    @property
    def is_over(self) -> bool:
        return self.status in (MatchStatus.FINISHED, MatchStatus.ABORTED, MatchStatus.VOIDED)

    @property
    def winner_name(self) -> str:
        seat = self.winner_seat
        return "" if seat is None else self.names[seat]

    @property
    def winner_seat(self) -> int | None:
        if self.winner_id is None or self.winner_id not in self.player_ids:
            return None
        return self.player_ids.index(self.winner_id)

    def options(self) -> dict:
        """The options by field name, as Match's and Challenge's fields take them."""
        return {name: getattr(self, name) for name in Match.OPTION_FIELDS}

    def closed_to(self, user) -> bool:
        return closed_to_watchers(self.status, self.spectators_allowed, self.seat_of(user))

    def seat_of(self, user) -> int | None:
        if user is None or not user.is_authenticated or user.pk not in self.player_ids:
            return None
        return self.player_ids.index(user.pk)

    @classmethod
    def of(cls, match: Match, ratings: tuple[str, str] | None = None) -> PublicMatch:
        """The public face of ``match`` (its players, their ratings unless given, and its
        rating changes if it is finished: read with it or here)."""
        dealt = match.snapshot is not None
        changes = ()
        if match.status == MatchStatus.FINISHED:
            changes = tuple(
                RatingLine(c.player.username, c.before_display, c.after_display, c.delta)
                for c in sorted(match.rating_changes.all(), key=lambda c: c.player_id)
                if not c.refund  # a fair-play refund is the victim's history, not the result
            )
        names = tuple(p.username if p else "" for p in match.players)
        ratings = ratings or _ratings(match)
        if changes:  # the seats show the ratings the match left, as its result does
            after = {change.name: change.after for change in changes}
            seats = zip(names, ratings, strict=True)
            ratings = tuple(after.get(name, rating) for name, rating in seats)
        return cls(
            pk=match.pk,
            status=match.status,
            version=match.version,
            move_count=match.move_count,
            created_at=match.created_at,
            player_ids=(match.player0_id, match.player1_id),
            names=names,
            ratings=ratings,
            bots=(is_bot(match.player0), is_bot(match.player1)),
            computer=match.computer,
            rated=match.rated,
            spectators_allowed=match.spectators_allowed,
            deck=match.deck,
            target=match.target,
            stick_the_dealer=match.stick_the_dealer,
            dealer_must_take_up=match.dealer_must_take_up,
            move_seconds=match.move_seconds,
            days_per_move=match.days_per_move,
            arena_id=match.arena_id,
            both_acted=match.both_acted,
            dealt=dealt,
            commitment=commitment(int(match.seed)) if dealt else "",
            revealed_seed=match.seed if match.is_over else "",
            first_dealer=first_dealer(int(match.seed)) if dealt else None,
            deadline=match.deadline,
            claim_opens_at=match.claim_opens_at,
            winner_id=match.winner_id,
            end_reason=match.end_reason,
            rematch_state=match.rematch_state,
            rematch_seat=match.rematch_seat,
            rematch_until=match.rematch_until,
            next_match_id=match.next_match_id,
            rating_changes=changes,
            analysed=match.analysed_at is not None,
        )


def _ratings(match: Match) -> tuple[str, str]:
    """The players' ratings as their profiles show them; the computer has none (it plays
    casual matches only). A correspondence match shows their correspondence ratings."""
    ladder = match.ladder
    first = _rating_text(match.player0, ladder)
    return first, "" if match.computer else _rating_text(match.player1, ladder)


def _rating_text(user, ladder: str) -> str:
    """A player's rating on ``ladder`` as their profile shows it (the initial one before any
    rated match); read with the match (``select_related("player0__rating", ...)``) or here."""
    if user is None:
        return ""
    try:
        return user.rating.display_on(ladder)
    except PlayerRating.DoesNotExist:
        return PlayerRating(user=user).display_on(ladder)


def view_of(state: State | None, seat: int | None) -> View | None:
    """What ``seat`` (None: a spectator) may see of a match's state; None before the deal."""
    return None if state is None else view_for(state, seat)
