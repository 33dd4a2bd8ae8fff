"""The http part of the run: each planned request sent raw, its outcome counted; the match
in play and its legal moves kept up to date through the API with httpx."""

from __future__ import annotations

import asyncio
import collections
import json
import random
import sys
import time

import httpx

from .plan import Outcome, Planner, Req, World, multipart, urlencoded
from .raw_http import exchange, headers_for, raw_request
from .site import Site

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
        self.client = httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{self.port}", timeout=args.timeout
        )

    async def api(self, method: str, path: str, token: str, body: object = None) -> tuple:
        """(status, JSON) of a well-formed call of the API, by httpx: the fuzz's bookkeeping
        (the match in play, a legal move), not one of its cases."""
        try:
            response = await self.client.request(
                method, path, headers={"Authorization": f"Bearer {token}"}, json=body
            )
        except httpx.HTTPError:
            return None, None
        try:
            return response.status_code, response.json()
        except ValueError:
            return response.status_code, None

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
        cookies = {"sessionid": self.world.session("alice", 0)}
        try:
            page = await self.client.get("/settings/", cookies=cookies)
            out["alice's session"] = page.status_code == 200
        except httpx.HTTPError:
            out["alice's session"] = False
        status, _ = await self.api("GET", "/api/v1/account", self.world.tokens["play"][0])
        out["alice's token"] = status == 200
        return out
