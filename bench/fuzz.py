"""Fuzz: tens of thousands of malformed requests and thousands of websocket handshakes against
the site served the production way (issue 36). A benchmark: it prints figures, it is never part
of the pass/fail suite.

The server is started as the README's "Production" section starts it (``uvicorn
euchre_site.asgi:served --factory``, DEBUG off, PostgreSQL, Redis, ``migrate`` and
``collectstatic`` first, one task worker beside it), with a database of its own
(``euchre_bench_fuzz``, dropped and created afresh) and Redis database 5. The accounts, the
matches (in play, finished, open, against the computer), a challenge, sessions and API tokens
are made through the services in a child process, as players make them.

Then ``--requests`` raw HTTP/1.1 requests (one connection each): first a sweep of every route
with every kind of value of each of its parameters (its own methods, anonymous and as its
user), then random ones from a fixed seed, over every
URL pattern Django's resolver knows (the site, the admin, the API: every route of
``/api/v1/openapi.json`` is checked to be among them), static files and unknown paths, with
path parameters valid, someone else's, 0, -1, 10**30, not numbers, NUL, a lone surrogate, very
long and Unicode look-alikes; anonymous, logged in (session cookie + CSRF token) or with an API
token; every method; valid forms, wrong ones, a Latin-1 form, broken multipart, JSON of the
wrong types, invalid, 100,000 levels deep, with a lone surrogate or NUL, a few MB; a malformed
Host, garbage cookies and Accept-Language, bad Content-Lengths. And ``--handshakes``
websocket handshakes (a small raw client: every byte is ours to choose) on the page sockets,
the API's and unknown paths, with good, missing and malformed origins and hosts, with and
without a session or a token, followed by valid moves, garbage, binary, a lone surrogate as raw
bytes, 100,000-deep JSON and huge frames.

A request fails if it is answered 5xx, if the connection is reset or closed without a whole
response (dropped), or if nothing comes within ``--timeout`` seconds (a hang). A websocket
fails if its handshake gets a 5xx, hangs, or the connection ends without a close frame
(dropped: what a browser reports as 1006), or if the server closes it with 1011. At the end
``/healthz`` must answer 200, and the presence rows the sockets left behind are counted (each
closed socket should have taken its own away). Each distinct failing class (route + what was
sent) is replayed alone, made smaller while it still fails, and printed with the server's
traceback from its log, grouped by that traceback.

    .venv/bin/python bench/fuzz.py [--requests 20000] [--handshakes 3000] [--seed 36]

About five minutes on a 2-core machine. Exit status 1 if anything failed; the server's log is
then kept in the directory printed first (``--keep``: always).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import dataclasses
import json
import os
import random
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Test-only values, never a real site's.
SECRET_KEY = "test-only-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz"  # noqa: S105
PASSWORD = "Fuzz-only-pass-7731!"  # noqa: S105
NEW_PASSWORD = "Fuzz-only-pass-8842!"  # noqa: S105
DATABASE = "postgres://euchre:euchre@127.0.0.1:5432/euchre_bench"  # + "_fuzz"
REDIS_URL = "redis://127.0.0.1:6379/5"
CSRF = "fuzzcsrf0123456789abcdefghijklmn"  # any 32 letters and digits is a valid CSRF secret
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
# Routes whose valid form ends or replaces the session it is sent with: sent as a throwaway
# player (dave, many sessions), so that alice's session lives through the run.
SESSION_ENDERS = {
    "logout",
    "login",
    "signup",
    "password_change",
    "password_reset_confirm",
    "bot_set",
}


# ---------------------------------------------------------------------------------------------
# The world: accounts, matches, sessions, tokens, routes (in a child process with Django set up)


def world_main() -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.test import Client
    from django.urls import URLResolver, get_resolver

    from games import services
    from games.engine import legal_actions
    from games.models import MatchStatus

    users = get_user_model().objects
    made = {
        name: users.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("alice", "bob", "carol", "dave", "mod")
    }
    alice, bob, carol, dave, mod = (made[n] for n in ("alice", "bob", "carol", "dave", "mod"))
    mod.is_staff = True
    mod.save(update_fields=["is_staff"])
    moderators = Group.objects.filter(name="Moderators").first()
    if moderators is not None:
        mod.groups.add(moderators)

    def start(a, b, **options):
        return services.match_join(user=b, match_id=services.match_create(user=a, **options).pk)

    def to_the_end(match):
        rng = random.Random(3)
        while match.status == MatchStatus.ACTIVE:
            state = match.state
            match = services.move_apply(
                user=match.players[state.turn],
                match_id=match.pk,
                action=str(rng.choice(legal_actions(state))),
                version=match.version,
            ).match
        return match

    matches = {
        "mine": start(alice, bob, move_seconds=None).pk,  # in play, the http fuzz's
        "ws": start(alice, bob, move_seconds=None).pk,  # in play, the sockets'
        "private": start(bob, carol, move_seconds=None, spectators_allowed=False).pk,
        "public": start(bob, carol, move_seconds=None).pk,
        "finished": to_the_end(start(carol, alice, move_seconds=None)).pk,
        "open": services.match_create(user=carol, move_seconds=None).pk,
        "own-open": services.match_create(user=alice, move_seconds=None).pk,
        "computer": services.match_create_computer(user=alice, strength="easy").pk,
    }
    challenges = {
        "challenge-to-me": services.challenge_create(user=bob, challenged=alice).pk,
        "challenge-mine": services.challenge_create(user=alice, challenged=carol).pk,
    }
    play = [
        services.api_token_create(user=alice, name=f"fuzz {i}", scopes=["read", "play"])[1]
        for i in range(12)
    ]  # rotated: each stays under the per-token limit
    read_only = services.api_token_create(user=alice, name="read only", scopes=["read"])[1]
    decoy, _ = services.api_token_create(user=alice, name="to revoke", scopes=["read"])
    bob_row, bob_token = services.api_token_create(user=bob, name="bob", scopes=["read", "play"])

    def session(user) -> str:
        client = Client()
        client.force_login(user)
        return client.cookies[settings.SESSION_COOKIE_NAME].value

    sessions = {
        "alice": [session(alice)],
        "bob": [session(bob)],
        "carol": [session(carol)],
        "mod": [session(mod) for _ in range(25)],
        "dave": [session(dave) for _ in range(80)],
    }

    routes, seen = [], set()

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern), pattern.name or ""

    for route, name in walk(get_resolver().url_patterns):
        template, params = template_of(route)
        if template in seen:
            continue
        seen.add(template)
        family = (
            "admin"
            if template.startswith("/admin/")
            else "api"
            if template.startswith("/api/")
            else "web"
        )
        routes.append({"template": template, "name": name, "params": params, "family": family})

    static_root = Path(settings.STATIC_ROOT)
    static = sorted(
        "/static/" + str(p.relative_to(static_root))
        for p in static_root.rglob("*")
        if p.is_file() and p.suffix in {".js", ".css", ".svg", ".png", ".gz", ".br"}
    )[::7][:40]
    print(
        json.dumps(
            {
                "users": {n: u.pk for n, u in made.items()},
                "matches": matches,
                "challenges": challenges,
                "tokens": {"play": play, "read": read_only, "bob": bob_token},
                "token_ids": {"decoy": decoy.pk, "bob": bob_row.pk},
                "sessions": sessions,
                "routes": routes,
                "static": static,
            }
        )
    )


def template_of(route: str) -> tuple[str, dict[str, str]]:
    """``matches/<match:match_id>/act`` -> ``/matches/{match_id}/act``, {match_id: match}; the
    admin's regexes: ``^(?P<app_label>auth|games)/$`` -> ``{app_label}``, choice:auth|games."""
    params: dict[str, str] = {}

    def typed(m: re.Match) -> str:
        params[m.group(2)] = m.group(1) or "str"
        return "{" + m.group(2) + "}"

    def grouped(m: re.Match) -> str:
        body = m.group(2)
        params[m.group(1)] = "choice:" + body if re.fullmatch(r"[\w|]+", body) else "any"
        return "{" + m.group(1) + "}"

    template = re.sub(r"<(?:(\w+):)?(\w+)>", typed, route)
    template = re.sub(r"\(\?P<(\w+)>([^)]*)\)", grouped, template)
    return "/" + template.replace("^", "").replace("$", ""), params


# ---------------------------------------------------------------------------------------------
# The site's processes


def fresh_database(base: str) -> str:
    try:
        from bench.load import fresh_database as fresh
    except Exception:  # bench/load is being reorganised: its two statements, here
        fresh = None
    if fresh is not None:
        return fresh(base, "fuzz")
    import psycopg

    server, name = base.rsplit("/", 1)
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}_fuzz" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}_fuzz"')
    return f"{server}/{name}_fuzz"


