"""Programs in tests: tokens, a client that sends one as a program does, and refusals read."""

from __future__ import annotations

from django.test import Client

from games import services


def token_for(user, scopes=("read", "play"), name="my program") -> str:
    return services.api_token_create(user=user, name=name, scopes=list(scopes))[1]


def program(token: str) -> Client:
    """A client that sends ``token`` as a program does (no cookie, no CSRF token)."""
    return Client(enforce_csrf_checks=True, headers={"authorization": f"Bearer {token}"})


def refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code and body["detail"], body
    return body
