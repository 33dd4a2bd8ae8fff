"""Two players of whom one has blocked the other never meet again by themselves: the arena's
pairing keeps them apart (whichever of the two blocked), and a rematch between them is neither
offered nor taken up, refused in words."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import services
from games.models import Match, MatchStatus, RematchState
from games.presentation import refusals
from tests.support.arenas import moderator_made, online, running
from tests.support.matches import resign, start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def moderator(moderators_group):
    return moderator_made()


@pytest.fixture
def four(db):
    """a, b, c, d: equal scores and ratings, so the pairing takes them in that order."""
    return online("abcd")


def paired_once(moderator, players) -> set[frozenset[int]]:
    """The pairs of an arena's first round with these players."""
    arena = running(moderator, players)
    services.arena_pair(arena_id=arena.pk, due=arena.pair_due)
    matches = Match.objects.filter(arena=arena, status=MatchStatus.ACTIVE)
    return {frozenset(pair) for pair in matches.values_list("player0_id", "player1_id")}


@pytest.mark.parametrize("blocker", [0, 1])
def test_the_arena_never_pairs_two_of_whom_one_blocked_the_other(moderator, four, blocker):
    a, b, c, d = four
    one, other = (a, b) if blocker == 0 else (b, a)
    services.block_create(user=one, blocked_player=other)
    # In score order a would meet b: instead each meets another, and all four play.
    assert paired_once(moderator, four) == {frozenset((a.pk, c.pk)), frozenset((b.pk, d.pk))}


def test_two_alone_in_the_arena_one_of_whom_blocked_the_other_are_not_paired(moderator, four):
    a, b = four[:2]
    services.block_create(user=a, blocked_player=b)
    assert paired_once(moderator, (a, b)) == set()


@pytest.fixture
def finished(alice, bob) -> Match:
    return resign(bob, start(alice, bob))


def refused_rematch(call, user, match: Match) -> tuple[str, str]:
    with pytest.raises(services.NotAllowed) as refused:
        call(user=user, match_id=match.pk)
    return refused.value.code, refusals.words(refused.value)


def test_a_blocked_player_cannot_offer_the_blocker_a_rematch(alice, bob, finished):
    services.block_create(user=alice, blocked_player=bob)
    assert refused_rematch(services.rematch_offer, bob, finished) == (
        "match_blocked", "alice does not play matches with you",
    )  # fmt: skip
    finished.refresh_from_db()
    assert finished.rematch_state == "" and finished.next_match_id is None


def test_the_blocker_cannot_offer_the_player_she_blocked_a_rematch(alice, bob, finished):
    services.block_create(user=alice, blocked_player=bob)
    assert refused_rematch(services.rematch_offer, alice, finished) == (
        "rematch_you_blocked", "You blocked bob: unblock them to play them again",
    )  # fmt: skip
    services.block_delete(user=alice, blocked_player=bob)
    offered = services.rematch_offer(user=alice, match_id=finished.pk)  # unblocked: allowed
    assert offered.rematch_state == RematchState.OFFERED


def test_an_offer_made_before_a_block_cannot_be_taken_up_after_it(alice, bob, finished):
    services.rematch_offer(user=alice, match_id=finished.pk)
    services.block_create(user=alice, blocked_player=bob)
    assert refused_rematch(services.rematch_accept, bob, finished)[0] == "match_blocked"
    # Nor by offering too (an offer answered by an offer starts the rematch).
    assert refused_rematch(services.rematch_offer, bob, finished)[0] == "match_blocked"
    finished.refresh_from_db()
    assert finished.next_match_id is None
    assert not Match.objects.filter(status=MatchStatus.ACTIVE).exists()
