"""Sockets of the site's pages in tests, through the full ASGI app: the board, error frames,
close codes, and absence proven by a sentinel."""

from __future__ import annotations

import re

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from euchre_site.asgi import application
from games import services
from games.engine import legal_actions
from games.models import Match

ORIGIN = (b"origin", b"http://testserver")


HOST = (b"host", b"testserver")  # a browser always names the host it came to


def cookie_for(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def socket(
    user, path: str, origin=ORIGIN, language: str | None = None
) -> WebsocketCommunicator:
    """A page's socket of ``user`` (None: a visitor), its browser reading the site in
    ``language`` (the language cookie) if given."""
    headers = [HOST, origin]
    cookies = [await database_sync_to_async(cookie_for)(user)] if user is not None else []
    if language is not None:
        cookies.append(f"django_language={language}".encode())
    if cookies:
        headers.append((b"cookie", b"; ".join(cookies)))
    return WebsocketCommunicator(application, path, headers=headers)


async def board(communicator, version: int | None = None) -> str:
    """The next pushed board (optionally: the first one at ``version``)."""
    while True:
        frame = await communicator.receive_from(timeout=5)
        if 'id="board"' not in frame:
            continue
        if version is None or f'data-version="{version}"' in frame:
            return frame


async def error_frame(communicator) -> str:
    """The next error frame (boards pushed meanwhile, e.g. for presence, are skipped)."""
    while "data-error" not in (frame := await communicator.receive_from(timeout=5)):
        pass
    return frame


def version_of(frame: str) -> int:
    return int(re.search(r'data-version="(\d+)"', frame).group(1))


@database_sync_to_async
def start_match(alice, bob) -> Match:
    return services.match_join(user=bob, match_id=services.match_create(user=alice).pk)


@database_sync_to_async
def play_one(match_id: int) -> tuple[Match, str]:
    match = Match.objects.get(pk=match_id)
    text = str(legal_actions(match.state)[0])
    user = match.players[match.state.turn]
    return services.move_apply(
        user=user, match_id=match_id, action=text, version=match.version
    ).match, text


async def closed_with(communicator) -> int | None:
    """The code the socket is closed with (frames sent before it are skipped)."""
    while True:
        output = await communicator.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output.get("code")


async def refused_with(communicator) -> int | None:
    """A refused socket is accepted first, then closed with a code the page can read: a
    socket closed before it is accepted reaches the browser as a failed handshake (1006)."""
    connected, _ = await communicator.connect()
    assert connected
    return await closed_with(communicator)


async def frame_with(ws, text: str) -> str:
    """The next frame holding ``text`` (other pushes meanwhile are skipped)."""
    while text not in (frame := await ws.receive_from(timeout=5)):
        pass
    return frame


# A frame no page socket can read: the match socket, the lobby's and the player's own each
# answer it with an error frame at once, after whatever they had to send before it.
SENTINEL = "sentinel: no move"
ANSWERS = (
    "That move could not be read",  # the match socket
    "The lobby takes no messages",
    "This connection takes no messages",  # the player's own socket (/ws/me/)
)


def answers_the_sentinel(frame: str) -> bool:
    return "data-error" in frame and any(answer in frame for answer in ANSWERS)


async def frames_before_answer(communicator) -> list[str]:
    """Every frame the socket sends before its answer to a sentinel sent now: the absence of
    a push proven by what comes first, never by waiting a while for nothing."""
    await communicator.send_to(text_data=SENTINEL)
    frames = []
    while not answers_the_sentinel(frame := await communicator.receive_from(timeout=5)):
        frames.append(frame)
    return frames


async def nothing_before_answer(communicator) -> None:
    """Nothing was pushed to the socket: its answer to a sentinel is the next frame."""
    frames = await frames_before_answer(communicator)
    assert not frames, f"pushed before the sentinel's answer: {[f[:300] for f in frames]}"


async def still_open(communicator) -> bool:
    """The socket answers a sentinel rather than close (frames pushed before are skipped)."""
    await communicator.send_to(text_data=SENTINEL)
    while True:
        output = await communicator.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return False
        if answers_the_sentinel(output.get("text") or ""):
            return True
