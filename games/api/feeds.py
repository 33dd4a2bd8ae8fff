"""The events a program follows: one account's news (challenges, matches starting and
ending) and one match's changes, each read from the database when the channel layer says
something changed (the same lean events the pages' sockets get: ``games.services.events``).

A match's events carry its version. A client that reconnects with the last version it saw
gets the moves made since (``Move.version``), then the match as it is: exactly what it
missed. A match's stream ends after the state that shows it over (``finished``), unless its
rematch may still come: then it stays open until the rematch is settled (``rematch`` events);
a player's hears when the opponent leaves the table and comes back (``opponent_events``). An
account's hears its matches start and end, its challenges and its rematch offers. An arena's
sends the arena with its standings as it opens and again at each change, and its chat, until
the arena is over. The stream http and the websocket carry the same events (``streams``)."""

from __future__ import annotations

import math
from datetime import datetime

from django.utils import timezone

from .. import services
from ..db import statements
from ..db.selectors.arenas import arena_by_id, arena_standings
from ..db.selectors.chat import arena_chat_lines, chat_lines
from ..db.selectors.lobby import pending_challenges
from ..db.selectors.matches import match_for_viewer, my_active_matches, my_rematch_offers
from ..engine import State
from ..models import (
    Arena,
    ArenaPlayer,
    Challenge,
    ChatLine,
    Match,
    MatchStatus,
    Move,
    RematchState,
)
from ..presentation.chat import line_words
from ..public import PublicMatch, shapes
from ..services import REMATCH_LAPSE, GameError, NotAllowed, NotFound
from ..services.events import (
    api_account_group,
    api_token_group,
    arena_group,
    lobby_user_group,
    user_group,
)
from .auth import token_live


class Closed(Exception):
    """The stream ends: its token was revoked (or its player suspended), or the match closed
    to its viewer. ``code`` says which."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


class Feed:
    """What both kinds of stream share: the token it was opened with, and the groups it hears."""

    def __init__(self, *, token):
        self.token_id = token.pk
        self.user = token.user

    def groups(self) -> list[str]:
        # The player's group brings session checks (a suspension), the token's its revocation.
        return [user_group(self.user.pk), api_token_group(self.token_id)]

    def check(self, event: dict | None) -> None:
        """Raise Closed if the layer's ``event`` (None: a heartbeat) ends the stream: its
        token was revoked, or its player's session may have ended and the token no longer
        works (a suspension)."""
        kind = (event or {}).get("type")
        if kind == "token.revoked":
            raise Closed("token_revoked")
        if kind in (None, "session.check", "session.ended") and not token_live(self.token_id):
            raise Closed("token_revoked")

    def on(self, event: dict | None) -> list[dict]:
        """The events to send after the layer's ``event`` (None: a heartbeat, which checks
        the token and catches up on anything a lost push did not bring). Raises Closed."""
        self.check(event)
        return self.changed()

    def tells(self, event: dict | None) -> bool:
        """Whether the layer's ``event`` may bring the feed news (``on`` reads it again)."""
        return True

    def start(self) -> list[dict]:
        raise NotImplementedError

    def changed(self) -> list[dict]:
        raise NotImplementedError

    finished = False  # its last event is sent: the stream ends (a match's, once it is over)
    over = "over"  # the refusal whose words its ``closed`` event ``over`` says
    chats = False  # it carries a chat's lines (``chat_events``), with a catch-up as it opens

    # The stream's life: a row while it is open (``Connection``, kind "stream"), for the cap
    # on an account's streams and, for a player's stream of their match, presence: the
    # opponent's board shows a program that follows the match as there, not away.
    match_id: int | None = None
    playing = False
    present = ""  # the name of its row while the stream is open

    def arrive(self, name: str) -> None:
        """The stream opens (``name``: unique to it), after ``start``. Raises TooOften past
        the account's cap on streams (or a match's on watchers)."""
        services.connection_open(
            user=self.user, channel_name=name, match_id=self.match_id, kind="stream"
        )
        self.present = name

    def leave(self) -> None:
        if self.present:
            services.connection_close(
                match_id=self.match_id, channel_name=self.present, playing=self.playing
            )
            self.present = ""


VERSIONS_BELOW = 2**31  # Match.version is a 32-bit integer


def clock() -> datetime:
    """Now, as the rematch window reads it."""
    return timezone.now()


