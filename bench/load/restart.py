"""A deploy with every page open: the web processes restarted under the players' sockets, and
how long until every page has its board back, none behind the database."""

from __future__ import annotations

import asyncio
import time

from .client import VERSION, match_socket


async def restart_with_pages_open(base: str, players: list[tuple[int, str]], restart, rng) -> dict:
    """A deploy with every page open: each player's socket is open, the server is stopped
    (SIGTERM) and started again by ``restart``, and each page reopens its socket 0.5-2 s after
    it closed (live.js). Measures from the server answering again until every socket holds its
    board, and checks each board is its match's stored version."""
    from games.models import Match

    result = {"waits": [], "behind": [], "errors": [], "closed": {}}

    async def board(ws) -> str:
        async with asyncio.timeout(30):
            while 'id="board"' not in (frame := await ws.recv()):
                pass
        return frame

    async def first_visit(match_id: int, cookie: str):
        ws = await match_socket(base, match_id, cookie)
        await board(ws)
        return ws

    sockets = await asyncio.gather(*(first_visit(m, c) for m, c in players))
    stopped_in = await asyncio.to_thread(restart)
    for ws in sockets:
        await ws.wait_closed()
        code = ws.close_code
        result["closed"][code] = result["closed"].get(code, 0) + 1
    stored = await asyncio.to_thread(lambda: dict(Match.objects.values_list("pk", "version")))
    began = time.perf_counter()
    all_back = asyncio.Event()

    async def comes_back(match_id: int, cookie: str) -> None:
        await asyncio.sleep(rng.uniform(0.5, 2.0))
        opened = time.perf_counter()
        try:
            async with match_socket(base, match_id, cookie) as ws:
                frame = await board(ws)
                result["waits"].append(time.perf_counter() - opened)
                if int(VERSION.search(frame).group(1)) != stored[match_id]:
                    result["behind"].append(match_id)
                await all_back.wait()  # stays connected until every page is back
        except Exception as error:
            result["errors"].append(f"match {match_id}: {type(error).__name__}: {error}")

    tasks = [asyncio.create_task(comes_back(m, c)) for m, c in players]
    while len(result["waits"]) + len(result["errors"]) < len(players):
        await asyncio.sleep(0.01)
    result["took"] = time.perf_counter() - began
    result["stopped in"] = stopped_in
    all_back.set()
    await asyncio.gather(*tasks)
    return result
