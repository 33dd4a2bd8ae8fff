"""Matches from creation to the last move: create, join, play, abort, resign."""

from __future__ import annotations

from typing import NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from .. import tasks
from ..db.prepared import insert
from ..db.selectors.fairplay import fair_play_marked
from ..db.selectors.limits import rated_today_capped
from ..db.selectors.players import bots_may_challenge, table_pace_slowest
from ..engine import (
    Action,
    IllegalAction,
    Rules,
    State,
    apply,
    first_dealer,
    new_match,
    new_seed,
    state_to_json,
)
from ..errors import Conflict, GameError, LimitReached, NotAllowed
from ..models import (
    COMPUTER_USERNAME,
    HAND_END_BY_PACE,
    Computer,
    EndReason,
    Match,
    MatchStatus,
    Move,
    is_bot,
    is_guest,
)
from . import events
from .clocks import (
    CORRESPONDENCE_DAYS,
    DEFAULT_MOVE_SECONDS,
    MAX_MOVE_SECONDS,
    MIN_MOVE_SECONDS,
)
from .core import (
    match_abort_now,
    match_expire_if_due,
    match_finish,
    match_forfeit,
    match_locked,
    match_locked_seat,
    match_save,
    players_locked,
)
from .follows import blocked, followers_told_of_seek_on_commit


def rules_checked(deck, target, stick_the_dealer, dealer_must_take_up) -> Rules:
    try:
        return Rules(deck, target, stick_the_dealer, dealer_must_take_up)
    except ValueError as error:
        raise GameError("bad_rules", reason=str(error)) from None


def clock_checked(move_seconds: int | None) -> None:
    if move_seconds is not None and not MIN_MOVE_SECONDS <= move_seconds <= MAX_MOVE_SECONDS:
        raise GameError("bad_clock", low=MIN_MOVE_SECONDS, high=MAX_MOVE_SECONDS)


def days_checked(days_per_move: int | None) -> None:
    if days_per_move is not None and days_per_move not in CORRESPONDENCE_DAYS:
        raise GameError("bad_days", days=", ".join(map(str, CORRESPONDENCE_DAYS)))


def match_create(
    *,
    user,
    deck: int = 24,
    target: int = 10,
    stick_the_dealer: bool = False,
    dealer_must_take_up: bool = False,
    rated: bool = True,
    spectators_allowed: bool = True,
    move_seconds: int | None = DEFAULT_MOVE_SECONDS,
    days_per_move: int | None = None,
) -> Match:
    """An open match with ``user`` in seat 0, waiting for an opponent. ``days_per_move``: a
    correspondence match (days for each action, no move clock)."""
    rules = rules_checked(deck, target, stick_the_dealer, dealer_must_take_up)
    days_checked(days_per_move)
    if days_per_move:
        move_seconds = None
    clock_checked(move_seconds)
    if rated and is_guest(user):
        raise NotAllowed("guest_rated")  # a rating needs an account to answer for it
    if rated and fair_play_marked(user):
        raise NotAllowed("fair_play_rated")  # marked for fair play: casual matches only
    if days_per_move and is_guest(user):
        raise NotAllowed("guest_account")  # days a move need a mail address to tell
    with transaction.atomic():
        players_locked(user)
        mine = Match.objects.filter(player0=user, status=MatchStatus.OPEN).count()
        if mine >= settings.OPEN_MATCHES_PER_PLAYER:
            raise LimitReached("open_matches_cap", count=mine)
        match = Match.objects.create(
            player0=user,
            created_by=user,
            **rules.as_dict(),  # deck, target and the house rules: the Match fields' names
            rated=rated,
            seed=str(new_seed()),
            spectators_allowed=spectators_allowed,
            move_seconds=move_seconds,
            days_per_move=days_per_move,
        )
        events.send_event_on_commit(match.pk, version=match.version, lobby=(user.pk,))
        followers_told_of_seek_on_commit(user.pk)
        tasks.schedule_push("follow", match.pk)
    return match


