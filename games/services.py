"""Every write to matches and moves. Views, consumers and admin actions call these.

Each service is one transaction: lock the match row, read its state, check, write. A
submission carries the match version it was made against, so a double click or a second tab
is refused instead of applied twice.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from . import rating, realtime, tasks
from .engine import (
    Action,
    IllegalAction,
    Rules,
    apply,
    first_dealer,
    new_match,
    new_seed,
    state_from_json,
    state_to_json,
)
from .models import (
    COMPUTER_USERNAME,
    Challenge,
    Computer,
    Connection,
    EndReason,
    Match,
    MatchStatus,
    ModerationAction,
    Move,
    PlayerRating,
    PlayerSettings,
    RatingChange,
    RematchState,
    Report,
)
from .refusals import refusal_words
from .selectors import PRESENCE_TIMEOUT

# The move clock (seconds for each action; a match may also have none).
DEFAULT_MOVE_SECONDS = 60
MIN_MOVE_SECONDS = 10
MAX_MOVE_SECONDS = 3600
# Without a clock, the waiting player may claim a match the opponent left this long ago.
ABANDON_AFTER = timedelta(minutes=5)
# An unanswered rematch offer lapses after this long; a challenge after the second.
REMATCH_LAPSE = timedelta(minutes=2)
CHALLENGE_LAPSE = timedelta(minutes=5)
# A player whose last socket on the match closed this long ago has left its page (a reload
# opens a new one well within it).
REMATCH_LEAVE_GRACE = timedelta(seconds=5)


class GameError(Exception):
    """A request the rules or the match refuse; ``status`` is the HTTP status to answer with."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(GameError):
    status = 404


class NotAllowed(GameError):
    status = 403


class Conflict(GameError):
    """The match moved on (stale version) or is over."""

    status = 409


def _locked(match_id: int) -> Match:
    try:
        # The players come in the same query (the board answering the request needs them);
        # only the match row is locked.
        matches = Match.objects.select_for_update(of=("self",))
        match = matches.select_related("player0", "player1").get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("There is no such match")) from None
    if match.winner_id is not None:  # one of the two players: no third join for it
        match.winner = match.player0 if match.winner_id == match.player0_id else match.player1
    return match


def _locked_seat(match_id: int, user) -> tuple[Match, int]:
    """The locked match and the user's seat in it; refused if the user is not playing."""
    match = _locked(match_id)
    seat = match.seat_of(user)
    if seat is None:
        raise NotAllowed(_("You are not playing in this match"))
    return match, seat


def _save(
    match: Match, lobby: bool = False, fields: tuple[str, ...] = (), watch: bool = False
) -> None:
    """Every change bumps the version, so that submissions made against the old one fail.
    ``fields``: the only ones changed, when the caller knows (a move: a shorter UPDATE);
    ``watch``: the lobby's list of matches to watch shows something this change altered."""
    match.version += 1
    match.save(update_fields=[*fields, "version"] if fields else None)
    players = (match.player0_id, match.player1_id) if lobby else ()
    realtime.send_event_on_commit(
        match.pk, version=match.version, lobby=tuple(pk for pk in players if pk), watch=watch
    )
    _schedule(match)


def _schedule(match: Match) -> None:
    """Queue what this change makes due, in its transaction: the computer's move, and the end
    of a clocked turn. Each task is for this version only."""
    if match.status != MatchStatus.ACTIVE:
        return
    if match.computer and match.state.turn == 1:
        tasks.schedule_computer_move(match.pk, match.version)
    deadline = match.deadline
    if deadline is not None:
        tasks.schedule_clock_expire(match.pk, match.version, deadline)


