"""The arena's pure rules, property-based: pairings never put a player in two matches or with
themselves, pair a player with their last opponent only when no other pairing of the same
players avoids it, keep similar scores together; points and streaks as lichess counts them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.arena import Entrant, default_start, on_fire, pairings, performance, points, tally


@st.composite
def free_players(draw):
    count = draw(st.integers(min_value=0, max_value=9))
    ids = list(range(1, count + 1))
    # Last opponents as a real arena leaves them: pairs of players who just played each other
    # (and some whose last opponent is busy now, or who have not played yet).
    shuffled = draw(st.permutations(ids))
    last: dict[int, int | None] = dict.fromkeys(ids)
    for a, b in zip(shuffled[::2], shuffled[1::2], strict=False):
        if draw(st.booleans()):
            last[a], last[b] = b, a
    for pk in ids:
        if last[pk] is None and draw(st.booleans()):
            last[pk] = 100 + pk  # someone not free now
    return [
        Entrant(pk, draw(st.integers(0, 20)), draw(st.integers(1000, 2000)), last[pk]) for pk in ids
    ]


def again(a: Entrant, b: Entrant) -> bool:
    return a.last_opponent == b.id or b.last_opponent == a.id


def rematch_free_exists(players: list[Entrant]) -> bool:
    """Whether these (an even number) can be paired with no rematch at all (brute force)."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        not again(first, other) and rematch_free_exists([p for p in rest if p is not other])
        for other in rest
    )


@settings(max_examples=400, deadline=None)
@given(free_players())
def test_nobody_is_in_two_matches_or_plays_themselves(free):
    pairs = pairings(free)
    seated = [pk for pair in pairs for pk in pair]
    assert len(seated) == len(set(seated))
    assert all(a != b for a, b in pairs)
    assert set(seated) <= {e.id for e in free}
    # Everyone plays (but one, when the count is odd), except two who just met and have not
    # waited yet.
    assert len(free) // 2 - 1 <= len(pairs) <= len(free) // 2


@settings(max_examples=400, deadline=None)
@given(free_players())
def test_no_rematch_when_another_pairing_avoids_it(free):
    by_id = {e.id: e for e in free}
    pairs = pairings(free)
    rematches = [p for p in pairs if again(by_id[p[0]], by_id[p[1]])]
    if rematches:
        seated = [by_id[pk] for pair in pairs for pk in pair]
        assert not rematch_free_exists(seated), (free, pairs)
        assert all(by_id[pk].waited for pair in rematches for pk in pair)


@settings(max_examples=200, deadline=None)
@given(free_players())
def test_the_leader_meets_a_close_score(free):
    """The best placed free player meets the best placed one they may meet (no rematch)."""
    pairs = pairings(free)
    if len(free) < 3:
        return
    order = sorted(free, key=lambda e: (-e.score, -e.rating, e.id))
    leader = order[0]
    allowed = [e for e in order[1:] if not again(leader, e)]
    mine = next(pair for pair in pairs if leader.id in pair)
    other = mine[1] if mine[0] == leader.id else mine[0]
    if allowed and len(pairs) == 1:
        assert other == allowed[0].id


def test_two_alone_who_just_played_play_again_once_they_have_waited():
    a, b = Entrant(1, 2, 1500, 2), Entrant(2, 0, 1500, 1)
    assert pairings([a, b]) == [(1, 2)]
    assert pairings([a, Entrant(2, 0, 1500, 1, waited=False)]) == []


def test_a_swap_avoids_the_rematch_the_score_order_would_make():
    # By score: A B C D; C and D just played each other, so A-C and B-D instead of A-B, C-D.
    free = [Entrant(1, 9, 1500), Entrant(2, 8, 1500), Entrant(3, 7, 1500, 4),
            Entrant(4, 6, 1500, 3)]  # fmt: skip
    pairs = pairings(free)
    assert all({3, 4} != set(pair) for pair in pairs) and len(pairs) == 2


@given(st.lists(st.booleans(), max_size=30))
def test_points_and_streaks_as_defined(results):
    """2 a win, 0 a loss; after two wins in a row, wins score double until a loss."""
    streak = score = 0
    expected = 0
    run = 0
    for won in results:
        score += points(streak, won)
        expected += (4 if run >= 2 else 2) if won else 0
        run = run + 1 if won else 0
        streak = streak + 1 if won else 0
        assert on_fire(streak) == (run >= 2)
    assert score == expected
    assert tally(results) == (expected, run, results.count(True), results.count(False))


def test_performance_breaks_ties_by_the_opposition_and_the_results():
    assert performance(0, 0, 0) == 0
    assert performance(1500 + 1500, 2, 2) == 1900
    assert performance(1600 + 1400, 2, 1) == 1500
    assert performance(1800, 1, 0) == 1400


def test_pairing_is_stable_whatever_the_order_given():
    free = [Entrant(1, 4, 1500), Entrant(2, 4, 1600), Entrant(3, 0, 1500), Entrant(4, 2, 1500)]
    results = {tuple(pairings(list(p))) for p in permutations(free)}
    assert len(results) == 1


@st.composite
def free_players_and_blocks(draw):
    """Free players, and some blocks between them (blocker, blocked), one way or both."""
    free = draw(free_players())
    ids = [e.id for e in free]
    between = [(a, b) for a in ids for b in ids if a != b]
    blocks = draw(st.lists(st.sampled_from(between), max_size=8)) if between else []
    return free, blocks


