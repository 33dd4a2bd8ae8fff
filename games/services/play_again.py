"""Playing again: rematches, the quick pairing ("Find an opponent"), challenges."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from .. import tasks
from ..db.selectors import PRESENCE_TIMEOUT, bots_may_challenge, is_bot, rated_today_capped
from ..engine import first_dealer, new_match, new_seed, state_to_json
from ..models import COMPUTER_USERNAME, Challenge, Connection, Match, MatchStatus, RematchState
from . import events
from .clocks import DEFAULT_MOVE_SECONDS
from .core import _locked, _locked_seat, _player_locked, _save
from .errors import Conflict, NotAllowed, NotFound
from .matches import (
    _checked_clock,
    _checked_rules,
    match_create,
    match_create_computer,
    match_join,
)

# An unanswered rematch offer lapses after this long; a challenge after the second.
REMATCH_LAPSE = timedelta(minutes=2)
CHALLENGE_LAPSE = timedelta(minutes=5)
# A player whose last socket on the match closed this long ago has left its page (a reload
# opens a new one well within it).
REMATCH_LEAVE_GRACE = timedelta(seconds=5)
REMATCH_FIELDS = ("rematch_seat", "rematch_state", "rematch_until", "next_match")


def _match_start(*, players: tuple, created_by, options: dict, dealer=None) -> Match:
    """A match between two people, dealt at once (an accepted rematch or challenge).
    ``dealer``: the player who deals first; the seats are arranged for it (the deal's seed
    picks the first dealer's seat). Past the pair's rated matches of the day it is casual,
    as a joined one is (services.matches.match_join)."""
    rules = _checked_rules(
        options["deck"], options["target"],
        options["stick_the_dealer"], options["dealer_must_take_up"],
    )  # fmt: skip
    _player_locked(*players)
    if options["rated"] and rated_today_capped(user=players[0], other=players[1]):
        options = {**options, "rated": False}
    seed = new_seed()
    seats = list(players)
    if dealer is not None and seats[first_dealer(seed)] != dealer:
        seats.reverse()
    now = timezone.now()
    match = Match.objects.create(
        player0=seats[0], player1=seats[1], created_by=created_by, **options, seed=str(seed),
        status=MatchStatus.ACTIVE, started_at=now, turn_started_at=now,
        snapshot=state_to_json(new_match(seed, rules)),
    )  # fmt: skip
    _save(match, lobby=True)
    return match


def rematch_offer(*, user, match_id: int) -> Match:
    """Play a finished match again, with the same options and the first deal to the other
    player. Against the computer the new match starts at once; against a person the opponent
    is offered it (accepted if they had offered it too). Returns the new match if one
    started, else the finished match, now with the offer."""
    with transaction.atomic():
        match, seat = _locked_seat(match_id, user)
        if match.next_match_id is not None:  # already played again (a second click)
            return match.next_match
        if match.status != MatchStatus.FINISHED:
            raise Conflict("rematch_only_finished")
        if match.computer:
            return _rematch_start(match, created_by=user, asked_by=user)
        if match.rematch_offered and match.rematch_seat != seat:
            return _rematch_start(
                match, created_by=match.players[match.rematch_seat], asked_by=user
            )
        if match.rematch_offered:
            raise Conflict("rematch_offered")
        if match.rematch_state == RematchState.DECLINED and match.rematch_seat == seat:
            raise Conflict("rematch_declined", player=match.players[seat ^ 1].username)
        match.rematch_seat = seat
        match.rematch_state = RematchState.OFFERED
        match.rematch_until = timezone.now() + REMATCH_LAPSE
        _save(match, fields=REMATCH_FIELDS)
        tasks.schedule_rematch_lapse(match.pk, match.version, match.rematch_until)
    return match


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
        new = _match_start(
            players=match.players, created_by=created_by, options=options,
            dealer=match.players[old_dealer ^ 1],
        )  # fmt: skip
    match.next_match = new
    match.rematch_state = ""
    _save(match, fields=REMATCH_FIELDS)
    people = () if match.computer else (match.player0_id, match.player1_id)
    others = tuple(pk for pk in people if pk != asked_by.pk)
    events.send_user_event_on_commit(others, goto=new.pk)
    return new


def rematch_accept(*, user, match_id: int) -> Match:
    """The opponent takes up the rematch offer: the new match, for both players' pages."""
    with transaction.atomic():
        match, seat = _locked_seat(match_id, user)
        if match.next_match_id is not None:
            return match.next_match
        if not match.rematch_offered or match.rematch_seat == seat:
            raise Conflict("no_rematch_offer")
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
        match, seat = _locked_seat(match_id, user)
        if not match.rematch_offered:
            raise Conflict("no_rematch_to_answer")
        _rematch_end(match, RematchState.DECLINED if match.rematch_seat != seat else "")
    return match


def _rematch_end(match: Match, state: str) -> None:
    match.rematch_state = state
    match.rematch_until = None
    _save(match, fields=REMATCH_FIELDS)


def rematch_lapse(*, match_id: int, version: int, if_left: bool = False) -> bool:
    """The offer made at ``version`` lapses (anything since, and there is nothing to do): its
    time is up, or (``if_left``) a player has left the match's page, seen a few seconds after
    their last socket there closed (a page reloaded in the meantime keeps it). True if this
    call ended it."""
    with transaction.atomic():
        match = _locked(match_id)
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


# The quick pairing asks for the usual rules and a move clock (a newcomer is not left waiting
# at a table without one).
def match_find(*, user, deck: int = 24, target: int = 10) -> Match:
    """The quick pairing ("Find an opponent"): join the oldest open match of another player
    with this deck and target and a move clock, or (nobody waiting) open one, or go back to
    one's own open match."""
    candidates = (
        Match.objects.filter(
            status=MatchStatus.OPEN,
            deck=deck,
            target=target,
            move_seconds__isnull=False,
            player0__is_active=True,
        )  # fmt: skip
        .exclude(player0=user)
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)
    )
    for match_id in candidates[:5]:
        try:
            return match_join(user=user, match_id=match_id)
        except Conflict:  # someone else took the seat a moment ago: the next one
            continue
    mine = Match.objects.filter(status=MatchStatus.OPEN, player0=user, deck=deck, target=target)
    return mine.order_by("created_at").first() or match_create(user=user, deck=deck, target=target)