class MatchFeed(Feed):
    """One match: every change with its version, for a player or a spectator."""

    chats = True

    def __init__(self, *, token, match_id: int, since: int | None = None):
        super().__init__(token=token)
        self.match_id = match_id
        # The last version sent (or that the client says it saw: one the match has not reached
        # is refused in ``start``, one past the database's 32-bit versions read as that).
        self.version = since if since is None else min(since, VERSIONS_BELOW)
        # The opponent's absence as last told (gone, when the claim opens); None: not yet read.
        self.opponent: tuple | None = None
        # Once the match is over: when it ended, the rematch as last told (its status, who
        # offered, until when, the new match; None: not yet read), and when the stream ends
        # if no offer comes (None: it ends with the offer's answer, or has ended).
        self.ended_at: datetime | None = None
        self.rematch: tuple | None = None
        self.closes_at: datetime | None = None
        # The last line of the match's chat sent (lines said before the stream opened are not).
        self.chat_seen = 0

    def _settled(self, match: PublicMatch) -> list[dict]:
        """After the state of ``match``: its rematch's news, and whether the stream ends
        (``finished``). A match over ends it, but a finished one between two people may be
        played again: its stream stays open for ``REMATCH_LAPSE`` after its end, and while an
        offer stands, so that a program following it sees the offer and stays at the table
        (a player who leaves the match lets an offer lapse). It ends once the rematch started,
        was declined or lapsed, or the time passed with none standing (``on``, heartbeats)."""
        if not match.is_over:
            return []
        if self.ended_at is None:  # seen over from the room, as it ended
            self.ended_at = clock()
        events = self._rematch_events(match)
        offered = match.rematch_state == RematchState.OFFERED
        may_come = (
            match.status == MatchStatus.FINISHED
            and not match.computer
            and match.next_match_id is None
            and match.rematch_state in ("", RematchState.OFFERED)
        )
        self.closes_at = None if offered or not may_come else self.ended_at + REMATCH_LAPSE
        self.finished = not may_come or (not offered and clock() >= self.closes_at)
        return events

    def _rematch_events(self, match: PublicMatch) -> list[dict]:
        """A ``rematch`` event when the rematch's state changed since last told (as the
        stream opens, only an offer standing is news)."""
        told, state = self.rematch, match.rematch_state
        if match.next_match_id is not None:
            status = "accepted"
        elif state:
            status = state
        else:  # no offer: none yet, or the one told was withdrawn
            status = "withdrawn" if told and told[0] == RematchState.OFFERED else None
        self.rematch = (status, match.rematch_seat, match.rematch_until, match.next_match_id)
        if status is None or self.rematch == told or (told is None and status != "offered"):
            return []
        offered = status == RematchState.OFFERED
        return [
            {
                "type": "rematch",
                "match_id": match.pk,
                "version": match.version,
                "status": status,
                "seat": match.rematch_seat,
                "until": match.rematch_until.isoformat() if offered else None,
                "next_match_id": match.next_match_id,
            }
        ]

    def on(self, event: dict | None) -> list[dict]:
        """The layer's news of the token and the player (the match's own changes come from
        its room: ``table_events``); a heartbeat also ends a finished match's stream once no
        rematch offer came in time."""
        self.check(event)
        if self.closes_at is not None and clock() >= self.closes_at:
            self.finished = True
        return []

    def _read(self) -> tuple[PublicMatch, State | None, list[Move]]:
        """The match's public face and state, and its moves since the last version sent.
        Refused as ``match_for_viewer`` refuses: no such match, or not the viewer's to follow."""
        match = match_for_viewer(match_id=self.match_id, user=self.user)
        if match.finished_at is not None:
            self.ended_at = match.finished_at
        since = max(0, self.version or 0)  # a client's since may be < 0
        moves = list(statements.MOVES_BETWEEN.all(match.pk, since, match.version))
        return shapes.public(match), match.state, moves

    def chat_events(self, line_id: int | None, removed: bool) -> list[dict]:
        """The chat's news (``Room.chat``): the lines said since the last sent that the
        caller reads (``selectors.chat_lines``: rooms, blocks, mutes), or a line removed.
        ``line_id`` None: whatever was said since (the stream's catch-up as it opens)."""
        if removed:
            return [chat_removed_event(line_id, match_id=self.match_id)]
        if line_id is not None and line_id <= self.chat_seen:
            return []
        said = ChatLine.objects.filter(match_id=self.match_id, pk__gt=self.chat_seen)
        if line_id is None and not said.exists():  # the catch-up's usual answer: one query
            return []
        match = match_for_viewer(match_id=self.match_id, user=self.user)
        lines = chat_lines(match, self.user, after=self.chat_seen)
        if lines:
            self.chat_seen = lines[-1].pk
        return [chat_event(line) for line in lines]

    def table_events(self, table) -> list[dict] | None:
        """The events the match's room's ``table`` (``games.realtime.tables.Table``) brings:
        the moves since the last version sent and the state, from the table alone (the
        opponent's stream and every spectator's share it); None when the table does not hold
        every move missed (then ``changed`` reads them). Raises Closed."""
        match = table.match
        if match.closed_to(self.user):
            raise Closed("not_open_to_watch")
        if self.version is not None and table.version <= self.version:
            return []
        if self.version is not None and (
            table.moves_above is None or table.moves_above > self.version
        ):
            return None
        seat, over = match.seat_of(self.user), match.is_over
        events = []
        if self.version is not None:
            events = [
                {"type": "move", "match_id": match.pk, **shapes.move(row, seat=seat, over=over)}
                for row in table.moves
                if row.version > self.version
            ]
        self.version = match.version
        events.append(table.once(("api", seat), lambda: _state(match, table.state, seat)))
        return events + self._settled(match)

    def opponent_events(self, table) -> list[dict]:
        """For a player of a match in play against a person: ``opponentGone`` when the
        opponent's last page or stream on the match closes (``gone``, and when the caller may
        claim the match: only without a clock, on the opponent's turn; ``match_claim``), again
        when that time moves (a new turn), and with ``gone`` false when they come back. At
        the opening only an absent opponent is news. From the room's ``table`` alone."""
        match = table.match
        seat = match.seat_of(self.user)
        if seat is None or match.is_over or match.computer or table.state is None:
            return []
        opponent = match.player_ids[seat ^ 1]
        if opponent is None:  # not joined yet
            return []
        gone = opponent not in table.present
        opens = match.claim_opens_at if gone and table.state.turn == seat ^ 1 else None
        told, self.opponent = self.opponent, (gone, opens)
        if told == self.opponent or (told is None and not gone):
            return []
        wait = None
        if opens is not None:  # rounded up, as the board counts it (``ending.clock_context``)
            wait = max(0, math.ceil((opens - timezone.now()).total_seconds()))
        return [
            {
                "type": "opponentGone",
                "match_id": match.pk,
                "version": match.version,
                "gone": gone,
                "claim_opens_at": opens and opens.isoformat(),
                "claim_in_seconds": wait,
            }
        ]

    def start(self) -> list[dict]:
        """The first events: refused with a GameError if the match is not the viewer's to
        follow."""
        match, state, moves = self._read()
        self.playing = match.seat_of(self.user) is not None
        last = ChatLine.objects.filter(match_id=self.match_id).order_by("-pk").first()
        self.chat_seen = last.pk if last is not None else 0
        if self.version is not None and self.version > match.version:
            raise GameError("since_ahead", version=match.version)
        if self.version == match.version:
            self.version = None  # nothing missed: the match as it is
        return self._since(match, state, moves)

    def changed(self) -> list[dict]:
        try:
            match, state, moves = self._read()
        except NotFound:
            return []
        except NotAllowed:
            raise Closed("not_open_to_watch") from None
        return self._since(match, state, moves)

    def _since(self, match: PublicMatch, state: State | None, missed: list[Move]) -> list[dict]:
        if self.version is not None and match.version <= self.version:
            return []
        events = []
        if self.version is not None:
            seat, over = match.seat_of(self.user), match.is_over
            events = [
                {"type": "move", "match_id": match.pk, **shapes.move(row, seat=seat, over=over)}
                for row in missed
            ]
        self.version = match.version
        events.append(_state(match, state, match.seat_of(self.user)))
        return events + self._settled(match)


