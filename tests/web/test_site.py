"""The Django project itself: settings from the environment, pages, health checks."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from games.models import WorkerBeat

ROOT = Path(__file__).resolve().parents[2]


def django_check(env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_debug_a_missing_secret_key_stops_start_up_with_a_clear_message():
    result = django_check({})
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


@pytest.mark.parametrize("key", ["x", "test-only-not-secret", "ab" * 40])
def test_without_debug_a_weak_secret_key_stops_start_up_with_a_clear_message(key):
    result = django_check({"SECRET_KEY": key})
    assert result.returncode != 0
    assert "SECRET_KEY is too weak: use at least 50 characters" in result.stderr


def test_a_strong_secret_key_starts_and_debug_allows_a_weak_one():
    assert django_check({"SECRET_KEY": secrets.token_urlsafe(50)}).returncode == 0
    assert django_check({"SECRET_KEY": "x", "DEBUG": "1"}).returncode == 0


def test_debug_runs_without_a_secret_key():
    result = django_check({"DEBUG": "1"})
    assert result.returncode == 0, result.stderr


def test_debug_is_off_unless_asked_for():
    assert settings.DEBUG is False


def test_daphne_serves_asgi_and_channels_is_installed():
    assert settings.INSTALLED_APPS[0] == "daphne"
    assert settings.ASGI_APPLICATION == "euchre_site.asgi.application"


def test_importing_the_application_leaves_the_process_as_it_was_and_serving_tunes_it():
    """Process tuning happens where the server starts (uvicorn's --factory call in each worker,
    as docs/OPERATING.md's command runs it), never when a test or a command imports the module."""
    script = (
        "import gc; default = gc.get_threshold(); import euchre_site.asgi;"
        "imported = gc.get_threshold(); import uvicorn;"
        "config = uvicorn.Config('euchre_site.asgi:served', factory=True); config.load();"
        "print(default == imported, gc.get_threshold())"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(None, 1) == ["True", "(2000, 10, 2500)\n"]


def test_the_database_and_channel_layer_follow_the_environment():
    engine = settings.DATABASES["default"]["ENGINE"]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if os.environ.get("DATABASE_URL"):
        assert engine == "django.db.backends.postgresql"
    else:
        assert engine == "django.db.backends.sqlite3"
    if os.environ.get("REDIS_URL"):
        assert layer == "channels_redis.pubsub.RedisPubSubChannelLayer"
    else:
        assert layer == "channels.layers.InMemoryChannelLayer"


@pytest.mark.django_db
def test_home_page_explains_the_game(client):
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Two-hand euchre" in page
    assert "right bower" in page and "euchred" in page
    assert "/static/django-htmx/" in page or "htmx" in page  # htmx from our own static files
    assert "https://" not in page  # nothing from a CDN


@pytest.mark.django_db
def test_static_files_are_served_by_the_site_itself(client):
    for path in ("/static/css/site.css", "/static/js/connection.js"):
        response = client.get(path)
        assert response.status_code == 200, path


@pytest.mark.django_db
def test_healthz_reports_the_database_and_the_live_workers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok", "database": "ok", "workers": 0, "task_lag_seconds": 0.0,
        "channel_layer": "ok",
    }  # fmt: skip
    now = timezone.now()
    WorkerBeat.objects.create(worker_id="a", host="h", pid=1, seen_at=now)
    WorkerBeat.objects.create(worker_id="b", host="h", pid=2, seen_at=now - timedelta(minutes=5))
    assert client.get("/healthz").json()["workers"] == 1  # the silent one is dead


@pytest.mark.django_db
def test_pages_refuse_unsupported_methods_with_a_4xx(client):
    assert client.post("/").status_code in (403, 405)


@pytest.mark.django_db
def test_pages_carry_security_headers_and_a_strict_content_security_policy(client):
    response = client.get("/")
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "<script>" not in response.content.decode()  # no inline script to allow


def test_the_production_settings_pass_check_deploy():
    result = django_check_deploy(
        {
            "SECRET_KEY": secrets.token_urlsafe(50),
            "HTTPS": "1",
            "ALLOWED_HOSTS": "euchre.example",
        }
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def django_check_deploy(env: dict[str, str]) -> subprocess.CompletedProcess:
    unset = {"SECRET_KEY", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
