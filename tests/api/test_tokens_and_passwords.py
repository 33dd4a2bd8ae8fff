"""A new password ends the account's API tokens: a token made by whoever had the old password
must not outlive the change. The page after it says so."""

from __future__ import annotations

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tests.support.api import program, token_for

pytestmark = pytest.mark.django_db

SAID = "Your API tokens were revoked with the old password"


def change_password(user):
    """The player changes their password on the site; returns the page after it."""
    browser = Client()
    browser.force_login(user)
    return browser.post(
        "/accounts/password_change/",
        {"old_password": "correct horse 1", "new_password1": "a new stable 9",
         "new_password2": "a new stable 9"},
        follow=True,
    )  # fmt: skip


def test_a_password_change_revokes_the_tokens_and_says_so(alice):
    stolen, other = token_for(alice), token_for(alice, name="second")
    assert program(stolen).get("/api/v1/account").status_code == 200
    done = change_password(alice)
    assert done.status_code == 200 and SAID in done.content.decode()
    for token in (stolen, other):
        refused = program(token).get("/api/v1/account")
        assert refused.status_code == 401 and refused.json()["code"] == "unauthorized"
    made_after = token_for(alice, name="new")
    assert program(made_after).get("/api/v1/account").status_code == 200


def test_a_password_reset_revokes_the_tokens_and_says_so(alice):
    stolen = token_for(alice)
    uid = urlsafe_base64_encode(force_bytes(alice.pk))
    browser = Client()
    form = browser.get(f"/accounts/reset/{uid}/{default_token_generator.make_token(alice)}/")
    done = browser.post(
        form["Location"],
        {"new_password1": "a new stable 9", "new_password2": "a new stable 9"},
        follow=True,
    )
    assert done.status_code == 200 and SAID in done.content.decode()
    assert program(stolen).get("/api/v1/account").status_code == 401


def test_a_change_with_no_token_says_nothing_of_tokens(alice):
    done = change_password(alice)
    assert done.status_code == 200 and SAID not in done.content.decode()
