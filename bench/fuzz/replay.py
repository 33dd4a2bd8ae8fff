"""A failing request or socket replayed alone, made smaller while it still fails."""

from __future__ import annotations

import asyncio
import dataclasses
import random

from .http_run import Fuzz
from .plan import Outcome, Planner, Req
from .raw_http import exchange, headers_for, raw_request
from .report import tracebacks
from .site import Site
from .sockets import Sock, Sockets

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
