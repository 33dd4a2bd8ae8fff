"""Challenges: one player invites another to a match with chosen options; accepted, declined,
withdrawn, or lapsing when nobody answers.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from .. import tasks
from ..db.selectors.fairplay import fair_play_marked
from ..db.selectors.players import bots_may_challenge
from ..errors import Conflict, GameError, NotAllowed, NotFound
from ..models import (
    Challenge,
    DeclineReason,
    Match,
    is_bot,
    is_computer,
    is_guest,
)
from . import events, throttle
from .clocks import DEFAULT_MOVE_SECONDS
from .follows import blocked
from .matches import clock_checked, days_checked, match_start, rules_checked

# An unanswered challenge lapses after this long.
CHALLENGE_LAPSE = timedelta(minutes=5)


def challenge_create(*, user, challenged, **options) -> Challenge:
    """Invite ``challenged`` to a match with these options (match_create's); they see it live
    on any page and accept or decline it. It lapses after CHALLENGE_LAPSE."""
    options = {**Challenge().options(), "move_seconds": DEFAULT_MOVE_SECONDS, **options}
    rules_checked(
        options["deck"], options["target"],
        options["stick_the_dealer"], options["dealer_must_take_up"],
    )  # fmt: skip
    days_checked(options["days_per_move"])
    if options["days_per_move"]:
        options["move_seconds"] = None  # a correspondence match: days, not a move clock
    clock_checked(options["move_seconds"])
    if challenged.pk == user.pk:
        raise NotAllowed("challenge_self")
    if is_guest(user):
        raise NotAllowed("guest_challenge")
    if is_guest(challenged):
        raise NotAllowed("not_challengeable", player=challenged.username)
    if options["rated"] and fair_play_marked(user):
        raise NotAllowed("fair_play_rated")
    if options["rated"] and fair_play_marked(challenged):
        raise NotAllowed("fair_play_rated_other", player=challenged.username)
    if not challenged.is_active or is_computer(challenged):
        raise NotAllowed("not_challengeable", player=challenged.username)
    if blocked(by=challenged, player=user):
        raise NotAllowed("challenge_blocked", player=challenged.username)
    if is_bot(user) and not bots_may_challenge(challenged):
        raise NotAllowed("no_bot_challenges", player=challenged.username)
    # Each challenge is a row, a task and a notice on the other player's every page.
    throttle.limit("challenge", user, settings.CHALLENGES_PER_10_MINUTES, 600)
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
        tasks.schedule_push("challenge", challenge.pk)
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
            match = match_start(
                players=(challenge.challenger, challenge.challenged),
                created_by=challenge.challenger, options=challenge.options(),
            )  # fmt: skip
            challenge.match = match
            _challenge_end(challenge, Challenge.Status.ACCEPTED, goto=match.pk, asked_by=user)
    if lapsed:
        raise Conflict("challenge_lapsed")
    return match


def challenge_decline(*, user, challenge_id: int, reason: str = DeclineReason.GENERIC) -> Challenge:
    """The challenged player declines, saying why (``reason``, one of DeclineReason's), or
    the challenger withdraws the challenge (no reason kept)."""
    if reason not in DeclineReason.values:
        raise GameError("bad_decline_reason", reason=str(reason)[:40])
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, user)
        if challenge.status != Challenge.Status.PENDING:
            raise Conflict("challenge_closed")
        if challenge.challenger_id == user.pk:
            _challenge_end(challenge, Challenge.Status.CANCELLED)
        else:
            challenge.decline_reason = reason
            _challenge_end(challenge, Challenge.Status.DECLINED)
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
    challenge.save(update_fields=["status", "match", "answered_at", "decline_reason"])
    players = (challenge.challenger_id, challenge.challenged_id)
    going = tuple(pk for pk in players if asked_by is None or pk != asked_by.pk)
    events.send_user_event_on_commit(going, goto=goto)
