"""Shared fixtures: users, and the real services the suite runs against.

In CI (CI=true) a missing service or browser fails the run; elsewhere it skips the tests
that need it, saying what is missing.
"""

from __future__ import annotations

import importlib

import pytest
from django.conf import settings

# Consumers run their queries in worker threads; persistent connections there would outlive
# the tests and keep PostgreSQL from dropping the test database at the end.
settings.DATABASES["default"]["CONN_MAX_AGE"] = 0


# The files that take longest (``--durations``), started first: the test processes then end
# together instead of one finishing a long file alone while the others sit idle. The Makefile
# keeps this order (``--no-loadscope-reorder``); the other files follow in their own order.
LONGEST_FIRST = [
    "proof/test_leaks.py",
    "proof/test_fuzz.py",
    "realtime/test_workers.py",
    "api/test_schema_fuzz.py",
    "web/test_limits.py",
    "api/test_reference_client.py",
    "web/test_site.py",
    "proof/test_socket_fuzz.py",
    "test_backups.py",
    "api/test_js_client.py",
    "proof/test_api_leaks.py",
    "realtime/test_servers.py",
    "e2e/test_accessibility.py",
    "e2e/test_hand_end_in_browser.py",
    "e2e/test_table_in_browser.py",
    "e2e/test_play_again_in_browser.py",
    "e2e/test_languages_in_browser.py",
    "e2e/test_follow_in_browser.py",
    "e2e/test_bot_in_browser.py",
    "e2e/test_computer_in_browser.py",
    "e2e/test_play_in_browser.py",
    "e2e/test_refusals_in_browser.py",
]


def pytest_collection_modifyitems(items):
    def rank(item) -> int:
        path = item.nodeid.split("::", 1)[0].removeprefix("tests/")
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # a stable sort: each file's tests keep their order


@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch, request):
    """Every match a test makes here is dealt from a seed drawn from the test's own id, so
    each run deals the same (the services draw a secret one: ``games.engine.new_seed``), and
    the computer chooses from a stream seeded the same way (it draws from the system's).
    Servers the test starts in processes of their own still deal and choose at random."""
    import random

    from tests.support import deals

    name = request.node.nodeid
    monkeypatch.setattr("games.services.matches.new_seed", deals.begin(name))
    monkeypatch.setattr("games.services.computer._rng", random.Random(f"computer:{name}"))


