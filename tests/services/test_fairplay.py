"""Fair play's services: flags raised by the worker (one open per player, a dismissed one
coming back only on new or worse evidence), and the moderators' actions with their audit
rows; a mark's effects (the leaderboard, the podium, rated play refused, casual allowed, the
victims refunded once, their ratings, leaderboard and charts agreeing) and the appeal."""

from __future__ import annotations

import pytest

from games import services
from games.db import selectors
from games.models import (
    Arena,
    FairPlayFlag,
    FairPlayMark,
    Match,
    ModerationAction,
    PlayerRating,
    RatingChange,
)
from games.public.match import PublicMatch
from tests.support.matches import resign, start

pytestmark = pytest.mark.django_db

Kind = ModerationAction.Kind


@pytest.fixture(autouse=True)
def rated_pairs(settings):
    settings.RATED_MATCHES_PER_PAIR_PER_DAY = 20  # five rated matches of one pair, today


@pytest.fixture
def moderator(django_user_model, moderators_group):
    user = django_user_model.objects.create_user("mod", password="x", is_staff=True)
    user.groups.add(moderators_group)
    return django_user_model.objects.get(pk=user.pk)


def won(winner, loser):
    """A rated match ``winner`` won (``loser`` resigned after both had begun)."""
    return resign(loser, start(loser, winner))


def signal(kind="agreement", value=0.97, threshold=0.9, band=0.7, matches=()):
    return {
        "kind": kind, "value": value, "band": band, "threshold": threshold,
        "matches": list(matches), "detail": {"decisions": 200},
    }  # fmt: skip


def rating(user) -> int:
    return PlayerRating.objects.get(user=user).value


def audit_kinds() -> list[str]:
    return list(ModerationAction.objects.order_by("pk").values_list("kind", flat=True))


def test_a_player_keeps_one_open_flag_updated_kind_by_kind(alice):
    first = services.raise_flag(alice, [signal(), signal("timing", 0.8, 0.7)], [1, 2])
    again = services.raise_flag(
        player=alice, signals=[signal(value=0.99)], match_ids=[2, 3]
    )  # keywords, as the worker calls it
    assert again.pk == first.pk and FairPlayFlag.objects.count() == 1
    kinds = {s["kind"]: s["value"] for s in again.signals}
    assert kinds == {"agreement": 0.99, "timing": 0.8}
    assert again.matches == [2, 3]
    assert again.strength == pytest.approx(0.8 / 0.7)  # the strongest signal


def test_after_a_dismissal_only_new_or_worse_evidence_flags_again(alice, moderator):
    flag = services.raise_flag(alice, [signal(value=0.95)], [1])
    services.flag_dismiss(moderator=moderator, flag_id=flag.pk, reason="Strong, honest player")
    assert services.raise_flag(alice, [signal(value=0.95)], [1, 2]) is None  # the same
    assert services.raise_flag(alice, [signal(value=0.94)], [2]) is None  # weaker
    worse = services.raise_flag(alice, [signal(value=0.98)], [2, 3])
    assert worse is not None and worse.pk != flag.pk and worse.status == "open"
    services.flag_dismiss(moderator=moderator, flag_id=worse.pk, reason="Still honest")
    assert services.raise_flag(alice, [signal("stalling", 0.6, 0.4)], [4]) is not None  # new
    # A low loss flags: lower than at the dismissal is worse.
    assert signal_strength_order(("loss", 0.02, 0.05), ("loss", 0.01, 0.05))


def signal_strength_order(weaker, stronger) -> bool:
    strength = services.fairplay.signal_strength
    return strength(signal(*weaker)) < strength(signal(*stronger))


def test_a_flag_alone_changes_nothing_for_the_player(alice, bob, client):
    for _ in range(5):
        won(alice, bob)
    services.raise_flag(alice, [signal()], [1])
    assert alice.pk in [r.user_id for r in selectors.leaderboard()]
    assert services.match_create(user=alice).rated  # rated play open
    client.force_login(alice)
    for path in ("/", "/settings/", f"/users/{alice.username}/", "/leaderboard/"):
        page = client.get(path).content.decode()
        assert "fair play" not in page.lower() and "flag" not in page.lower(), path


