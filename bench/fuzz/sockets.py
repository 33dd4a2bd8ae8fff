"""Websocket handshakes and frames, raw: origins and hosts malformed, a session or a token or
neither, then valid moves, garbage, binary, a lone surrogate as raw bytes in a text frame,
100,000-deep JSON, fragmented and huge frames, bad close codes. A client library
(``websockets``) refuses to send most of these, so the client is the fuzz's own."""

from __future__ import annotations

import asyncio
import base64
import collections
import dataclasses
import json
import random
import struct
import sys
import time

from .http_run import Fuzz
from .plan import match_kinds
from .values import WRONG_TYPES, q, weighted

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
