"""Clients reading the site in a language (the fixture ``own_catalogues``, a copy of the
catalogues to write into, is in tests/conftest.py)."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.test import Client

from tests.support.second_factors import log_in


def client_in(user, language: str) -> Client:
    """A client logged in as ``user`` reading the site in ``language``."""
    client = Client()
    log_in(client, user)
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    return client