def chat_event(line: ChatLine) -> dict:
    """A line of chat as a stream sends it, with its match's or its arena's id: the quick
    message's code and its words in the stream's language, or the text typed (plain text,
    never markup)."""
    return {
        "type": "chat",
        **_where(line.arena_id, line.match_id),
        "id": line.pk,
        "room": line.room,
        "author": shapes.player(line.author),
        "phrase": line.phrase or None,
        "text": line.text or None,
        "words": line_words(line),
    }


def chat_removed_event(line_id: int, *, arena_id: int | None = None, match_id: int | None = None):
    """A line a moderator removed: a client drops it from what it shows."""
    return {"type": "chatRemoved", **_where(arena_id, match_id), "id": line_id}


def _where(arena_id: int | None, match_id: int | None) -> dict:
    return {"arena_id": arena_id} if arena_id is not None else {"match_id": match_id}


def _state(match: PublicMatch, state: State | None, seat: int | None) -> dict:
    """The ``state`` event: the match at its version, as ``seat`` sees it."""
    return {
        "type": "state",
        "version": match.version,
        "match": shapes.match_public(match, state),
        "seat": seat,
        "view": shapes.match_view(state, seat),
    }


def challenge(row: Challenge) -> dict:
    return {
        "id": row.pk,
        "challenger": shapes.player(row.challenger),
        "challenged": shapes.player(row.challenged),
        "options": row.options(),
        "until": row.until.isoformat(),
    }