def _checked_rules(deck, target, stick_the_dealer, dealer_must_take_up) -> Rules:
    try:
        return Rules(deck, target, stick_the_dealer, dealer_must_take_up)
    except ValueError as error:
        raise GameError(str(error)) from None


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
) -> Match:
    """An open match with ``user`` in seat 0, waiting for an opponent."""
    rules = _checked_rules(deck, target, stick_the_dealer, dealer_must_take_up)
    _checked_clock(move_seconds)
    with transaction.atomic():
        match = Match.objects.create(
            player0=user,
            created_by=user,
            **rules.as_dict(),  # deck, target and the house rules: the Match fields' names
            rated=rated,
            seed=str(new_seed()),
            spectators_allowed=spectators_allowed,
            move_seconds=move_seconds,
        )
        realtime.send_event_on_commit(match.pk, version=match.version, lobby=(user.pk,))
    return match


def computer_user(strength: str):
    """The account that sits in seat 1 for the computer of this strength (made on first use;
    sign-up keeps the ``computer-`` names free, and nobody can log in to these accounts)."""
    if strength not in Computer.values:
        raise GameError(_("Choose easy, medium or hard"))
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
    rules = _checked_rules(deck, target, stick_the_dealer, dealer_must_take_up)
    with transaction.atomic():
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
        _save(match, lobby=True)
    return match


