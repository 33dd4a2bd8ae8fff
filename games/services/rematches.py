"""Rematches: a finished match offered again with the same options, accepted, declined, or
lapsing when nobody answers or the player who offered it leaves.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import tasks
from ..db.selectors.connections import PRESENCE_TIMEOUT
from ..engine import first_dealer
from ..errors import Conflict, NotAllowed
from ..models import Connection, Match, MatchStatus, RematchState
from . import events, throttle
from .core import match_locked, match_locked_seat, match_save
from .follows import blocked
from .matches import match_create_computer, match_start

# An unanswered rematch offer lapses after this long.
REMATCH_LAPSE = timedelta(minutes=2)
# A player whose last socket on the match closed this long ago has left its page (a reload
# opens a new one well within it).
REMATCH_LEAVE_GRACE = timedelta(seconds=5)
REMATCH_FIELDS = ("rematch_seat", "rematch_state", "rematch_until", "next_match")


def rematch_offer(*, user, match_id: int) -> Match:
    """Play a finished match again, with the same options and the first deal to the other
    player. Against the computer the new match starts at once; against a person the opponent
    is offered it (accepted if they had offered it too). Returns the new match if one
    started, else the finished match, now with the offer."""
    with transaction.atomic():
        match, seat = match_locked_seat(match_id, user)
        if match.next_match_id is not None:  # already played again (a second click)
            return match.next_match
        if match.status != MatchStatus.FINISHED:
            raise Conflict("rematch_only_finished")
        if match.computer:
            return _rematch_start(match, created_by=user, asked_by=user)
        _blocks_checked(match, user)
        if match.rematch_offered and match.rematch_seat != seat:
            return _rematch_start(
                match, created_by=match.players[match.rematch_seat], asked_by=user
            )
        if match.rematch_offered:
            raise Conflict("rematch_offered")
        if match.rematch_state == RematchState.DECLINED and match.rematch_seat == seat:
            raise Conflict("rematch_declined", player=match.players[seat ^ 1].username)
        # An offer withdrawn and made again is a notice on the opponent's page each time.
        throttle.limit("rematch", user, settings.REMATCH_OFFERS_PER_10_MINUTES, 600)
        match.rematch_seat = seat
        match.rematch_state = RematchState.OFFERED
        match.rematch_until = timezone.now() + REMATCH_LAPSE
        match_save(match, fields=REMATCH_FIELDS)
        _players_told(match)
        tasks.schedule_rematch_lapse(match.pk, match.version, match.rematch_until)
        tasks.schedule_push("rematch", match.pk, match.version)
    return match


def _blocks_checked(match: Match, user) -> None:
    """No rematch between two of whom one has blocked the other: the blocked player is told
    as when joining the blocker's match; the blocker, that their own block stands between."""
    opponent = match.opponent_of(user)
    if blocked(by=opponent, player=user):
        raise NotAllowed("match_blocked", player=opponent.username)
    if blocked(by=user, player=opponent):
        raise NotAllowed("rematch_you_blocked", player=opponent.username)


def _rematch_start(match: Match, *, created_by, asked_by) -> Match:
    """The rematch of the locked, finished ``match``; both players' pages go to it: the page
    of ``asked_by`` with the answer to its request, the other player's by a push (a push to
    the asking page too would race its own navigation there)."""
    old_dealer = first_dealer(int(match.seed))
    options = match.options()
    if match.computer:
        # The computer keeps seat 1: the deal is drawn until seat 0's first dealer changes.
        rules = ("deck", "target", "stick_the_dealer", "dealer_must_take_up")
        new = match_create_computer(
            user=match.player0, strength=match.computer,
            **{key: options[key] for key in rules}, dealer_seat=old_dealer ^ 1,
        )  # fmt: skip
    else:
        new = match_start(
            players=match.players, created_by=created_by, options=options,
            dealer=match.players[old_dealer ^ 1],
        )  # fmt: skip
    match.next_match = new
    match.rematch_state = ""
    match_save(match, fields=REMATCH_FIELDS)
    people = () if match.computer else (match.player0_id, match.player1_id)
    others = tuple(pk for pk in people if pk != asked_by.pk)
    events.send_user_event_on_commit(others, goto=new.pk)
    return new


def rematch_accept(*, user, match_id: int) -> Match:
    """The opponent takes up the rematch offer: the new match, for both players' pages."""
    with transaction.atomic():
        match, seat = match_locked_seat(match_id, user)
        if match.next_match_id is not None:
            return match.next_match
        if not match.rematch_offered or match.rematch_seat == seat:
            raise Conflict("no_rematch_offer")
        _blocks_checked(match, user)  # an offer made before a block
        lapsed = timezone.now() >= match.rematch_until
        if lapsed:  # its task has not run yet: the offer lapses now (and that is committed)
            _rematch_end(match, RematchState.LAPSED)
        else:
            new = _rematch_start(match, created_by=match.players[match.rematch_seat], asked_by=user)
    if lapsed:
        raise Conflict("rematch_lapsed")
    return new


def rematch_decline(*, user, match_id: int) -> Match:
    """The opponent declines the rematch offer, or the player who made it withdraws it."""
    with transaction.atomic():
        match, seat = match_locked_seat(match_id, user)
        if not match.rematch_offered:
            raise Conflict("no_rematch_to_answer")
        _rematch_end(match, RematchState.DECLINED if match.rematch_seat != seat else "")
    return match


def _rematch_end(match: Match, state: str) -> None:
    match.rematch_state = state
    match.rematch_until = None
    match_save(match, fields=REMATCH_FIELDS)
    _players_told(match)


def _players_told(match: Match) -> None:
    """Both players' API account streams: an offer made or gone (an offer taken up is told
    by its new match's start, which their lobbies hear too)."""
    events.account_changed_on_commit((match.player0_id, match.player1_id))


def rematch_lapse(*, match_id: int, version: int, if_left: bool = False) -> bool:
    """The offer made at ``version`` lapses (anything since, and there is nothing to do): its
    time is up, or (``if_left``) a player has left the match's page, seen a few seconds after
    their last socket there closed (a page reloaded in the meantime keeps it). True if this
    call ended it."""
    with transaction.atomic():
        match = match_locked(match_id)
        if not match.rematch_offered or version != match.version:
            return False
        if if_left:
            since = timezone.now() - PRESENCE_TIMEOUT
            present = Connection.objects.filter(match_id=match_id, seen_at__gte=since)
            if {match.player0_id, match.player1_id} <= set(
                present.values_list("user_id", flat=True)
            ):
                return False
        _rematch_end(match, RematchState.LAPSED)
    return True


def rematch_check_left(match_id: int) -> None:
    """A socket on the match closed: if the match has a rematch offer, see in a moment whether
    a player has left its page (then the offer lapses)."""
    offered = Match.objects.filter(pk=match_id, rematch_state=RematchState.OFFERED)
    version = offered.values_list("version", flat=True).first()
    if version is not None:
        tasks.schedule_rematch_left(match_id, version, timezone.now() + REMATCH_LEAVE_GRACE)
