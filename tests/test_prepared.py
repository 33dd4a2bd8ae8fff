"""Reads compiled once (games.db.prepared) give what their querysets give: the same rows, with the
same related objects, on the database the suite runs against (SQLite, or PostgreSQL in CI's
second pass)."""

from __future__ import annotations

import contextlib
import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections, transaction
from django.db.models import Count
from django.db.transaction import TransactionManagementError

from games import services
from games.api import auth, feeds
from games.db import statements
from games.db.prepared import Prepared
from games.models import ApiToken, Match, Move, PlayerSettings
from games.public import PLAYERS
from games.realtime.tables import read_tables
from games.services import core
from tests.support.api import token_for
from tests.support.matches import play_to_the_end, start

pytestmark = pytest.mark.django_db(transaction=True)


def same(read, expected, seen: set | None = None) -> None:
    """Every column of ``read`` equals ``expected``'s, and so do the related objects each came
    with (a missing one, such as a player without settings, is missing in both)."""
    seen = set() if seen is None else seen
    if id(expected) in seen:  # a player's settings point back at the player
        return
    seen.add(id(expected))
    assert type(read) is type(expected)
    for field in expected._meta.concrete_fields:
        assert getattr(read, field.attname) == getattr(expected, field.attname), field.name
    assert read._state.fields_cache.keys() == expected._state.fields_cache.keys()
    for name, related in expected._state.fields_cache.items():
        if related is None:
            assert read._state.fields_cache[name] is None, name
        else:
            same(read._state.fields_cache[name], related, seen)
    assert read._state.adding is False


@pytest.fixture
def played(alice, bob):
    """A finished match (its winner set) and an active one; Alice has settings, Bob none."""
    PlayerSettings.objects.create(user=alice)
    finished = play_to_the_end(start(alice, bob, rated=False), seed=3)
    active = start(bob, alice)
    return finished, active


def test_the_locked_match_is_the_querysets_match_with_its_players(played):
    assert played[0].winner_id is not None
    for match in played:
        with transaction.atomic():
            read = statements.MATCH_LOCKED.first(match.pk)
            expected = statements._match_with_players_locked(match.pk).get()
            locked = core.match_locked(match.pk)  # the winner is one of the players read with it
        same(read, expected)
        assert read.player0.username and read.player1.username
        if locked.winner_id is not None:
            assert locked.winner.pk == locked.winner_id and locked.winner in locked.players


def test_a_match_id_that_is_no_match_is_not_found(played):
    for wrong in (10**9, "nine", None, "12x"):
        with transaction.atomic(), pytest.raises(services.NotFound):
            core.match_locked(wrong)
    with transaction.atomic():  # a pk given as text, as the ORM takes it
        assert core.match_locked(str(played[0].pk)).pk == played[0].pk


def test_a_sockets_read_of_few_matches_is_the_same_as_of_many(played, monkeypatch):
    ids = [m.pk for m in played] + [10**9]

    def tables():
        return {pk: read.table for pk, read in read_tables(ids, [], set()).items() if read.table}

    few = tables()
    monkeypatch.setattr("games.realtime.tables.FEW", 0)  # the one query for them all
    many = tables()
    assert few.keys() == many.keys() == {m.pk for m in played}
    for pk in few:
        assert few[pk].match == many[pk].match
        assert few[pk].state == many[pk].state
    expected = Match.objects.select_related(*PLAYERS).get(pk=played[0].pk)
    same(statements.MATCH_WITH_PLAYERS.first(played[0].pk), expected)


def test_a_streams_reads_are_the_querysets(played):
    finished, _active = played
    expected = Match.objects.select_related(*PLAYERS).get(pk=finished.pk)
    same(statements.MATCH_WITH_PLAYERS.first(finished.pk), expected)
    assert statements.MATCH_WITH_PLAYERS.first(10**9) is None
    moves = Move.objects.filter(match=finished, version__gt=3, version__lte=9)
    expected = list(moves.order_by("seq"))
    read = statements.MOVES_BETWEEN.all(finished.pk, 3, 9)
    assert [m.version for m in read] == [4, 5, 6, 7, 8, 9]
    for got, want in zip(read, expected, strict=True):
        same(got, want)
    assert statements.MOVES_BETWEEN.all(finished.pk, 9, 9) == []


def test_a_locked_read_is_refused_outside_a_transaction_as_the_orms(played):
    # The ORM refuses it where the database has row locks (SQLite has none: it lets it be).
    locks = connection.features.has_select_for_update
    with pytest.raises(TransactionManagementError) if locks else contextlib.nullcontext():
        statements.MATCH_LOCKED.first(played[0].pk)
    if connection.vendor == "postgresql":
        assert "FOR NO KEY UPDATE OF" in statements.MATCH_LOCKED._compiled("default").sql


def test_the_database_plans_a_moves_statements_once_per_connection(played):
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's: this runs in CI's DATABASE_URL pass")
    for _ in range(12):  # psycopg prepares at the fifth; PostgreSQL goes generic after five more
        with transaction.atomic():
            statements.MATCH_LOCKED.first(played[1].pk)
        read_tables([played[0].pk], [], set())
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans FROM pg_prepared_statements")
        planned = {statement: generic for statement, generic in cursor.fetchall()}
    for read in (statements.MATCH_LOCKED, statements.MATCH_WITH_PLAYERS):
        parts = read._compiled("default").sql.split("%s")  # psycopg sends them as $1, $2, ...
        sql = parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], 1))
        assert planned.get(sql, 0) >= 1, (sql, planned)


