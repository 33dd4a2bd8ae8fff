"""The account page's section: second_factor."""

from __future__ import annotations

from django.http import HttpRequest


def context(request: HttpRequest) -> dict:
    """What the section's template (``partials/account_second_factor.html``) reads."""
    return {}