def test_each_action_is_audited_with_its_reason(alice, bob, carol, moderator):
    dismissed = services.raise_flag(alice, [signal()], [])
    services.flag_dismiss(moderator=moderator, flag_id=dismissed.pk, reason="r1")
    warned = services.raise_flag(bob, [signal()], [])
    services.player_warn(moderator=moderator, player=bob, flag_id=warned.pk, reason="r2")
    marked = services.raise_flag(carol, [signal()], [])
    services.player_mark(moderator=moderator, player=carol, kind="computer",
                         flag_id=marked.pk, reason="r3")  # fmt: skip
    appeal = services.appeal_make(user=carol, text="I play on my own")
    services.appeal_answer(moderator=moderator, appeal_id=appeal.pk, outcome="upheld",
                           answer="r4")  # fmt: skip
    services.player_close(moderator=moderator, player=bob, reason="r5")
    rows = list(ModerationAction.objects.order_by("pk").values_list("kind", "player", "reason"))
    assert rows == [
        (Kind.FAIR_PLAY_DISMISS, alice.pk, "r1"),
        (Kind.FAIR_PLAY_WARN, bob.pk, "r2"),
        (Kind.FAIR_PLAY_MARK, carol.pk, "r3"),
        (Kind.APPEAL_UPHOLD, carol.pk, "r4"),
        (Kind.SUSPEND, bob.pk, "r5"),
    ]
    assert [f.status for f in (dismissed, warned, marked) if f.refresh_from_db() is None] == [
        "dismissed", "warned", "marked",
    ]  # fmt: skip
    with pytest.raises(services.GameError):  # a reason is required
        services.player_warn(moderator=moderator, player=alice, reason="  ")
    with pytest.raises(services.Conflict):  # a resolved flag takes no second action
        services.flag_dismiss(moderator=moderator, flag_id=marked.pk, reason="again")
    assert len(audit_kinds()) == 5


def test_a_mark_refunds_each_victim_once_and_ratings_leaderboard_and_charts_agree(
    alice, bob, carol, moderator
):
    for _ in range(3):  # honest matches first: the victims' histories go on after the refund
        won(bob, carol)
    robbed = [won(alice, bob), won(alice, carol), won(alice, bob)]
    lost_by_bob = -sum(RatingChange.objects.get(match=m, player=bob).delta for m in robbed[::2])
    lost_by_carol = -RatingChange.objects.get(match=robbed[1], player=carol).delta
    before = {"bob": rating(bob), "carol": rating(carol), "alice": rating(alice)}
    played = {u.username: PlayerRating.objects.get(user=u).rated_matches for u in (bob, carol)}
    flag = services.raise_flag(alice, [signal(matches=[m.pk for m in robbed])], [])
    mark = services.player_mark(moderator=moderator, player=alice, kind="computer",
                                flag_id=flag.pk, reason="Follows the solver")  # fmt: skip
    assert sorted(mark.refunded) == sorted(m.pk for m in robbed)
    assert rating(bob) == before["bob"] + lost_by_bob
    assert rating(carol) == before["carol"] + lost_by_carol
    assert rating(alice) == before["alice"]  # the cheater keeps what they have: off the board
    for user in (bob, carol):  # a refund is no rated match
        assert PlayerRating.objects.get(user=user).rated_matches == played[user.username]
        chart = selectors.rating_history(user=user)
        assert chart[-1] == rating(user)  # the chart ends where the rating is
        changes = RatingChange.objects.filter(player=user).order_by("created_at", "pk")
        pairs = zip(changes, changes[1:], strict=False)
        assert all(a.after == b.before for a, b in pairs)  # one chain
    refunds = ModerationAction.objects.filter(kind=Kind.FAIR_PLAY_REFUND)
    assert sorted(refunds.values_list("match", flat=True)) == sorted(m.pk for m in robbed)
    # Again, by another mark later (after a granted appeal): nobody is refunded twice.
    appeal = services.appeal_make(user=alice, text="Not me")
    services.appeal_answer(moderator=moderator, appeal_id=appeal.pk, outcome="granted",
                           answer="Granted")  # fmt: skip
    again = services.player_mark(moderator=moderator, player=alice, kind="trader",
                                 reason="Again", match_ids=[m.pk for m in robbed])  # fmt: skip
    assert again.refunded == []
    assert rating(bob) == before["bob"] + lost_by_bob
    assert RatingChange.objects.filter(refund=True).count() == 3
    # The leaderboard says what the ratings say (alice, marked, is not on it).
    board = {r.user.username: r.value for r in selectors.leaderboard()}
    assert "alice" not in board and board.get("bob") == rating(bob)
    # The matches' own results still show the losses, as they were played.
    public = PublicMatch.of(Match.objects.get(pk=robbed[0].pk))
    assert [line.delta < 0 for line in public.rating_changes if line.name == "bob"] == [True]


