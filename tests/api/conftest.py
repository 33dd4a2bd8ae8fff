"""Tokens and clients for the API's tests: a program's requests, with a bearer token."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services


def token_for(user, scopes=("read", "play"), name="my program") -> str:
    return services.api_token_create(user=user, name=name, scopes=list(scopes))[1]


def program(token: str) -> Client:
    """A client that sends ``token`` as a program does (no cookie, no CSRF token)."""
    return Client(enforce_csrf_checks=True, headers={"authorization": f"Bearer {token}"})


@pytest.fixture
def alice_api(alice) -> Client:
    return program(token_for(alice))


@pytest.fixture
def bob_api(bob) -> Client:
    return program(token_for(bob))
