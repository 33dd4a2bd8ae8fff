"""An arena under load: N programs (200 by default) join one arena through the API and play
it for a few minutes, served as docs/OPERATING.md tells operators to (PostgreSQL, Redis, web
processes behind nginx, task workers: ``bench.load``'s site).

Each program keeps the account's websocket open (``/api/v1/ws/account``: that is also what
makes it "on the site" for the pairing), joins the arena, and on each ``matchStart`` of the
arena opens the match's websocket and plays random legal moves after an exponential think
time. It prints:

- the pairing delay: from a program seeing its match end (it is free) to the first state of
  its next match on its socket, p50 / p95 / p99 (and the first pairing after the start);
  it holds the wait for another player to come free; the seating (the match made by the
  pairing -> its first state on the socket) is the server's part alone;
- the move push latency during the arena: from a move sent to the opponent's socket having
  the new version, p50 / p95 / p99;
- matches played, moves, errors, and the CPU of each kind of process.

    DATABASE_URL=postgres://... REDIS_URL=redis://... \
        python -m bench.arena --players 200 --seconds 300
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from datetime import datetime

from bench.load.measuring import loop_lag, machine_busy, quantiles
from bench.load.servers import Site, production_env


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.arena", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=300, help="the measured play")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds before a move")
    parser.add_argument("--target", type=int, default=5, help="the arena's points to win")
    parser.add_argument("--workers", type=int, default=2, help="web processes (behind nginx)")
    parser.add_argument("--task-workers", type=int, default=2)
    return parser.parse_args()


def set_up(players: int, target: int) -> tuple[int, list[str]]:
    """The arena (starting in 20 s, 30 minutes long, the given target and a 60 s clock) and
    ``players`` accounts with a token each."""
    import django

    django.setup()
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.utils import timezone

    from games import services

    users = get_user_model().objects
    host = users.create_user("arena-host", is_staff=True)
    host.user_permissions.add(Permission.objects.get(codename="moderate_arena"))
    host = users.get(pk=host.pk)
    arena = services.arena_create(
        user=host, name="Bench arena", starts_at=timezone.now() + timedelta(seconds=20),
        minutes=30, target=target, move_seconds=60, rated=True,
    )  # fmt: skip
    tokens = []
    for number in range(players):
        user = users.create_user(f"arena{number}")
        tokens.append(
            services.api_token_create(user=user, name="bench", scopes=["read", "play"])[1]
        )
    return arena.pk, tokens


class Figures:
    def __init__(self) -> None:
        self.pairing: list[float] = []  # free -> the next match's first state
        self.first: list[float] = []  # the arena's start -> the first match's first state
        self.seated: list[float] = []  # the match made by the pairing -> its first state
        self.latency: list[float] = []  # a move sent -> the opponent has it
        self.latency_at: list[float] = []  # when each of those arrived
        self.lag: list[float] = []  # how late this process's event loop woke
        self.cpu = 0.0  # this process's CPU seconds
        self.started = 0.0  # when the arena started (perf_counter)
        # (match, version after) -> (when sent, the mover's seat)
        self.sent: dict[tuple[int, int], tuple[float, int]] = {}
        self.matches: set[int] = set()
        self.moves = 0
        self.errors: list[str] = []


class Program:
    """One player: its account socket, and one match socket at a time."""

    def __init__(self, base: str, token: str, arena_id: int, figures: Figures, until: float,
                 think: float, rng: random.Random, started_at: list[float]) -> None:  # fmt: skip
        self.ws_base = base.replace("http://", "ws://")
        self.base = base
        self.auth = {"Authorization": f"Bearer {token}"}
        self.arena_id = arena_id
        self.figures = figures
        self.until = until
        self.think = think
        self.rng = rng
        self.started_at = started_at  # [when the arena started], shared
        self.free_since: float | None = None  # when its last match ended
        self.playing: set[int] = set()

    async def run(self) -> None:
        import httpx
        import websockets

        async with websockets.connect(
            f"{self.ws_base}/api/v1/ws/account", additional_headers=self.auth, open_timeout=60
        ) as account:
            async with httpx.AsyncClient(base_url=self.base, headers=self.auth, timeout=60) as c:
                answer = await c.post(f"/api/v1/arenas/{self.arena_id}/join")
                if answer.status_code != 200:
                    self.figures.errors.append(f"join: {answer.status_code} {answer.text[:200]}")
                    return
            tasks = []
            while time.perf_counter() < self.until:
                try:
                    async with asyncio.timeout(max(0.1, self.until - time.perf_counter())):
                        frame = json.loads(await account.recv())
                except TimeoutError:
                    break
                if frame.get("type") != "matchStart":
                    continue
                match = frame["match"] if "match" in frame else frame
                if match.get("arena_id") != self.arena_id or match["id"] in self.playing:
                    continue
                self.playing.add(match["id"])
                tasks.append(asyncio.create_task(self.play(match["id"])))
            for task in tasks:
                task.cancel()

    async def play(self, match_id: int) -> None:
        import websockets

        figures = self.figures
        try:
            async with websockets.connect(
                f"{self.ws_base}/api/v1/ws/matches/{match_id}",
                additional_headers=self.auth,
                open_timeout=60,
            ) as ws:
                first = True
                async for raw in ws:
                    event = json.loads(raw)
                    if event.get("type") == "error":
                        continue  # a stale move (the other's arrived first): the next state
                    if event.get("type") != "state":
                        continue
                    now = time.perf_counter()
                    version = event["version"]
                    if first:
                        first = False
                        figures.matches.add(match_id)
                        made = datetime.fromisoformat(event["match"]["created_at"])
                        figures.seated.append(time.time() - made.timestamp())
                        if self.free_since is not None:
                            figures.pairing.append(now - self.free_since)
                        elif self.started_at:
                            figures.first.append(now - self.started_at[0])
                    sent = figures.sent.get((match_id, version))
                    if sent is not None and event.get("seat") != sent[1]:  # the opponent's
                        del figures.sent[(match_id, version)]
                        figures.latency.append(now - sent[0])
                        figures.latency_at.append(now)
                    if event["match"]["status"] != "active":
                        self.free_since = now
                        return
                    view = event.get("view") or {}
                    if view.get("turn") != event.get("seat") or not view.get("legal_actions"):
                        continue
                    if now >= self.until:
                        return
                    await asyncio.sleep(self.rng.expovariate(1 / self.think))
                    action = self.rng.choice(view["legal_actions"])
                    figures.sent[(match_id, version + 1)] = (time.perf_counter(), event["seat"])
                    figures.moves += 1
                    await ws.send(json.dumps({"action": action, "version": version}))
        except Exception as error:  # counted; the program goes on with its next match
            figures.errors.append(f"match {match_id}: {type(error).__name__}: {error}")
        finally:
            self.playing.discard(match_id)


async def watch_start(arena_id: int, started_at: list[float]) -> None:
    """Notes when the arena starts running (its status, read every 0.1 s)."""
    from asgiref.sync import sync_to_async

    from games.models import Arena

    read = sync_to_async(lambda: Arena.objects.get(pk=arena_id).status)
    while await read() == "scheduled":
        await asyncio.sleep(0.1)
    started_at.append(time.perf_counter())


async def main(args: argparse.Namespace, base: str, arena_id: int, tokens: list[str]) -> Figures:
    figures = Figures()
    rng = random.Random(7)
    started_at: list[float] = []
    until = time.perf_counter() + 20 + args.seconds
    programs = [
        Program(base, token, arena_id, figures, until, args.think, rng, started_at)
        for token in tokens
    ]
    watcher = asyncio.create_task(watch_start(arena_id, started_at))
    probe = asyncio.create_task(loop_lag(figures.lag))
    cpu = time.process_time()
    await asyncio.gather(*(p.run() for p in programs))
    figures.cpu = time.process_time() - cpu
    watcher.cancel()
    probe.cancel()
    figures.started = started_at[0] if started_at else until
    return figures


def report(figures: Figures, args, cpu: dict, busy: list[float]) -> None:
    def line(name: str, values: list[float]) -> str:
        p50, p95, p99 = quantiles(values)
        return f"{name}: p50 {p50:.0f} ms, p95 {p95:.0f} ms, p99 {p99:.0f} ms (n={len(values)})"

    print(f"arena: {args.players} programs, {args.seconds:.0f} s, target {args.target}, "
          f"think {args.think} s, {args.workers} web processes behind nginx, "
          f"{args.task_workers} task workers")  # fmt: skip
    print(line("pairing delay (free -> next match's first state)", figures.pairing))
    print(line("first pairing (the arena's start -> first state)", figures.first))
    print(line("seating (the pairing made the match -> its first state)", figures.seated))
    print(line("move push latency (sent -> the opponent has it)", figures.latency))
    # The latency minute by minute: the arena's first pairing (every program at once) apart.
    for minute in range(int(args.seconds // 60) + 1):
        low, high = figures.started + 60 * minute, figures.started + 60 * (minute + 1)
        some = [v for v, t in zip(figures.latency, figures.latency_at, strict=True)
                if low <= t < high]  # fmt: skip
        if len(some) > 1:
            print("  " + line(f"minute {minute + 1}", some))
    print(f"matches {len(figures.matches)}, moves {figures.moves}, errors {len(figures.errors)}")
    p50, _p95, p99 = quantiles(figures.lag)
    print(f"this load generator: {figures.cpu:.0f} CPU s, event loop late by p50 {p50:.1f} ms, "
          f"p99 {p99:.1f} ms (part of every figure)")  # fmt: skip
    for error in figures.errors[:10]:
        print("  ", error)
    print("CPU seconds:", ", ".join(f"{k} {v:.1f}" for k, v in cpu.items()),
          f"(machine busy {busy[0]:.0f} of {busy[1]:.0f})")  # fmt: skip
    if figures.pairing:
        print(f"pairing delay mean {statistics.mean(figures.pairing) * 1000:.0f} ms")


def run() -> None:
    args = arguments()
    env = production_env("arena")
    arena_id, tokens = set_up(args.players, args.target)
    site = Site(env, workers=args.workers, front=True, task_workers=args.task_workers).start()
    try:
        before, machine = site.cpu(), machine_busy()
        figures = asyncio.run(main(args, site.base, arena_id, tokens))
        after = site.cpu()
        busy = [a - b for a, b in zip(machine_busy(), machine, strict=True)]
        report(figures, args, {k: after[k] - before[k] for k in after}, busy)
    finally:
        site.stop()


if __name__ == "__main__":
    run()