class AccountFeed(Feed):
    """One player's news: challenges to them and from them (new, and gone with how they
    ended), their matches starting and ending, and rematch offers of their finished matches
    (made by either player, and gone with how they ended)."""

    def __init__(self, *, token):
        super().__init__(token=token)
        self.matches: set[int] = set()
        self.challenges: set[int] = set()
        self.rematches: dict[int, tuple] = {}  # each offer told: its match, who made it, until

    def groups(self) -> list[str]:
        # The lobby's news of the player's matches, and the account's own (rematch offers).
        return [lobby_user_group(self.user.pk), api_account_group(self.user.pk),
                *super().groups()]  # fmt: skip

    # News for the player's pages that tells the account nothing new: a page taken to a
    # match that just started (its ``lobby.mine`` comes too, and says it), a followed player
    # online. Not read again for these (an arena's round starts many matches at once).
    PAGES_ONLY = ("follows.changed",)

    def on(self, event: dict | None) -> list[dict]:
        self.check(event)
        return self.changed() if self.tells(event) else []

    def tells(self, event: dict | None) -> bool:
        kind = (event or {}).get("type")
        return not (kind in self.PAGES_ONLY or (kind == "user.changed" and event.get("goto")))

    def start(self) -> list[dict]:
        """The account as it is: a ``matchStart`` for each match in play and a ``challenge``
        for each pending; ``idle`` when there is none (a first event all the same)."""
        return self.changed() or [{"type": "idle"}]

    def changed(self) -> list[dict]:
        events = []
        # The challenges are read before the matches: a challenge seen accepted has its match
        # (committed with it) in the read after, so its matchStart never comes after its
        # challengeGone. Read the other way round, an acceptance committed between the reads
        # sent challengeGone first and matchStart only at the next event.
        pending = pending_challenges(user=self.user)
        offers = {m.pk: m for m in my_rematch_offers(user=self.user)}  # so too a rematch's
        active = {m.pk: m for m in my_active_matches(user=self.user)}
        for pk in sorted(active.keys() - self.matches):
            events.append({"type": "matchStart", **shapes.answer(active[pk], self.user)})
        ended = Match.objects.filter(pk__in=self.matches - active.keys())
        ended = ended.select_related("player0__settings", "player1__settings")
        for match in ended.prefetch_related("rating_changes__player"):  # their public faces
            if match.status != MatchStatus.ACTIVE:
                events.append({"type": "matchFinish", **shapes.answer(match, self.user)})
        self.matches = set(active)
        rows = {c.pk: c for c in pending["challenges_to_me"] + pending["challenges_from_me"]}
        for pk in sorted(rows.keys() - self.challenges):
            row = rows[pk]
            event = {"type": "challenge", "direction": self._direction(row)}
            events.append({**event, "challenge": challenge(row)})
        gone = Challenge.objects.filter(pk__in=self.challenges - rows.keys())
        for row in gone.order_by("pk"):
            events.append(
                {"type": "challengeGone", "challenge_id": row.pk, "direction": self._direction(row),
                 "status": row.status, "match_id": row.match_id,
                 "decline_reason": row.decline_reason or None}
            )  # fmt: skip
        self.challenges = set(rows)
        return events + self._rematch_events(offers)

    def _direction(self, row: Challenge) -> str:
        """``in``: a challenge to this player; ``out``: one they sent."""
        return "out" if row.challenger_id == self.user.pk else "in"

    def _rematch_events(self, offers: dict[int, Match]) -> list[dict]:
        """``rematchOffer`` for each offer not told yet (a new offer on the same match is
        told again), ``rematchGone`` for each told that no longer stands."""
        events = []
        for pk, row in offers.items():
            if self.rematches.get(pk) != (row.rematch_seat, row.rematch_until):
                offered_by = shapes.player(row.players[row.rematch_seat])
                events.append(
                    {"type": "rematchOffer", "direction": self._offered(row), "match_id": pk,
                     "offered_by": offered_by, "options": row.options(),
                     "until": row.rematch_until.isoformat()}
                )  # fmt: skip
        gone = Match.objects.filter(pk__in=self.rematches.keys() - offers.keys()).order_by("pk")
        for row in gone:
            events.append(
                {"type": "rematchGone", "direction": self._offered(row), "match_id": row.pk,
                 "status": _rematch_gone(row), "next_match_id": row.next_match_id}
            )  # fmt: skip
        self.rematches = {pk: (row.rematch_seat, row.rematch_until) for pk, row in offers.items()}
        return events

    def _offered(self, row: Match) -> str:
        """``out``: the rematch offer is this player's; ``in``: it is to them."""
        return "out" if row.seat_of(self.user) == row.rematch_seat else "in"