def test_voiding_a_refunded_match_leaves_the_victim_as_if_it_was_never_played(
    alice, bob, moderator
):
    before = rating(bob) if PlayerRating.objects.filter(user=bob).exists() else 1500
    match = won(alice, bob)
    services.player_mark(moderator=moderator, player=alice, kind="trader", reason="Traded",
                         match_ids=[match.pk])  # fmt: skip
    services.match_void(moderator=moderator, match_id=match.pk, reason="Traded match")
    row = PlayerRating.objects.get(user=bob)
    assert (row.value, row.rated_matches) == (before, 0)
    assert not RatingChange.objects.filter(match=match).exists()


def test_a_mark_closes_rated_play_and_the_podium_but_leaves_casual_play(
    alice, bob, carol, moderator
):
    for _ in range(5):
        won(alice, bob)
    services.player_mark(moderator=moderator, player=alice, kind="computer", reason="Solver")
    assert alice.pk not in [r.user_id for r in selectors.leaderboard()]
    with pytest.raises(services.NotAllowed) as refused:
        services.match_create(user=alice)
    assert refused.value.code == "fair_play_rated"
    rated = services.match_create(user=carol)
    with pytest.raises(services.NotAllowed):
        services.match_join(user=alice, match_id=rated.pk)
    with pytest.raises(services.NotAllowed) as refused:
        services.challenge_create(user=bob, challenged=alice, rated=True)
    assert refused.value.code == "fair_play_rated_other"
    casual = services.match_join(
        user=bob, match_id=services.match_create(user=alice, rated=False).pk
    )
    assert not casual.rated and casual.status == "active"
    assert not services.match_find(user=alice).rated  # the quick pairing: casual only
    # A finished arena's podium leaves the marked player out, the others move up.
    arena = Arena.objects.create(
        name="Friday", created_by=moderator, starts_at=casual.started_at, minutes=30,
        status=Arena.Status.FINISHED,
    )  # fmt: skip
    for score, user in ((9, alice), (5, bob), (3, carol)):
        arena.players.create(user=user, score=score, free_since=casual.started_at)
    podium = selectors.arena_live(arena=arena, user=None)["podium"]
    assert [(s.rank, s.player.username) for s in podium] == [(1, "bob"), (2, "carol")]


def test_the_appeal_is_made_once_and_answered_granted_lifts_the_mark(alice, moderator):
    with pytest.raises(services.NotAllowed):  # nothing to appeal against
        services.appeal_make(user=alice, text="Why?")
    mark = services.player_mark(moderator=moderator, player=alice, kind="computer",
                                reason="Solver")  # fmt: skip
    with pytest.raises(services.GameError):
        services.appeal_make(user=alice, text="   ")
    appeal = services.appeal_make(user=alice, text="I was playing on my own")
    with pytest.raises(services.Conflict):
        services.appeal_make(user=alice, text="Again")
    assert list(selectors.appeals_waiting()) == [appeal]
    with pytest.raises(services.GameError):  # an answer is required
        services.appeal_answer(moderator=moderator, appeal_id=appeal.pk, outcome="granted",
                               answer="")  # fmt: skip
    services.appeal_answer(moderator=moderator, appeal_id=appeal.pk, outcome="granted",
                           answer="The replays convinced us")  # fmt: skip
    mark.refresh_from_db()
    assert mark.lifted_at is not None and not selectors.fair_play_marked(alice)
    assert services.match_create(user=alice).rated  # rated play open again
    with pytest.raises(services.Conflict):
        services.appeal_answer(moderator=moderator, appeal_id=appeal.pk, outcome="upheld",
                               answer="Changed my mind")  # fmt: skip
    assert audit_kinds() == [Kind.FAIR_PLAY_MARK, Kind.APPEAL_GRANT]


def test_an_upheld_appeal_keeps_the_mark_and_allows_no_second(alice, moderator):
    services.player_mark(moderator=moderator, player=alice, kind="trader", reason="Traded")
    appeal = services.appeal_make(user=alice, text="It was my brother")
    services.appeal_answer(moderator=moderator, appeal_id=appeal.pk, outcome="upheld",
                           answer="Same address, same pattern")  # fmt: skip
    assert selectors.fair_play_marked(alice)
    with pytest.raises(services.Conflict):
        services.appeal_make(user=alice, text="Please")
    assert FairPlayMark.objects.get().active