def match_join(*, user, match_id: int) -> Match:
    """Take the free seat of an open match; the first hand is dealt at once."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != MatchStatus.OPEN:
            raise Conflict(_("This match is no longer open: someone else took the seat"))
        if match.player0_id == user.pk:
            raise NotAllowed(_("You cannot play against yourself: share the invite link"))
        match.player1 = user
        match.status = MatchStatus.ACTIVE
        match.started_at = match.turn_started_at = timezone.now()
        match.snapshot = state_to_json(new_match(int(match.seed), match.rules))
        _save(match, lobby=True)
    return match


def match_abort(*, user, match_id: int) -> Match:
    """Call a match off before its first move: no result, no rating."""
    with transaction.atomic():
        match, _seat = _locked_seat(match_id, user)
        if match.is_over:
            raise Conflict(_("This match is already over"))
        if match.both_acted:
            raise Conflict(_("The match has started: resign instead"))
        _abort(match)
        _save(match, lobby=True)
    return match


def _abort(match: Match) -> None:
    match.status = MatchStatus.ABORTED
    match.end_reason = EndReason.ABORTED
    match.finished_at = timezone.now()


def _forfeit(match: Match, *, winner, reason: EndReason) -> None:
    """A player leaves (resigns, runs out of time, is claimed against): the opponent wins,
    unless a player has not made a first action yet, and then leaving costs nothing: the match
    is called off, with no result and no rating (lichess's abort)."""
    if match.both_acted:
        _finish(match, winner=winner, reason=reason)
    else:
        _abort(match)


def match_resign(*, user, match_id: int) -> Match:
    """Give the match up: the opponent wins it (before both have acted: called off)."""
    with transaction.atomic():
        match, seat = _locked_seat(match_id, user)
        if match.status != MatchStatus.ACTIVE:
            raise Conflict(_("This match is not in play"))
        _forfeit(match, winner=match.players[seat ^ 1], reason=EndReason.RESIGNED)
        _save(match, lobby=True)
    return match


def move_apply(*, user, match_id: int, action: str, version: int) -> Match:
    """Apply one action by ``user`` to the match, if it is theirs to make and still current."""
    with transaction.atomic():
        match, seat = _locked_seat(match_id, user)
        # A move that comes in after the clock ran out ends the match instead (and that is
        # committed: the refusal below is raised outside the transaction).
        late = _expire_if_due(match)
        if not late:
            _apply(match, seat, user, action, version)
    if late:
        raise Conflict(_("Time ran out before that move: the match is over"))
    return match


def _apply(match: Match, seat: int, user, action: str, version: int) -> None:
    if match.status != MatchStatus.ACTIVE:
        raise Conflict(
            _("This match is over") if match.is_over else _("This match has not started yet")
        )
    if version != match.version:
        raise Conflict(_("The table has changed since you saw it: here is the current one"))
    before = state_from_json(match.snapshot)
    try:
        state = apply(before, Action.parse(seat, action))
    except IllegalAction as error:
        raise GameError(refusal_words(error)) from None
    match.move_count += 1
    Move.objects.create(match=match, seq=match.move_count, seat=seat, player=user, action=action)
    scored = state.scores != before.scores
    match.snapshot = state_to_json(state)
    match.turn_started_at = timezone.now()
    match.acted |= 1 << seat
    if state.is_over:
        _finish(match, winner=match.players[state.winner], reason=EndReason.PLAYED_OUT)
        _save(match, lobby=True)
    else:
        # A hand that ends changes the score the lobby's watch list shows.
        watch = scored and match.spectators_allowed
        _save(match, fields=("snapshot", "turn_started_at", "move_count", "acted"), watch=watch)


# Clocks and abandonment ----------------------------------------------------------------


def _expire_if_due(match: Match) -> bool:
    """On the locked match: if the player to act ran out of time, they lose. True if so."""
    deadline = match.deadline
    if deadline is None or timezone.now() < deadline:
        return False
    late = state_from_json(match.snapshot).turn
    _forfeit(match, winner=match.players[late ^ 1], reason=EndReason.TIMEOUT)
    _save(match, lobby=True)
    return True


def match_expire(*, match_id: int, version: int | None = None) -> bool:
    """End the match if its clock ran out; True if this call ended it. The worker runs it at
    the deadline for the version that started the turn (a later version: nothing to do);
    ``manage.py expire_matches`` sweeps with no version."""
    with transaction.atomic():
        match = _locked(match_id)
        if version is not None and version != match.version:
            return False
        if _expire_if_due(match):
            return True
        deadline = match.deadline
        if version is not None and deadline is not None:  # run early (clocks apart): again
            tasks.schedule_clock_expire(match.pk, match.version, deadline)
        return False


def claim_opens_at(match: Match):
    """When a match without a clock may be claimed from a player who has not acted (None if
    it has a clock or is not in play). The opponent must also have gone: see match_claim."""
    if match.status != MatchStatus.ACTIVE or match.move_seconds or not match.turn_started_at:
        return None
    return match.turn_started_at + ABANDON_AFTER


def match_claim(*, user, match_id: int) -> Match:
    """The waiting player claims the win from an opponent who left: no clock, the opponent's
    turn, no move from them for ABANDON_AFTER and no connection to the match now."""
    with transaction.atomic():
        match, seat = _locked_seat(match_id, user)
        if _expire_if_due(match):
            return match
        if match.status != MatchStatus.ACTIVE:
            raise Conflict(_("This match is not in play"))
        if match.computer:
            raise Conflict(_("The computer never leaves the table: there is nothing to claim"))
        opens = claim_opens_at(match)
        if opens is None:
            raise Conflict(_("This match has a move clock: it ends by itself when time runs out"))
        if state_from_json(match.snapshot).turn != seat ^ 1:
            raise Conflict(_("It is your turn: there is nothing to claim"))
        opponent = match.players[seat ^ 1]
        since = timezone.now() - PRESENCE_TIMEOUT
        if Connection.objects.filter(match=match, user=opponent, seen_at__gte=since).exists():
            raise Conflict(
                _("%(player)s is still at the table: give them a moment")
                % {"player": opponent.username}
            )
        wait = opens - timezone.now()
        if wait > timedelta(0):
            minutes, seconds = divmod(int(wait.total_seconds()) + 1, 60)
            raise Conflict(
                _("You may claim the match in %(minutes)s min %(seconds)s s")
                % {"minutes": minutes, "seconds": f"{seconds:02d}"}
            )
        _forfeit(match, winner=user, reason=EndReason.ABANDONED)
        _save(match, lobby=True)
    return match


def _finish(match: Match, *, winner, reason: EndReason) -> None:
    """End the match for ``winner``, rating it in the same transaction if it is rated."""
    match.status = MatchStatus.FINISHED
    match.winner = winner
    match.end_reason = reason
    match.finished_at = timezone.now()
    if match.rated:
        _rate(match)


def _rate(match: Match) -> None:
    # Lock both rating rows in a fixed order (by user id) so two matches ending at once
    # between the same players cannot deadlock; the match row is already locked.
    users = sorted(match.players, key=lambda u: u.pk)
    for user in users:
        PlayerRating.objects.get_or_create(user=user)
    ratings = {
        r.user_id: r
        for r in PlayerRating.objects.select_for_update().filter(user__in=users).order_by("user_id")
    }
    before = {pk: (r.value, r.rated_matches) for pk, r in ratings.items()}
    for user in users:
        mine, played = before[user.pk]
        theirs = before[match.opponent_of(user).pk][0]
        delta = rating.change(mine, theirs, 1.0 if match.winner_id == user.pk else 0.0, played)
        RatingChange.objects.create(
            player=user, match=match, before=mine, after=mine + delta, delta=delta, played=played
        )
        row = ratings[user.pk]
        row.value = mine + delta
        row.rated_matches = played + 1
        row.save(update_fields=["value", "rated_matches"])


# Playing again: rematches, the quick pairing, challenges ----------------------------------


def _options(match: Match | Challenge) -> dict:
    """The options a rematch or a challenge's match is played with (the Match fields' names)."""
    return {
        "deck": match.deck, "target": match.target, "stick_the_dealer": match.stick_the_dealer,
        "dealer_must_take_up": match.dealer_must_take_up, "rated": match.rated,
        "spectators_allowed": match.spectators_allowed, "move_seconds": match.move_seconds,
    }  # fmt: skip


def _checked_clock(move_seconds: int | None) -> None:
    if move_seconds is not None and not MIN_MOVE_SECONDS <= move_seconds <= MAX_MOVE_SECONDS:
        raise GameError(
            _("The move clock must be from %(low)s to %(high)s seconds, or no clock")
            % {"low": MIN_MOVE_SECONDS, "high": MAX_MOVE_SECONDS}
        )


def _match_start(*, players: tuple, created_by, options: dict, dealer=None) -> Match:
    """A match between two people, dealt at once (an accepted rematch or challenge).
    ``dealer``: the player who deals first; the seats are arranged for it (the deal's seed
    picks the first dealer's seat)."""
    rules = _checked_rules(
        options["deck"], options["target"],
        options["stick_the_dealer"], options["dealer_must_take_up"],
    )  # fmt: skip
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


REMATCH_FIELDS = ("rematch_seat", "rematch_state", "rematch_until", "next_match")


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
            raise Conflict(_("Only a finished match can be played again"))
        if match.computer:
            return _rematch_start(match, created_by=user)
        if match.rematch_offered and match.rematch_seat != seat:
            return _rematch_start(match, created_by=match.players[match.rematch_seat])
        if match.rematch_offered:
            raise Conflict(_("You have offered a rematch: wait for the answer"))
        if match.rematch_state == RematchState.DECLINED and match.rematch_seat == seat:
            raise Conflict(
                _("%(player)s declined the rematch") % {"player": match.players[seat ^ 1]}
            )
        match.rematch_seat = seat
        match.rematch_state = RematchState.OFFERED
        match.rematch_until = timezone.now() + REMATCH_LAPSE
        _save(match, fields=REMATCH_FIELDS)
        tasks.schedule_rematch_lapse(match.pk, match.version, match.rematch_until)
    return match


def _rematch_start(match: Match, *, created_by) -> Match:
    """The rematch of the locked, finished ``match``; both players' pages go to it."""
    old_dealer = first_dealer(int(match.seed))
    options = _options(match)
    if match.computer:
        # The computer keeps seat 1: the deal is drawn until seat 0's first dealer changes.
        new = match_create_computer(
            user=match.player0, strength=match.computer,
            **{key: options[key] for key in ("deck", "target", "stick_the_dealer",
                                             "dealer_must_take_up")},
            dealer_seat=old_dealer ^ 1,
        )  # fmt: skip
    else:
        new = _match_start(
            players=match.players, created_by=created_by, options=options,
            dealer=match.players[old_dealer ^ 1],
        )  # fmt: skip
    match.next_match = new
    match.rematch_state = ""
    _save(match, fields=REMATCH_FIELDS)
    people = (match.player0_id,) if match.computer else (match.player0_id, match.player1_id)
    realtime.send_user_event_on_commit(people, goto=new.pk)
    return new


def rematch_accept(*, user, match_id: int) -> Match:
    """The opponent takes up the rematch offer: the new match, for both players' pages."""
    with transaction.atomic():
        match, seat = _locked_seat(match_id, user)
        if match.next_match_id is not None:
            return match.next_match
        if not match.rematch_offered or match.rematch_seat == seat:
            raise Conflict(_("There is no rematch offer to accept"))
        lapsed = timezone.now() >= match.rematch_until
        if lapsed:  # its task has not run yet: the offer lapses now (and that is committed)
            _rematch_end(match, RematchState.LAPSED)
        else:
            new = _rematch_start(match, created_by=match.players[match.rematch_seat])
    if lapsed:
        raise Conflict(_("The rematch offer has lapsed"))
    return new


def rematch_decline(*, user, match_id: int) -> Match:
    """The opponent declines the rematch offer, or the player who made it withdraws it."""
    with transaction.atomic():
        match, seat = _locked_seat(match_id, user)
        if not match.rematch_offered:
            raise Conflict(_("There is no rematch offer to answer"))
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


def _rematch_check_left(match_id: int) -> None:
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
    options = {**_options(Challenge()), "move_seconds": DEFAULT_MOVE_SECONDS, **options}
    _checked_rules(
        options["deck"], options["target"],
        options["stick_the_dealer"], options["dealer_must_take_up"],
    )  # fmt: skip
    _checked_clock(options["move_seconds"])
    if challenged.pk == user.pk:
        raise NotAllowed(_("You cannot challenge yourself"))
    if not challenged.is_active or challenged.username.startswith(COMPUTER_USERNAME.format("")):
        raise NotAllowed(_("%(player)s cannot be challenged") % {"player": challenged.username})
    with transaction.atomic():
        pending = Challenge.objects.filter(
            challenger=user, challenged=challenged, status=Challenge.Status.PENDING,
            until__gt=timezone.now(),
        )  # fmt: skip
        if pending.exists():
            raise Conflict(
                _("You have challenged %(player)s already: wait for the answer")
                % {"player": challenged.username}
            )
        challenge = Challenge.objects.create(
            challenger=user, challenged=challenged, until=timezone.now() + CHALLENGE_LAPSE,
            **options,
        )  # fmt: skip
        tasks.schedule_challenge_lapse(challenge.pk, challenge.until)
        realtime.send_user_event_on_commit((user.pk, challenged.pk))
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
        raise NotFound(_("There is no such challenge"))
    return challenge


def challenge_accept(*, user, challenge_id: int) -> Match:
    """The challenged player accepts: the match starts and both players' pages go to it."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, user)
        if challenge.challenged_id != user.pk:
            raise NotAllowed(_("Only the challenged player can accept a challenge"))
        if challenge.status == Challenge.Status.ACCEPTED and challenge.match_id:
            return challenge.match  # a second click
        lapsed = challenge.status == Challenge.Status.PENDING and timezone.now() >= challenge.until
        if lapsed:
            _challenge_end(challenge, Challenge.Status.LAPSED)
        elif challenge.status != Challenge.Status.PENDING:
            raise Conflict(_("This challenge is no longer open"))
        else:
            match = _match_start(
                players=(challenge.challenger, challenge.challenged),
                created_by=challenge.challenger, options=_options(challenge),
            )  # fmt: skip
            challenge.match = match
            _challenge_end(challenge, Challenge.Status.ACCEPTED, goto=match.pk)
    if lapsed:
        raise Conflict(_("This challenge has lapsed"))
    return match


def challenge_decline(*, user, challenge_id: int) -> Challenge:
    """The challenged player declines, or the challenger withdraws the challenge."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, user)
        if challenge.status != Challenge.Status.PENDING:
            raise Conflict(_("This challenge is no longer open"))
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


def _challenge_end(challenge: Challenge, status: str, goto: int | None = None) -> None:
    challenge.status = status
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "match", "answered_at"])
    players = (challenge.challenger_id, challenge.challenged_id)
    realtime.send_user_event_on_commit(players, goto=goto)


