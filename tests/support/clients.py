"""The reference clients (clients/python, clients/js) run as programs run them."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Sequence

import websockets

from games import services
from games.models import Match, MatchStatus
from tests.support.api import token_for
from tests.support.matches import pass_if_allowed, start
from tests.support.servers import ROOT, Server

PYTHON_CLIENT = ROOT / "clients" / "python" / "euchre_bot.py"


def bot(server: Server, token: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(PYTHON_CLIENT), "--url", server.url, *args],
        env={"EUCHRE_TOKEN": token, "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        text=True,
    )


JS_CLIENT = ROOT / "clients" / "js" / "euchre_bot.js"


def rematch_played(server: Server, bot_account, person) -> Match:
    """A match of ``person`` against ``bot_account``, played by a reference client running as
    a program of its own: both begin it (the person through the services, passing on their
    turn), the person resigns and offers a rematch. The new match, once the program has
    accepted the offer and both have acted in it. The test follows the person's own streams
    on ``server`` (the program's moves come as their states), never the clock."""
    token = token_for(person, name="the person's eyes")
    first = start(person, bot_account, move_seconds=None)
    _until_both_acted(server, token, first.pk)
    services.match_resign(user=person, match_id=first.pk)
    services.rematch_offer(user=person, match_id=first.pk)
    # The account stream names each match in play as it opens: the rematch, once accepted.
    started = next(
        event["match"]["id"]
        for event in _events(server, token, "stream/account")
        if event["type"] == "matchStart" and event["match"]["id"] != first.pk
    )
    _until_both_acted(server, token, started)
    return Match.objects.get(pk=started)


def _until_both_acted(server: Server, token: str, match_id: int) -> None:
    """Follows the match's stream as its person sees it, passing on their turn, until both
    players have acted (a resignation then ends the match instead of calling it off)."""
    for event in _events(server, token, f"stream/matches/{match_id}"):
        if event["type"] != "state":
            continue
        match = Match.objects.select_related("player0", "player1").get(pk=match_id)
        if match.both_acted:
            return
        if event["seat"] == event["match"]["turn"] and event["version"] == match.version:
            pass_if_allowed(match)


def _events(server: Server, token: str, path: str):
    """The events of one of the API's streams (heartbeat lines skipped); a stream that says
    nothing for 30 s fails the test."""
    request = urllib.request.Request(
        f"{server.url}/api/v1/{path}", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 - the test server
        for line in answer:
            if line.strip():
                yield json.loads(line)


def first_event(
    server: Server,
    token: str,
    path: str,
    wanted: Callable[[dict], bool],
    alive: Sequence[subprocess.Popen] = (),
    within: float = 30,
) -> dict:
    """The first event of the API's stream ``path`` (``account``, ``matches/<id>``, over its
    websocket on ``server``) that ``wanted`` accepts. A process of ``alive`` that exits first
    fails the test at once, with what it said on stderr; so does no such event in ``within``
    seconds."""
    return asyncio.run(_first_event(server, token, path, wanted, alive, within))


def match_started(event: dict) -> bool:
    """A match of the stream's player started (or was in play as the account stream opened)."""
    return event["type"] == "matchStart"


def match_over(event: dict) -> bool:
    """The match stream's state shows the match no longer in play."""
    return event["type"] == "state" and event["match"]["status"] != MatchStatus.ACTIVE


async def _first_event(server, token, path, wanted, alive, within) -> dict:
    async def read() -> dict:
        async with websockets.connect(
            f"{server.ws_url}/api/v1/ws/{path}",
            additional_headers={"Authorization": f"Bearer {token}"},
            open_timeout=10,
        ) as stream:
            async for frame in stream:
                if wanted(event := json.loads(frame)):
                    return event
        raise AssertionError(f"the stream {path} ended")

    reading = asyncio.ensure_future(read())
    exits = {asyncio.ensure_future(_exited(process)): process for process in alive}
    try:
        done, _ = await asyncio.wait(
            [reading, *exits], timeout=within, return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        for task in [reading, *exits]:
            task.cancel()
        await asyncio.gather(reading, *exits, return_exceptions=True)
    if reading in done:
        return reading.result()
    for exit_, process in exits.items():
        if exit_ in done:
            said = process.stderr.read() if process.stderr else "(its stderr is the test's)"
            raise AssertionError(f"{process.args[:2]} exited ({process.returncode}): {said}")
    raise AssertionError(f"no {wanted.__name__} event on the stream {path} within {within} s")


async def _exited(process: subprocess.Popen) -> None:
    """Returns once ``process`` has exited: its pidfd turns readable then (the kernel's word,
    not a poll). Not reaped before ``poll`` says so, its pid cannot be another's meanwhile."""
    if process.poll() is not None:
        return
    loop = asyncio.get_running_loop()
    ended = loop.create_future()
    pidfd = os.pidfd_open(process.pid)
    loop.add_reader(pidfd, lambda: ended.done() or ended.set_result(None))
    try:
        await ended
    finally:
        loop.remove_reader(pidfd)
        os.close(pidfd)
    process.poll()
