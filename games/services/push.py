"""Web Push: a player's devices (each a browser's push subscription) and the notifications
sent to them by the task worker, never by a web request.

A notification is RFC 8030's message to the device's endpoint, its body encrypted for the
device (RFC 8291, aes128gcm) and signed for the site (RFC 8292, VAPID): ``pywebpush`` does
the three. Its payload is what the site's service worker shows (``static/js/sw.js``): JSON
``{"title", "body", "url", "tag"}``, the url a path of the site. The words are the player's
language's, from presentation (``push_wording``: the app hands them in at start, since this
layer speaks no player words), made from names and links only: never a card, a seed or a
hand.

Each kind goes at most once for a match (a challenge, an arena) until the player acts
(``PushSent``: a turn's mark is the number of the player's last move). A push service's 404
or 410 deletes the device; any other failure is logged and the delivery tried again later
(``PUSH_RETRIES``, a task each). With no VAPID keys set nothing is sent, and the settings
page says so.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation

from .. import tasks
from ..db.selectors.connections import PRESENCE_TIMEOUT
from ..errors import LimitReached
from ..models import (
    Arena,
    ArenaPlayer,
    Challenge,
    Connection,
    Follow,
    Match,
    MatchStatus,
    Move,
    PlayerSettings,
    PushKind,
    PushSent,
    PushSubscription,
    RematchState,
)

log = logging.getLogger(__name__)

# The most devices one player may have notified (each is a request per notification).
DEVICES_PER_PLAYER = 20
# The most followers told of one open match (as follows.FOLLOWERS_TOLD tells their pages).
FOLLOWERS_PUSHED = 2000
# A push service's answers that say the subscription is gone for good (RFC 8030 section 7.3).
GONE = (404, 410)

# words(kind, facts) -> {"title": str, "body": str}, in the active language: presentation's,
# handed in by the app as it starts (games.apps).
_wording: list[Callable[[str, dict], dict]] = []


def push_wording(words: Callable[[str, dict], dict]) -> None:
    """From now on notifications are worded by ``words(kind, facts)``."""
    _wording[:] = [words]


def push_configured() -> bool:
    """Whether the site has its VAPID keys (else nothing is sent, and settings say so)."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


# The player's devices, from the settings page.


def push_subscribe(
    *, user, endpoint: str, p256dh: str, auth: str, device: str = ""
) -> PushSubscription:
    """This device (its browser's subscription) is notified from now on, of the kinds the
    player's other devices are (all, for a first one). A browser subscribed before under
    another account now belongs to this one: the subscription is the browser's, and whoever
    logged in on it last is the one to tell. Refused (LimitReached) past
    ``DEVICES_PER_PLAYER``."""
    with transaction.atomic():
        mine = PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint)
        if mine.count() >= DEVICES_PER_PLAYER:
            raise LimitReached("push_devices_cap", count=DEVICES_PER_PLAYER)
        newest = mine.order_by("-created_at").values_list("kinds", flat=True).first()
        found = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        fields = {"user": user, "p256dh": p256dh, "auth": auth, "device": device[:120]}
        if found is None:
            kinds = newest if newest is not None else ",".join(PushKind.values)
            return PushSubscription.objects.create(endpoint=endpoint, kinds=kinds, **fields)
        if found.user_id != user.pk and newest is not None:
            fields["kinds"] = newest
        for name, value in fields.items():
            setattr(found, name, value)
        found.save()
        return found


def push_unsubscribe(*, user, subscription_id: int | None = None, endpoint: str = "") -> int:
    """Forget one of the player's devices (by its id, from the list; or by its endpoint,
    from the device itself turning notifications off). The number forgotten (0: not theirs)."""
    mine = PushSubscription.objects.filter(user=user)
    if subscription_id is not None:
        mine = mine.filter(pk=subscription_id)
    elif endpoint:
        mine = mine.filter(endpoint=endpoint)
    else:
        return 0
    with transaction.atomic():
        deleted, _ = mine.delete()
    return deleted


def push_kinds_set(*, user, kinds: list[str], mail_too: bool) -> None:
    """What the player's devices are told of (``PushKind`` values), and whether the turn's
    mail still goes when a device was told of the turn."""
    chosen = ",".join(kind for kind in PushKind.values if kind in kinds)
    with transaction.atomic():
        PushSubscription.objects.filter(user=user).update(kinds=chosen)
        PlayerSettings.objects.update_or_create(
            user=user, defaults={"turn_mail_with_push": bool(mail_too)}
        )


