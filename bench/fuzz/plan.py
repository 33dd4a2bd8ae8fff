"""The http requests, planned from the seed: first a sweep of every route of the site and the
admin with every kind of value of each of its parameters, then random ones. The API's
well-formed requests are schemathesis' (tests/api/test_schema_fuzz.py, from its schema): to
the API go only requests with bytes no schema describes."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random

from .values import (
    ADMIN_QUERY_KEYS,
    BODY_KINDS,
    FORM_KEYS,
    FUZZ_VALUES,
    GENERIC,
    HEADER_KINDS,
    INVALID_JSON,
    JSON_KEYS,
    METHODS,
    NAMES,
    NEW_PASSWORD,
    PASSWORD,
    PLAIN_HEADERS,
    QUERY_KEYS,
    RESET,
    WELL_FORMED,
    WRONG_TYPES,
    q,
    utf8,
    weighted,
)


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
        self.sweeping: list[tuple] | None = None

    def sweep(self) -> list[tuple]:
        """First, every route with every kind of value of each of its parameters (the others
        valid), with its own method(s), anonymous and as the one who may use it: (route,
        method, who, params). The random requests follow. Not the API's: schemathesis
        sweeps them from their schema (tests/api/test_schema_fuzz.py)."""
        out = []
        for route in self.world.routes:
            family, params = route["family"], route["params"]
            if family == "api":
                continue
            if family == "admin":
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
        if family == "api" and body_kind in WELL_FORMED and header_kind in PLAIN_HEADERS:
            # A well-formed request to the API is schemathesis' (its every operation, from the
            # schema); here only the bytes no schema describes.
            header_kind = weighted(rng, [k for k in HEADER_KINDS if k[0] not in PLAIN_HEADERS])
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