def _rematch_gone(row: Match) -> str:
    """How an offer that no longer stands ended (one made again since: the old withdrawn)."""
    if row.next_match_id is not None:
        return "accepted"
    if row.rematch_state in (RematchState.DECLINED, RematchState.LAPSED):
        return row.rematch_state
    return "withdrawn"


class ArenaFeed(Feed):
    """One arena: the arena with its standings (``GET arenas/<id>``'s answer) as the stream
    opens and again whenever it changes (the arena's pages' ``arena.changed``), and the lines
    of its chat the caller reads (``arena_chat_lines``), until the arena is over: finished or
    cancelled, the stream ends after the ``arena`` event that shows it."""

    chats = True
    over = "arena_over"

    def __init__(self, *, token, arena_id: int):
        super().__init__(token=token)
        self.arena_id = arena_id
        self.shown: dict | None = None  # the arena as last sent
        # The last line of its chat sent (lines said before the stream opened are not).
        self.chat_seen = 0

    def groups(self) -> list[str]:
        return [arena_group(self.arena_id), *super().groups()]

    def start(self) -> list[dict]:
        """The arena as it is: refused (404) if there is no such arena."""
        if arena_by_id(self.arena_id) is None:
            raise NotFound("no_such_arena")
        last = ChatLine.objects.filter(arena_id=self.arena_id).order_by("-pk").first()
        self.chat_seen = last.pk if last is not None else 0
        return self.changed()

    def changed(self) -> list[dict]:
        """The arena, if it changed since last sent (any news of the feed's groups, and each
        heartbeat, read it again: a push lost on the way is caught up)."""
        arena = arena_by_id(self.arena_id)
        if arena is None:
            return []
        detail = arena_detail(arena, self.user)
        self.finished = arena.status in (Arena.Status.FINISHED, Arena.Status.CANCELLED)
        if detail == self.shown:
            return []
        self.shown = detail
        return [{"type": "arena", **detail}]

    def chat_events(self, line_id: int | None, removed: bool) -> list[dict]:
        """The chat's news (the arena group's ``arena.chat``): the lines said since the last
        sent that the caller reads, or a line removed; ``line_id`` None: the catch-up as the
        stream opens."""
        if removed:
            return [chat_removed_event(line_id, arena_id=self.arena_id)]
        if line_id is not None and line_id <= self.chat_seen:
            return []
        lines = arena_chat_lines(self.arena_id, self.user, after=self.chat_seen)
        if lines:
            self.chat_seen = lines[-1].pk
        return [chat_event(line) for line in lines]


def arena_shape(arena: Arena, entry: ArenaPlayer | None) -> dict:
    """An arena as the API lists it, with the caller's entry in it (None: not joined)."""
    return {
        "id": arena.pk,
        "name": arena.name,
        "status": arena.status,
        "starts_at": arena.starts_at.isoformat(),
        "ends_at": arena.ends_at.isoformat(),
        "minutes": arena.minutes,
        "options": arena.match_options(),
        "invited_only": arena.invited_only,
        "bots_allowed": arena.bots_allowed,
        "joined": entry is not None and not entry.removed,
        "paused": bool(entry and entry.paused),
    }


def arena_detail(arena: Arena, user) -> dict:
    """An arena with its standings (score, then performance), as ``user`` reads it."""
    entry = ArenaPlayer.objects.filter(arena=arena, user=user).first()
    return {
        **arena_shape(arena, entry),
        "standings": [
            {
                "rank": row.rank,
                "player": shapes.player(row.player),
                "score": row.score,
                "on_fire": row.fire,
                "wins": row.wins,
                "losses": row.losses,
                "performance": row.performance,
                "paused": row.paused,
            }  # fmt: skip
            for row in arena_standings(arena=arena)
        ],
    }
