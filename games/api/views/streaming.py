"""The streams as newline-delimited JSON over http (the websocket's are in
``games.api.streams``)."""

from __future__ import annotations

import secrets

from django.db import close_old_connections
from django.http import StreamingHttpResponse
from django.utils.translation import get_language
from ninja import Router

from ..feeds import AccountFeed, ArenaFeed, MatchFeed
from ..schemas import stream_answers
from ..streams import ndjson
from .common import STREAM, Id

router = Router()


def _stream(feed, first: list[dict]) -> StreamingHttpResponse:
    feed.arrive(f"stream.{secrets.token_hex(12)}")  # past the account's cap: refused, 429
    response = StreamingHttpResponse(
        ndjson(feed, first, get_language()), content_type="application/x-ndjson"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy passes each line on at once
    # The stream reads in the sockets' database threads (``streams.ndjson``): this request's
    # pooled connection goes back now, not when the stream ends (hours later, perhaps).
    close_old_connections()
    return response


@router.get(
    "/stream/account",
    auth=STREAM,
    tags=["streams"],
    openapi_extra=stream_answers(
        "AccountEvent", "One AccountEvent a line; a blank line: a heartbeat"
    ),
)
def stream_account(request):
    """The player's news as newline-delimited JSON: ``matchStart`` (also for each match in
    play when the stream opens), ``matchFinish``, ``challenge`` and ``challengeGone``,
    ``rematchOffer`` (also for each offer standing when the stream opens) and ``rematchGone``
    (each with ``direction``: ``in``, to the player, or ``out``, from them). An account with
    nothing to report as the stream opens gets ``idle`` first."""
    feed = AccountFeed(token=request.api_token)
    return _stream(feed, feed.start())


@router.get(
    "/stream/matches/{int:match_id}",
    auth=STREAM,
    tags=["streams"],
    openapi_extra=stream_answers("MatchEvent", "One MatchEvent a line; a blank line: a heartbeat"),
)
def stream_match(request, match_id: Id, since: int | None = None):
    """One match's changes as newline-delimited JSON: the ``state`` first (after each
    ``move`` since ``since``, the last version the client saw: what it missed), then each
    move and the state at every version, with the caller's view. A player hears
    ``opponentGone`` when the opponent leaves the table and comes back; each line of the
    match's chat the caller reads comes as ``chat`` (``chatRemoved``: a moderator removed
    one). A ``closed`` event
    ends it: ``over`` after the state that shows the match over, or ``token_revoked``. A
    finished match between two people may be played again: its stream stays open two minutes
    after its end and while a rematch offer stands, each change a ``state`` and a ``rematch``
    event, and ends (``over``) once the rematch started, was declined or lapsed, or the two
    minutes passed with no offer standing."""
    feed = MatchFeed(token=request.api_token, match_id=match_id, since=since)
    return _stream(feed, feed.start())


@router.get(
    "/stream/arenas/{int:arena_id}",
    auth=STREAM,
    tags=["streams"],
    openapi_extra=stream_answers(
        "ArenaStreamEvent", "One ArenaStreamEvent a line; a blank line: a heartbeat"
    ),
)
def stream_arena(request, arena_id: Id):
    """One arena as newline-delimited JSON: the ``arena`` with its standings first (as ``GET
    arenas/{id}`` answers), then again whenever it changes; each line of its chat the caller
    reads comes as ``chat`` (a quick message in the stream's language; lines said before the
    stream opened do not come), ``chatRemoved`` when a moderator removes one. A ``closed``
    event ends it: ``over`` after the ``arena`` that shows it finished or cancelled, or
    ``token_revoked``."""
    feed = ArenaFeed(token=request.api_token, arena_id=arena_id)
    return _stream(feed, feed.start())