@pytest.fixture(autouse=True, scope="session")
def quick_flush():
    """PostgreSQL empties the tables after each test that commits (``transaction=True``) with
    DELETE rather than Django's TRUNCATE: for a test's few rows it takes 0.02 s rather than
    0.45 s (a TRUNCATE makes every table's files anew), and it locks rows, not whole tables,
    so a task worker still writing as a browser test ends seldom meets it (TRUNCATE's table
    locks against such writes were a deadlock). Every foreign key here is checked at commit
    (Django makes them deferrable), so the order does not matter. The content types and
    permissions, which the migrations wrote and no test changes, stay: the flush then has
    none to write again."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush
    kept = {"django_content_type", "auth_permission"}

    def delete(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences:  # numbering from 1 again: TRUNCATE's RESTART IDENTITY
            return truncate(self, style, tables, reset_sequences=True, allow_cascade=allow_cascade)
        # The names are the tables Django made, quoted (S608 fears text from a request).
        statement = "DELETE FROM {};"
        return [statement.format(self.quote_name(table)) for table in tables if table not in kept]

    patch = pytest.MonkeyPatch()
    patch.setattr(DatabaseOperations, "sql_flush", delete)
    yield
    patch.undo()


@pytest.fixture(autouse=True, scope="session")
def static_files_scanned_once():
    """Django's test client builds the middleware anew for every client, and WhiteNoise's
    middleware reads every static file's details as it is built (about 35 ms: each file's
    headers, its compressed variants): the 1,600 clients of a run of the tests without a
    browser spent about 55 s of CPU on it, a seventh of their processes'. A server process
    builds it once; so does each test process now, for each set of settings it reads (a
    test that changes one of them, ``DEBUG`` or ``STATIC_URL`` say, gets a middleware built
    for them). Each middleware keeps a copy of the files' table, whose entries (a file's
    path and headers) are never changed once made."""
    from whitenoise.middleware import WhiteNoiseMiddleware

    build = WhiteNoiseMiddleware.__init__
    built: dict[tuple, dict] = {}

    def scanned_once(self, get_response=None, settings=settings):
        names = [name for name in dir(settings) if name.startswith(("WHITENOISE_", "STATIC"))]
        names += ["DEBUG", "FORCE_SCRIPT_NAME", "INSTALLED_APPS", "STORAGES"]
        key = tuple((name, repr(getattr(settings, name, None))) for name in sorted(names))
        if key not in built:
            build(self, get_response, settings=settings)
            built[key] = dict(vars(self))
            return
        vars(self).update(built[key], get_response=get_response)
        self.files, self.directories = dict(self.files), list(self.directories)

    patch = pytest.MonkeyPatch()
    patch.setattr(WhiteNoiseMiddleware, "__init__", scanned_once)
    yield
    patch.undo()


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    # Each async test runs on an event loop of its own; a Redis layer made on an earlier
    # test's loop holds locks bound to it. Every test gets a layer of its own.
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def fresh_process_caches():
    # A process remembers words, addresses and verified sessions (games.caches); a later test
    # can reuse an id (SQLite) or change a setting: every test starts with nothing remembered.
    from games import caches

    caches.clear_all()


@pytest.fixture(autouse=True)
def fresh_cache(settings, request):
    # Rate-limit counts live in the cache: every test starts with none (tests of the shared
    # Redis cache set CACHES themselves).
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": request.node.nodeid,
        }
    }


@pytest.fixture(autouse=True)
def api_contract(monkeypatch):
    # Every answer of /api/v1/ a test client gets is checked against the published schema
    # (tests/support/contract.py): a field, a status or a code the schema does not name fails
    # the test that saw it.
    from tests.support import contract

    contract.watch(monkeypatch)


@pytest.fixture(autouse=True)
def site_language():
    """Each test starts in the site's language: a request through the test client leaves its
    language active in the thread (LocaleMiddleware), which the next test would read."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # The real hasher takes about half a second a password by design; tests make dozens.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password="correct horse 1")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", password="correct horse 2")


@pytest.fixture
def carol(django_user_model):
    return django_user_model.objects.create_user("carol", password="correct horse 3")


@pytest.fixture(autouse=True)
def small_analysis_budget(settings):
    # A finished match queues its analysis; the worker tests run it. A few deals a decision
    # keep them quick (bench/analysis.py measures the real budget).
    settings.ANALYSIS_SAMPLES = 8


@pytest.fixture
def inbox(settings):
    """A real SMTP server (tests.support.mail) that the site's mail goes to; links to testserver."""
    from tests.support.mail import smtp_server

    for found, port in smtp_server():
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
        settings.EMAIL_USE_TLS = False
        settings.SITE_URL = "http://testserver"
        yield found


@pytest.fixture
def alice_page(alice):
    """A client logged in as alice."""
    from django.test import Client

    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def own_catalogues(settings, tmp_path):
    """A copy of the catalogues for this test to write into: the project's stay as they are."""
    import shutil
    from pathlib import Path

    shutil.copytree(Path(settings.LOCALE_PATHS[0]), tmp_path / "locale")
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    return tmp_path / "locale"


@pytest.fixture
def moderators_group(db):
    """The "Moderators" group with its permissions, as its migration makes it: a transactional
    test that ran earlier in this process may have emptied the tables (flush keeps no data)."""
    from django.contrib.auth.models import Group, Permission
    from django.db.models import Q

    group, _ = Group.objects.get_or_create(name="Moderators")
    wanted = Q(pk__in=[])
    migrations = (
        "0003_moderators_group",
        "0016_api_token_moderation",
        "0021_translation_suggestions",
        "0026_arenas",
        "0032_chat_moderators",
        "0043_fairplay",
    )
    for name in migrations:
        migration = importlib.import_module(f"games.migrations.{name}")
        for app, codenames in migration.PERMISSIONS.items():
            wanted |= Q(content_type__app_label=app, codename__in=codenames)
    group.permissions.set(Permission.objects.filter(wanted))
    return group
