"""Web Push through a real task worker (``manage.py run_worker``, a process of its own) to a
local push service that speaks the protocol (tests/support/push_service.py: RFC 8030
delivery, RFC 8292's VAPID checked against the site's key, RFC 8291's payload decrypted with
the device's own keys). A browser here cannot reach a real push service: the protocol is what
is tested. Each kind goes once, in the player's language, with nothing hidden in it."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext

from games import services, tasks
from games.models import Arena, Match, MatchStatus, PlayerSettings, PushSubscription
from games.services import push
from tests.support.mail import address_confirmed
from tests.support.matches import pass_if_allowed, start
from tests.support.push_service import PushService, vapid_keys
from tests.support.servers import Worker, server_env

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def service(settings):
    public, private = vapid_keys()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    settings.TURN_MAIL_DELAY_SECONDS = 0
    found = PushService(public).start()
    yield found
    found.stop()


@pytest.fixture
def worker(service, settings):
    env = server_env(
        VAPID_PUBLIC_KEY=settings.VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY=settings.VAPID_PRIVATE_KEY,
        VAPID_SUBJECT="mailto:ops@example.com", PUSH_RETRY_SECONDS="0", SITE_URL="http://testserver",
        EMAIL_HOST=settings.EMAIL_HOST or "", EMAIL_PORT=str(settings.EMAIL_PORT),
        EMAIL_USE_TLS="0",
    )  # fmt: skip
    found = Worker(env).start()
    yield found
    found.stop()


def device_of(user, service, status: int = 201) -> PushSubscription:
    return push.push_subscribe(
        user=user, device="Firefox · Android", **service.subscription(status)
    )


def ran(worker, result) -> None:
    """Wait until the worker has run the task ``result`` (a TaskResult) to its end."""
    while "state=SUCCESSFUL" not in worker.wait_for_line(f"id={result.id}"):
        pass


def move(match: Match) -> Match:
    return pass_if_allowed(Match.objects.select_related("player0", "player1").get(pk=match.pk))


def until_turn_of(match: Match, seat: int) -> Match:
    while match.status == MatchStatus.ACTIVE and match.state.turn != seat:
        match = move(match)
    return match


def in_thai(text: str, **values) -> str:
    with translation.override("th"):
        return gettext(text) % values if values else gettext(text)


def said(message, body: str, url: str) -> None:
    """The notification as bob reads it: in Thai, naming a player and a link, nothing else."""
    payload = message.payload
    assert set(payload) == {"title", "body", "url", "tag"}
    assert payload["title"] == in_thai("Two-hand euchre") != "Two-hand euchre"
    assert payload["body"] == body and payload["url"] == url
    assert message.ttl > 0 and message.claims["sub"] == "mailto:ops@example.com"


def nothing_hidden(message, match: Match) -> None:
    """No card code (of a hand, the upcard or the stock), no seed in what the push service
    received."""
    text = json.dumps(message.payload, ensure_ascii=False)
    assert match.seed not in text
    assert not re.search(r"\b([789TJQKA][CDHS]|JK)\b", text)


def test_every_kind_goes_once_in_the_players_language_with_nothing_hidden(
    alice, bob, moderators_group, service, worker
):
    PlayerSettings.objects.update_or_create(user=bob, defaults={"language": "th"})
    phone = device_of(bob, service)

    # A challenge to bob.
    challenge = services.challenge_create(user=alice, challenged=bob)
    said(
        service.next_message(),
        in_thai("%(player)s challenges you to a match", player="alice"),
        "/play/",
    )
    services.challenge_decline(user=bob, challenge_id=challenge.pk)

    # His turn in a correspondence match: once, and again only after he has acted.
    match = start(alice, bob, days_per_move=3)
    match = until_turn_of(match, 1)
    first = service.next_message()
    said(first, in_thai("Your turn against %(player)s", player="alice"), f"/matches/{match.pk}/")
    nothing_hidden(first, Match.objects.get(pk=match.pk))
    ran(worker, tasks.turn_mail.enqueue(match.pk, match.version))  # the same turn again
    assert service.messages.empty()
    match = until_turn_of(until_turn_of(match, 0), 1)  # bob acted; his turn again
    said(
        service.next_message(),
        in_thai("Your turn against %(player)s", player="alice"),
        f"/matches/{match.pk}/",
    )
    services.match_resign(user=bob, match_id=match.pk)

    # A rematch offer.
    services.rematch_offer(user=alice, match_id=match.pk)
    said(
        service.next_message(),
        in_thai("%(player)s offers you a rematch", player="alice"),
        f"/matches/{match.pk}/",
    )

    # His turn in a live match while its tab is hidden (the page said so over its socket).
    live = start(alice, bob)
    services.connection_open(user=bob, channel_name="bob-tab", match_id=live.pk)
    push.connection_visibility(channel_name="bob-tab", hidden=True)
    live = until_turn_of(until_turn_of(live, 0), 1)
    message = service.next_message()
    said(message, in_thai("Your turn against %(player)s", player="alice"), f"/matches/{live.pk}/")
    assert message.payload["tag"] == f"live-{live.pk}"
    nothing_hidden(message, Match.objects.get(pk=live.pk))
    services.match_resign(user=bob, match_id=live.pk)

    # An arena he joined starts. Announced for later, so that its own start task is not due
    # and the worker cannot start it (and tell its players) before he has joined; then its
    # start time comes, and it starts.
    arena = services.arena_create(
        user=moderators_group_member(), name="Friday arena",
        starts_at=timezone.now() + timedelta(minutes=10), minutes=30,
    )  # fmt: skip
    services.arena_join(user=bob, arena_id=arena.pk)
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now())
    assert services.arena_start(arena_id=arena.pk)
    said(
        service.next_message(),
        in_thai("The arena %(arena)s has started", arena="Friday arena"),
        f"/arenas/{arena.pk}/",
    )

    # A player he follows (asking to hear) opens a match.
    services.follow_create(user=bob, followed=alice, notify=True)
    opened = services.match_create(user=alice)
    said(
        service.next_message(),
        in_thai("%(player)s opened a match: join it", player="alice"),
        f"/matches/{opened.pk}/",
    )
    phone.refresh_from_db()
    assert phone.last_sent_at is not None
    assert service.refused.empty()


def moderators_group_member():
    from tests.support.arenas import moderator_made

    return moderator_made()


def test_a_device_the_push_service_calls_gone_is_removed_and_the_others_still_told(
    alice, bob, service, worker
):
    gone, missing, kept = (device_of(bob, service, s) for s in (410, 404, 201))
    services.challenge_create(user=alice, challenged=bob)
    assert service.next_message().endpoint == kept.endpoint
    result = tasks.push_notify.enqueue("challenge", 0)  # a sentinel: runs after the deliveries
    ran(worker, result)
    assert list(PushSubscription.objects.filter(user=bob)) == [kept]
    assert {service.refused.get_nowait()[0], service.refused.get_nowait()[0]} == {404, 410}


def test_the_vapid_header_is_checked_against_the_sites_key(service):
    other_public, other_private = vapid_keys()
    device = service.subscription()
    from pywebpush import WebPushException, webpush

    info = {"endpoint": device["endpoint"], "keys": {k: device[k] for k in ("p256dh", "auth")}}
    with pytest.raises(WebPushException) as refused:
        webpush(info, data="{}", vapid_private_key=other_private,
                vapid_claims={"sub": "mailto:ops@example.com"}, ttl=60)  # fmt: skip
    assert refused.value.response.status_code == 403
    assert service.refused.get_nowait() == (403, "not the site's public key")


def test_a_turn_told_by_push_is_not_mailed_unless_the_player_asks(
    alice, bob, inbox, service, worker
):
    address_confirmed(bob, "bob@example.com", inbox)
    device_of(bob, service)
    match = until_turn_of(start(alice, bob, days_per_move=3), 1)
    service.next_message()
    ran(worker, tasks.turn_mail.enqueue(match.pk, match.version))
    assert inbox.to("bob@example.com") == []  # told by push: no mail

    push.push_kinds_set(user=bob, kinds=["turn"], mail_too=True)
    match = until_turn_of(until_turn_of(match, 0), 1)
    service.next_message()
    assert len(inbox.wait_for(1)) == 1 and "alice" in inbox.to("bob@example.com")[0].get_content()
