"""Arenas through the services and the task worker: who may announce one, joining and pausing,
pairing the free players (never one in two matches, not the last opponent when another is
free, nothing after the end), the scores and streaks of results, an end with matches still in
play, and the moderators' cancel and removal, each in the audit log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from games import services
from games.db import selectors
from games.models import (
    Arena,
    ArenaAudit,
    Ladder,
    Match,
    MatchStatus,
    PlayerRating,
    PlayerSettings,
    RatingChange,
)
from tests.support.mail import address_confirmed
from tests.support.matches import resign
from tests.support.tasks import run_due_tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(django_user_model, moderators_group):
    user = django_user_model.objects.create_user("mod", password="x", is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return django_user_model.objects.get(pk=user.pk)  # permissions read afresh


@pytest.fixture
def four(django_user_model):
    players = [django_user_model.objects.create_user(n, password="x") for n in "abcd"]
    for i, user in enumerate(players):  # all online: a page of theirs open
        services.connection_open(user=user, channel_name=f"page-{i}", kind="page")
    return players


def announce(moderator, **options) -> Arena:
    defaults = {"name": "Friday arena", "starts_at": timezone.now(), "minutes": 30}
    return services.arena_create(user=moderator, **{**defaults, **options})


def running(moderator, players, **options) -> Arena:
    arena = announce(moderator, **options)
    for user in players:
        services.arena_join(user=user, arena_id=arena.pk)
    assert services.arena_start(arena_id=arena.pk)
    arena.refresh_from_db()
    return arena


def pair(arena: Arena) -> int:
    arena.refresh_from_db()
    return services.arena_pair(arena_id=arena.pk, due=arena.pair_due)


def arena_matches(arena, **filters):
    return list(Match.objects.filter(arena=arena, **filters).select_related("player0", "player1"))


def test_who_may_announce_an_arena(alice, moderator, settings):
    with pytest.raises(services.NotAllowed) as refused:
        announce(alice)
    assert refused.value.code == "arena_creator"
    PlayerRating.objects.create(user=alice, rated_matches=settings.ARENA_CREATOR_RATED_MATCHES)
    announce(alice)  # enough rated matches: one at a time
    with pytest.raises(services.Conflict):
        announce(alice, name="Another")
    announce(moderator)
    announce(moderator, name="A second")  # moderators have no such limit
    with pytest.raises(services.GameError) as refused:
        announce(moderator, minutes=45)
    assert refused.value.code == "arena_minutes"
    with pytest.raises(services.GameError) as refused:
        announce(moderator, starts_at=timezone.now() + timedelta(days=30))
    assert refused.value.code == "arena_start"
    assert ArenaAudit.objects.filter(kind=ArenaAudit.Kind.CREATED).count() == 3


def test_free_players_are_paired_at_once_and_none_is_in_two_matches(moderator, four):
    arena = running(moderator, four)
    assert pair(arena) == 2
    matches = arena_matches(arena, status=MatchStatus.ACTIVE)
    seated = [pk for m in matches for pk in (m.player0_id, m.player1_id)]
    assert sorted(seated) == sorted(u.pk for u in four)
    assert all(m.target == 5 and m.move_seconds == 30 and m.rated for m in matches)
    assert pair(arena) == 0  # all busy: nobody paired twice


def test_results_score_with_the_streak_and_the_next_round_avoids_the_last_opponent(moderator, four):
    arena = running(moderator, four)
    pair(arena)
    first = arena_matches(arena, status=MatchStatus.ACTIVE)
    winners = []
    for match in first:
        resign(match.player1, match)
        winners.append(match.player0)
    standings = {row.player: row for row in selectors.arena_standings(arena=arena)}
    assert [standings[w].score for w in winners] == [2, 2]
    assert [standings[w].performance for w in winners] == [1900, 1900]  # 1500 + 400
    assert sum(row.score for row in standings.values()) == 4
    assert pair(arena) == 2
    second = arena_matches(arena, status=MatchStatus.ACTIVE)
    last = {frozenset((m.player0_id, m.player1_id)) for m in first}
    assert all(frozenset((m.player0_id, m.player1_id)) not in last for m in second)
    # The two winners meet (similar scores); the winner of that wins again: two in a row.
    top = next(m for m in second if {m.player0, m.player1} == set(winners))
    resign(top.player1, top)
    on_fire = next(r for r in selectors.arena_standings(arena=arena) if r.player == top.player0)
    assert (on_fire.score, on_fire.fire) == (4, True)  # the next win scores double


def test_a_paused_or_offline_player_is_not_paired(moderator, four):
    arena = running(moderator, four)
    services.arena_pause(user=four[0], arena_id=arena.pk)
    services.connection_close(channel_name="page-1")  # b left the site
    assert pair(arena) == 1
    (match,) = arena_matches(arena)
    assert {match.player0, match.player1} == {four[2], four[3]}
    services.arena_join(user=four[0], arena_id=arena.pk)  # back from the pause
    assert selectors.arena_live(arena=arena, user=four[0])["entry"].paused is False


def test_nothing_starts_after_the_end_and_matches_in_play_still_count(moderator, four):
    arena = running(moderator, four)
    pair(arena)
    playing = arena_matches(arena, status=MatchStatus.ACTIVE)
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - timedelta(minutes=31))
    assert services.arena_end(arena_id=arena.pk)
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHED
    resign(playing[0].player1, playing[0])  # finished after the end: it counts
    assert selectors.arena_standings(arena=arena)[0].score == 2
    assert services.arena_pair(arena_id=arena.pk, due=timezone.now()) == 0
    assert len(arena_matches(arena)) == 2  # no new match
    live = selectors.arena_live(arena=arena, user=playing[0].player0)
    assert live["podium"][0].player == playing[0].player0


def test_joining_is_refused_in_words_where_it_must_be(moderator, alice, bob, carol):
    invited = announce(moderator, invited_only=True, invited=(alice,))
    with pytest.raises(services.NotAllowed) as refused:
        services.arena_join(user=bob, arena_id=invited.pk)
    assert refused.value.code == "arena_invited_only"
    services.arena_join(user=alice, arena_id=invited.pk)
    PlayerSettings.objects.create(user=carol, bot=True)
    with pytest.raises(services.NotAllowed) as refused:
        services.arena_join(user=carol, arena_id=invited.pk)
    assert refused.value.code == "arena_no_bots"
    with pytest.raises(services.NotFound):
        services.arena_join(user=bob, arena_id=99999)


def test_a_moderator_removes_a_player_and_cancels_an_arena(moderator, four):
    arena = running(moderator, four)
    pair(arena)
    match = arena_matches(arena)[0]
    resign(match.player1, match)
    services.arena_player_remove(
        moderator=moderator, arena_id=arena.pk, player=match.player0, reason="cheating"
    )
    ranked = [row.player for row in selectors.arena_standings(arena=arena)]
    assert match.player0 not in ranked  # their points are void
    with pytest.raises(services.NotAllowed):
        services.arena_join(user=match.player0, arena_id=arena.pk)
    services.arena_cancel(moderator=moderator, arena_id=arena.pk, reason="server trouble")
    assert services.arena_pair(arena_id=arena.pk, due=timezone.now()) == 0
    kinds = list(ArenaAudit.objects.filter(arena=arena).values_list("kind", "reason"))
    assert kinds == [
        ("created", ""), ("started", ""), ("removed", "cheating"), ("cancelled", "server trouble"),
    ]  # fmt: skip


def test_a_voided_match_leaves_the_standings_and_the_wins_after_it_count_again(moderator, four):
    arena = running(moderator, four)
    pair(arena)
    first = arena_matches(arena, status=MatchStatus.ACTIVE)
    for match in first:
        resign(match.player1, match)
    pair(arena)
    top = next(
        m
        for m in arena_matches(arena, status=MatchStatus.ACTIVE)
        if {m.player0, m.player1} == {m.player0 for m in first}
    )
    resign(top.player1, top)  # two wins in a row: 4 points, the next win doubled
    star, beaten = top.player0, top.player1
    voided = next(m for m in first if m.player0 == star)
    services.match_void(moderator=moderator, match_id=voided.pk, reason="collusion")
    rows = {row.player: row for row in selectors.arena_standings(arena=arena)}
    # Counted again without it: one win (2 points, no longer on fire); its loser lost nothing.
    assert (rows[star].score, rows[star].wins, rows[star].losses, rows[star].fire) == (
        2, 1, 0, False,
    )  # fmt: skip
    # One opponent left in the sum: the beaten one, at its rating as that match began.
    began = RatingChange.objects.get(match=top, player=beaten, ladder=Ladder.LIVE).before
    assert began == 1520 and rows[star].performance == began + 400
    loser = voided.player1
    assert (rows[loser].score, rows[loser].wins, rows[loser].losses) == (0, 0, 0)
    assert (rows[beaten].score, rows[beaten].losses) == (2, 1)  # its own first win stays
    # Voiding a match the arena did not score (a winner's void twice is refused) changes
    # nothing else.
    with pytest.raises(services.Conflict):
        services.match_void(moderator=moderator, match_id=voided.pk, reason="again")
    assert selectors.arena_standings(arena=arena)[0].score == 2


@pytest.mark.django_db(transaction=True)
def test_the_worker_starts_pairs_and_ends_an_arena(moderator, four):
    arena = announce(moderator)
    for user in four:
        services.arena_join(user=user, arena_id=arena.pk)
    run_due_tasks()  # the start, then the first round
    arena.refresh_from_db()
    assert arena.status == Arena.Status.RUNNING
    assert len(arena_matches(arena, status=MatchStatus.ACTIVE)) == 2
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - timedelta(minutes=31))
    run_due_tasks(as_if_seconds_passed=31 * 60)
    arena.refresh_from_db()
    assert (arena.status, arena.pair_due) == (Arena.Status.FINISHED, None)


def test_a_pair_whose_player_went_into_another_match_meanwhile_is_not_started(moderator, four):
    """A round decided while the last was still seating its pairs: a player it saw free has
    just sat down elsewhere, and their pair waits for the next round."""
    from games.services.arenas import _pair_start

    arena = running(moderator, four)
    a, b, c, d = four
    elsewhere = services.match_join(user=c, match_id=services.match_create(user=a).pk)
    assert elsewhere.status == MatchStatus.ACTIVE
    assert not _pair_start(arena, (a.pk, b.pk))
    assert _pair_start(arena, (b.pk, d.pk))
    assert [(m.player0, m.player1) for m in arena_matches(arena)] in ([(b, d)], [(d, b)])


@pytest.mark.django_db(transaction=True)
def test_a_player_who_asked_is_mailed_when_the_arena_starts(moderator, four, inbox):
    arena = announce(moderator)
    address_confirmed(four[0], "a@example.com", inbox)
    address_confirmed(four[1], "b@example.com", inbox)
    services.arena_join(user=four[0], arena_id=arena.pk, notify=True)
    services.arena_join(user=four[1], arena_id=arena.pk)  # did not ask
    run_due_tasks()  # the start, its mails
    (mail,) = inbox.wait_for(1)
    assert mail["To"] == "a@example.com"
    assert mail["Subject"] == "The arena Friday arena has started"
    assert f"http://testserver/arenas/{arena.pk}/" in mail.get_content()
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/mail/unsubscribe/" in mail["List-Unsubscribe"]