def challenge_create(*, user, challenged, **options) -> Challenge:
    """Invite ``challenged`` to a match with these options (match_create's); they see it live
    on any page and accept or decline it. It lapses after CHALLENGE_LAPSE."""
    options = {**Challenge().options(), "move_seconds": DEFAULT_MOVE_SECONDS, **options}
    _checked_rules(
        options["deck"], options["target"],
        options["stick_the_dealer"], options["dealer_must_take_up"],
    )  # fmt: skip
    _checked_clock(options["move_seconds"])
    if challenged.pk == user.pk:
        raise NotAllowed("challenge_self")
    if not challenged.is_active or challenged.username.startswith(COMPUTER_USERNAME.format("")):
        raise NotAllowed("not_challengeable", player=challenged.username)
    if is_bot(user) and not bots_may_challenge(challenged):
        raise NotAllowed("no_bot_challenges", player=challenged.username)
    with transaction.atomic():
        pending = Challenge.objects.filter(
            challenger=user, challenged=challenged, status=Challenge.Status.PENDING,
            until__gt=timezone.now(),
        )  # fmt: skip
        if pending.exists():
            raise Conflict("already_challenged", player=challenged.username)
        challenge = Challenge.objects.create(
            challenger=user, challenged=challenged, until=timezone.now() + CHALLENGE_LAPSE,
            **options,
        )  # fmt: skip
        tasks.schedule_challenge_lapse(challenge.pk, challenge.until)
        events.send_user_event_on_commit((user.pk, challenged.pk))
    return challenge


def _locked_challenge(challenge_id: int, user) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("challenger", "challenged")
        .filter(pk=challenge_id)
        .filter(Q(challenger=user) | Q(challenged=user))
        .first()
    )
    if challenge is None:
        raise NotFound("no_such_challenge")
    return challenge


def challenge_accept(*, user, challenge_id: int) -> Match:
    """The challenged player accepts: the match starts and both players' pages go to it."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, user)
        if challenge.challenged_id != user.pk:
            raise NotAllowed("only_challenged_accepts")
        if challenge.status == Challenge.Status.ACCEPTED and challenge.match_id:
            return challenge.match  # a second click
        lapsed = challenge.status == Challenge.Status.PENDING and timezone.now() >= challenge.until
        if lapsed:
            _challenge_end(challenge, Challenge.Status.LAPSED)
        elif challenge.status != Challenge.Status.PENDING:
            raise Conflict("challenge_closed")
        else:
            match = _match_start(
                players=(challenge.challenger, challenge.challenged),
                created_by=challenge.challenger, options=challenge.options(),
            )  # fmt: skip
            challenge.match = match
            _challenge_end(challenge, Challenge.Status.ACCEPTED, goto=match.pk, asked_by=user)
    if lapsed:
        raise Conflict("challenge_lapsed")
    return match


def challenge_decline(*, user, challenge_id: int) -> Challenge:
    """The challenged player declines, or the challenger withdraws the challenge."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, user)
        if challenge.status != Challenge.Status.PENDING:
            raise Conflict("challenge_closed")
        mine = challenge.challenger_id == user.pk
        _challenge_end(challenge, Challenge.Status.CANCELLED if mine else Challenge.Status.DECLINED)
    return challenge


def challenge_lapse(*, challenge_id: int) -> bool:
    """Nobody answered in time (the task queued with the challenge). True if it lapsed now."""
    with transaction.atomic():
        challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
        if challenge is None or challenge.status != Challenge.Status.PENDING:
            return False
        _challenge_end(challenge, Challenge.Status.LAPSED)
    return True


def _challenge_end(
    challenge: Challenge, status: str, goto: int | None = None, asked_by=None
) -> None:
    """``goto``: the match both players' pages go to (the page of ``asked_by``, who accepted,
    with the answer to its request; the challenger's by a push). Both banners change."""
    challenge.status = status
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "match", "answered_at"])
    players = (challenge.challenger_id, challenge.challenged_id)
    going = tuple(pk for pk in players if asked_by is None or pk != asked_by.pk)
    events.send_user_event_on_commit(going, goto=goto)
