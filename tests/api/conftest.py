"""Tokens and clients for the API's tests: a program's requests, with a bearer token."""

from __future__ import annotations

import os
import shutil

import pytest
from django.test import Client

from tests.support.api import program, token_for
from tests.support.environment import missing


@pytest.fixture
def alice_api(alice) -> Client:
    return program(token_for(alice))


@pytest.fixture
def bob_api(bob) -> Client:
    return program(token_for(bob))


@pytest.fixture
def node() -> str:
    found = shutil.which("node") or "/usr/bin/node"
    if not os.access(found, os.X_OK):
        missing("node (Node 20)")
    return found
