"""Scripted players over real websockets: they read the pushed board as a browser would."""

from __future__ import annotations

import io
import json
import re
import urllib.request

import websockets
from django.core.management import call_command
from django.test import Client

from games.models import Match

VERSION = re.compile(r'data-version="(\d+)"')
ACTION = re.compile(r'name="action" value="([^"]+)"')


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


class Player:
    def __init__(self, name: str, cookie: str):
        self.name = name
        self.cookie = cookie
        self.ws = None
        self.board = ""

    @property
    def version(self) -> int:
        return int(VERSION.search(self.board).group(1))

    @property
    def my_turn(self) -> bool:
        return "data-your-turn" in self.board

    async def connect(self, server, match_id: int) -> Player:
        self.ws = await websockets.connect(
            f"{server.ws_url}/ws/matches/{match_id}/",
            origin=server.url,
            additional_headers={"Cookie": self.cookie},
            open_timeout=10,
        )
        await self.wait_for(0)
        return self

    async def wait_for(self, version: int, timeout: float = 10) -> str:
        """Read pushes until the board is at ``version`` or later."""
        async with __import__("asyncio").timeout(timeout):
            while True:
                frame = await self.ws.recv()
                if 'id="board"' in frame:
                    self.board = frame
                    if self.version >= version:
                        return frame

    async def act(self) -> str:
        """Send the first action the board offers; returns it."""
        action = ACTION.findall(self.board)[0]
        await self.ws.send(json.dumps({"action": action, "version": self.version}))
        return action

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def play_moves(players: list[Player], count: int) -> int:
    """``count`` moves, each by whoever's turn it is; every player sees each one pushed."""
    for _ in range(count):
        mover = next(p for p in players if p.my_turn)
        target = mover.version + 1
        await mover.act()
        for player in players:
            await player.wait_for(target)
    return players[0].version


def page(server, cookie: str, match_id: int) -> tuple[str, str]:
    """The match page over plain http, and its csrf token."""
    get = urllib.request.Request(f"{server.url}/matches/{match_id}/", headers={"Cookie": cookie})
    with urllib.request.urlopen(get, timeout=10) as response:
        token = response.headers.get_all("Set-Cookie")
        html = response.read().decode()
    csrf = next(c.split(";")[0].split("=", 1)[1] for c in token if c.startswith("csrftoken="))
    return html, csrf


def post_move(server, cookie: str, match_id: int) -> int | None:
    """The first action the page offers this player (None if it is not their turn), posted the
    way the page's form posts it. Returns the version it makes."""
    html, csrf = page(server, cookie, match_id)
    actions = ACTION.findall(html)
    if not actions:
        return None
    version = int(VERSION.search(html).group(1))
    post = urllib.request.Request(
        f"{server.url}/matches/{match_id}/act",
        data=f"action={actions[0]}&version={version}".encode(),
        headers={
            "Cookie": f"{cookie}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    with urllib.request.urlopen(post, timeout=10) as response:
        assert response.status == 200
    return version + 1


def moves_are_whole(match: Match) -> None:
    match.refresh_from_db()
    seqs = list(match.moves.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))  # none lost, none twice
    assert match.version == len(seqs) + 1
    out = io.StringIO()
    call_command("verify_matches", stdout=out)
    assert "all snapshots agree" in out.getvalue()
