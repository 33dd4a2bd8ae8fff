"""An arena match's end in the arena's standings: the winner's points (with the streak), the
loser's streak broken, both free again for the next pairing. Called by ``core`` in the
transaction that ends the match, so the standings and the result commit together; and by the
moderators' void, which takes a scored match back out of them."""

from __future__ import annotations

from django.db.models import F, Q
from django.utils import timezone

from ..arena import points, tally
from ..models import Arena, ArenaPlayer, Ladder, Match, MatchStatus, PlayerRating, RatingChange
from ..rating import INITIAL
from . import events


def _ratings_before(match: Match) -> dict[int, int]:
    """Each player's live rating as the match began (a rated match's change was just
    applied in this transaction: its ``before``)."""
    pair = (match.player0_id, match.player1_id)
    ratings = dict.fromkeys(pair, INITIAL)
    ratings.update(PlayerRating.objects.filter(user_id__in=pair).values_list("user_id", "value"))
    before = RatingChange.objects.filter(match=match, ladder=Ladder.LIVE, refund=False)
    ratings.update(before.values_list("player_id", "before"))
    return ratings


def arena_result(match: Match) -> None:
    """``match`` just ended: finished with a winner, or called off. Of an arena: its points
    (none when called off), and both are free again, and will not meet again next. Any other
    live match: the pages of the arenas running that it kept its players from pairing say
    they are free now."""
    if match.player1_id is None:
        return
    if not match.arena_id:
        if match.days_per_move is None:
            for arena_id in _arenas_held((match.player0_id, match.player1_id)):
                events.arena_changed_on_commit(arena_id)
        return
    now = timezone.now()
    entries = {
        entry.user_id: entry
        for entry in ArenaPlayer.objects.select_for_update()
        .filter(arena_id=match.arena_id, user_id__in=(match.player0_id, match.player1_id))
        .order_by("user_id")
    }
    before = _ratings_before(match) if match.winner_id is not None else {}
    for user_id, entry in entries.items():
        opponent = match.player1_id if user_id == match.player0_id else match.player0_id
        entry.last_opponent_id = opponent
        entry.free_since = now
        fields = ["last_opponent", "free_since"]
        if match.winner_id is not None and not entry.removed:
            won = match.winner_id == user_id
            entry.score += points(entry.streak, won)
            entry.streak = entry.streak + 1 if won else 0
            if won:
                entry.wins = F("wins") + 1
            else:
                entry.losses = F("losses") + 1
            # The performance's sum: only games with a result count, as the wins and losses.
            entry.opponents_rating = F("opponents_rating") + before[opponent]
            fields += ["score", "streak", "wins" if won else "losses", "opponents_rating"]
        entry.save(update_fields=fields)
    events.arena_changed_on_commit(match.arena_id)


def _arenas_held(players: tuple[int, int]) -> set[int]:
    """The running arenas these players joined and wait in (not paused, not removed)."""
    return set(
        ArenaPlayer.objects.filter(
            user_id__in=players, paused=False, removed=False, arena__status=Arena.Status.RUNNING
        ).values_list("arena_id", flat=True)
    )


def arena_result_void(match: Match) -> None:
    """A moderator voids ``match`` (of an arena) after it was scored: both players' points,
    streaks, wins and losses are counted again from their other scored matches of the arena
    in the order they ended (a win's points depend on the wins in a row before it), and the
    opponent's rating leaves the performance's sum. Called in the void's transaction before
    the match's rating changes are reversed: a rated match's ratings as it began are read
    from them, as when it was scored (a casual arena's, from the ratings now)."""
    if not match.arena_id or match.winner_id is None or match.player1_id is None:
        return
    pair = (match.player0_id, match.player1_id)
    entries = (
        ArenaPlayer.objects.select_for_update()
        .filter(arena_id=match.arena_id, user_id__in=pair)
        .order_by("user_id")
    )
    before = _ratings_before(match)
    for entry in entries:
        if entry.removed:  # a removed player's points are void already
            continue
        user_id = entry.user_id
        counted = (
            Match.objects.filter(
                Q(player0_id=user_id) | Q(player1_id=user_id),
                arena_id=match.arena_id,
                status=MatchStatus.FINISHED,
                winner__isnull=False,
            )
            .exclude(pk=match.pk)
            .order_by("finished_at", "pk")
            .values_list("winner_id", flat=True)
        )
        results = [winner_id == user_id for winner_id in counted]
        entry.score, entry.streak, entry.wins, entry.losses = tally(results)
        opponent = pair[1] if user_id == pair[0] else pair[0]
        entry.opponents_rating = max(0, entry.opponents_rating - before[opponent])
        entry.save(update_fields=["score", "streak", "wins", "losses", "opponents_rating"])
    events.arena_changed_on_commit(match.arena_id)