def connection_visibility(*, channel_name: str, hidden: bool) -> None:
    """A match page's tab is hidden (or shown again): its socket says so."""
    Connection.objects.filter(channel_name=channel_name).update(hidden=hidden)


def push_told_turn(*, user, match: Match) -> bool:
    """Whether a device of the player was told of their turn in ``match`` as it stands (since
    their last move), and they did not ask for the mail too: then the turn's mail stays home."""
    if PlayerSettings.objects.filter(user=user, turn_mail_with_push=True).exists():
        return False
    seat = match.seat_of(user)
    if seat is None:
        return False
    return PushSent.objects.filter(
        user=user, kind=PushKind.TURN, subject=match.pk, mark=_mark(match, seat)
    ).exists()


def live_turn_push(match: Match) -> None:
    """In the transaction of a change to a live match: if the player to act has a hidden tab
    of it open, queue the notification of their turn (the task checks again). Nothing is read
    unless the site has its VAPID keys."""
    if not push_configured() or match.days_per_move or match.status != MatchStatus.ACTIVE:
        return
    to_act = (match.player0_id, match.player1_id)[match.state.turn]
    if to_act is None or (match.computer and match.state.turn == 1):
        return
    since = timezone.now() - PRESENCE_TIMEOUT
    hidden = Connection.objects.filter(match=match, user_id=to_act, hidden=True, seen_at__gte=since)
    if hidden.exists():
        tasks.schedule_push(PushKind.LIVE, match.pk, match.version)


# Sending: the task worker's.


def push_notify(*, kind: str, subject: int, version: int | None = None) -> int:
    """Notify whom ``kind`` concerns about ``subject`` (a match's, a challenge's or an
    arena's id; ``version``: the match's, when the notification is of a change at it), if it
    still holds. The number of players notified."""
    if not push_configured():
        return 0
    if kind == PushKind.TURN:
        found = _turn(subject, version, live=False)
    elif kind == PushKind.LIVE:
        found = _turn(subject, version, live=True)
    elif kind == PushKind.CHALLENGE:
        found = _challenge(subject)
    elif kind == PushKind.REMATCH:
        found = _rematch(subject, version)
    elif kind == PushKind.ARENA:
        found = _arena(subject)
    elif kind == PushKind.FOLLOW:
        found = _followed_open(subject)
    else:
        raise ValueError(f"no push kind {kind!r}")
    # Whom it concerns (up to FOLLOWERS_PUSHED) read together: their devices, their language.
    users = [user.pk for user, _mark, _facts in found]
    devices: dict[int, list[PushSubscription]] = {}
    for device in PushSubscription.objects.filter(user__in=users):
        if kind in device.kind_list:
            devices.setdefault(device.user_id, []).append(device)
    spoken = PlayerSettings.objects.filter(user__in=users).values_list("user_id", "language")
    languages = dict(spoken)
    return sum(
        _push_to(user, kind, subject, mark, facts, devices.get(user.pk, []), languages.get(user.pk))
        for user, mark, facts in found
    )


def _mark(match: Match, seat: int) -> int:
    """The number of the player's last move in the match (0: none): it changes as they act."""
    last = Move.objects.filter(match=match, seat=seat).order_by("-seq")
    return last.values_list("seq", flat=True).first() or 0


def _match_path(match_id: int) -> str:
    return reverse("match_detail", args=[match_id])


def _turn(match_id: int, version: int | None, *, live: bool) -> list:
    """The player to act, if the turn has just passed to them at ``version`` and they are not
    looking at the match: in a correspondence match, no open tab of theirs shows it; in a live
    one, their tabs of it are all hidden (none open: they left, and the clock tells)."""
    match = Match.objects.select_related("player0", "player1").filter(pk=match_id).first()
    if match is None or match.version != version or match.status != MatchStatus.ACTIVE:
        return []
    if bool(match.days_per_move) == live:
        return []
    turn = match.state.turn
    last = Move.objects.filter(match=match).order_by("-seq").values_list("seat", flat=True)
    if last.first() == turn:  # the turn stayed with the player who moved: they are there
        return []
    player, opponent = match.players[turn], match.players[turn ^ 1]
    if player is None or opponent is None:
        return []
    since = timezone.now() - PRESENCE_TIMEOUT
    tabs = Connection.objects.filter(match=match, user=player, seen_at__gte=since)
    if tabs.filter(hidden=False).exists():
        return []
    if live and not tabs.exists():
        return []
    facts = {"opponent": opponent.username, "url": _match_path(match.pk)}
    return [(player, _mark(match, turn), facts)]


