"""What the fuzz sends: its test-only secrets, and the tables of values, bodies and headers
the requests are drawn from (each kind with its weight)."""

from __future__ import annotations

import random
import urllib.parse
import urllib.request
from pathlib import Path

# The repository: the site is served from it, its tools run in it.
ROOT = Path(__file__).resolve().parents[2]


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

# What a request to the API may be drawn with only beside bytes no schema describes (a raw
# header kind): schemathesis sends these from the schema, better than a table can.
WELL_FORMED = {"none", "valid", "wrong fields", "empty", "JSON wrong types", "many fields"}
PLAIN_HEADERS = {"normal", "htmx", "Accept-Encoding"}


def weighted(rng: random.Random, table: list[tuple[str, int]]) -> str:
    return rng.choices([k for k, _ in table], weights=[w for _, w in table])[0]