def site_env(database_url: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "HTTPS",
            "CSRF_TRUSTED_ORIGINS",
            "SQLITE_PATH",
            "PYTEST_XDIST_WORKER",
            "DJANGO_SETTINGS_MODULE",
            "REALTIME_CATCH_UP_SECONDS",
        }
    }
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": SECRET_KEY,
            "DATABASE_URL": database_url,
            "REDIS_URL": REDIS_URL,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "STATIC_COLLECTED": "1",
            "REDIS_PREFIX": "fuzz",
            "PYTHONUNBUFFERED": "1",
            "PYTHONPATH": str(ROOT),
            "DJANGO_SETTINGS_MODULE": "euchre_site.settings",
        }
    )
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Site:
    def __init__(self, env: dict[str, str], logs: Path):
        self.env, self.logs = env, logs
        self.port = free_port()
        self.server_log = logs / "server.log"
        self.worker_log = logs / "worker.log"
        self.processes: list[subprocess.Popen] = []

    def start(self) -> None:
        manage = [sys.executable, "manage.py"]
        with open(self.worker_log, "ab") as log:
            self.processes.append(
                subprocess.Popen(
                    [*manage, "run_worker"],
                    cwd=ROOT,
                    env=self.env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        with open(self.server_log, "ab") as log:
            self.server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "euchre_site.asgi:served",
                    "--factory",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                ],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes.append(self.server)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.server.poll() is not None:
                sys.exit(f"the server exited with {self.server.returncode}: {self.server_log}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        sys.exit("the server did not answer /healthz within 60 s")

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def log_size(self) -> int:
        return self.server_log.stat().st_size

    def log_since(self, offset: int) -> str:
        with open(self.server_log, "rb") as log:
            log.seek(offset)
            return log.read().decode("utf-8", "replace")


# ---------------------------------------------------------------------------------------------
# What is sent


def q(value: str) -> str:
    """Percent-encoded, a lone surrogate as its (invalid) UTF-8 bytes: %ED%A0%80."""
    return urllib.parse.quote(value, safe="", encoding="utf-8", errors="surrogatepass")


def utf8(value: str) -> bytes:
    return value.encode("utf-8", "surrogatepass")


# (kind, raw value): the path parameters' values, by what the parameter names.
GENERIC = [
    ("zero", "0"),
    ("negative", "-1"),
    ("10**30", "1" + "0" * 30),
    ("letters", "abc"),
    ("NUL", "1\x00"),
    ("lone surrogate", "\ud800"),
    ("long", "9" * 5000),
    ("fullwidth digit", "\uff11"),
    ("arabic digit", "\u0663"),
    ("float", "1.5"),
    ("empty", ""),
    ("19 digits", "9223372036854775808"),
    ("18 digits", "999999999999999999"),
]
NAMES = [
    ("alice", "alice"),
    ("bob", "bob"),
    ("carol", "carol"),
    ("computer", "computer-easy"),
    ("nobody", "nobody"),
    ("moderator", "mod"),
    ("cyrillic look-alike", "\u0430lice"),
    ("fullwidth look-alike", "\uff41lice"),
    ("NUL", "al\x00ice"),
    ("lone surrogate", "\ud800"),
    ("long", "a" * 5000),
    ("dot-dot", ".."),
    ("encoded slash", "a/b"),
    ("space", " alice"),
    ("percent", "%"),
    ("emoji", "\U0001f0a1"),
    ("zero-width joiner", "al\u200dice"),
    ("ALICE", "ALICE"),
]
RESET = [
    ("uid 1", "MQ"),
    ("uid 2", "Mg"),
    ("set-password", "set-password"),
    ("garbage", "!!"),
    ("NUL", "M\x00Q"),
    ("lone surrogate", "\ud800"),
    ("long", "A" * 5000),
    ("padding", "MQ=="),
    ("token-like", "c1b2k3-0123456789abcdef0123456789abcdef"),
]
FUZZ_VALUES = [
    "",
    "0",
    "1",
    "-1",
    "24",
    "25",
    "32",
    "10",
    "99",
    "1" + "0" * 30,
    "abc",
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfffy",
    "\uff11",
    "pass",
    "order_up",
    "play:JH",
    "play:JK",
    "name:H",
    "discard:9C",
    "hard",
    "easy",
    "on",
    "yes",
    "true",
    "NaN",
    "1e9",
    "1.5",
    "0x10",
    "x" * 3000,
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "https://evil.example/",
    "//evil.example",
    "javascript:alert(1)",
    "\r\nSet-Cookie: x=1",
    "\U0001f0a1",
    "\u202e",
    "th",
    "am",
    "xx",
    "dark",
    "auto",
    "read",
    "play",
    "stalling",
    "other",
]
FORM_KEYS = [
    "deck",
    "target",
    "stick_the_dealer",
    "dealer_must_take_up",
    "rated",
    "spectators_allowed",
    "move_seconds",
    "computer-strength",
    "computer-deck",
    "computer-target",
    "find-deck",
    "find-target",
    "action",
    "version",
    "reason",
    "details",
    "username",
    "email",
    "password",
    "password1",
    "password2",
    "old_password",
    "new_password1",
    "new_password2",
    "next",
    "back",
    "language",
    "sound",
    "theme",
    "four_colour",
    "name",
    "scopes",
    "confirm",
    "allowed",
    "challenge-deck",
    "challenge-target",
    "challenge-move_seconds",
    "csrfmiddlewaretoken",
    "hint",
    "step",
    "since",
    "strength",
]
QUERY_KEYS = [
    "version",
    "step",
    "page",
    "opponent",
    "result",
    "kind",
    "rated",
    "next",
    "part",
    "analysis",
    "bots",
    "since",
    "language",
    "q",
    "format",
]
ADMIN_QUERY_KEYS = [
    "q",
    "o",
    "p",
    "e",
    "all",
    "_to_field",
    "_popup",
    "_changelist_filters",
    "status__exact",
    "id__exact",
    "seed__startswith",
    "snapshot__contains",
    "player0__id__exact",
    "started_at__gte",
    "rated__exact",
    "pk__in",
    "app_label",
    "model_name",
    "field_name",
    "term",
    "end_reason__exact",
    "is_staff__exact",
    "user__id__exact",
]
JSON_KEYS = [
    "deck",
    "target",
    "move_seconds",
    "rated",
    "spectators_allowed",
    "strength",
    "action",
    "version",
    "username",
    "stick_the_dealer",
    "dealer_must_take_up",
]
WRONG_TYPES = [
    "24x",
    [10],
    {"a": 1},
    None,
    True,
    -1,
    10**30,
    2**63,
    1.5,
    "",
    "\x00",
    [[[]]],
    {"$gt": ""},
    1e308,
]
INVALID_JSON = [
    b"{",
    b"{'a': 1}",
    b"[1,]",
    b'{"action": ',
    b"\xff\xfe{}",
    b"",
    b"nul",
    b"\xef\xbb\xbf{}",
    b'{"a":1}{"b":2}',
    b"\x00",
    b"1e999999",
    b'"\\ud800',
]

BODY_KINDS = [
    ("valid", 14),
    ("wrong fields", 10),
    ("empty", 4),
    ("Latin-1 form", 5),
    ("multipart without boundary", 5),
    ("multipart bad boundary", 5),
    ("multipart valid", 3),
    ("JSON wrong types", 8),
    ("invalid JSON", 6),
    ("JSON 100,000 deep", 3),
    ("JSON lone surrogate", 5),
    ("JSON NUL", 4),
    ("form NUL", 4),
    ("form lone surrogate", 4),
    ("many fields", 2),
    ("text/plain", 2),
    ("form charset utf-16", 2),
    ("huge", 2),
]
HEADER_KINDS = [
    ("normal", 110),
    ("Host bad port", 4),
    ("Host empty", 3),
    ("Host missing", 2),
    ("Host evil", 2),
    ("Host IPv6 garbage", 1),
    ("cookie garbage", 5),
    ("cookie binary", 3),
    ("cookie huge", 1),
    ("cookie twice", 2),
    ("Accept-Language garbage", 5),
    ("Accept-Language huge", 1),
    ("Accept-Language binary", 2),
    ("Content-Length abc", 2),
    ("Content-Length negative", 2),
    ("Content-Length twice", 2),
    ("Content-Length smaller", 2),
    ("Content-Length larger, then EOF", 1),
    ("Content-Length and chunked", 2),
    ("Content-Length huge", 1),
    ("chunked garbage", 1),
    ("htmx", 6),
    ("forwarded garbage", 2),
    ("Range garbage", 2),
    ("conditional garbage", 2),
    ("Content-Type garbage", 2),
    ("charset unknown", 2),
    ("Authorization garbage", 3),
    ("Origin malformed", 3),
    ("Referer garbage", 1),
    ("raw bytes in path", 1),
    ("absolute-form target", 1),
    ("HTTP/1.0", 1),
    ("Accept-Encoding", 2),
]


def weighted(rng: random.Random, table: list[tuple[str, int]]) -> str:
    return rng.choices([k for k, _ in table], weights=[w for _, w in table])[0]


@dataclasses.dataclass
class Req:
    n: int
    route: str
    family: str
    name: str
    method: str
    who: str
    params: dict  # name -> (kind, raw value or "@mine")
    query: str  # already encoded, "" for none
    body_kind: str
    header_kind: str
    body: bytes = b""
    body_desc: str = ""
    content_type: str = ""
    form: dict | None = None  # the form (for the valid kinds, rebuilt when the move is known)
    # filled when sent
    target: bytes = b""
    headers: list = dataclasses.field(default_factory=list)
    half_close: bool = False
    sent_as: str = ""

    def key(self) -> str:
        kinds = ",".join(f"{n}={k}" for n, (k, _) in sorted(self.params.items()))
        return (
            f"{self.method} {self.route}"
            + (f" [{kinds}]" if kinds else "")
            + f" | body: {self.body_kind} | headers: {self.header_kind}"
        )

    def full_key(self) -> str:
        return self.key() + f" | query: {'yes' if self.query else 'no'} | as {self.who}"


@dataclasses.dataclass
class Outcome:
    status: int | None  # the HTTP status, None when there was none
    what: str  # "ok", "hang", "dropped", "truncated", "no answer expected", "stream"
    elapsed: float
    snippet: bytes = b""

    @property
    def failed(self) -> bool:
        return (self.status is not None and self.status >= 500) or self.what.startswith(
            ("hang", "dropped", "truncated")
        )

    @property
    def label(self) -> str:
        if self.status is not None:
            return str(self.status)
        return self.what


class World:
    def __init__(self, data: dict, port: int):
        self.data = data
        self.port = port
        self.users = data["users"]
        self.matches = dict(data["matches"])
        self.challenges = data["challenges"]
        self.tokens = data["tokens"]
        self.token_ids = data["token_ids"]
        self.sessions = {k: list(v) for k, v in data["sessions"].items()}
        self.routes = data["routes"]
        self.static = data["static"]
        self.turn = 0
        self.lock = asyncio.Lock()
        self.moves_made = 0
        self.matches_made = 0
        self.mine_checked = 0.0

    def session(self, who: str, n: int) -> str:
        pool = self.sessions[who]
        return pool[n % len(pool)]

    def token(self, who: str, n: int) -> str:
        if who == "bob":
            return self.tokens["bob"]
        if who == "read":
            return self.tokens["read"]
        return self.tokens["play"][n % len(self.tokens["play"])]


def match_kinds(world: World, socket_side: bool = False) -> list[tuple[str, str]]:
    own = [("mine", "@mine")] if not socket_side else [("mine", str(world.matches["ws"]))]
    return own + [
        (k, str(world.matches[k]))
        for k in ("private", "public", "finished", "open", "own-open", "computer")
    ]


def param_choices(world: World, name: str, conv: str) -> list[tuple[str, str]]:
    if name == "match_id":
        valid = match_kinds(world)
        return valid * 2 + GENERIC
    if name == "challenge_id":
        return [(k, str(v)) for k, v in world.challenges.items()] * 3 + GENERIC
    if name == "token_id":
        return [
            ("token to revoke", str(world.token_ids["decoy"])),
            ("bob's token", str(world.token_ids["bob"])),
        ] * 3 + GENERIC
    if name == "username":
        return NAMES
    if name in {"uidb64", "token"}:
        return RESET
    if conv.startswith("choice:"):
        return [(c, c) for c in conv[7:].split("|")] * 2 + [("unknown", "nope"), ("NUL", "\x00")]
    if name == "url":
        return [
            ("unknown", "nope/"),
            ("unknown model", "games/nope/"),
            ("NUL", "\x00/"),
            ("long", "a" * 5000),
            ("lone surrogate", "\ud800/"),
        ]
    # the admin's object ids and the like
    ids = [
        ("user id", str(world.users["alice"])),
        ("match id", str(world.matches["finished"])),
        ("match in play", str(world.matches["mine"])),
        ("slash", "1/2"),
    ]
    return ids * 2 + GENERIC


def valid_form(world: World, req: Req, rng: random.Random) -> dict | None:
    """A form that should pass, for the web's routes; None: the route has none of its own."""
    name, who = req.name, req.who
    if req.family == "admin":
        if name == "login":
            return {"username": "mod", "password": PASSWORD, "next": "/admin/"}
        return {"q": "alice"} if name.endswith("_changelist") else {}
    forms = {
        "signup": {
            "username": f"fz{rng.randrange(10**6)}",
            "email": "fz@example.com",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
        "login": {"username": rng.choice(["alice", "bob", "dave"]), "password": PASSWORD},
        "password_change": {
            "old_password": PASSWORD,
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
        "password_reset": {"email": "alice@example.com"},
        "password_reset_confirm": {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        "language_set": {
            "language": rng.choice(["th", "am", "my", "en", "so", "ht"]),
            "next": "/play/",
        },
        "sound_set": {"sound": rng.choice(["on", "off"])},
        "look_set": rng.choice([{"theme": "dark"}, {"four_colour": "on"}, {"theme": "auto"}]),
        "api_token_create": {"name": "fuzz", "scopes": ["read"]},
        "bot_set": {"confirm": "yes"},
        "bot_challenges_set": {"allowed": rng.choice(["yes", "no"])},
        "learn": {"action": rng.choice(["pass", "order_up", "play:JH", "name:H", "take_up"])},
        "match_create": {
            "deck": "24",
            "target": "10",
            "move_seconds": "",
            "rated": "on",
            "spectators_allowed": "on",
        },
        "match_create_computer": {
            "computer-strength": "easy",
            "computer-deck": "24",
            "computer-target": "10",
        },
        "match_find": {"find-deck": "24", "find-target": "10"},
        "match_act": {"action": "@move", "version": "@version"},
        "match_report": {"reason": "other", "details": "fuzz"},
        "challenge_create": {
            "challenge-deck": "24",
            "challenge-target": "10",
            "challenge-move_seconds": "60",
        },
        "challenge_accept": {"next": "/play/"},
        "challenge_decline": {"next": "/play/"},
    }
    del who
    return forms.get(name, {})


def valid_json(req: Req) -> object:
    route = req.route
    if route.endswith("/move"):
        return {"action": "@move", "version": "@version"}
    if route == "/api/v1/matches":
        return {"deck": 24, "target": 10, "move_seconds": None, "rated": False}
    if route == "/api/v1/matches/computer":
        return {"strength": "easy"}
    if route == "/api/v1/challenges":
        return {"username": "bob", "move_seconds": None}
    return {}


def multipart(fields: dict, boundary: str) -> bytes:
    out = []
    for key, value in fields.items():
        for v in value if isinstance(value, list) else [value]:
            out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n')
            out.append(v)
            out.append("\r\n")
    out.append(f"--{boundary}--\r\n")
    return b"".join(utf8(x) for x in out)


def urlencoded(fields: dict) -> bytes:
    pairs = []
    for key, value in fields.items():
        for v in value if isinstance(value, list) else [value]:
            pairs.append(f"{q(key)}={q(str(v))}")
    return "&".join(pairs).encode()


class Planner:
    """The requests, drawn one by one from the seed (the huge bodies rationed)."""

    def __init__(self, world: World, seed: int, huge: int):
        self.world = world
        self.rng = random.Random(seed)
        self.huge_left = huge
        routes = list(world.routes)
        extra = [
            {"template": p, "name": "static", "params": {}, "family": "static"}
            for p in world.static[:12]
        ]
        extra += [
            {"template": p, "name": "unknown", "params": {}, "family": "unknown"}
            for p in (
                "/nope",
                "/favicon.ico",
                "/robots.txt",
                "/static/nope.js",
                "/static/../manage.py",
                "/static/js/%00.js",
                "/media/x",
                "/.env",
                "/api/v2/",
                "/api/v1/nope",
                "/ws/lobby/",
                "/matches/",
                "//",
                "/admin",
                "/api/v1/matches/",
            )
        ]
        self.routes = routes + extra
        self.api_methods: dict[str, list[str]] = {}
        self.sweeping: list[tuple] | None = None

    def sweep(self) -> list[tuple]:
        """First, every route with every kind of value of each of its parameters (the others
        valid), with its own method(s), anonymous and as the one who may use it: (route,
        method, who, params). The random requests follow."""
        out = []
        for route in self.world.routes:
            family, params = route["family"], route["params"]
            if family == "api":
                methods = self.api_methods.get(route["template"], ["GET"])
                whos = ["token", "anon"]
            elif family == "admin":
                methods, whos = ["GET", "POST"], ["moderator"]
            else:
                methods, whos = ["GET", "POST"], ["player", "anon"]
            choices = {
                name: list(dict(param_choices(self.world, name, conv)).items())
                for name, conv in params.items()
            }
            base = {name: kinds[0] for name, kinds in choices.items()}
            variants = [dict(base)]
            for name, kinds in choices.items():
                for kind in kinds[1:]:
                    variants.append({**base, name: kind})
            for variant in variants:
                for method in methods:
                    for who in whos:
                        out.append((route, method, who, variant))
        return out

    def next(self, n: int) -> Req:
        rng, world = self.rng, self.world
        if self.sweeping is None:
            self.sweeping = self.sweep()
        if n < len(self.sweeping):
            route, method, who, params = self.sweeping[n]
            req = Req(
                n=n,
                route=route["template"],
                family=route["family"],
                name=route["name"],
                method=method,
                who=who,
                params=dict(params),
                query="",
                body_kind="valid" if method != "GET" else "none",
                header_kind="normal",
            )
            self.body(req)
            return req
        if rng.random() < 0.03:  # a move the player to act may make: the games go on
            return self.move(n)
        route = rng.choice(self.routes)
        family, name = route["family"], route["name"]
        roll = rng.random()
        if roll < 0.40:
            method = "GET"
        elif roll < 0.75:
            method = "POST"
        else:
            method = rng.choice(METHODS)
        who_table = [
            ("anon", 3),
            ("anon+csrf", 2),
            ("player", 5),
            ("token", 4),
            ("read token", 1),
            ("session+token", 1),
        ]
        if family == "admin":
            who_table += [("moderator", 5)]
        who = weighted(rng, who_table)
        params = {}
        for pname, conv in route["params"].items():
            params[pname] = rng.choice(param_choices(world, pname, conv))
        query = ""
        if rng.random() < 0.3:
            keys = ADMIN_QUERY_KEYS if family == "admin" else QUERY_KEYS
            pairs = [(rng.choice(keys), rng.choice(FUZZ_VALUES)) for _ in range(rng.randint(1, 3))]
            query = "&".join(f"{q(k)}={q(v)}" for k, v in pairs)
        if method in {"GET", "HEAD", "OPTIONS"}:
            body_kind = "none" if rng.random() < 0.93 else weighted(rng, BODY_KINDS)
        else:
            body_kind = weighted(rng, BODY_KINDS)
        if body_kind == "huge":
            if self.huge_left <= 0:
                body_kind = "wrong fields"
            else:
                self.huge_left -= 1
        header_kind = weighted(rng, HEADER_KINDS)
        req = Req(
            n=n,
            route=route["template"],
            family=family,
            name=name,
            method=method,
            who=who,
            params=params,
            query=query,
            body_kind=body_kind,
            header_kind=header_kind,
        )
        self.body(req)
        return req

    def move(self, n: int) -> Req:
        api = self.rng.random() < 0.5
        route = "/api/v1/matches/{match_id}/move" if api else "/matches/{match_id}/act"
        req = Req(
            n=n,
            route=route,
            family="api" if api else "web",
            name="move" if api else "match_act",
            method="POST",
            who="token" if api else "player",
            params={"match_id": ("mine", "@mine")},
            query="",
            body_kind="valid",
            header_kind="normal",
        )
        self.body(req)
        return req

    def body(self, req: Req) -> None:
        rng, kind = self.rng, req.body_kind
        api = req.family == "api"
        form = lambda fields: (urlencoded(fields), "application/x-www-form-urlencoded")  # noqa: E731
        if kind == "none":
            return
        if kind == "valid":
            if api:
                req.form = {"json": valid_json(req)}
                body, ctype = json.dumps(req.form["json"]).encode(), "application/json"
            else:
                req.form = valid_form(self.world, req, rng) or {}
                body, ctype = form(req.form)
        elif kind == "wrong fields":
            fields = {
                rng.choice(FORM_KEYS): rng.choice(FUZZ_VALUES) for _ in range(rng.randint(0, 6))
            }
            body, ctype = form(fields)
        elif kind == "empty":
            body, ctype = b"", rng.choice(["application/x-www-form-urlencoded", "application/json"])
        elif kind == "Latin-1 form":
            body = "username=caf\xe9&action=pass&version=\xe9\xff&name=\xfc&details=\xe0".encode(
                "latin-1"
            )
            ctype = "application/x-www-form-urlencoded; charset=iso-8859-1"
        elif kind == "multipart without boundary":
            body, ctype = b"x", "multipart/form-data"
        elif kind == "multipart bad boundary":
            choice = rng.randrange(4)
            if choice == 0:
                body, ctype = (
                    multipart({"action": "pass"}, "right"),
                    "multipart/form-data; boundary=wrong",
                )
            elif choice == 1:
                body, ctype = (
                    b"--b\r\nContent-Disposition: form-data\r\n\r\nx",
                    "multipart/form-data; boundary=b",
                )
            elif choice == 2:
                body, ctype = (
                    multipart({"a": "1"}, "x" * 200),
                    "multipart/form-data; boundary=" + "x" * 200,
                )
            else:
                body, ctype = b"--\x00\r\n\r\n", 'multipart/form-data; boundary="\x7f"'
        elif kind == "multipart valid":
            fields = valid_form(self.world, req, rng) if not api else {}
            req.form = fields
            body, ctype = (
                multipart(fields or {"x": "1"}, "fuzzboundary"),
                "multipart/form-data; boundary=fuzzboundary",
            )
        elif kind == "JSON wrong types":
            if rng.random() < 0.2:
                value = rng.choice([[], "str", 1, None, True, [1, 2]])
            else:
                value = {
                    rng.choice(JSON_KEYS): rng.choice(WRONG_TYPES) for _ in range(rng.randint(1, 5))
                }
            body, ctype = json.dumps(value).encode(), "application/json"
        elif kind == "invalid JSON":
            body, ctype = rng.choice(INVALID_JSON), "application/json"
        elif kind == "JSON 100,000 deep":
            if rng.random() < 0.5:
                body, req.body_desc = b"[" * 100_000 + b"]" * 100_000, "'[' * 100000 + ']' * 100000"
            else:
                body = b'{"action":' * 100_000 + b"1" + b"}" * 100_000
                req.body_desc = "'{\"action\":' * 100000 + '1' + '}' * 100000"
            ctype = "application/json"
        elif kind == "JSON lone surrogate":
            key = rng.choice(JSON_KEYS)
            body = ('{"' + key + '": "\\ud800", "action": "play:\\udfff", "version": 1}').encode()
            ctype = "application/json"
        elif kind == "JSON NUL":
            key = rng.choice(JSON_KEYS)
            body = ('{"' + key + '": "a\\u0000b", "action": "pass\\u0000", "version": 1}').encode()
            ctype = "application/json"
        elif kind == "form NUL":
            fields = dict(valid_form(self.world, req, rng) or {"action": "pass"})
            for key in list(fields)[: rng.randint(1, max(1, len(fields)))]:
                fields[key] = "a\x00b"
            body, ctype = form(fields)
        elif kind == "form lone surrogate":
            fields = dict(valid_form(self.world, req, rng) or {"action": "pass"})
            for key in list(fields)[: rng.randint(1, max(1, len(fields)))]:
                fields[key] = "\ud800"
            body, ctype = form(fields)
        elif kind == "many fields":
            body, ctype = (
                b"&".join(b"f%d=1" % i for i in range(5000)),
                "application/x-www-form-urlencoded",
            )
            req.body_desc = "'&'.join(f'f{i}=1' for i in range(5000))"
        elif kind == "text/plain":
            body, ctype = b"hello \x00 \xff world", "text/plain"
        elif kind == "form charset utf-16":
            body, ctype = (
                b"action=pass&version=1",
                "application/x-www-form-urlencoded; charset=utf-16",
            )
        elif kind == "huge":
            size = rng.choice([3, 4, 6]) * 1024 * 1024
            style = rng.randrange(3)
            if style == 0:
                body, ctype = b"details=" + b"x" * size, "application/x-www-form-urlencoded"
                req.body_desc = f"'details=' + 'x' * {size}"
            elif style == 1:
                body, ctype = (
                    b'{"action": "' + b"x" * size + b'", "version": 1}',
                    "application/json",
                )
                req.body_desc = f"'{{\"action\": \"' + 'x' * {size} + '\", \"version\": 1}}'"
            else:
                body = (
                    b'--hb\r\nContent-Disposition: form-data; name="f"; filename="f.bin"\r\n'
                    b"Content-Type: application/octet-stream\r\n\r\n"
                    + b"\x00" * size
                    + b"\r\n--hb--\r\n"
                )
                ctype = "multipart/form-data; boundary=hb"
                req.body_desc = f"multipart, one file of {size} NUL bytes"
        else:  # pragma: no cover
            raise AssertionError(kind)
        req.body, req.content_type = body, ctype


# ---------------------------------------------------------------------------------------------
# Sending: raw HTTP/1.1


def headers_for(world: World, req: Req) -> tuple[bytes, list[tuple[str, bytes]], bool]:
    """The request line's target, the headers (in order) and whether to half-close."""
    port = world.port
    host = f"127.0.0.1:{port}".encode()
    who = req.sent_as or req.who
    path = req.route
    for name, (_kind, value) in req.params.items():
        path = path.replace("{" + name + "}", q(value))
    target = path.encode() + (b"?" + req.query.encode() if req.query else b"")
    headers: list[tuple[str, bytes]] = []
    cookie: list[str] = []
    person = {
        "player": "alice",
        "session+token": "alice",
        "moderator": "mod",
        "bob": "bob",
        "dave": "dave",
    }.get(who)
    if person == "alice" and req.name in SESSION_ENDERS:
        person = "dave"  # its valid form would end alice's session (see SESSION_ENDERS)
    if person == "mod" and req.name in SESSION_ENDERS:
        person = "mod"  # the moderator has a pool of sessions: one may end
    if person:
        cookie.append(f"sessionid={world.session(person, req.n)}")
    if person or who == "anon+csrf":
        cookie.append(f"csrftoken={CSRF}")
        headers.append(("X-CSRFToken", CSRF.encode()))
    if who in {"token", "session+token"}:
        headers.append(("Authorization", f"Bearer {world.token('alice', req.n)}".encode()))
    elif who == "read token":
        headers.append(("Authorization", f"Bearer {world.token('read', req.n)}".encode()))
    elif who == "bob token":
        headers.append(("Authorization", f"Bearer {world.token('bob', req.n)}".encode()))
    cookie_value = "; ".join(cookie).encode()
    kind = req.header_kind
    body = req.body
    length: list[bytes] | None = (
        [str(len(body)).encode()] if body or req.method in {"POST", "PUT", "PATCH"} else None
    )
    half_close = False
    extra: list[tuple[str, bytes]] = []
    line_version = b"HTTP/1.1"
    if kind == "Host bad port":
        host = b"127.0.0.1:abc"
    elif kind == "Host empty":
        host = b""
    elif kind == "Host missing":
        host = None
    elif kind == "Host evil":
        host = b"evil.example"
    elif kind == "Host IPv6 garbage":
        host = b"[::1"
    elif kind == "cookie garbage":
        cookie_value = b"sessionid=garbage; csrftoken=%%%; =;;; ; a"
    elif kind == "cookie binary":
        cookie_value = (cookie_value + b"; " if cookie_value else b"") + b"x=\xff\xfe\x80; y=\xe9"
    elif kind == "cookie huge":
        cookie_value = (cookie_value + b"; " if cookie_value else b"") + b"big=" + b"z" * 9000
    elif kind == "cookie twice":
        extra.append(("Cookie", b"sessionid=someone-else; csrftoken=zz"))
    elif kind == "Accept-Language garbage":
        extra.append(("Accept-Language", b"xx-YYYYYYYYYYYYYYY-zz;q=abc, *;q=-1, en;q=1e999, ;;,"))
    elif kind == "Accept-Language huge":
        extra.append(("Accept-Language", b"en-US," * 3000))
    elif kind == "Accept-Language binary":
        extra.append(("Accept-Language", b"\xe9\xff-\x80;q=0.5"))
    elif kind == "Content-Length abc":
        length = [b"abc"]
    elif kind == "Content-Length negative":
        length = [b"-1"]
    elif kind == "Content-Length twice":
        length = [str(len(body)).encode(), str(len(body) + 1).encode()]
    elif kind == "Content-Length smaller":
        length = [str(max(0, len(body) // 2)).encode()]
    elif kind == "Content-Length larger, then EOF":
        length = [str(len(body) + 100).encode()]
        half_close = True
    elif kind == "Content-Length and chunked":  # the body chunked, as Transfer-Encoding says
        extra.append(("Transfer-Encoding", b"chunked"))
        body = (b"%x\r\n" % len(body) + body + b"\r\n" if body else b"") + b"0\r\n\r\n"
    elif kind == "Content-Length huge":
        length = [b"99999999999999999999"]
    elif kind == "chunked garbage":
        length = None
        extra.append(("Transfer-Encoding", b"chunked"))
        body = b"zz\r\n" + body[:10] + b"\r\n0\r\n\r\n"
    elif kind == "htmx":
        extra += [
            ("HX-Request", b"true"),
            ("HX-Current-URL", b"http://[garbage"),
            ("HX-Target", b"\xff"),
        ]
    elif kind == "forwarded garbage":
        extra += [
            ("X-Forwarded-For", b"not-an-ip, \xff"),
            ("X-Forwarded-Proto", b"https"),
            ("X-Forwarded-Host", b"evil.example"),
            ("Forwarded", b"for=["),
        ]
    elif kind == "Range garbage":
        extra.append(
            (
                "Range",
                random.Random(req.n).choice(
                    [
                        b"bytes=abc",
                        b"bytes=99999999-",
                        b"bytes=5-1",
                        b"bytes=-0",
                        b"bytes=0-0,1-1,2-2,3-3" * 50,
                    ]
                ),
            )
        )
    elif kind == "conditional garbage":
        extra += [("If-Modified-Since", b"yesterday"), ("If-None-Match", b'"\xff", *, W/')]
    elif kind == "Content-Type garbage":
        req_ct = b";;=;charset=;boundary"
        extra.append(("Content-Type", req_ct))
    elif kind == "charset unknown":
        extra.append(("Content-Type", b"application/x-www-form-urlencoded; charset=klingon"))
    elif kind == "Authorization garbage":
        headers = [h for h in headers if h[0] != "Authorization"]
        extra.append(
            (
                "Authorization",
                random.Random(req.n).choice(
                    [
                        b"Bearer",
                        b"Bearer ",
                        b"Basic YWxpY2U6eA==",
                        b"Bearer " + b"a" * 9000,
                        b"Bearer \xff\xfe",
                        b"bearer  x y z",
                    ]
                ),
            )
        )
    elif kind == "Origin malformed":
        extra.append(
            (
                "Origin",
                random.Random(req.n).choice(
                    [b"http://[", b"null", b"http://a:b", b"http://127.0.0.1:abc"]
                ),
            )
        )
    elif kind == "Referer garbage":
        extra.append(("Referer", b"http://[::1"))
    elif kind == "raw bytes in path":
        target = target + b"\xff\xe9"
    elif kind == "absolute-form target":
        target = b"http://127.0.0.1:%d" % port + target
    elif kind == "HTTP/1.0":
        line_version = b"HTTP/1.0"
    elif kind == "Accept-Encoding":
        extra.append(("Accept-Encoding", b"gzip, br, deflate, zstd, *;q=abc"))
    out: list[tuple[str, bytes]] = []
    if host is not None:
        out.append(("Host", host))
    out.append(("User-Agent", b"euchre-fuzz/1"))
    out.append(("Connection", b"close"))
    if cookie_value:
        out.append(("Cookie", cookie_value))
    out += headers
    if req.content_type and not any(h[0] == "Content-Type" for h in extra):
        out.append(("Content-Type", utf8(req.content_type)))
    if length is not None:
        out += [("Content-Length", v) for v in length]
    out += extra
    req.target, req.headers, req.half_close = target, out, half_close
    return line_version, body


def raw_request(method: str, target: bytes, version: bytes, headers, body: bytes) -> bytes:
    head = method.encode() + b" " + target + b" " + version + b"\r\n"
    head += b"".join(name.encode() + b": " + value + b"\r\n" for name, value in headers)
    return head + b"\r\n" + body


async def exchange(
    port: int,
    raw: bytes,
    method: str,
    half_close: bool,
    timeout: float,
    stream_ok: bool = True,
    keep: int = 400,
) -> Outcome:
    began = time.perf_counter()
    state = {"head": False, "keep": keep}
    try:
        return await asyncio.wait_for(
            _exchange(port, raw, method, half_close, began, state, stream_ok), timeout
        )
    except TimeoutError:
        return Outcome(
            None, "hang" if not state["head"] else "hang (body)", time.perf_counter() - began
        )
    except OSError as error:  # the connection refused: the server is gone
        return Outcome(None, "dropped (connect)", time.perf_counter() - began, repr(error).encode())


async def _exchange(port, raw, method, half_close, began, state, stream_ok) -> Outcome:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 21)
    write_error: list[BaseException] = []

    async def write():
        try:
            writer.write(raw)
            await writer.drain()
            if half_close:
                writer.write_eof()
        except (ConnectionError, OSError) as error:
            write_error.append(error)

    sending = asyncio.ensure_future(write())
    try:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            while head.split(b" ", 2)[1:2] and head.split(b" ", 2)[1].startswith(b"1"):
                head = await reader.readuntil(b"\r\n\r\n")  # 100 Continue and the like
        except asyncio.IncompleteReadError as error:
            what = "no answer expected" if half_close else "dropped"
            return Outcome(None, what, time.perf_counter() - began, error.partial[:200])
        except (ConnectionError, OSError):
            return Outcome(
                None, "no answer expected" if half_close else "dropped", time.perf_counter() - began
            )
        state["head"] = True
        first, *lines = head.decode("latin-1").split("\r\n")
        try:
            status = int(first.split(" ", 2)[1])
        except (IndexError, ValueError):
            return Outcome(None, "dropped", time.perf_counter() - began, head[:200])
        fields = {}
        for line in lines:
            if ":" in line:
                k, v = line.split(":", 1)
                fields[k.strip().lower()] = v.strip()
        body = b""
        try:
            if method == "HEAD" or status in (204, 304):
                pass
            elif "ndjson" in fields.get("content-type", "") and status == 200 and stream_ok:
                with_timeout = asyncio.wait_for(reader.read(65536), 3)
                try:
                    body = await with_timeout
                except TimeoutError:
                    pass
                return Outcome(status, "stream", time.perf_counter() - began, body[:200])
            elif fields.get("transfer-encoding", "").lower() == "chunked":
                while True:
                    size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                    if size == 0:
                        await reader.readuntil(b"\r\n")
                        break
                    body += (await reader.readexactly(size + 2))[:-2]
            elif "content-length" in fields:
                body = await reader.readexactly(int(fields["content-length"]))
            else:
                body = await reader.read()
        except (asyncio.IncompleteReadError, ConnectionError, OSError, ValueError):
            return Outcome(status, "truncated", time.perf_counter() - began, head[:200])
        return Outcome(status, "ok", time.perf_counter() - began, body[: state["keep"]])
    finally:
        sending.cancel()
        writer.close()


# ---------------------------------------------------------------------------------------------
# The run: http


class Fuzz:
    def __init__(self, world: World, site: Site, args):
        self.world, self.site, self.args = world, site, args
        self.port = site.port
        self.results: list[tuple[Req, Outcome]] = []
        self.by_status = collections.Counter()
        self.by_family = collections.defaultdict(collections.Counter)
        self.failures: dict[str, list[tuple[Req, Outcome]]] = collections.defaultdict(list)
        self.valid_moves = collections.Counter()

    async def api(self, method: str, path: str, token: str, body: object = None) -> tuple:
        data = json.dumps(body).encode() if body is not None else b""
        headers = [
            ("Host", f"127.0.0.1:{self.port}".encode()),
            ("Connection", b"close"),
            ("Authorization", f"Bearer {token}".encode()),
        ]
        if body is not None:
            headers += [
                ("Content-Type", b"application/json"),
                ("Content-Length", str(len(data)).encode()),
            ]
        raw = raw_request(method, path.encode(), b"HTTP/1.1", headers, data)
        outcome = await exchange(self.port, raw, method, False, self.args.timeout, keep=1 << 22)
        try:
            return outcome.status, json.loads(outcome.snippet or b"null")
        except ValueError:
            return outcome.status, None

    async def current_match(self) -> str:
        """The http fuzz's match in play: a new one (opened by alice, joined by bob, through
        the API) once the fuzz has ended the last."""
        world = self.world
        async with world.lock:
            match_id = world.matches["mine"]
            if time.monotonic() - world.mine_checked < 2:
                return str(match_id)
            world.mine_checked = time.monotonic()
            status, data = await self.api("GET", f"/api/v1/matches/{match_id}", world.tokens["bob"])
            if status == 200 and data and data["match"]["status"] == "active":
                return str(match_id)
            for opener, joiner in (("play", "bob"), ("bob", "play")):
                o = world.tokens["play"][0] if opener == "play" else world.tokens["bob"]
                j = world.tokens["play"][0] if joiner == "play" else world.tokens["bob"]
                status, made = await self.api(
                    "POST", "/api/v1/matches", o, {"move_seconds": None, "rated": False}
                )
                if status != 200 or not made:
                    continue
                new = made["match"]["id"]
                status, _ = await self.api("POST", f"/api/v1/matches/{new}/join", j)
                if status == 200:
                    world.matches["mine"] = new
                    world.matches_made += 1
                    return str(new)
            return str(match_id)

    async def valid_move(self, match_id: str) -> tuple[str, str, int] | None:
        """(who may move: alice or bob, a legal action, the version), or None."""
        world = self.world
        for who, token in (("alice", world.tokens["play"][1]), ("bob", world.tokens["bob"])):
            status, data = await self.api("GET", f"/api/v1/matches/{match_id}/view", token)
            if status != 200 or not data:
                continue
            match, view = data["match"], data.get("view") or {}
            if match.get("turn") == data.get("seat") and view.get("legal_actions"):
                rng = random.Random(match["version"])
                return who, rng.choice(view["legal_actions"]), match["version"]
        return None

    async def resolve(self, req: Req) -> None:
        """The values only known when it is sent: the match in play, a legal move."""
        if any(v == "@mine" for _k, v in req.params.values()):
            mine = await self.current_match()
            req.params = {n: (k, mine if v == "@mine" else v) for n, (k, v) in req.params.items()}
        fields = req.form if req.form is not None else {}
        wants_move = fields.get("action") == "@move" or (
            isinstance(fields.get("json"), dict) and fields["json"].get("action") == "@move"
        )
        if not wants_move:
            return
        match_id = next((v for n, (k, v) in req.params.items() if n == "match_id"), None)
        move = await self.valid_move(match_id) if match_id and match_id.isdigit() else None
        action, version = ("pass", 0) if move is None else (move[1], move[2])
        if move is not None:
            self.valid_moves["found"] += 1
            mover = move[0]
            if mover == "bob":  # the player to move sends it
                req.sent_as = {
                    "player": "bob",
                    "session+token": "bob token",
                    "token": "bob token",
                    "read token": "bob token",
                }.get(req.who, req.who)
        else:
            self.valid_moves["none to make"] += 1
        if "json" in fields:
            req.form = {"json": {"action": action, "version": version}}
            req.body = json.dumps(req.form["json"]).encode()
        else:
            req.form = {"action": action, "version": str(version)}
            if req.body_kind == "multipart valid":
                req.body = multipart(req.form, "fuzzboundary")
            else:
                req.body = urlencoded(req.form)

    async def send(self, req: Req) -> Outcome:
        await self.resolve(req)
        version, body = headers_for(self.world, req)
        raw = raw_request(req.method, req.target, version, req.headers, body)
        return await exchange(self.port, raw, req.method, req.half_close, self.args.timeout)

    def record(self, req: Req, outcome: Outcome) -> None:
        self.by_status[outcome.label] += 1
        self.by_family[req.family][outcome.label] += 1
        if outcome.failed:
            self.failures[req.key()].append((req, outcome))
        # Only what a report needs is kept: the bodies of the huge ones are dropped.
        if len(req.body) > 1_000_000:
            req.body_desc = req.body_desc or f"{len(req.body)} bytes"
            req.body = b""
        self.results.append((req, outcome))

    async def run(self, planner: Planner, count: int) -> float:
        began = time.perf_counter()
        numbers = iter(range(count))
        last_report = [time.perf_counter()]

        async def worker():
            for n in numbers:
                req = planner.next(n)
                outcome = await self.send(req)
                self.record(req, outcome)
                if time.perf_counter() - last_report[0] > 15:
                    last_report[0] = time.perf_counter()
                    failed = sum(len(v) for v in self.failures.values())
                    print(
                        f"  http: {len(self.results)}/{count} sent, {failed} failed, "
                        f"{time.perf_counter() - began:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )

        await asyncio.gather(*(worker() for _ in range(self.args.concurrency)))
        return time.perf_counter() - began

    async def check_sessions(self) -> dict[str, bool]:
        """Whether alice's session and token still work (the fuzz must not have ended them)."""
        out = {}
        raw = raw_request(
            "GET",
            b"/settings/",
            b"HTTP/1.1",
            [
                ("Host", f"127.0.0.1:{self.port}".encode()),
                ("Connection", b"close"),
                ("Cookie", f"sessionid={self.world.session('alice', 0)}".encode()),
            ],
            b"",
        )
        outcome = await exchange(self.port, raw, "GET", False, self.args.timeout)
        out["alice's session"] = outcome.status == 200
        status, _ = await self.api("GET", "/api/v1/account", self.world.tokens["play"][0])
        out["alice's token"] = status == 200
        return out


# ---------------------------------------------------------------------------------------------
# Websockets: a raw client (the handshake's every header, invalid UTF-8 in a text frame)

WS_ORIGINS = [
    ("own", 8),
    ("none", 3),
    ("http://[", 2),
    ("null", 2),
    ("http://a:b", 2),
    ("http://evil.example", 2),
    ("https://own", 1),
    ("localhost", 1),
    ("http://127.0.0.1:abc", 1),
]
WS_HOSTS = [
    ("own", 12),
    ("127.0.0.1:abc", 2),
    ("evil.example", 1),
    ("empty", 1),
    ("missing", 1),
    ("localhost", 1),
]
WS_AUTH = [
    ("none", 3),
    ("alice session", 5),
    ("bob session", 2),
    ("garbage cookie", 2),
    ("alice token", 4),
    ("bob token", 1),
    ("read token", 1),
    ("garbage token", 2),
    ("session and token", 1),
]
WS_FRAMES = [
    ("valid move", 6),
    ("hint", 2),
    ("garbage text", 4),
    ("empty text", 2),
    ("binary", 3),
    ("lone surrogate raw", 3),
    ("lone surrogate escaped", 3),
    ("JSON 100,000 deep", 2),
    ("JSON wrong types", 4),
    ("NUL", 2),
    ("ping", 2),
    ("fragmented", 1),
    ("huge", 1),
    ("bad close code", 1),
]


@dataclasses.dataclass
class Sock:
    n: int
    route: str
    pkind: str
    path: str  # encoded
    origin: str
    host: str
    auth: str
    frames: list[str]
    outcome: str = ""
    detail: str = ""
    failed: bool = False
    replies: int = 0
    unanswered: list = dataclasses.field(default_factory=list)

    def key(self) -> str:
        """The class. A handshake's failure depends on the path and the origin (the host and
        the credentials, if they matter, stay in the minimised reproduction); one after the
        socket was accepted, on the route and the frame after which it failed."""
        kind = "a match id" if self.pkind and self.pkind in VALID_MATCH_KINDS else self.pkind
        where = f"WS {self.route}" + (f" [{kind}]" if kind else "")
        if self.outcome.startswith(("http", "hang (handshake)", "dropped (handshake)")):
            origin = self.origin if self.origin in MALFORMED_ORIGINS else "well-formed or none"
            return where + f" | origin: {origin} | {self.outcome} at the handshake"
        return where + f" | {self.outcome}"

    def bucket(self) -> str:
        if self.outcome.startswith("http"):
            return (
                self.outcome
                + (" no route" if self.pkind not in VALID_MATCH_KINDS else "")
                + (self.origin if self.origin in MALFORMED_ORIGINS else "")
            )
        return self.outcome


VALID_MATCH_KINDS = {"", "mine", "private", "public", "finished", "open", "own-open", "computer"}
MALFORMED_ORIGINS = {"http://[", "http://a:b", "http://127.0.0.1:abc"}


def diverse(classes: list, bucket) -> list:
    """The classes with the largest of each bucket first: the replays' limit reaches every
    kind of failure before it spends itself on variants of one."""
    firsts, rest, seen = [], [], set()
    for entry in sorted(classes, key=lambda kv: -len(kv[1])):
        b = bucket(entry)
        (rest if b in seen else firsts).append(entry)
        seen.add(b)
    return firsts + rest


def ws_frame(
    opcode: int, payload: bytes, rng: random.Random, fin: bool = True, masked: bool = True
) -> bytes:
    first = (0x80 if fin else 0) | opcode
    n = len(payload)
    bit = 0x80 if masked else 0
    if n < 126:
        head = struct.pack("!BB", first, bit | n)
    elif n < 65536:
        head = struct.pack("!BBH", first, bit | 126, n)
    else:
        head = struct.pack("!BBQ", first, bit | 127, n)
    if not masked:
        return head + payload
    mask = rng.randbytes(4)
    if n:
        key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
        payload = (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big")
    return head + mask + payload


async def ws_read(reader) -> tuple[int, bytes]:
    b0, b1 = await reader.readexactly(2)
    n = b1 & 0x7F
    if n == 126:
        (n,) = struct.unpack("!H", await reader.readexactly(2))
    elif n == 127:
        (n,) = struct.unpack("!Q", await reader.readexactly(8))
    mask = await reader.readexactly(4) if b1 & 0x80 else None
    payload = await reader.readexactly(n)
    if mask:
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return b0 & 0x0F, payload


class Closed(Exception):
    def __init__(self, code: int, reason: bytes):
        super().__init__(code)
        self.code, self.reason = code, reason


class Dropped(Exception):
    pass


class Sockets:
    def __init__(self, fuzz: Fuzz, seed: int, huge: int):
        self.fuzz, self.world = fuzz, fuzz.world
        self.port = fuzz.port
        self.rng = random.Random(seed + 1)
        self.huge_left = huge
        self.results: list[Sock] = []
        self.by_outcome = collections.Counter()
        self.failures: dict[str, list[Sock]] = collections.defaultdict(list)
        world = self.world
        ids = match_kinds(world, socket_side=True) * 2 + [
            ("zero", "0"),
            ("10**30", "1" + "0" * 30),
            ("letters", "abc"),
            ("NUL", "1\x00"),
            ("lone surrogate", "\ud800"),
            ("long", "9" * 5000),
            ("negative", "-1"),
        ]
        self.routes = [
            ("/ws/matches/{id}/", ids, 10),
            ("/ws/lobby/", None, 3),
            ("/ws/me/", None, 3),
            ("/ws/health/", None, 2),
            ("/api/v1/ws/account", None, 3),
            ("/api/v1/ws/matches/{id}", ids, 7),
            (
                "unknown",
                [
                    ("/ws/nope/", "/ws/nope/"),
                    ("/ws/matches/", "/ws/matches/"),
                    ("/ws/lobby", "/ws/lobby"),
                    ("/", "/"),
                    ("/api/v1/ws/nope", "/api/v1/ws/nope"),
                    ("/api/v1/account", "/api/v1/account"),
                    ("/matches/1/", "/matches/1/"),
                    ("/ws/%00/", "/ws/\x00/"),
                    ("/ws/long", "/ws/" + "a" * 5000),
                    ("/api/v1/ws/matches/", "/api/v1/ws/matches/"),
                ],
                4,
            ),
        ]

    def plan(self, n: int) -> Sock:
        rng = self.rng
        route, values, _w = rng.choices(self.routes, weights=[r[2] for r in self.routes])[0]
        pkind, path = "", route
        if route == "unknown":
            pkind, raw = rng.choice(values)
            path = "/".join(q(part) for part in raw.split("/"))
        elif values:
            pkind, raw = rng.choice(values)
            path = route.replace("{id}", q(raw))
            if route.startswith("/api/") and rng.random() < 0.3:
                path += "?since=" + q(rng.choice(["0", "1", "abc", "\x00", "9" * 40, "-1"]))
        origin, host, auth = (
            weighted(rng, WS_ORIGINS),
            weighted(rng, WS_HOSTS),
            weighted(rng, WS_AUTH),
        )
        if route.startswith("/api/") and auth in {"none", "alice session", "bob session"}:
            if rng.random() < 0.6:  # mostly with a token on the API's sockets
                auth = rng.choice(["alice token", "bob token"])
        frames = []
        if rng.random() < 0.6:
            for _ in range(rng.randint(1, 3)):
                kind = weighted(rng, WS_FRAMES)
                if kind == "huge":
                    if self.huge_left <= 0:
                        kind = "garbage text"
                    else:  # to a socket that is let in: the frame itself is what is tried
                        self.huge_left -= 1
                        origin, host = "own", "own"
                        if route in {"/ws/matches/{id}/", "/api/v1/ws/matches/{id}"}:
                            pkind, raw = "mine", str(self.world.matches["ws"])
                            path = route.replace("{id}", raw)
                        auth = "alice token" if route.startswith("/api/") else "alice session"
                        kind = f"huge {rng.choice([2, 4, 20])} MB"
                frames.append(kind)
        return Sock(
            n=n,
            route=route if route != "unknown" else pkind,
            pkind=pkind if route != "unknown" else "",
            path=path,
            origin=origin,
            host=host,
            auth=auth,
            frames=frames,
        )

    def handshake(self, sock: Sock, rng: random.Random) -> bytes:
        port, world = self.port, self.world
        own = f"127.0.0.1:{port}"
        host = {
            "own": own,
            "127.0.0.1:abc": "127.0.0.1:abc",
            "evil.example": "evil.example",
            "empty": "",
            "missing": None,
            "localhost": f"localhost:{port}",
        }[sock.host]
        origin = {
            "own": f"http://{own}",
            "none": None,
            "https://own": f"https://{own}",
            "localhost": f"http://localhost:{port}",
        }.get(sock.origin, sock.origin)
        key = base64.b64encode(rng.randbytes(16)).decode()
        lines = [f"GET {sock.path} HTTP/1.1"]
        if host is not None:
            lines.append(f"Host: {host}")
        lines += [
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            "User-Agent: euchre-fuzz/1",
        ]
        if origin is not None:
            lines.append(f"Origin: {origin}")
        auth = sock.auth
        if auth in {"alice session", "session and token"}:
            lines.append(f"Cookie: sessionid={world.session('alice', 0)}")
        elif auth == "bob session":
            lines.append(f"Cookie: sessionid={world.session('bob', 0)}")
        elif auth == "carol session":
            lines.append(f"Cookie: sessionid={world.session('carol', 0)}")
        elif auth == "garbage cookie":
            lines.append("Cookie: sessionid=garbage; =;;")
        if auth in {"alice token", "session and token"}:
            lines.append(f"Authorization: Bearer {world.token('alice', sock.n)}")
        elif auth == "bob token":
            lines.append(f"Authorization: Bearer {world.token('bob', 0)}")
        elif auth == "read token":
            lines.append(f"Authorization: Bearer {world.token('read', 0)}")
        elif auth == "garbage token":
            lines.append("Authorization: Bearer garbage")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8", "surrogatepass")

    async def frame_for(self, sock: Sock, kind: str, rng: random.Random) -> tuple[bytes, str]:
        """The bytes of one message of this kind (and its description)."""
        if kind == "valid move":
            match_id = sock.pkind and next(
                (v for k, v in match_kinds(self.world, True) if k == sock.pkind), None
            )
            move = await self.fuzz.valid_move(match_id) if match_id else None
            action, version = ("pass", 0) if move is None else (move[1], move[2])
            text = json.dumps({"action": action, "version": version})
            return ws_frame(1, text.encode(), rng), text
        if kind == "hint":
            return ws_frame(1, b'{"hint": 1}', rng), '{"hint": 1}'
        if kind == "garbage text":
            text = rng.choice(
                [
                    "hello",
                    "{",
                    "null",
                    "[1,2]",
                    '{"action": 5}',
                    "\U0001f0a1" * 50,
                    '{"type": "websocket.disconnect"}',
                    "x" * 5000,
                ]
            )
            return ws_frame(1, text.encode(), rng), repr(text[:60])
        if kind == "empty text":
            return ws_frame(1, b"", rng), "''"
        if kind == "binary":
            data = rng.randbytes(rng.randint(1, 300))
            return ws_frame(2, data, rng), f"{len(data)} random bytes (binary frame)"
        if kind == "lone surrogate raw":
            data = b'{"action": "\xed\xa0\x80", "version": 1}'
            return ws_frame(
                1, data, rng
            ), 'text frame b\'{"action": "\\xed\\xa0\\x80", "version": 1}\''
        if kind == "lone surrogate escaped":
            data = b'{"action": "\\ud800", "version": 1, "hint": "\\udfff"}'
            return ws_frame(1, data, rng), data.decode()
        if kind == "JSON 100,000 deep":
            if rng.random() < 0.5:
                return ws_frame(
                    1, b"[" * 100_000 + b"]" * 100_000, rng
                ), "'[' * 100000 + ']' * 100000"
            data = b'{"action":' * 100_000 + b"1" + b"}" * 100_000
            return ws_frame(1, data, rng), "'{\"action\":' * 100000 + '1' + '}' * 100000"
        if kind == "JSON wrong types":
            value = {
                rng.choice(["action", "version", "hint"]): rng.choice(WRONG_TYPES)
                for _ in range(rng.randint(1, 3))
            }
            text = json.dumps(value)
            return ws_frame(1, text.encode(), rng), text
        if kind == "NUL":
            data = b'{"action": "pass\\u0000", "version": 1}' if rng.random() < 0.5 else b"\x00\x00"
            return ws_frame(1, data, rng), repr(data)
        if kind == "ping":
            return ws_frame(9, b"fuzz", rng), "ping"
        if kind == "fragmented":
            text = b'{"action": "pass", "version": 1}'
            return (
                ws_frame(1, text[:10], rng, fin=False) + ws_frame(0, text[10:], rng),
                "a text frame in two fragments",
            )
        if kind.startswith("huge"):
            size = int(kind.split()[1]) * 1024 * 1024
            return ws_frame(1, b"x" * size, rng), f"text frame of {size} bytes"
        if kind == "bad close code":
            return ws_frame(8, struct.pack("!H", 999) + b"bye", rng), "close frame with code 999"
        raise AssertionError(kind)

    async def session(self, sock: Sock) -> None:
        rng = random.Random(sock.n * 7919 + 1)
        timeout = self.fuzz.args.timeout
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", self.port, limit=1 << 22), timeout
            )
        except (OSError, TimeoutError) as error:
            sock.outcome, sock.failed, sock.detail = "connect failed", True, repr(error)
            return
        try:
            await self._session(sock, rng, reader, writer, timeout)
        finally:
            writer.close()

    async def _session(self, sock, rng, reader, writer, timeout) -> None:
        writer.write(self.handshake(sock, rng))
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        except TimeoutError:
            sock.outcome, sock.failed = "hang (handshake)", True
            return
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            sock.outcome, sock.failed = "dropped (handshake)", True
            return
        try:
            status = int(head.split(b" ", 2)[1])
        except (IndexError, ValueError):
            sock.outcome, sock.failed = "dropped (handshake)", True
            return
        if status != 101:
            sock.outcome = f"http {status}"
            sock.failed = status >= 500
            return
        step = "open"

        async def replies(wait: float) -> int:
            """Frames until ``wait`` s pass without one (the first may take longer); raises
            Closed (a close frame came, answered) or Dropped (the connection ended without)."""
            got = 0
            limit = wait
            while True:
                try:
                    opcode, payload = await asyncio.wait_for(ws_read(reader), limit)
                except TimeoutError:
                    return got
                except (asyncio.IncompleteReadError, ConnectionError, OSError) as error:
                    raise Dropped(repr(error)) from None
                if opcode == 8:
                    code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                    with _suppress():
                        writer.write(ws_frame(8, payload[:2], rng))
                    raise Closed(code, payload[2:])
                if opcode == 9:
                    writer.write(ws_frame(10, payload, rng))
                    continue
                got += 1
                sock.replies += 1
                limit = 0.05  # what else comes at once

        try:
            await replies(3.0)  # the first board, banner, event or refusal
            for kind in sock.frames:
                step = kind
                data, _desc = await self.frame_for(sock, kind, rng)
                try:
                    writer.write(data)
                    await writer.drain()
                except (ConnectionError, OSError) as error:
                    # The server may have said why before it went: a close frame read already.
                    await replies(1.0)
                    raise Dropped(f"{error!r} while sending, no close frame") from None
                if kind == "bad close code":
                    await replies(timeout)
                    sock.outcome, sock.failed = "hang (no close frame after a bad close)", True
                    return
                wait = timeout if kind.startswith("huge") else 5.0
                if kind != "ping" and await replies(wait) == 0:
                    sock.unanswered.append(kind)
            step = "our close"
            writer.write(ws_frame(8, struct.pack("!H", 1000), rng))
            await replies(timeout)
            sock.outcome, sock.failed = "hang (no close frame after ours)", True
        except Closed as closed:
            where = (
                "at open"
                if step == "open"
                else ("on our close" if step == "our close" else f"after {step}")
            )
            sock.outcome = (
                "accepted"
                if step == "our close" and closed.code == 1000
                else (f"closed {closed.code} {where}")
            )
            sock.failed = closed.code == 1011
            sock.detail = closed.reason.decode("utf-8", "replace")[:200]
        except Dropped as dropped:
            sock.outcome, sock.failed, sock.detail = f"dropped after {step}", True, str(dropped)

    async def run(self, count: int, concurrency: int) -> float:
        began = time.perf_counter()
        numbers = iter(range(count))
        last = [time.perf_counter()]

        async def worker():
            for n in numbers:
                sock = self.plan(n)
                try:
                    await asyncio.wait_for(self.session(sock), 120)
                except TimeoutError:
                    sock.outcome, sock.failed = "hang (whole session)", True
                self.results.append(sock)
                self.by_outcome[sock.outcome] += 1
                if sock.failed:
                    self.failures[sock.key()].append(sock)
                if time.perf_counter() - last[0] > 15:
                    last[0] = time.perf_counter()
                    failed = sum(len(v) for v in self.failures.values())
                    print(
                        f"  websockets: {len(self.results)}/{count}, {failed} failed, "
                        f"{time.perf_counter() - began:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )

        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - began


class _suppress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return exc[0] is not None and issubclass(exc[0], (ConnectionError, OSError, RuntimeError))


# ---------------------------------------------------------------------------------------------
# The server's log: tracebacks


@dataclasses.dataclass
class Trace:
    header: str
    text: str
    exception: str
    ours: str  # the deepest frame in this project's code
    last: str  # the deepest frame
    tail: str = ""  # the last frames, outermost first

    def signature(self) -> str:
        return f"{self.exception.split(':', 1)[0]} at {self.ours or self.last}"


FRAME = re.compile(r'^\s+File "([^"]+)", line (\d+), in (.+)$')


def tracebacks(log: str) -> list[Trace]:
    lines = log.splitlines()
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() != "Traceback (most recent call last):" and not lines[i].lstrip(
            " +|"
        ).startswith("Exception Group Traceback"):
            i += 1
            continue
        header = next(
            (
                lines[j]
                for j in range(i - 1, max(-1, i - 6), -1)
                if lines[j].strip() and not lines[j].startswith(" ")
            ),
            "",
        )
        start, exception, frames = i, "", []
        i += 1
        while i < len(lines):
            line = lines[i]
            match = FRAME.match(line)
            if match:
                frames.append(match.groups())
            elif line.strip() in {"", "Traceback (most recent call last):"} or line.startswith(
                ("During handling of the above", "The above exception")
            ):
                pass
            elif not line.startswith((" ", "\t")):
                exception = line
                nxt = lines[i + 1] if i + 1 < len(lines) else ""
                if not (
                    nxt.startswith(("During handling", "The above exception"))
                    or (
                        nxt == ""
                        and i + 2 < len(lines)
                        and lines[i + 2].startswith(("During handling", "The above exception"))
                    )
                ):
                    i += 1
                    break
            i += 1
        root = str(ROOT)
        ours = [f for f in frames if f[0].startswith(root) and "/.venv/" not in f[0]]

        def fmt(f, root=root):
            return f"{f[0].replace(root + '/', '')}:{f[1]} in {f[2]}"

        short = [f"{Path(f[0]).name}:{f[1]} {f[2]}" for f in frames[-5:]]
        out.append(
            Trace(
                header=header,
                text="\n".join(lines[start:i]),
                exception=exception,
                ours=fmt(ours[-1]) if ours else "",
                last=fmt(frames[-1]) if frames else "",
                tail=" > ".join(short),
            )
        )
    return out


# ---------------------------------------------------------------------------------------------
# Replaying a failure alone, smaller while it still fails


def shown(req: Req, body: bytes) -> str:
    head = f"{req.method} {req.target.decode('latin-1')} HTTP/1.1"
    hdrs = "\n".join(
        "      "
        + k
        + ": "
        + (
            v.decode("latin-1")
            if len(v) < 200
            else f"{v[:60].decode('latin-1')}... ({len(v)} bytes)"
        )
        for k, v in req.headers
    )
    if req.body_desc:
        text = req.body_desc
    elif not body:
        text = "(none)"
    else:
        text = repr(body[:300]) + (f" ... ({len(body)} bytes)" if len(body) > 300 else "")
    return f"    {head}\n{hdrs}\n      body: {text}"


async def replay(fuzz: Fuzz, req: Req) -> tuple[Outcome, str, bytes]:
    site = fuzz.site
    offset = site.log_size()
    clone = dataclasses.replace(req, headers=[], target=b"")
    version, body = headers_for(fuzz.world, clone)
    raw = raw_request(clone.method, clone.target, version, clone.headers, body)
    outcome = await exchange(fuzz.port, raw, clone.method, clone.half_close, fuzz.args.timeout)
    await asyncio.sleep(0.3)
    req.headers, req.target = clone.headers, clone.target
    return outcome, site.log_since(offset), body


def same_failure(a: Outcome, b: Outcome) -> bool:
    if not b.failed:
        return False
    if a.status is not None and a.status >= 500:
        return b.status is not None and b.status >= 500
    return a.what.split(" ")[0] == b.what.split(" ")[0]


async def minimise(fuzz: Fuzz, req: Req, outcome: Outcome) -> tuple[Req, Outcome, str, bytes]:
    """The request with as little as possible beyond what makes it fail: no query, ordinary
    headers, anonymous; each step kept only if it still fails the same way."""
    current = dataclasses.replace(req)
    if req.body == b"" and req.body_kind not in {"none", "empty"}:
        fuzz_planner = Planner(fuzz.world, req.n, huge=1)
        fuzz_planner.body(current)  # the huge bodies were dropped after the run: made again
    got, log, body = await replay(fuzz, current)
    if not same_failure(outcome, got):
        return current, got, log, body
    hang = got.what.startswith("hang")
    steps = (
        []
        if hang
        else [
            lambda r: dataclasses.replace(r, query=""),
            lambda r: dataclasses.replace(r, header_kind="normal"),
            lambda r: dataclasses.replace(r, who="anon", sent_as=""),
        ]
    )
    for step in steps:
        candidate = step(current)
        if candidate.full_key() == current.full_key():
            continue
        result, log2, body2 = await replay(fuzz, candidate)
        if same_failure(outcome, result):
            current, got, log, body = candidate, result, log2, body2
    return current, got, log, body


def ws_failure(sock: Sock) -> str:
    for prefix in ("http 5", "hang", "dropped", "closed 1011", "connect failed"):
        if sock.outcome.startswith(prefix):
            return prefix
    return ""


async def ws_again(sockets: Sockets, sock: Sock, site_log: Site) -> tuple[Sock, list]:
    offset = site_log.log_size()
    again = dataclasses.replace(sock, outcome="", detail="", failed=False, replies=0, unanswered=[])
    await sockets.session(again)
    await asyncio.sleep(0.1)
    return again, tracebacks(site_log.log_since(offset))


async def ws_minimise(sockets: Sockets, sock: Sock) -> tuple[Sock, list]:
    """The socket replayed alone, then without its frames, its credentials, with the site's
    own host and origin: each step kept while it still fails the same way."""
    site = sockets.fuzz.site
    want = ws_failure(sock)
    current, traces_ = await ws_again(sockets, sock, site)
    if current.outcome == "closed 4429 at open":  # this player's sockets are used up: another
        for auth in ("bob session", "carol session"):
            candidate, found = await ws_again(sockets, dataclasses.replace(sock, auth=auth), site)
            if candidate.outcome != "closed 4429 at open":
                current, traces_ = candidate, found
                break
    if ws_failure(current) != want or want.startswith("hang"):
        return current, traces_
    last = current.outcome.rsplit(" after ", 1)[-1] if " after " in current.outcome else None
    changes = [{"frames": [last]}] if last in current.frames and len(current.frames) > 1 else []
    changes += [{"frames": []}, {"auth": "none"}, {"host": "own"}, {"origin": "own"}]
    for change in changes:
        if all(getattr(current, k) == v for k, v in change.items()):
            continue
        candidate, found = await ws_again(sockets, dataclasses.replace(current, **change), site)
        if ws_failure(candidate) == want:
            current, traces_ = candidate, found
    return current, traces_


def ws_shown(sockets: Sockets, sock: Sock) -> str:
    request = sockets.handshake(sock, random.Random(0)).decode("utf-8", "replace")
    lines = [
        line if len(line) < 220 else line[:200] + f"... ({len(line)} characters)"
        for line in request.strip().split("\r\n")
    ]
    text = "\n".join("      " + line for line in lines)
    frames = ", ".join(sock.frames) or "none (the handshake alone)"
    return (
        f"    {text.lstrip()}\n      then frames: {frames}; got: {sock.outcome} {sock.detail[:120]}"
    )


# ---------------------------------------------------------------------------------------------
# The report


def counts(counter: collections.Counter) -> str:
    def order(item):
        k = item[0]
        return (0, int(k)) if k.isdigit() else (1, k)

    return ", ".join(f"{k}: {v}" for k, v in sorted(counter.items(), key=order))


def trace_summary(trace: Trace) -> str:
    return (
        f"      log: {trace.header[:160]}\n"
        f"      raised: {trace.exception[:300]}\n"
        f"      at: {trace.ours or '-'} (deepest: {trace.last})\n"
        f"      last frames: {trace.tail}"
    )


def presence_rows(url: str) -> str:
    try:
        import psycopg

        with psycopg.connect(url) as conn:
            rows = conn.execute(
                "SELECT u.username, count(*) FROM games_connection c JOIN auth_user u"
                " ON u.id = c.user_id GROUP BY u.username ORDER BY u.username"
            ).fetchall()
        return ", ".join(f"{name}: {n}" for name, n in rows) or "none"
    except Exception as error:  # noqa: BLE001
        return f"(could not be read: {error!r})"


def database_connections(url: str) -> int | None:
    try:
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres") as conn:
            return conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)
            ).fetchone()[0]
    except Exception:
        return None


async def main_async(args, site: Site, world: World) -> int:
    fuzz = Fuzz(world, site, args)
    print(
        f"routes: {len(world.routes)} url patterns (web "
        f"{sum(r['family'] == 'web' for r in world.routes)}, admin "
        f"{sum(r['family'] == 'admin' for r in world.routes)}, api "
        f"{sum(r['family'] == 'api' for r in world.routes)}), {len(world.static)} static files"
    )
    planner = Planner(world, args.seed, args.huge)
    # Every route of the API's schema is among the resolver's.
    raw = raw_request(
        "GET",
        b"/api/v1/openapi.json",
        b"HTTP/1.1",
        [("Host", f"127.0.0.1:{site.port}".encode()), ("Connection", b"close")],
        b"",
    )
    outcome = await exchange(site.port, raw, "GET", False, args.timeout)
    schema_routes = []
    try:
        full = await _read_all(site.port, "/api/v1/openapi.json")
        schema = json.loads(full)
        templates = {r["template"] for r in world.routes}
        for path, operations in schema["paths"].items():
            schema_routes.append(path)
            planner.api_methods[path] = sorted(m.upper() for m in operations)
            if path not in templates:
                print(f"  the schema's {path} is not among the resolver's routes", file=sys.stderr)
        print(
            f"openapi.json: {outcome.status}, {len(schema_routes)} paths, "
            f"{sum(len(v) for v in schema['paths'].values())} operations, all among the routes: "
            f"{all(p in templates for p in schema_routes)}"
        )
    except Exception as error:  # noqa: BLE001
        print(f"openapi.json could not be read: {error!r}")
    # One sign-up through the site, as a person makes an account.
    signup = Req(
        n=0,
        route="/accounts/signup/",
        family="web",
        name="signup",
        method="POST",
        who="anon+csrf",
        params={},
        query="",
        body_kind="valid",
        header_kind="normal",
    )
    signup.form = {
        "username": "erin",
        "email": "erin@example.com",
        "password1": NEW_PASSWORD,
        "password2": NEW_PASSWORD,
    }
    signup.body, signup.content_type = urlencoded(signup.form), "application/x-www-form-urlencoded"
    got = await fuzz.send(signup)
    print(f"sign-up of erin through /accounts/signup/: {got.label}")
    connections_before = database_connections(site.env["DATABASE_URL"])

    print(
        f"http: the first {len(planner.sweep())} requests sweep every route's parameters "
        "(each kind of value, its own methods, anonymous and as its user); then random ones"
    )
    http_seconds = await fuzz.run(planner, args.requests)
    sockets = Sockets(fuzz, args.seed, args.huge_frames)
    ws_seconds = await sockets.run(args.handshakes, args.concurrency)
    alive = await fuzz.check_sessions()
    await asyncio.sleep(2)  # every socket of the fuzz is closed: their presence rows should go
    presence = presence_rows(site.env["DATABASE_URL"])
    probe = Sock(
        n=0,
        route="/ws/matches/{id}/",
        pkind="mine",
        path=f"/ws/matches/{world.matches['ws']}/",
        origin="own",
        host="own",
        auth="alice session",
        frames=[],
    )
    await sockets.session(probe)

    # Each failing class alone, smaller.
    classes = diverse(
        list(fuzz.failures.items()),
        lambda kv: (kv[1][0][1].label, kv[1][0][0].route, kv[1][0][0].body_kind),
    )
    replayed = []
    hangs_replayed = 0
    for key, items in classes:
        if len(replayed) >= args.replays:
            break
        req, outcome = items[0]
        if outcome.what.startswith("hang"):
            if hangs_replayed >= 6:  # ten seconds each
                continue
            hangs_replayed += 1
        small, got, log, body = await minimise(fuzz, req, outcome)
        replayed.append((key, items, small, got, tracebacks(log), body))
    done = {entry[0] for entry in replayed}
    ws_replayed = []
    ws_classes = diverse(list(sockets.failures.items()), lambda kv: kv[1][0].bucket())
    for key, items in ws_classes[: args.replays]:
        again, traces_ = await ws_minimise(sockets, items[0])
        ws_replayed.append((key, items, again, traces_))

    health = await exchange(
        site.port,
        raw_request(
            "GET",
            b"/healthz",
            b"HTTP/1.1",
            [("Host", f"127.0.0.1:{site.port}".encode()), ("Connection", b"close")],
            b"",
        ),
        "GET",
        False,
        args.timeout,
    )
    connections_after = database_connections(site.env["DATABASE_URL"])

    # ---- figures
    total = len(fuzz.results)
    five = sum(v for k, v in fuzz.by_status.items() if k.isdigit() and int(k) >= 500)
    hangs = sum(v for k, v in fuzz.by_status.items() if k.startswith("hang"))
    drops = sum(v for k, v in fuzz.by_status.items() if k in {"dropped", "truncated"})
    print()
    print(
        f"HTTP: {total} requests in {http_seconds:.0f} s ({total / http_seconds:.0f}/s), "
        f"concurrency {args.concurrency}, seed {args.seed}, timeout {args.timeout:g} s"
    )
    print(f"  by status: {counts(fuzz.by_status)}")
    for family in ("web", "admin", "api", "static", "unknown"):
        print(f"    {family}: {counts(fuzz.by_family[family])}")
    methods = collections.Counter(r.method for r, _ in fuzz.results)
    bodies = collections.Counter(r.body_kind for r, _ in fuzz.results)
    heads = collections.Counter(r.header_kind for r, _ in fuzz.results)
    whos = collections.Counter(r.who for r, _ in fuzz.results)
    print(f"  methods: {counts(methods)}")
    print(f"  as: {counts(whos)}")
    print(f"  bodies: {counts(bodies)}")
    print(f"  headers: {counts(heads)}")
    covered = {r.route for r, _ in fuzz.results}
    missing = [r["template"] for r in world.routes if r["template"] not in covered]
    print(
        f"  routes covered: {len(covered & {r['template'] for r in world.routes})}/"
        f"{len(world.routes)}" + (f" (not reached: {missing})" if missing else "")
    )
    print(
        f"  valid moves: {dict(fuzz.valid_moves)}; matches in play made by the fuzz: "
        f"{world.matches_made}"
    )
    spent: dict[str, list[float]] = collections.defaultdict(list)
    for r, o in fuzz.results:
        if not o.what.startswith("hang"):
            spent[r.route].append(o.elapsed)
    heavy = sorted(spent.items(), key=lambda kv: -sum(kv[1]))[:8]
    print(
        "  most time (route: requests, mean, total): "
        + "; ".join(
            f"{k} {len(v)}, {1000 * sum(v) / len(v):.0f} ms, {sum(v):.0f} s" for k, v in heavy
        )
    )
    slow = sorted((o.elapsed for _, o in fuzz.results), reverse=True)
    print(f"  slowest answers: {', '.join(f'{s:.2f}' for s in slow[:5])} s")
    quiet = collections.Counter(
        r.header_kind for r, o in fuzz.results if o.what.startswith("no answer")
    )
    print(
        f"  5xx: {five}, hangs: {hangs}, dropped: {drops}; no answer where none can come "
        f"(the body the request promised never came, then EOF): {counts(quiet) or 0}"
    )
    wtotal = len(sockets.results)
    wfail = sum(s.failed for s in sockets.results)
    print()
    print(f"Websockets: {wtotal} handshakes in {ws_seconds:.0f} s, concurrency {args.concurrency}")
    grouped = collections.Counter()
    for s in sockets.results:
        grouped[re.sub(r" (after|at|on) .*", "", s.outcome)] += 1
    print(f"  by outcome: {counts(grouped)}")
    print("  in detail: " + ", ".join(f"{k}: {v}" for k, v in sockets.by_outcome.most_common()))
    frames = collections.Counter(k for s in sockets.results for k in s.frames)
    unanswered = collections.Counter(k for s in sockets.results for k in s.unanswered)
    print(f"  frames sent: {counts(frames)}")
    print(f"  frames with no reply within 5 s: {counts(unanswered) or 0}")
    ws5 = sum(1 for s in sockets.results if s.outcome.startswith("http 5"))
    wdrop = sum(1 for s in sockets.results if s.outcome.startswith("dropped"))
    whang = sum(1 for s in sockets.results if s.outcome.startswith("hang"))
    w1011 = sum(1 for s in sockets.results if s.outcome.startswith("closed 1011"))
    print(f"  5xx on the handshake: {ws5}, dropped: {wdrop}, hangs: {whang}, closed 1011: {w1011}")
    print()
    print(f"/healthz at the end: {health.label} {health.snippet.decode('utf-8', 'replace')}")
    print(f"alice's session and token still work: {alive}")
    print(
        f"presence rows (games_connection) left 2 s after every socket of the fuzz closed: "
        f"{presence}; a page socket of alice's on her match now: {probe.outcome}"
    )
    print(
        f"database connections to the site's database (its pool holds up to 20 a process): "
        f"before the fuzz {connections_before}, after {connections_after}"
    )
    log = site.server_log.read_text("utf-8", "replace")
    traces = tracebacks(log)
    signatures = collections.Counter(t.signature() for t in traces)
    access_5xx = len(re.findall(r'" 5\d\d\b', log))
    print(
        f"server log: {len(traces)} tracebacks, {len(signatures)} distinct; "
        f"{access_5xx} access-log lines with a 5xx"
    )
    for sig, n in signatures.most_common(30):
        example = next(t for t in traces if t.signature() == sig)
        print(
            f"  {n:5d} x {sig}\n        {example.exception[:200]}\n"
            f"        (log: {example.header[:120]})\n        last frames: {example.tail}"
        )

    print()
    print(
        f"Failing HTTP classes: {len(fuzz.failures)} (route + what was sent; "
        f"{sum(len(v) for v in fuzz.failures.values())} requests), by cause (the traceback "
        "of each class's first request replayed alone, made smaller while it still fails):"
    )
    print_causes(
        replayed, "requests",
        traces_of=lambda e: e[4], outcome_of=lambda e: e[3].label,
        label_of=lambda item: item[1].label, reproduce=lambda e: shown(e[2], e[5]),
    )  # fmt: skip
    if len(classes) > len(replayed):
        print(f"\n  not replayed ({len(classes) - len(replayed)} classes):")
        for key, items in classes:
            if key not in done:
                print(
                    f"     {len(items)} x {key}: "
                    + counts(collections.Counter(o.label for _, o in items))
                )
    print()
    print(f"Failing websocket classes: {len(sockets.failures)} ({wfail} handshakes), by cause:")
    print_causes(
        ws_replayed, "handshakes",
        traces_of=lambda e: e[3], outcome_of=lambda e: e[2].outcome,
        label_of=lambda item: item.outcome, reproduce=lambda e: ws_shown(sockets, e[2]),
    )  # fmt: skip
    extra_ws = ws_classes[len(ws_replayed) :]
    if extra_ws:
        print(f"\n  not replayed ({len(extra_ws)} classes):")
    for key, items in extra_ws:
        print(f"     {len(items)} x {key}")
    failed = five + hangs + drops + wfail + (health.status != 200)
    print()
    print(
        f"RESULT: {'FAIL' if failed else 'PASS'}: {five} 5xx, {hangs} hangs, {drops} dropped "
        f"http; {wfail} failed websockets; /healthz {health.label}"
    )
    return 1 if failed else 0


def print_causes(entries, unit: str, *, traces_of, outcome_of, label_of, reproduce) -> None:
    """Failing classes (key, items, ...) replayed alone, grouped by the traceback the replay
    left (the most failures first): each cause with its classes, one reproduction and the
    traceback's last lines. The accessors read an entry of one kind (http or websocket)."""
    causes: dict[str, list] = collections.defaultdict(list)
    for entry in entries:
        traces_ = traces_of(entry)
        replayed = f"no traceback ({outcome_of(entry)} replayed)"
        causes[traces_[0].signature() if traces_ else replayed].append(entry)
    ranked = sorted(causes.items(), key=lambda kv: -sum(len(e[1]) for e in kv[1]))
    for number, (cause, group) in enumerate(ranked, 1):
        total = sum(len(e[1]) for e in group)
        labels = collections.Counter(label_of(item) for e in group for item in e[1])
        print(f"\n  {number}. {cause}: {total} {unit} in {len(group)} classes ({counts(labels)})")
        for key, items, *_rest in group[:12]:
            print(f"     {len(items):5d} x {key}")
        if len(group) > 12:
            print(f"     ... and {len(group) - 12} more classes")
        print(f"     reproduction (replayed alone: {outcome_of(group[0])}):")
        print(reproduce(group[0]))
        for trace in traces_of(group[0])[:1]:
            print(trace_summary(trace))


async def _read_all(port: int, path: str) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 22)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
    )
    data = await reader.read()
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    if b"chunked" in head.lower():
        out, rest = b"", body
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            if not size:
                break
            out, rest = out + rest[:size], rest[size + 2 :]
        body = out
    return body


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--handshakes", type=int, default=3_000)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds before a hang")
    parser.add_argument("--huge", type=int, default=30, help="http bodies of a few MB")
    parser.add_argument("--huge-frames", type=int, default=20, help="websocket frames of MBs")
    parser.add_argument("--replays", type=int, default=80, help="failing classes replayed")
    parser.add_argument("--database", default=DATABASE, help="the bench's database gets _fuzz")
    parser.add_argument("--keep", action="store_true", help="keep the logs' directory")
    args = parser.parse_args()

    logs = Path(tempfile.mkdtemp(prefix="euchre-fuzz-"))
    print(f"logs: {logs}")
    env = site_env(fresh_database(args.database))
    try:
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()  # the rate limits' counts of an earlier run
    except Exception as error:  # noqa: BLE001
        print(f"could not empty Redis database 5: {error!r}", file=sys.stderr)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    made = subprocess.run(
        [sys.executable, __file__, "_world"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    data = json.loads(made.stdout.strip().splitlines()[-1])
    site = Site(env, logs)
    code = 1
    try:
        site.start()
        world = World(data, site.port)
        code = asyncio.run(main_async(args, site, world))
    finally:
        site.stop()
        print(f"server log: {site.server_log}")
        if not args.keep and code == 0:
            shutil.rmtree(logs, ignore_errors=True)
    sys.exit(code)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "_world":
        world_main()
    else:
        main()
