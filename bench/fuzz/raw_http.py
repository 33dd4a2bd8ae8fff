"""Raw HTTP/1.1: every byte of a request is the fuzz's to choose (a Host with a bad port, two
Content-Lengths, a lone surrogate in the path), which no HTTP client library sends; one
connection a request, read until the server closes it or the time runs out."""

from __future__ import annotations

import asyncio
import random
import time

from .plan import Outcome, Req, World
from .values import CSRF, SESSION_ENDERS, q, utf8

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
