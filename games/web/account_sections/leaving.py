"""The account page's section: leaving."""

from __future__ import annotations

from django.http import HttpRequest


def context(request: HttpRequest) -> dict:
    """What the section's template (``partials/account_leaving.html``) reads."""
    return {}
