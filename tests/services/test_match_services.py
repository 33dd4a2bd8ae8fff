"""The services that own every write: create, join, abort, resign, move_apply."""

from __future__ import annotations

import io
import random
import threading

import pytest
from django.core.management import call_command
from django.db import connection

from games import services
from games.db import selectors
from games.engine import Action, legal_actions, replay, state_from_json
from games.models import (
    EndReason,
    Match,
    MatchStatus,
    Move,
    PlayerRating,
    PlayerSettings,
    RatingChange,
)
from tests.support.matches import both_acted, play_to_the_end, resign

pytestmark = pytest.mark.django_db


@pytest.fixture
def active(alice, bob) -> Match:
    match = services.match_create(user=alice)
    return services.match_join(user=bob, match_id=match.pk)


def player_to_act(match: Match):
    return match.players[match.state.turn]


def unchanged(match: Match, before: Match) -> bool:
    match.refresh_from_db()
    return (
        match.version == before.version
        and match.snapshot == before.snapshot
        and match.status == before.status
        and match.moves.count() == before.moves.count()
    )


def snapshot_of(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def test_a_new_match_is_open_with_its_creator_in_seat_zero_and_a_secret_seed(alice):
    match = services.match_create(user=alice, deck=25, target=7, stick_the_dealer=True)
    assert match.status == MatchStatus.OPEN
    assert match.player0 == alice and match.player1 is None
    assert match.rules.deck == 25 and match.rules.target == 7 and match.rules.stick_the_dealer
    assert int(match.seed).bit_length() > 64
    assert match.snapshot is None


def test_impossible_options_are_refused(alice):
    with pytest.raises(services.GameError, match="24, 25 or 32"):
        services.match_create(user=alice, deck=52)
    assert not Match.objects.exists()


def test_joining_deals_the_first_hand(alice, bob):
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    assert match.status == MatchStatus.ACTIVE and match.player1 == bob
    assert match.started_at is not None and match.version == 1
    assert match.state.hand_number == 0


def test_nobody_joins_their_own_match_or_a_taken_one(alice, bob, carol, active):
    mine = services.match_create(user=alice)
    with pytest.raises(services.NotAllowed, match="own_match"):
        services.match_join(user=alice, match_id=mine.pk)
    with pytest.raises(services.Conflict, match="seat_taken"):
        services.match_join(user=carol, match_id=active.pk)
    with pytest.raises(services.NotFound):
        services.match_join(user=carol, match_id=999_999)


def test_a_move_is_saved_and_bumps_the_version(active):
    user = player_to_act(active)
    seat = active.seat_of(user)
    text = str(legal_actions(active.state)[0])
    match = services.move_apply(user=user, match_id=active.pk, action=text, version=1).match
    assert match.version == 2
    move = Move.objects.get(match=match)
    assert (move.seq, move.seat, move.player, move.action) == (1, seat, user, text)


def test_out_of_turn_is_refused_and_changes_nothing(active):
    before = snapshot_of(active)
    waiting = active.players[active.state.turn ^ 1]
    with pytest.raises(services.GameError, match="It is not your turn"):
        services.move_apply(user=waiting, match_id=active.pk, action="pass", version=1)
    assert unchanged(active, before)


def test_an_illegal_action_is_refused_with_the_rules_words(active):
    before = snapshot_of(active)
    with pytest.raises(services.GameError, match="You cannot play a card now"):
        services.move_apply(
            user=player_to_act(active), match_id=active.pk, action="play:9C", version=1
        )
    with pytest.raises(services.GameError, match="not an action"):
        services.move_apply(
            user=player_to_act(active), match_id=active.pk, action="bet:100", version=1
        )
    assert unchanged(active, before)


def test_a_stale_version_is_refused(active):
    user = player_to_act(active)
    text = str(legal_actions(active.state)[0])
    services.move_apply(user=user, match_id=active.pk, action=text, version=1)
    before = snapshot_of(active)
    with pytest.raises(services.Conflict, match="stale"):
        services.move_apply(user=user, match_id=active.pk, action=text, version=1)
    assert unchanged(active, before)


def test_a_bot_accounts_move_is_refused_from_the_page_and_made_through_the_api(active):
    user = player_to_act(active)
    PlayerSettings.objects.update_or_create(user=user, defaults={"bot": True})
    text = str(legal_actions(active.state)[0])
    before = snapshot_of(active)
    for way in ("page_socket", "page_form"):
        with pytest.raises(services.NotAllowed, match="bot_api_only"):
            services.move_apply(user=user, match_id=active.pk, action=text, version=1, way=way)
    assert unchanged(active, before)
    moved = services.move_apply(user=user, match_id=active.pk, action=text, version=1,
                                way="api_socket")  # fmt: skip
    assert moved.version == 2


def test_a_non_participant_cannot_act(active, carol):
    before = snapshot_of(active)
    with pytest.raises(services.NotAllowed, match="not_playing"):
        services.move_apply(user=carol, match_id=active.pk, action="pass", version=1)
    assert unchanged(active, before)


def test_a_whole_match_finishes_with_its_last_move(active, alice, bob):
    match = play_to_the_end(active)
    assert match.status == MatchStatus.FINISHED and match.end_reason == EndReason.PLAYED_OUT
    state = match.state
    assert match.winner == match.players[state.winner]
    assert state.scores[state.winner] >= 10
    moves = list(match.moves.order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
    assert match.version == len(moves) + 1
    actions = [Action.parse(m.seat, m.action) for m in moves]
    assert replay(int(match.seed), match.rules, actions) == state
    with pytest.raises(services.Conflict, match="over"):
        services.move_apply(user=alice, match_id=match.pk, action="pass", version=match.version)


def test_resigning_gives_the_match_to_the_opponent(active, alice, bob):
    match = resign(alice, active)
    assert match.status == MatchStatus.FINISHED
    assert match.winner == bob and match.end_reason == EndReason.RESIGNED
    with pytest.raises(services.Conflict):
        services.match_resign(user=bob, match_id=active.pk)


def test_a_match_can_be_called_off_only_until_both_players_have_moved(alice, bob, active):
    open_match = services.match_create(user=alice)
    assert services.match_abort(user=alice, match_id=open_match.pk).status == MatchStatus.ABORTED
    user = player_to_act(active)
    services.move_apply(
        user=user, match_id=active.pk, action=str(legal_actions(active.state)[0]), version=1
    )
    assert Match.objects.get(pk=active.pk).acted == 1 << active.seat_of(user)
    both_acted(active)
    with pytest.raises(services.Conflict, match="started"):
        services.match_abort(user=alice, match_id=active.pk)


def test_resigning_before_both_players_have_moved_aborts_without_rating(active, alice, bob):
    user = player_to_act(active)
    match = services.move_apply(user=user, match_id=active.pk, action="pass", version=1).match
    # One player has moved, the other not yet: either may still leave for free.
    match = services.match_resign(user=user, match_id=match.pk)
    assert match.status == MatchStatus.ABORTED and match.end_reason == EndReason.ABORTED
    assert match.winner is None
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()
    assert selectors.record(user=alice) == {"played": 0, "won": 0, "lost": 0}


def test_resigning_after_both_players_have_moved_is_rated(active, alice, bob):
    match = both_acted(active)
    assert match.acted == 0b11 and match.status == MatchStatus.ACTIVE
    match = services.match_resign(user=alice, match_id=match.pk)
    assert match.status == MatchStatus.FINISHED and match.winner == bob
    assert RatingChange.objects.filter(match=match).count() == 2


def test_moves_are_append_only(active):
    user = player_to_act(active)
    services.move_apply(
        user=user, match_id=active.pk, action=str(legal_actions(active.state)[0]), version=1
    )
    move = Move.objects.get(match=active)
    move.action = "pass"
    with pytest.raises(ValueError, match="append-only"):
        move.save()
    with pytest.raises(ValueError, match="append-only"):
        move.delete()


def test_verify_matches_replays_every_match_and_reports_a_bad_snapshot(active):
    play_to_the_end(active, seed=3)
    out = io.StringIO()
    call_command("verify_matches", stdout=out)
    assert "1 match checked, all snapshots agree" in out.getvalue()
    tampered = active.snapshot
    tampered["scores"] = [0, 0]
    Match.objects.filter(pk=active.pk).update(snapshot=tampered)
    with pytest.raises(SystemExit) as stop:
        call_command("verify_matches", stdout=io.StringIO(), stderr=(err := io.StringIO()))
    assert stop.value.code == 1
    assert f"Match {active.pk}" in err.getvalue()


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_submissions_on_one_version_apply_exactly_once(alice, bob):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL: this runs in the DATABASE_URL pass of CI")
    match = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    user = player_to_act(match)
    text = str(legal_actions(match.state)[0])
    assert submit_twice_at_once(user, match.pk, text, 1) == ["applied", "refused"]
    match.refresh_from_db()
    assert match.version == 2 and match.moves.count() == 1
    assert state_from_json(match.snapshot).bids[0].seat == match.seat_of(user)


# Ratings -----------------------------------------------------------------------------------


def test_a_rated_match_changes_both_ratings_once_in_its_last_transaction(active, alice, bob):
    match = play_to_the_end(active, seed=5)
    changes = {c.player: c for c in match.rating_changes.all()}
    assert set(changes) == {alice, bob}
    winner, loser = changes[match.winner], changes[match.opponent_of(match.winner)]
    assert (winner.before, winner.after, winner.delta) == (1500, 1520, 20)
    assert (loser.before, loser.after, loser.delta) == (1500, 1480, -20)
    from games.models import PlayerRating

    stored = PlayerRating.objects.get(user=match.winner)
    assert (stored.value, stored.rated_matches, stored.display) == (1520, 1, "1520?")


def test_a_resignation_is_rated_like_a_loss(active, alice, bob):
    resign(alice, active)
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert (alice.rating.value, bob.rating.value) == (1480, 1520)


def test_casual_and_aborted_matches_change_no_rating(alice, bob):
    casual = services.match_create(user=alice, rated=False)
    services.match_join(user=bob, match_id=casual.pk)
    resign(alice, casual)
    aborted = services.match_create(user=alice)
    services.match_abort(user=alice, match_id=aborted.pk)
    from games.models import RatingChange

    assert not RatingChange.objects.exists()


def test_reversing_a_matchs_rating_changes_restores_the_exact_previous_ratings(alice, bob):
    from games.models import PlayerRating

    def ratings():
        return {r.user.username: (r.value, r.rated_matches) for r in PlayerRating.objects.all()}

    first = services.match_join(user=bob, match_id=services.match_create(user=alice).pk)
    resign(alice, first)
    before = ratings()
    second = services.match_join(user=alice, match_id=services.match_create(user=bob).pk)
    resign(bob, second)
    assert ratings() != before
    assert services.rating_changes_reverse(match=second) == 2
    assert ratings() == before
    assert services.rating_changes_reverse(match=second) == 0  # nothing left to undo


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_final_moves_rate_the_match_exactly_once(alice, bob):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL: this runs in the DATABASE_URL pass of CI")
    from games.models import PlayerRating, RatingChange

    # Play until one action ends the match, then submit it twice at once.
    match = services.match_join(user=bob, match_id=services.match_create(user=alice, target=1).pk)
    rng = random.Random(7)
    while True:
        state = match.state
        final = [a for a in legal_actions(state) if state_after(state, a).is_over]
        if final:
            break
        match = services.move_apply(
            user=match.players[state.turn], match_id=match.pk,
            action=str(rng.choice(legal_actions(state))), version=match.version,
        ).match  # fmt: skip
    user, text, version = match.players[state.turn], str(final[0]), match.version
    assert submit_twice_at_once(user, match.pk, text, version) == ["applied", "refused"]
    assert RatingChange.objects.filter(match=match).count() == 2
    assert sorted(PlayerRating.objects.values_list("value", flat=True)) == [1480, 1520]


def state_after(state, action):
    from games.engine import apply

    return apply(state, action)


def submit_twice_at_once(user, match_id: int, text: str, version: int) -> list[str]:
    """Two threads submit the same move on the same version at the same moment."""
    barrier = threading.Barrier(2)
    outcomes = []

    def submit():
        barrier.wait()
        try:
            services.move_apply(user=user, match_id=match_id, action=text, version=version)
            outcomes.append("applied")
        except services.Conflict:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return sorted(outcomes)