def test_a_stream_from_before_the_first_version_gets_every_move(played, alice):
    finished, _active = played
    token = statements.TOKEN_BY_DIGEST.first(services.token_digest(token_for(alice)))
    # A client may say any number: it gets every move, not a database error.
    events = feeds.MatchFeed(token=token, match_id=finished.pk, since=-3_000_000_000).start()
    moves = [e for e in events if e["type"] == "move"]
    assert len(moves) == finished.move_count and events[-1]["type"] == "state"


def test_a_token_is_read_live_and_not_once_revoked(alice, bob):
    PlayerSettings.objects.create(user=alice)
    secret = token_for(alice, scopes=("read",))
    live = ApiToken.objects.filter(revoked_at__isnull=True, user__is_active=True)
    digest = services.token_digest(secret)
    expected = live.select_related("user", "user__settings").get(digest=digest)
    same(statements.TOKEN_BY_DIGEST.first(services.token_digest(secret)), expected)
    same(auth.live_token(expected.pk), live.get(pk=expected.pk))
    row = statements.TOKEN_BY_DIGEST.first(services.token_digest(secret))
    assert row.user.username == "alice" and row.user.settings.user_id == alice.pk
    assert row.allows("read") and not row.allows("play")
    assert auth.live_token(row.pk).pk == row.pk
    assert (
        statements.TOKEN_BY_DIGEST.first(services.token_digest(token_for(bob))).user.username
        == "bob"
    )
    bob_token = statements.TOKEN_BY_DIGEST.first(services.token_digest(token_for(bob, name="b")))
    User.objects.filter(pk=bob.pk).update(is_active=False)  # suspended: no token of his is live
    assert auth.live_token(bob_token.pk) is None
    services.api_token_revoke(user=alice, token_id=row.pk)
    assert statements.TOKEN_BY_DIGEST.first(services.token_digest(secret)) is None
    assert auth.live_token(row.pk) is None and not auth.token_live(row.pk)


def test_it_is_compiled_once_for_every_thread(played):
    # Under ASGI each request runs in a thread of its own: a compiled read serves them all.
    read = Prepared(lambda pk: Match.objects.filter(pk=pk)[:1], 2_147_400_100)
    assert read.first(played[0].pk).pk == played[0].pk
    compiled = read._compiled("default")
    elsewhere = []

    def in_another_thread():
        elsewhere.append(read.first(played[1].pk))
        connections.close_all()

    thread = threading.Thread(target=in_another_thread)
    thread.start()
    thread.join()
    assert elsewhere[0].pk == played[1].pk
    assert read._compiled("default") is compiled


def test_a_read_it_cannot_prepare_is_refused_when_first_run(played):
    absent = Prepared(lambda pk: Match.objects.filter(pk=1)[:1], 2_147_400_101)
    with pytest.raises(ValueError, match="placeholder"):
        absent.first(1)
    counted = Prepared(lambda pk: Match.objects.annotate(n=Count("moves")).filter(pk=pk), 7)
    with pytest.raises(ValueError, match="whole rows"):
        counted.first(1)
    beyond = Prepared(lambda version: Move.objects.filter(version=version), -1)  # a positive field
    with pytest.raises(ValueError, match="range"):
        beyond.all(1)
    with pytest.raises(TypeError):
        statements.TOKEN_BY_DIGEST.first(None)


def test_a_moves_writes_are_the_orms(played, alice):
    """``insert`` and ``update_fields`` write what ``save()`` writes, read back through the ORM,
    and nothing listens to the models' save signals they do not send."""
    from datetime import timedelta

    from django.db import DatabaseError
    from django.db.models.signals import post_save, pre_save
    from django.utils import timezone

    from games.db.prepared import insert, update_fields

    for model in (Match, Move):
        assert not pre_save.has_listeners(model) and not post_save.has_listeners(model)
    _finished, active = played
    match = Match.objects.get(pk=active.pk)
    move = Move(match=match, seq=match.move_count + 1, seat=1, player=alice, action="pass",
                version=match.version + 1)  # fmt: skip
    insert(move)
    assert move.pk and move._state.adding is False and move.created_at is not None
    assert columns(move) == columns(Move.objects.get(pk=move.pk))
    match.snapshot = {**match.snapshot, "a": ["é", 1, None]}  # JSON of every kind
    match.turn_started_at = timezone.now() - timedelta(seconds=7)
    match.move_count, match.version, match.acted = match.move_count + 1, match.version + 1, 3
    update_fields(match, ("snapshot", "turn_started_at", "move_count", "acted", "version"))
    assert columns(Match.objects.get(pk=match.pk)) == columns(match)
    for wrong in (("acted", "acted"), ("id", "acted"), ("moves",)):  # each column once
        with pytest.raises(ValueError, match="not columns to update once each"):
            update_fields(match, wrong)
    match.pk = 10**9  # no row has that key
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        update_fields(match, ("acted",))


def columns(row) -> dict:
    return {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields}