# Presence: one row per open match socket ------------------------------------------------


def connection_open(*, match_id: int, user, channel_name: str) -> Match:
    """A socket opened on the match: recorded for presence (the match's other sockets hear of
    it). Returns the match as it stands, for the new socket's first board."""
    with transaction.atomic():
        # A channel name is new with every socket: a plain INSERT.
        Connection.objects.create(
            channel_name=channel_name, match_id=match_id, user=user, seen_at=timezone.now()
        )
        match = Match.objects.select_related("player0", "player1", "winner").get(pk=match_id)
        realtime.send_event_on_commit(match_id, presence=True, opened=channel_name)
    return match


def connections_touch(*, channel_names: list[str]) -> None:
    """These sockets are still connected (a server's heartbeat, for all its sockets at once)."""
    Connection.objects.filter(channel_name__in=channel_names).update(seen_at=timezone.now())


def connection_close(*, match_id: int, channel_name: str) -> None:
    with transaction.atomic():
        Connection.objects.filter(channel_name=channel_name).delete()
        realtime.send_event_on_commit(match_id, presence=True)
    _rematch_check_left(match_id)  # a rematch offer lapses when a player leaves


def rating_changes_reverse(*, match: Match) -> int:
    """Undo a match's rating changes (moderation voids a match): each player's rating goes
    back by exactly the points that match gave, and the match stops counting as rated.

    Later matches keep their own changes: a rating is the start value plus the sum of the
    deltas that still count, so removing one match's deltas leaves the rest consistent.
    Returns how many changes were undone.
    """
    with transaction.atomic():
        changes = list(
            RatingChange.objects.select_for_update().filter(match=match).order_by("player_id")
        )
        ratings = {
            r.user_id: r
            for r in PlayerRating.objects.select_for_update()
            .filter(user_id__in=[c.player_id for c in changes])
            .order_by("user_id")
        }
        for change in changes:
            row = ratings[change.player_id]
            row.value -= change.delta
            row.rated_matches -= 1
            row.save(update_fields=["value", "rated_matches"])
        RatingChange.objects.filter(pk__in=[c.pk for c in changes]).delete()
    return len(changes)


