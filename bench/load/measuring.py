"""What the load bench measures besides its players' moves: the figures kept during play, their
quantiles, how late this process's own event loop is, how busy the whole machine is, and the
latency of a bare view under the same concurrency (the floor every move is compared with)."""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path


class Stats:
    """The play window's figures, shared by every match."""

    def __init__(self) -> None:
        self.latencies: list[float] = []  # move -> the opponent's side has it
        self.acknowledged: dict[int, int] = {}  # moves the server took, by match
        self.errors: list[str] = []
        self.moves = 0
        self.in_window = 0  # moves made within the measured seconds
        self.posts: list[float] = []  # move -> the mover's answer
        self.computer: list[float] = []  # the computer's delay beyond its natural one
        self.by_kind: dict[str, list[float]] = defaultdict(list)  # by transport, or opponent


def quantiles(values: list[float]) -> tuple[float, float, float]:
    """p50, p95 and p99 of ``values`` (seconds), in milliseconds."""
    if len(values) < 2:
        return (values[0] * 1000,) * 3 if values else (float("nan"),) * 3
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[94] * 1000, cuts[98] * 1000


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    tick = os.sysconf("SC_CLK_TCK")
    return (sum(values) - idle) / tick, sum(values) / tick


async def loop_lag(lags: list[float], every: float = 0.01) -> None:
    """How late this process's own event loop wakes up: its lag is in every latency measured."""
    while True:
        due = time.perf_counter() + every
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - due)


async def bare_view(base, players, seconds, think, rng) -> list[float]:
    """``players`` clients asking for ``/healthz`` at the players' pace for ``seconds``: the
    latency of a view that does nothing, under the same concurrency."""
    import httpx

    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def loop(client):
        while time.perf_counter() < deadline:
            await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
            started = time.perf_counter()
            try:
                response = await client.get("/healthz")
            except httpx.HTTPError:
                continue
            if response.status_code == 200:
                latencies.append(time.perf_counter() - started)

    clients = [httpx.AsyncClient(base_url=base, timeout=30) for _ in range(players)]
    await asyncio.gather(*(loop(c) for c in clients))
    for client in clients:
        await client.aclose()
    return latencies
