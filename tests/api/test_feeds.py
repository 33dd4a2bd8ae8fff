"""The account feed's reads: what a program hears when changes land between them."""

from __future__ import annotations

import dataclasses

import pytest

from games import services
from games.api import feeds
from games.models import ApiToken

pytestmark = pytest.mark.django_db


def test_a_challenge_accepted_between_the_feeds_reads_starts_its_match_first(
    alice, bob, monkeypatch
):
    """The feed reads the challenges and the matches one after the other; an acceptance that
    lands between the two reads still gives the match's start before the challenge's end."""
    services.api_token_create(user=alice, name="bot", scopes=["read"])
    feed = feeds.AccountFeed(token=ApiToken.objects.select_related("user").get())
    challenge = services.challenge_create(user=bob, challenged=alice)
    assert [e["type"] for e in feed.start()] == ["challenge"]

    reads = []

    def after_the_first_read(read):
        def wrapped(*, user):
            found = read(user=user)
            if not isinstance(found, dict):
                found = list(found)  # the matches' query, read now (not when first iterated)
            reads.append(read)
            if len(reads) == 1:  # the acceptance commits right after the feed's first read
                services.challenge_accept(user=alice, challenge_id=challenge.pk)
            return found

        return wrapped

    monkeypatch.setattr(feeds, "my_active_matches", after_the_first_read(feeds.my_active_matches))
    monkeypatch.setattr(feeds, "pending_challenges", after_the_first_read(feeds.pending_challenges))
    heard = [event["type"] for _ in range(2) for event in feed.changed()]
    assert heard == ["matchStart", "challengeGone"]


def test_a_streams_events_from_its_rooms_table_are_those_a_fresh_read_gives(alice, bob):
    """A match's stream takes each change from the match's room (no read of its own): what it
    sends from the room's table is exactly what a stream opened afresh with the same last
    version reads, moves and state."""
    from games.engine import legal_actions
    from games.realtime.tables import Table, read_tables
    from tests.support.matches import start

    match = start(alice, bob, move_seconds=None)
    row, _token = services.api_token_create(user=bob, name="bot", scopes=["read"])
    row = ApiToken.objects.select_related("user").get(pk=row.pk)
    following = feeds.MatchFeed(token=row, match_id=match.pk)
    following.start()  # up to date: at the match's version
    seen = match.version
    table = read_tables([match.pk], [], {match.pk})[match.pk].table
    for _ in range(3):  # moves made here: the room's table comes from each move itself
        state = table.state
        moved = services.move_apply(
            user=match.players[state.turn], match_id=match.pk,
            action=str(legal_actions(state)[0]), version=table.version,
        )  # fmt: skip
        table = Table.after(moved, table, table.match.ratings)
    sent = following.table_events(table)
    fresh = feeds.MatchFeed(token=row, match_id=match.pk, since=seen).start()
    assert sent == fresh
    assert [e["type"] for e in sent] == ["move", "move", "move", "state"]
    # A table that keeps only its last move: a stream further behind reads the moves instead
    # (None: not from the table).
    short = dataclasses.replace(table, moves=table.moves[-1:], moves_above=table.version - 1)
    behind = feeds.MatchFeed(token=row, match_id=match.pk, since=seen)
    assert behind.table_events(short) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_news_heard_with_a_goto_behind_it_still_reaches_the_account_stream(alice, bob):
    """The layer's messages waiting together are read once. A burst whose last message is
    news for the pages alone (the ``goto`` that takes a player's page to the new match) still
    brings what the messages before it told: CI once heard no ``matchStart`` after a rematch
    because the read was left to that last message."""
    from channels.db import database_sync_to_async as db

    from games.api.streams import Stream
    from tests.support.matches import start

    row, _token = await db(services.api_token_create)(user=bob, name="bot", scopes=["read"])
    token = await db(ApiToken.objects.select_related("user").get)(pk=row.pk)
    stream = Stream(feeds.AccountFeed(token=token), "en")
    assert await db(stream.feed.start)() == [{"type": "idle"}]
    match = await db(start)(alice, bob, move_seconds=None)
    stream.hear({"type": "account.changed"})
    stream.hear({"type": "user.changed", "goto": match.pk})
    events, quiet = await anext(stream.events())
    assert [(e["type"], e["match"]["id"]) for e in events] == [("matchStart", match.pk)]
    assert not quiet
