"""Clients reading the site in a language (the fixture ``own_catalogues``, a copy of the
catalogues to write into, is in tests/conftest.py)."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.test import Client


def client_in(user, language: str) -> Client:
    """A client logged in as ``user`` reading the site in ``language``."""
    client = Client()
    client.force_login(user)
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    return client