# Moderation: every action is audited, with the moderator's reason ---------------------------


def _audit(moderator, kind: str, reason: str, **about) -> ModerationAction:
    return ModerationAction.objects.create(moderator=moderator, kind=kind, reason=reason, **about)


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise GameError(_("Give a reason: it is kept in the audit log"))
    return reason


def match_void(*, moderator, match_id: int, reason: str) -> Match:
    """The match no longer counts: its rating changes are reversed exactly."""
    reason = _reason(reason)
    with transaction.atomic():
        match = _locked(match_id)
        if match.status == MatchStatus.VOIDED:
            raise Conflict(_("This match is already void"))
        rating_changes_reverse(match=match)
        match.status = MatchStatus.VOIDED
        match.end_reason = EndReason.VOIDED
        match.finished_at = match.finished_at or timezone.now()
        _save(match, lobby=True)
        _audit(moderator, ModerationAction.Kind.VOID, reason, match=match)
    return match


def match_adjudicate(*, moderator, match_id: int, winner, reason: str) -> Match:
    """End an active match and award it to ``winner``; rated as a normal finish."""
    reason = _reason(reason)
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != MatchStatus.ACTIVE:
            raise Conflict(_("Only a match in play can be adjudicated"))
        if match.seat_of(winner) is None:
            raise GameError(_("The winner must be one of the match's players"))
        _finish(match, winner=winner, reason=EndReason.ADJUDICATED)
        _save(match, lobby=True)
        _audit(moderator, ModerationAction.Kind.ADJUDICATE, reason, match=match, player=winner)
    return match


