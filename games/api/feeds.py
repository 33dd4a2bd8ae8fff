"""The events a program follows: one account's news (challenges, matches starting and
ending) and one match's changes, each read from the database when the channel layer says
something changed (the same lean events the pages' sockets get: ``games.services.events``).

A match's events carry its version. A client that reconnects with the last version it saw
gets the moves made since (``Move.version``), then the match as it is: exactly what it
missed. A match's stream ends after the state that shows it over (``finished``); a player's
hears when the opponent leaves the table and comes back (``opponent_events``). The stream
http and the websocket carry the same events (``streams``)."""

from __future__ import annotations

import math

from django.utils import timezone

from .. import services
from ..db import statements
from ..db.selectors.lobby import pending_challenges
from ..db.selectors.matches import match_for_viewer, my_active_matches
from ..engine import State
from ..models import Challenge, Match, MatchStatus, Move
from ..public import PublicMatch, shapes
from ..services import NotAllowed, NotFound
from ..services.events import api_token_group, lobby_user_group, user_group
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

    def start(self) -> list[dict]:
        raise NotImplementedError

    def changed(self) -> list[dict]:
        raise NotImplementedError

    finished = False  # its last event is sent: the stream ends (a match's, once it is over)

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


class MatchFeed(Feed):
    """One match: every change with its version, for a player or a spectator."""

    def __init__(self, *, token, match_id: int, since: int | None = None):
        super().__init__(token=token)
        self.match_id = match_id
        # The last version sent (or that the client says it saw; one that no match can reach,
        # past the database's 32-bit versions, is not taken: the client gets the match as is).
        self.version = since if since is None or since < VERSIONS_BELOW else None
        # The opponent's absence as last told (gone, when the claim opens); None: not yet read.
        self.opponent: tuple | None = None

    def on(self, event: dict | None) -> list[dict]:
        """The layer's news of the token and the player (the match's own changes come from
        its room: ``table_events``)."""
        self.check(event)
        return []

    def _read(self) -> tuple[PublicMatch, State | None, list[Move]]:
        """The match's public face and state, and its moves since the last version sent.
        Refused as ``match_for_viewer`` refuses: no such match, or not the viewer's to follow."""
        match = match_for_viewer(match_id=self.match_id, user=self.user)
        since = max(0, self.version or 0)  # a client's since may be < 0
        moves = list(statements.MOVES_BETWEEN.all(match.pk, since, match.version))
        return shapes.public(match), match.state, moves

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
        self.finished = match.is_over
        events.append(table.once(("api", seat), lambda: _state(match, table.state, seat)))
        return events

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
        if self.version is not None and self.version >= match.version:
            self.version = None  # nothing missed (or a version yet to come): the match as it is
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
        self.finished = match.is_over
        events.append(_state(match, state, match.seat_of(self.user)))
        return events


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
    ended), and their matches starting and ending."""

    def __init__(self, *, token):
        super().__init__(token=token)
        self.matches: set[int] = set()
        self.challenges: set[int] = set()

    def groups(self) -> list[str]:
        return [lobby_user_group(self.user.pk), *super().groups()]

    # News for the player's pages that tells the account nothing new: a page taken to a
    # match that just started (its ``lobby.mine`` comes too, and says it), a followed player
    # online. Not read again for these (an arena's round starts many matches at once).
    PAGES_ONLY = ("follows.changed",)

    def on(self, event: dict | None) -> list[dict]:
        self.check(event)
        kind = (event or {}).get("type")
        if kind in self.PAGES_ONLY or (kind == "user.changed" and event.get("goto")):
            return []
        return self.changed()

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
        return events

    def _direction(self, row: Challenge) -> str:
        """``in``: a challenge to this player; ``out``: one they sent."""
        return "out" if row.challenger_id == self.user.pk else "in"
