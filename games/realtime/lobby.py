"""The lobby's socket (``/ws/lobby/``) and every page's own (``/ws/me/``): a player's lists and
challenges, pushed when they change."""

from __future__ import annotations

import asyncio
import contextlib

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from ..db import selectors
from ..i18n.languages import language_for_scope
from ..models import DeclineReason
from ..presentation.chat import chat_frame, chat_removed_frame
from ..services.events import LOBBY_GROUP, arena_group, lobby_user_group
from ..web.forms import quick_challenge
from .room import PerLoop
from .sockets import CountedSocket, Dispatch, PlayerSockets, base_url, error_frame
from .tables import in_database


class LobbyLists(PerLoop):
    """The lobby's shared lists (matches waiting for an opponent, matches to watch), read once
    per event in this process and rendered once per language, for every lobby socket."""

    KEEP_SECONDS = 2.0

    def __init__(self) -> None:
        self.entries: dict[tuple, tuple[asyncio.Future, dict]] = {}

    async def open_list(self, consumer: LobbyConsumer, key: tuple) -> str:
        entry = self.entries.get(key)
        if entry is None:
            read = asyncio.ensure_future(in_database(selectors.lobby_open)())
            entry = self.entries[key] = (read, {})
            asyncio.get_running_loop().call_later(self.KEEP_SECONDS, self.entries.pop, key, None)
        read, rendered = entry
        context = await read
        if consumer.language not in rendered:
            rendered[consumer.language] = consumer.render("lobby.html#pushed-open", context)
        return rendered[consumer.language]


class LobbyConsumer(PlayerSockets, CountedSocket, Dispatch, AsyncWebsocketConsumer):
    """``/ws/lobby/``: the lobby's lists, pushed when a match opens, starts or ends. The list
    every player shares is rendered once per process; a player's own lists come through a
    group of their own, only when their own matches changed."""

    socket_kind = "lobby"  # as the metrics count open sockets (``/ws/me/`` is "me")

    async def connect(self) -> None:
        self.language = language_for_scope(self.scope)
        self.base_url = base_url(self.scope)
        if not await self.open_counted():
            return
        self.groups_joined = [LOBBY_GROUP, lobby_user_group(self.user.pk)]
        for group in self.groups_joined:
            with contextlib.suppress(Exception):
                await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()  # in its groups: nothing pushed from now on is missed
        self.own_open, self.own_active, self.casual_with = await in_database(self._mine_now)()

    async def disconnect(self, code: int) -> None:
        if not self.user.is_authenticated:
            return
        await self.uncounted()
        await self.leave_player_group()
        for group in getattr(self, "groups_joined", []):
            with contextlib.suppress(Exception):
                await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        with translation.override(self.language):
            await self.send(text_data=error_frame(_("The lobby takes no messages")))

    async def lobby_mine(self, event: dict) -> None:
        await self.send(text_data=await in_database(self._render_mine)())

    async def user_changed(self, event: dict) -> None:
        # A correspondence match moved (its players hear of it wherever they are), or the
        # player's challenges changed: their "Your turn" list may have changed.
        await self.lobby_mine(event)

    async def lobby_changed(self, event: dict) -> None:
        # The player's own open match is not theirs to join, their own match in play not
        # theirs to watch, and a match with someone they played today's rated matches with
        # says it would be casual: then lists of their own.
        if self.own_open or self.own_active or self.casual_with:
            html = await in_database(self._render_open_for_me)()
        else:
            key = (event.get("match_id"), event.get("version"))
            html = await LobbyLists.of_this_loop().open_list(self, key)
        await self.send(text_data=html)

    def _mine_now(self) -> tuple[set[int], set[int], set[int]]:
        """The player's open matches, those in play, and the players with whom a match would
        be casual."""
        own = set(selectors.my_open_matches(user=self.user).values_list("pk", flat=True))
        active = set(selectors.my_active_matches(user=self.user).values_list("pk", flat=True))
        return own, active, selectors.rated_today_capped_opponents(user=self.user)

    def _render_mine(self) -> str:
        """The player's own lists; and the shared ones again, without their matches, if their
        matches in play changed (the shared push may have come first, from before)."""
        context = selectors.lobby_mine(user=self.user)
        self.own_open = {match.pk for match in context["my_open"]}
        active = {match.pk for match in context["my_active"]}
        changed, self.own_active = active != self.own_active, active
        self.casual_with = selectors.rated_today_capped_opponents(user=self.user)
        html = self.render("lobby.html#pushed-mine", context)
        return html + self._render_open_for_me() if changed else html

    def _render_open_for_me(self) -> str:
        return self.render("lobby.html#pushed-open", selectors.lobby_open(exclude_user=self.user))

    def render(self, template: str, context: dict) -> str:
        with translation.override(self.language):
            return render_to_string(template, {**context, "base_url": self.base_url})


