"""Issue 51, finding 3: every per-address limit counts an IPv6 client by its /64 (a host picks
any of its network's 2^64 addresses at will), an IPv4 address mapped into IPv6 as the IPv4
address; and the production servers (docs/OPERATING.md) believe X-Forwarded-For from the proxy
alone, named."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Guest
from games.services import throttle
from tests.support.servers import OPERATING, production_commands

pytestmark = pytest.mark.django_db
SECRET = "Deal-me-in-2026"


def sign_up(username: str, address: str):
    data = {"username": username, "password1": SECRET, "password2": SECRET}
    return Client(REMOTE_ADDR=address).post("/accounts/signup/", data)


def log_in(username: str, password: str, address: str):
    return Client(REMOTE_ADDR=address).post(
        "/accounts/login/", {"username": username, "password": password}
    )


def test_an_ipv6_address_is_counted_by_its_64_and_a_mapped_ipv4_as_the_ipv4():
    address_key = throttle.address_key
    assert address_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd") == "2001:db8:1:2::"
    assert address_key("2001:DB8:1:2::1") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:3::1") == "2001:db8:1:3::"
    assert address_key("::ffff:10.0.0.9") == "10.0.0.9" == address_key("10.0.0.9")
    assert address_key("fe80::1%eth0") == "fe80::"
    assert address_key("unknown") == "unknown"  # not an address: counted as given


def test_sign_ups_from_one_ipv6_network_share_one_limit(settings):
    settings.SIGNUP_LIMIT_PER_IP = 2
    assert sign_up("player0", "2001:db8:1:2::1").status_code == 302
    assert sign_up("player1", "2001:db8:1:2::2").status_code == 302
    refused = sign_up("player2", "2001:db8:1:2:ffff:ffff:ffff:fffe")  # another of its 2^64
    assert refused.status_code == 429 and "Too many sign-ups" in refused.content.decode()
    assert not get_user_model().objects.filter(username="player2").exists()
    assert sign_up("player2", "2001:db8:1:3::1").status_code == 302  # the next network


def test_guests_from_one_ipv6_network_or_one_mapped_ipv4_share_one_limit(settings):
    settings.GUESTS_PER_IP_PER_HOUR = 1
    assert Client(REMOTE_ADDR="2001:db8:5:6::1").post("/accounts/guest/").status_code == 302
    assert Client(REMOTE_ADDR="2001:db8:5:6::2").post("/accounts/guest/").status_code == 429
    assert Client(REMOTE_ADDR="10.0.0.9").post("/accounts/guest/").status_code == 302
    assert Client(REMOTE_ADDR="::ffff:10.0.0.9").post("/accounts/guest/").status_code == 429
    assert Guest.objects.count() == 2


def test_restarts_of_the_guided_hand_from_one_ipv6_network_share_one_limit(settings):
    settings.LEARN_RESTARTS_PER_HOUR = 2
    for host in (1, 2):
        assert Client(REMOTE_ADDR=f"2001:db8:7:8::{host}").post("/learn/again").status_code == 302
    assert Client(REMOTE_ADDR="2001:db8:7:8::3").post("/learn/again").status_code == 429
    assert Client(REMOTE_ADDR="2001:db8:7:9::1").post("/learn/again").status_code == 302


def test_failed_log_ins_from_one_ipv6_network_lock_the_network_and_no_further(alice, bob):
    for number in range(5):  # a new address of the network for each guess
        log_in(f"nobody{number}", "guess", address=f"2001:db8:9:9::{number + 1}")
    locked = log_in("bob", "correct horse 2", address="2001:db8:9:9:1:2:3:4")
    page = locked.content.decode()
    assert locked.status_code == 429 and "Too many failed log-ins" in page
    assert "in about 15 minutes" in page  # the lock the network's guesses made, found
    assert log_in("bob", "correct horse 2", address="2001:db8:9:a::1").status_code == 302


def test_the_production_servers_believe_forwarded_addresses_from_the_named_proxy_only():
    text = OPERATING.read_text(encoding="utf-8")
    commands = production_commands()
    assert commands, "docs/OPERATING.md starts its web processes with uvicorn"
    for command in commands:
        assert "--proxy-headers --forwarded-allow-ips=127.0.0.1" in command, command
    assert "uvicorn believes the header by default from 127.0.0.1" in text
    assert "--no-proxy-headers" in text  # a server reachable other than through the proxy