def match_abort_moderated(*, moderator, match_id: int, reason: str) -> Match:
    """End an open or active match with no result and no rating change."""
    reason = _reason(reason)
    with transaction.atomic():
        match = _locked(match_id)
        if match.is_over:
            raise Conflict(_("This match is already over"))
        match.status = MatchStatus.ABORTED
        match.end_reason = EndReason.ABORTED_BY_MODERATOR
        match.finished_at = timezone.now()
        _save(match, lobby=True)
        _audit(moderator, ModerationAction.Kind.ABORT, reason, match=match)
    return match


def player_suspend(*, moderator, player, reason: str) -> None:
    """The player can no longer log in or play; their matches in play go to their opponents
    (open ones are called off)."""
    reason = _reason(reason)
    with transaction.atomic():
        player.is_active = False  # Django refuses inactive users' logins and sessions
        player.save(update_fields=["is_active"])
        _audit(moderator, ModerationAction.Kind.SUSPEND, reason, player=player)
        mine = Match.objects.filter(Q(player0=player) | Q(player1=player))
        for match in mine.filter(status=MatchStatus.ACTIVE).select_related("player0", "player1"):
            match_adjudicate(
                moderator=moderator, match_id=match.pk, winner=match.opponent_of(player),
                reason=f"Opponent suspended: {reason}",
            )  # fmt: skip
        for match_id in mine.filter(status=MatchStatus.OPEN).values_list("pk", flat=True):
            match_abort_moderated(
                moderator=moderator, match_id=match_id, reason=f"Creator suspended: {reason}"
            )