def computer_user(strength: str):
    """The account that sits in seat 1 for the computer of this strength (made on first use;
    sign-up keeps the ``computer-`` names free, and nobody can log in to these accounts)."""
    if strength not in Computer.values:
        raise GameError("bad_strength")
    user, created = get_user_model().objects.get_or_create(
        username=COMPUTER_USERNAME.format(strength),
        defaults={"first_name": f"Computer ({strength})"},
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def match_create_computer(
    *,
    user,
    strength: str,
    deck: int = 24,
    target: int = 10,
    stick_the_dealer: bool = False,
    dealer_must_take_up: bool = False,
    dealer_seat: int | None = None,
) -> Match:
    """A casual match against the computer, dealt at once: ``user`` in seat 0, the computer in
    seat 1. It never changes a rating. ``dealer_seat``: the seat that deals first (a
    rematch gives the deal to the other player); else the seed decides."""
    rules = rules_checked(deck, target, stick_the_dealer, dealer_must_take_up)
    with transaction.atomic():
        players_locked(user)
        playing = Match.objects.filter(player0=user, status=MatchStatus.ACTIVE).exclude(computer="")
        if playing.count() >= settings.COMPUTER_MATCHES_PER_PLAYER:
            raise LimitReached("computer_matches_cap", count=settings.COMPUTER_MATCHES_PER_PLAYER)
        seed = new_seed()
        while dealer_seat is not None and first_dealer(seed) != dealer_seat:
            seed = new_seed()  # a fresh random seed each time: the deal stays unpredictable
        now = timezone.now()
        match = Match.objects.create(
            player0=user,
            player1=computer_user(strength),
            created_by=user,
            computer=strength,
            **rules.as_dict(),
            rated=False,
            seed=str(seed),
            status=MatchStatus.ACTIVE,
            started_at=now,
            turn_started_at=now,
            snapshot=state_to_json(new_match(seed, rules)),
        )
        match_save(match, lobby=True)
    return match


def match_join(*, user, match_id: int) -> Match:
    """Take the free seat of an open match; the first hand is dealt at once."""
    with transaction.atomic():
        match = match_locked(match_id)
        if match.status != MatchStatus.OPEN:
            raise Conflict("seat_taken")
        if match.player0_id == user.pk:
            raise NotAllowed("own_match")
        if is_bot(user) and not plays_bots(match.player0):
            raise NotAllowed("no_bots", player=match.player0.username)
        if blocked(by=match.player0, player=user):
            raise NotAllowed("match_blocked", player=match.player0.username)
        if match.rated and is_guest(user):
            raise NotAllowed("guest_rated")
        if match.rated and fair_play_marked(user):
            raise NotAllowed("fair_play_rated")
        if match.days_per_move and is_guest(user):
            raise NotAllowed("guest_account")
        players_locked(user, match.player0)  # the pair's rated matches today, counted alone
        if match.rated and (
            rated_today_capped(user=user, other=match.player0) or fair_play_marked(match.player0)
        ):
            match.rated = False  # farming a rating takes many: the rest are casual (said first)
        match.player1 = user
        match.status = MatchStatus.ACTIVE
        match.started_at = match.turn_started_at = timezone.now()
        match.snapshot = state_to_json(new_match(int(match.seed), match.rules))
        match_save(match, lobby=True)
        followers_told_of_seek_on_commit(match.player0_id)  # no longer looking
    return match


def match_abort(*, user, match_id: int) -> Match:
    """Call a match off before its first move: no result, no rating."""
    with transaction.atomic():
        match, _seat = match_locked_seat(match_id, user)
        if match.is_over:
            raise Conflict("already_over")
        if match.both_acted:
            raise Conflict("started")
        seeking = match.status == MatchStatus.OPEN
        match_abort_now(match)
        match_save(match, lobby=True)
        if seeking:  # no longer looking
            followers_told_of_seek_on_commit(match.player0_id)
    return match


def match_resign(*, user, match_id: int) -> Match:
    """Give the match up: the opponent wins it (before both have acted: called off)."""
    with transaction.atomic():
        match, seat = match_locked_seat(match_id, user)
        if match.status != MatchStatus.ACTIVE:
            raise Conflict("not_in_play")
        match_forfeit(match, winner=match.players[seat ^ 1], reason=EndReason.RESIGNED)
        match_save(match, lobby=True)
    return match


class Moved(NamedTuple):
    """What a move left: the match as saved, its new state (decoded once, here) and the move's
    row: every way a move comes in (the page's socket and form, the API's POST and socket, the
    computer) words its answer from this value, and the rooms of the process that made it
    take its table from it as it commits (``events.hand_in_on_commit``). It reads as its match
    too (``moved.version``, ``moved.status``), as callers that want only that did."""

    match: Match
    state: State
    move: Move

    def __getattr__(self, name: str):
        return getattr(self.match, name)


# The ways a move comes from the match page (of ``metrics.MOVE_WAYS``): not a bot account's.
PAGE_WAYS = ("page_socket", "page_form")


def move_apply(*, user, match_id: int, action: str, version: int, way: str = "") -> Moved:
    """Apply one action by ``user`` to the match, if it is theirs to make and still current.
    ``way``: the edge it came through (``metrics.MOVE_WAYS``), kept on the move. A bot account
    moves only through the API: its move from a page is refused (its settings come with the
    locked match: no read of its own)."""
    with transaction.atomic():
        match, seat = match_locked_seat(match_id, user)
        if way in PAGE_WAYS and is_bot(match.players[seat]):
            raise NotAllowed("bot_api_only")
        moved = move_on_locked(match, seat, action, version, way=way)
    if moved is None:
        raise Conflict("too_late")
    return moved


def move_on_locked(
    match: Match, seat: int, action: str, version: int, way: str = ""
) -> Moved | None:
    """The one way a move is made, on the match already locked in this transaction (whoever
    asked: ``move_apply`` for a player, ``computer.play_turn`` for the computer). None if the
    clock had run out: the match ended instead (committed with the transaction; the caller
    refuses the move outside it)."""
    if match_expire_if_due(match):
        return None
    if match.status != MatchStatus.ACTIVE:
        raise Conflict("over" if match.is_over else "not_started")
    if version != match.version:
        raise Conflict("stale")
    before = match.state
    try:
        state = apply(before, Action.parse(seat, action))
    except IllegalAction as error:
        raise GameError("illegal", refusal=error) from None
    user = match.players[seat]
    match.move_count += 1
    move = Move(
        match=match, seq=match.move_count, seat=seat, player=user, action=action,
        version=match.version + 1,  # the version match_save gives the match below
        way=way,
    )  # fmt: skip
    insert(move)  # its INSERT built once (games.db.prepared)
    match.set_state(state)  # encoded once; the state is not decoded again
    match.turn_started_at = timezone.now()
    if len(state.results) > len(before.results) and not state.is_over:
        # The next hand is on the table only then, on the slower of the two players' pages.
        pace = table_pace_slowest(user_ids=(match.player0_id, match.player1_id))
        match.turn_started_at += HAND_END_BY_PACE[pace]
    match.acted |= 1 << seat
    moved = Moved(match, state, move)
    events.hand_in_on_commit(moved)  # before match_save's push: this process's rooms first
    if state.is_over:
        match_finish(match, winner=match.players[state.winner], reason=EndReason.PLAYED_OUT)
        match_save(match, lobby=True)
    else:
        # A hand that ends changes the score the lobby's watch list shows.
        watch = state.scores != before.scores and match.spectators_allowed
        fields = ("snapshot", "turn_started_at", "move_count", "acted")
        match_save(match, fields=fields, watch=watch)
    return moved


def match_start(
    *, players: tuple, created_by, options: dict, dealer=None, arena_id: int | None = None
) -> Match:
    """A match between two people, dealt at once (an accepted rematch or challenge).
    ``dealer``: the player who deals first; the seats are arranged for it (the deal's seed
    picks the first dealer's seat). Past the pair's rated matches of the day it is casual,
    as a joined one is (services.matches.match_join)."""
    rules = rules_checked(
        options["deck"], options["target"],
        options["stick_the_dealer"], options["dealer_must_take_up"],
    )  # fmt: skip
    players_locked(*players)
    if options["rated"] and (
        rated_today_capped(user=players[0], other=players[1])
        or any(map(is_guest, players))
        or any(map(fair_play_marked, players))  # marked for fair play: casual only
    ):
        options = {**options, "rated": False}  # (a guest's matches are casual: see match_create)
    seed = new_seed()
    seats = list(players)
    if dealer is not None and seats[first_dealer(seed)] != dealer:
        seats.reverse()
    now = timezone.now()
    match = Match.objects.create(
        player0=seats[0], player1=seats[1], created_by=created_by, **options, seed=str(seed),
        arena_id=arena_id,
        status=MatchStatus.ACTIVE, started_at=now, turn_started_at=now,
        snapshot=state_to_json(new_match(seed, rules)),
    )  # fmt: skip
    match_save(match, lobby=True)
    return match


def plays_bots(player) -> bool:
    """Whether a bot account may sit down with ``player``: another bot, or a person who lets
    bots challenge them (the one setting says both)."""
    return is_bot(player) or bots_may_challenge(player)