class UserConsumer(PlayerSockets, CountedSocket, Dispatch, AsyncWebsocketConsumer):
    """``/ws/me/``: every page of a logged-in player. Sends the challenges banner (challenges
    to answer, the player's own waiting for an answer, matches opened by players they follow)
    whenever they change, and takes the page to a match that has just started for the player
    (a rematch or a challenge accepted). On the list of the players one follows
    (``?following=1``), sends the list again when one of them comes online; on an arena's
    page (``?arena=``) its live part, at the end of one of its matches (``&after=``) the wait
    for the next one, whenever the arena changes; and on its page (``&chat=``: the last line
    the page shows) the lines of its chat the player reads, as they are said or removed.
    Like the player's other sockets it closes when their session ends."""

    async def connect(self) -> None:
        self.language = language_for_scope(self.scope)
        # The page shows the list of the players one follows: it hears when one comes online;
        # an arena's page: its standings, time and state.
        query = self.scope.get("query_string", b"").split(b"&")
        self.following = b"following=1" in query
        arena = next((q[6:] for q in query if q.startswith(b"arena=")), b"")
        self.arena_id = int(arena) if arena.isdigit() and len(arena) < 10 else None
        # The end of an arena match (``after``: its id) shows only what became of the pairing.
        after = next((q[6:] for q in query if q.startswith(b"after=")), b"")
        self.after = int(after) if after.isdigit() and len(after) < 10 else None
        # The arena's chat (its page, not a match's end): the last line the page was made
        # with (``chat``); later ones are sent.
        chat = next((q[5:] for q in query if q.startswith(b"chat=")), None)
        self.chat_seen = None
        if self.arena_id is not None and self.after is None and chat is not None:
            self.chat_seen = int(chat) if chat.isdigit() and len(chat) < 19 else 0
        if not await self.open_counted():
            return
        if self.arena_id is not None:
            with contextlib.suppress(Exception):  # the layer is down: the page polls anyway
                await self.channel_layer.group_add(arena_group(self.arena_id), self.channel_name)
        await self.accept()
        # A page still loading when the player's challenge was accepted missed the push that
        # takes it to the match: it goes there now. An arena's page may have missed changes
        # while its socket was closed (it asked for them only every 30 s): they come now.
        html = await in_database(self._render)(catch_up=True)
        if self.arena_id is not None:
            html += await in_database(self._render_arena)()
        if self.chat_seen is not None:
            html += await in_database(self._arena_chat_read)()
        await self.send(text_data=html)

    async def disconnect(self, code: int) -> None:
        if self.user.is_authenticated:
            await self.uncounted()
            await self.leave_player_group()
        if getattr(self, "arena_id", None) is not None:
            with contextlib.suppress(Exception):
                await self.channel_layer.group_discard(
                    arena_group(self.arena_id), self.channel_name
                )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        with translation.override(self.language):
            await self.send(text_data=error_frame(_("This connection takes no messages")))

    async def arena_changed(self, event: dict) -> None:
        html = await in_database(self._render_arena)()
        if html:
            await self.send(text_data=html)

    async def arena_chat(self, event: dict) -> None:
        """A line of the arena's chat said (sent if it is this reader's to see) or removed
        (gone from the page). Group messages come one at a time: lines go out in order."""
        if self.chat_seen is None:
            return
        if event.get("removed"):
            await self.send(text_data=chat_removed_frame(event["line"]))
        elif event["line"] > self.chat_seen:
            frame = await in_database(self._arena_chat_read)()
            if frame:
                await self.send(text_data=frame)

    def _arena_chat_read(self) -> str:
        """The arena's lines said since the last one sent that this reader sees, as a frame
        ("": none)."""
        lines = selectors.arena_chat_lines(self.arena_id, self.user, after=self.chat_seen)
        if not lines:
            return ""
        self.chat_seen = max(self.chat_seen, lines[-1].pk)
        with translation.override(self.language):
            return chat_frame(lines, self.user)

    def _render_arena(self) -> str:
        arena = selectors.arena_by_id(self.arena_id)
        if arena is None:
            return ""
        live = selectors.arena_live(arena=arena, user=self.user)
        with translation.override(self.language):
            if self.after is not None:
                return render_to_string("arena.html#next", {**live, "after": self.after})
            return render_to_string("arena.html#live", live)

    async def tell_suspended(self) -> None:
        await self.send(text_data=await in_database(self._render_suspended)())

    def _render_suspended(self) -> str:
        with translation.override(self.language):
            reason = selectors.suspension_reason(user=self.user) or "—"
            return render_to_string("partials/suspended.html", {"reason": reason})

    async def user_changed(self, event: dict) -> None:
        html = await in_database(self._render)()
        if event.get("goto"):
            html += render_to_string("partials/challenges.html#goto", {"match_id": event["goto"]})
        await self.send(text_data=html)

    async def follows_changed(self, event: dict) -> None:
        if self.following:
            await self.send(text_data=await in_database(self._render_following)())

    def _render_following(self) -> str:
        with translation.override(self.language):
            context = {"rows": selectors.following(user=self.user), **quick_challenge()}
            return render_to_string("following.html#list", context)

    def _render(self, catch_up: bool = False) -> str:
        with translation.override(self.language):
            context = {
                **selectors.pending_challenges(user=self.user),
                "decline_reasons": DeclineReason.choices,
            }
            html = render_to_string("partials/challenges.html#banner", context)
            waiting = {"turns_waiting": selectors.my_turn_matches(user=self.user).count()}
            html += render_to_string("partials/challenges.html#turns", waiting)
        started = selectors.match_just_started(user=self.user) if catch_up else None
        if started is not None:
            html += render_to_string("partials/challenges.html#goto", {"match_id": started})
        return html