def _challenge(challenge_id: int) -> list:
    challenge = (
        Challenge.objects.select_related("challenger", "challenged")
        .filter(pk=challenge_id, status=Challenge.Status.PENDING, until__gt=timezone.now())
        .first()
    )
    if challenge is None:
        return []
    facts = {"player": challenge.challenger.username, "url": reverse("lobby")}
    return [(challenge.challenged, 0, facts)]


def _rematch(match_id: int, version: int | None) -> list:
    match = Match.objects.select_related("player0", "player1").filter(pk=match_id).first()
    if match is None or match.version != version:
        return []
    if match.rematch_state != RematchState.OFFERED or match.rematch_seat is None:
        return []
    asking, asked = match.players[match.rematch_seat], match.players[match.rematch_seat ^ 1]
    if asking is None or asked is None:
        return []
    return [(asked, 0, {"player": asking.username, "url": _match_path(match.pk)})]


def _arena(arena_id: int) -> list:
    arena = Arena.objects.filter(pk=arena_id, status=Arena.Status.RUNNING).first()
    if arena is None:
        return []
    entries = ArenaPlayer.objects.filter(arena=arena, removed=False, paused=False)
    facts = {"arena": arena.name, "url": reverse("arena", args=[arena.pk])}
    return [(entry.user, 0, facts) for entry in entries.select_related("user")]


def _followed_open(match_id: int) -> list:
    match = Match.objects.select_related("player0").filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.OPEN or match.player0 is None:
        return []
    follows = Follow.objects.filter(followed=match.player0, notify=True).select_related("follower")
    facts = {"player": match.player0.username, "url": _match_path(match.pk)}
    return [(follow.follower, 0, facts) for follow in follows[:FOLLOWERS_PUSHED]]


def _push_to(
    user, kind: str, subject: int, mark: int, facts: dict, devices: list, language: str | None
) -> int:
    """Send the notification to ``devices``, the player's that want this kind, in their
    ``language``, unless one went for this subject and mark already. 1 if it went out, else 0."""
    if not devices or not user.is_active or not _wording:
        return 0
    try:
        with transaction.atomic():  # claimed before it goes: a retried task sends no second
            PushSent.objects.create(user=user, kind=kind, subject=subject, mark=mark)
    except IntegrityError:
        return 0
    with translation.override(language or settings.LANGUAGE_CODE):
        words = _wording[0](kind, facts)
    payload = {
        "title": str(words["title"]),
        "body": str(words["body"]),
        "url": facts["url"],
        "tag": f"{kind}-{subject}",
    }
    data = json.dumps(payload, ensure_ascii=False)
    for device in devices:
        push_deliver(subscription_id=device.pk, data=data, attempt=0)
    return 1


def push_deliver(*, subscription_id: int, data: str, attempt: int) -> bool:
    """Send ``data`` (the payload's JSON) to one device. True if its push service took it;
    a 404 or 410 deletes the device; another failure is logged and queued again, up to
    ``PUSH_RETRIES`` times."""
    import requests  # pywebpush's http, and aiohttp: loaded by the worker alone
    from py_vapid import VapidException
    from pywebpush import WebPushException, webpush

    device = PushSubscription.objects.filter(pk=subscription_id).first()
    if device is None or not push_configured():
        return False
    info = {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}}
    try:
        webpush(
            info,
            data=data,
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT},  # a new dict: pywebpush adds aud
            ttl=settings.PUSH_TTL_SECONDS,
            timeout=10,
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            log.info("push device %s gone (%s): forgotten", device.pk, status)
            PushSubscription.objects.filter(pk=device.pk).delete()
            return False
        return _failed(device, data, attempt, f"{status} {error}")
    except (requests.RequestException, VapidException, ValueError, TypeError) as error:
        # The service unreachable, or keys it cannot encrypt or sign with (a device's, ours).
        return _failed(device, data, attempt, repr(error))
    PushSubscription.objects.filter(pk=device.pk).update(last_sent_at=timezone.now())
    return True


def _failed(device: PushSubscription, data: str, attempt: int, why: str) -> bool:
    tries = attempt + 1
    if attempt < settings.PUSH_RETRIES:
        log.warning("push to device %s failed (try %s), tried again: %s", device.pk, tries, why)
        due = timezone.now() + timezone.timedelta(
            seconds=settings.PUSH_RETRY_SECONDS * (attempt + 1)
        )
        tasks.schedule_push_deliver(device.pk, data, attempt + 1, due)
    else:
        log.warning("push to device %s failed (try %s), given up: %s", device.pk, tries, why)
    return False