def player_reinstate(*, moderator, player, reason: str) -> None:
    reason = _reason(reason)
    with transaction.atomic():
        player.is_active = True
        player.save(update_fields=["is_active"])
        _audit(moderator, ModerationAction.Kind.REINSTATE, reason, player=player)


def report_create(*, reporter, match_id: int, reason: str, details: str = "") -> Report:
    """A player reports their opponent in a match."""
    if reason not in Report.Reason.values:
        raise GameError(_("Choose a reason from the list"))
    with transaction.atomic():
        match = _locked(match_id)
        seat = match.seat_of(reporter)
        if seat is None or match.players[seat ^ 1] is None:
            raise NotAllowed(_("You can only report your opponent in a match you play"))
        if match.computer:
            raise NotAllowed(_("The computer plays by the rules: there is nobody to report"))
        return Report.objects.create(
            reporter=reporter, reported=match.players[seat ^ 1], match=match,
            reason=reason, details=(details or "")[:2000],
        )  # fmt: skip


def report_close(*, moderator, report: Report, dismissed: bool, reason: str) -> Report:
    reason = _reason(reason)
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report.pk)
        if report.status != Report.Status.OPEN:
            raise Conflict(_("This report was already handled"))
        report.status = Report.Status.DISMISSED if dismissed else Report.Status.RESOLVED
        report.save(update_fields=["status"])
        kind = (
            ModerationAction.Kind.DISMISS_REPORT
            if dismissed
            else ModerationAction.Kind.RESOLVE_REPORT
        )
        _audit(moderator, kind, reason, report=report, match=report.match, player=report.reported)
    return report


# Player settings ---------------------------------------------------------------------------


def player_language_set(*, user, language: str) -> None:
    """Save the player's language (a code from settings.LANGUAGES; the view checks it)."""
    with transaction.atomic():
        PlayerSettings.objects.update_or_create(user=user, defaults={"language": language})
