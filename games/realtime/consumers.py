"""The match page's socket (``/ws/matches/<id>/``), the health check and any other address:
thin. Authenticate, hand the frame on, send what the match's room gives (``room``, ``tables``).

Client mistakes get an error frame, never a dropped socket; refusals close with the codes of
``sockets``.
"""

from __future__ import annotations

import asyncio
import json
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from .. import metrics, services
from ..db import selectors
from ..i18n.languages import language_for_scope
from ..models import MatchStatus
from ..presentation import hints, refusals
from ..presentation.board import board_context
from ..presentation.chat import chat_frame, chat_removed_frame
from ..presentation.jinja import render_board
from ..public import view_of
from ..services import throttle
from ..services.push import connection_visibility
from ..web.moves import Unreadable, frame_of, move_submit
from .room import Gone, Mailbox
from .sockets import (
    NO_SUCH_MATCH,
    NOT_ALLOWED,
    NOT_LOGGED_IN,
    TOO_MANY,
    Dispatch,
    PlayerSockets,
    SessionEnded,
    base_url,
    error_frame,
)
from .tables import Member, Table, in_database, rooms
from .trace import frame_refused


class HealthConsumer(Dispatch, AsyncJsonWebsocketConsumer):
    """``/ws/health/``: answers once a message has made a round trip through the channel layer.
    Operators (and the browser test) use it to see that websockets and the layer (Redis in
    production) both work from where the player sits."""

    async def connect(self) -> None:
        await self.accept()
        await self.channel_layer.send(self.channel_name, {"type": "health.echo"})

    async def health_echo(self, event: dict) -> None:
        await self.send_json({"status": "ok", "channel_layer": type(self.channel_layer).__name__})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        try:  # not receive_json: a frame that is no JSON object would drop the socket
            content = frame_of(text_data)
        except Unreadable:
            with translation.override(language_for_scope(self.scope)):
                await self.send_json({"error": _("That message could not be read")})
            return
        await self.send_json({"status": "ok", "echo": content})


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other websocket address: accepted to say so in words, then closed (4404)."""

    async def connect(self) -> None:
        await self.accept()
        with translation.override(language_for_scope(self.scope)):
            await self.send(text_data=json.dumps({"error": _("There is nothing here")}))
        await self.close(code=NO_SUCH_MATCH)


class MatchConsumer(PlayerSockets, Dispatch, AsyncWebsocketConsumer, Member):
    """The board of one match: the room's latest, in this viewer's seat and language."""

    async def connect(self) -> None:
        self.language = language_for_scope(self.scope)  # pushes speak the viewer's language
        self.base_url = base_url(self.scope)
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope["user"]
        self.room = None
        self.playing = False
        self.casual_for_you = False  # an open rated match that would not count for this viewer
        self.chat_seen = _chat_after(self.scope)  # the last line of chat the page shows
        self.chat_lock = asyncio.Lock()  # lines are read and sent one batch at a time
        self.chat_waiting = ""  # the lines said since the page was made, sent once it joined
        self.chat_spectators = False  # a player's page has the spectators' lines (at the end)
        await self.accept()  # refusals below close with a code the page can read
        if not self.user.is_authenticated:
            await self.close(code=NOT_LOGGED_IN)
            return
        self.session_key = self.scope["session"].session_key
        refusal = await in_database(self._arrive)()
        if refusal:
            await self.close(code=refusal)
            return
        self.presence_name = self.channel_name  # its row: arrived, kept alive, removed
        await self.join_player_group()
        self.mailbox = Mailbox(self._deliver)
        self.room = await rooms().enter(self.match_id)
        try:
            await self.room.join(self.mailbox, self, presence=self.playing)
        except Gone:
            await self.close(code=NO_SUCH_MATCH)
            return
        rooms().visit(self)
        self.socket_kind = "match_player" if self.playing else "match_spectator"
        metrics.socket_opened(self.socket_kind)
        if self.chat_waiting:
            async with self.mailbox.lock:
                await self.send(text_data=self.chat_waiting)

    def _arrive(self) -> int | None:
        """The close code that refuses this viewer, or None: then the socket is recorded (if
        a player's, the others hear of it)."""
        try:
            match = selectors.match_for_viewer(match_id=self.match_id, user=self.user)
        except services.NotFound:
            return NO_SUCH_MATCH
        except services.NotAllowed:  # in play, and its players let nobody watch it
            return NOT_ALLOWED
        try:
            services.connection_open(
                match_id=self.match_id, user=self.user, channel_name=self.channel_name
            )
        except services.TooOften:  # too many sockets: the player's, or watchers of the match
            return TOO_MANY
        self.playing = match.seat_of(self.user) is not None
        if match.status == MatchStatus.OPEN and match.rated and not self.playing:
            self.casual_for_you = selectors.rated_today_capped(user=self.user, other=match.player0)
        self.chat_waiting = self._chat_read(match)
        self.chat_spectators = match.is_over
        return None

    async def disconnect(self, code: int) -> None:
        if self.room is None:
            return  # refused before it joined anything
        if getattr(self, "socket_kind", ""):
            metrics.socket_closed(self.socket_kind)
        rooms().forget(self)
        await self.leave_player_group()
        await in_database(services.connection_close)(
            match_id=self.match_id, channel_name=self.channel_name, playing=self.playing
        )
        self.room.leave(self.mailbox, presence=self.playing)

    async def beat(self, *, touch: bool) -> None:
        if touch:  # in case joining failed while the layer was down
            await self.join_player_group()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        """A move over the socket, ``{"action": "play:JH", "version": 12}``, read like the
        page's form post (``moves.move_submit``); ``{"hint": 1}`` asks for a hint;
        ``{"hidden": true}`` says the page's tab is hidden (``false``: shown again)."""
        try:
            content = frame_of(text_data)
            if content.get("hint"):
                await self.send(text_data=await in_database(self._hint)())
                return
            if "hidden" in content and "action" not in content:  # the tab hidden or shown
                await in_database(connection_visibility)(
                    channel_name=self.channel_name, hidden=content["hidden"] is True
                )
                return
            await self._move_here(content)
        except (ValueError, Unreadable):  # not JSON, or not a move: said so, nothing more
            frame_refused(self.scope, "unreadable")
            with translation.override(self.language):
                frame = error_frame(_("That move could not be read"))
            async with self.mailbox.lock:
                await self.send(text_data=frame)
        except SessionEnded as ended:
            await self.close(code=ended.close_code)
        except (services.GameError, throttle.Throttled) as error:
            await self._refused(error)

    async def _move_here(self, content: dict) -> None:
        # The room has the move's table as it commits (tables.hand_in), before its push.
        await in_database(self._move)(content)

    def _move(self, content: dict) -> None:
        self.check_session()  # a session ended since the last frame: nothing is done for it
        with translation.override(self.language):  # a refusal is worded for this player
            move_submit(user=self.user, match_id=self.match_id, data=content, way="page_socket")

    async def _refused(self, error: Exception) -> None:
        """The table as it is now, then why the move was refused, in this viewer's language."""
        frame_refused(self.scope, getattr(error, "code", "") or type(error).__name__)
        with translation.override(self.language):
            frame = error_frame(refusals.words(error))
        room = self.room
        await self.mailbox.show_again(room.revision, room.table, lambda: self.send(text_data=frame))

    def _hint(self) -> str:
        """The hint frame (``partials/hint.html``, swapped into ``#hint``); a refusal is an
        error frame."""
        self.check_session()
        with translation.override(self.language):
            try:
                _match, found = services.hint_for(user=self.user, match_id=self.match_id)
            except (services.GameError, throttle.Throttled) as error:
                return error_frame(refusals.words(error))
            what, why = hints.hint_words(found)
            inner = render_to_string("partials/hint.html", {"hint_action": what, "hint_why": why})
            return f'<div id="hint" class="hint" role="status" hx-swap-oob="true">{inner}</div>'

    def chat_news(self, line_id: int, removed: bool) -> None:
        """The room's news of the chat: a line said (read, if it is this reader's to see, and
        sent) or removed (gone from the page)."""
        if removed:
            asyncio.ensure_future(self._send_chat(chat_removed_frame(line_id)))
        elif line_id > self.chat_seen:
            asyncio.ensure_future(self._chat_said())

    async def _chat_said(self, *, everything: bool = False) -> None:
        async with self.chat_lock:
            match = self.room.table.match if self.room.table is not None else None
            if match is None:
                return
            frame = await in_database(self._chat_read)(match, everything=everything)
        if frame:
            await self._send_chat(frame)

    def _chat_read(self, match, *, everything: bool = False) -> str:
        """The lines said since the last one sent that this reader sees (``everything``: the
        last ones, whenever said; the page keeps each once), as a frame ("": none)."""
        lines = selectors.chat_lines(match, self.user, after=0 if everything else self.chat_seen)
        if not lines:
            return ""
        self.chat_seen = max(self.chat_seen, lines[-1].pk)
        with translation.override(self.language):
            return chat_frame(lines, self.user)

    async def _send_chat(self, frame: str) -> None:
        async with self.mailbox.lock:  # never in the middle of a board
            await self.send(text_data=frame)

    async def _deliver(self, revision: int, table: Table) -> None:
        if table.match.closed_to(self.user):  # a private match it saw open has started
            await self.close(code=NOT_ALLOWED)
            return
        seat = table.match.seat_of(self.user)
        if seat is not None and table.match.is_over and not self.chat_spectators:
            # The match just ended: the spectators' lines, kept from the players until now.
            self.chat_spectators = True
            asyncio.ensure_future(self._chat_said(everything=True))
        kind = ("board", seat, self.language, self.base_url, self.casual_for_you)
        await self.send(text_data=table.once(kind, lambda: self.render(table, seat)))
        self.push_timed(self.room, table.version, "spectator" if seat is None else "player")

    def render(self, table: Table, seat: int | None) -> str:
        view = view_of(table.state, seat)
        with translation.override(self.language):
            context = board_context(
                table.match, view, self.user, present=table.present, spectators=table.watching,
                casual_for_you=self.casual_for_you, base_url=self.base_url,
            )  # fmt: skip
            return render_board(context)


def _chat_after(scope) -> int:
    """The last line of chat the page was made with (``?chat=<id>``): later ones are sent."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    value = (query.get("chat") or [""])[0]
    return int(value) if value.isdigit() and len(value) < 19 else 0