@settings(max_examples=400, deadline=None)
@given(free_players_and_blocks())
def test_no_pair_is_one_where_either_blocked_the_other(case):
    free, blocks = case
    by_id = {e.id: e for e in free}
    pairs = pairings(free, blocked=blocks)
    barred = {frozenset(block) for block in blocks}
    assert [pair for pair in pairs if frozenset(pair) in barred] == []
    seated = [pk for pair in pairs for pk in pair]
    assert len(seated) == len(set(seated)) and set(seated) <= set(by_id)
    rematches = [p for p in pairs if again(by_id[p[0]], by_id[p[1]])]
    assert all(by_id[pk].waited for pair in rematches for pk in pair)


def test_a_block_either_way_keeps_two_apart_and_a_swap_still_seats_them():
    # By score: A B C D; D blocked C, so A-C and B-D rather than A-B and C-D.
    free = [Entrant(1, 9, 1500), Entrant(2, 8, 1500), Entrant(3, 7, 1500), Entrant(4, 6, 1500)]
    assert pairings(free) == [(1, 2), (3, 4)]
    for block in ((4, 3), (3, 4)):
        pairs = pairings(free, blocked=[block])
        assert len(pairs) == 2 and all({3, 4} != set(pair) for pair in pairs)
    # Two alone free, one of whom blocked the other: nobody is paired.
    assert pairings(free[:2], blocked=[(2, 1)]) == []


@st.composite
def an_arena_round(draw):
    """Free players as an arena's history leaves them: matches played one after another
    (with players not free now, ids above 100, too), each player's last opponent the one of
    their latest match, so that A may have played C, then B (C's last opponent is A, A's is
    B); some just free (not ``waited``); and some blocks."""
    count = draw(st.integers(min_value=0, max_value=9))
    ids = list(range(1, count + 1))
    everyone = ids + [101, 102]
    last: dict[int, int | None] = dict.fromkeys(everyone)
    for a, b in draw(st.lists(st.permutations(everyone).map(lambda p: p[:2]), max_size=12)):
        last[a], last[b] = b, a
    free = [
        Entrant(pk, draw(st.integers(0, 8)), draw(st.integers(1000, 2000)), last[pk],
                waited=draw(st.booleans()))
        for pk in ids
    ]  # fmt: skip
    between = [(a, b) for a in ids for b in ids if a != b]
    blocks = draw(st.lists(st.sampled_from(between), max_size=4)) if between else []
    return free, blocks


@settings(max_examples=600, deadline=None)
@given(an_arena_round())
def test_no_rematch_while_a_third_free_player_could_meet_either(case):
    """A pair meets again only when nobody else free could meet either of them: neither a
    player left waiting, nor one of another pair (swapping partners, both pairs new)."""
    free, blocks = case
    by_id = {e.id: e for e in free}
    barred = {frozenset(block) for block in blocks}

    def good(a: Entrant, b: Entrant) -> bool:
        return frozenset((a.id, b.id)) not in barred and not again(a, b)

    pairs = [(by_id[a], by_id[b]) for a, b in pairings(free, blocked=blocks)]
    seated = {e.id for pair in pairs for e in pair}
    assert len(seated) == 2 * len(pairs)
    assert not any(frozenset((a.id, b.id)) in barred for a, b in pairs)
    waiting = [e for e in free if e.id not in seated]
    for a, b in pairs:
        if good(a, b):
            continue
        assert a.waited and b.waited, (free, blocks, pairs)
        assert not any(good(c, a) or good(c, b) for c in waiting), (free, blocks, pairs)
        for c, d in pairs:
            if {c.id, d.id} != {a.id, b.id}:
                swaps = (((a, c), (b, d)), ((a, d), (b, c)))
                assert not any(good(*one) and good(*two) for one, two in swaps), (free, pairs)
    # Nobody waits who could meet someone else waiting.
    assert not any(good(x, y) for x in waiting for y in waiting if x is not y)


def test_the_two_who_just_met_do_not_meet_again_while_a_third_waits():
    # A (the leader) played C, then B: B-C, A waits; not A-B again with C waiting (once, the
    # same two met four times in a row so).
    a, b, c = Entrant(1, 6, 1500, 2), Entrant(2, 4, 1500, 1), Entrant(3, 2, 1500, 1)
    assert pairings([a, b, c]) == [(2, 3)]
    # Unless C blocked B: then A and B play again (neither may meet C).
    assert pairings([a, b, c], blocked=[(3, 2)]) == [(1, 2)]


@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1)))
def test_the_suggested_start_is_the_next_quarter_hour_five_minutes_away(now):
    now = now.replace(tzinfo=UTC)
    start = default_start(now)
    assert start.minute % 15 == 0 and start.second == start.microsecond == 0
    assert timedelta(minutes=5) <= start - now < timedelta(minutes=20)


def test_the_suggested_start_by_example():
    at = datetime(2025, 3, 1, 10, 10, tzinfo=UTC)
    assert default_start(at) == datetime(2025, 3, 1, 10, 15, tzinfo=UTC)
    assert default_start(at + timedelta(seconds=1)) == datetime(2025, 3, 1, 10, 30, tzinfo=UTC)
    assert default_start(datetime(2025, 3, 1, 23, 56, tzinfo=UTC)) == datetime(
        2025, 3, 2, 0, 15, tzinfo=UTC
    )
