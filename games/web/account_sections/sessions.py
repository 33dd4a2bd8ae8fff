"""The account page's section: sessions."""

from __future__ import annotations

from django.http import HttpRequest


def context(request: HttpRequest) -> dict:
    """What the section's template (``partials/account_sessions.html``) reads."""
    return {}
