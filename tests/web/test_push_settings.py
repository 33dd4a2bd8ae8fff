"""The settings' notification section: this device added through the view (as push.js posts
its browser's subscription), every device listed and removable, the kinds chosen, the words
with no VAPID keys, and bad input refused with words, nothing changed."""

from __future__ import annotations

import re

import pytest

from games.models import PlayerSettings, PushSubscription
from tests.support.push_service import b64url, vapid_keys

pytestmark = pytest.mark.django_db

PHONE = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36"
)


@pytest.fixture
def keys(settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = vapid_keys()
    settings.PUSH_ALLOW_HTTP = False


def subscription(n: int = 1) -> dict[str, str]:
    public, _ = vapid_keys()  # any P-256 public key, as a browser's p256dh is
    return {
        "endpoint": f"https://push.example.net/send/device-{n}",
        "p256dh": public,
        "auth": b64url(bytes(range(16))),
    }


def test_a_device_added_is_listed_with_its_name_and_removed_with_its_button(
    alice_page, alice, keys
):
    answer = alice_page.post("/settings/push/subscribe", subscription(), HTTP_USER_AGENT=PHONE)
    assert answer.status_code == 200
    device = PushSubscription.objects.get(user=alice)
    assert device.device == "Chrome · Android" and device.kinds.split(",")[0] == "turn"
    page = alice_page.get("/settings/").content.decode()
    assert f'data-push-device="{device.pk}"' in page and "Remove Chrome · Android" in page
    answer = alice_page.post(f"/settings/push/{device.pk}/remove", follow=True)
    assert "The device is removed" in answer.content.decode()
    assert not PushSubscription.objects.filter(user=alice).exists()


def test_the_kinds_and_the_mail_with_a_push_are_saved_for_every_device(alice_page, alice, keys):
    for n in (1, 2):
        alice_page.post("/settings/push/subscribe", subscription(n), HTTP_USER_AGENT=PHONE)
    answer = alice_page.post(
        "/settings/push/kinds", {"kinds": ["challenge", "arena"], "mail_too": "on"}
    )
    assert answer.status_code == 302
    assert {d.kinds for d in PushSubscription.objects.filter(user=alice)} == {"challenge,arena"}
    assert PlayerSettings.objects.get(user=alice).turn_mail_with_push
    page = alice_page.get("/settings/").content.decode()
    checked = re.findall(r'<input type="checkbox" name="kinds" value="(\w+)"[^>]* checked', page)
    assert checked == ["challenge", "arena"]


def test_another_device_removing_itself_by_its_endpoint(alice_page, alice, keys):
    alice_page.post("/settings/push/subscribe", subscription(), HTTP_USER_AGENT=PHONE)
    answer = alice_page.post("/settings/push/unsubscribe", {"endpoint": subscription()["endpoint"]})
    assert answer.status_code == 200 and "No device is notified yet." in answer.content.decode()


def test_someone_elses_device_is_not_removed(alice_page, bob, keys, client):
    client.force_login(bob)
    client.post("/settings/push/subscribe", subscription(), HTTP_USER_AGENT=PHONE)
    device = PushSubscription.objects.get(user=bob)
    answer = alice_page.post(f"/settings/push/{device.pk}/remove")
    assert (
        answer.status_code == 404 and "That device is not in your list." in answer.content.decode()
    )
    assert PushSubscription.objects.filter(pk=device.pk).exists()


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("endpoint", "http://push.example.net/x", "push address is not one we can use"),
        ("endpoint", "not a url", "Enter a valid URL"),
        ("p256dh", "AAAA", "push keys are not ones we can use"),
        ("auth", "!!", "push keys are not ones we can use"),
    ],
)
def test_a_subscription_that_is_not_one_is_refused_with_words(
    alice_page, keys, field, value, words
):
    answer = alice_page.post("/settings/push/subscribe", {**subscription(), field: value})
    assert answer.status_code == 400 and words in answer.content.decode()
    assert not PushSubscription.objects.exists()


def test_with_no_vapid_keys_the_section_says_so_and_nothing_is_added(alice_page, settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    page = alice_page.get("/settings/").content.decode()
    assert "This site has no keys to send notifications with, so it sends none." in page
    assert 'data-action="push-on"' not in page
    answer = alice_page.post("/settings/push/subscribe", subscription())
    assert (
        answer.status_code == 409
        and "This site has no keys to send notifications with" in answer.content.decode()
    )
    assert not PushSubscription.objects.exists()
