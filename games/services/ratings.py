"""Elo changes when a rated match ends, and undoing them when a moderator voids one."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F, Q

from .. import rating
from ..models import Match, PlayerRating, RatingChange


def ratings_apply(match: Match) -> None:
    # Lock both rating rows in a fixed order (by user id) so two matches ending at once
    # between the same players cannot deadlock; the match row is already locked.
    users = sorted(match.players, key=lambda u: u.pk)
    for user in users:
        PlayerRating.objects.get_or_create(user=user)
    ratings = {
        r.user_id: r
        for r in PlayerRating.objects.select_for_update().filter(user__in=users).order_by("user_id")
    }
    ladder = match.ladder  # live or correspondence: each its own rating
    fields = PlayerRating.FIELDS[ladder]
    before = {pk: r.on(ladder) for pk, r in ratings.items()}
    for user in users:
        mine, played = before[user.pk]
        theirs = before[match.opponent_of(user).pk][0]
        delta = rating.change(mine, theirs, 1.0 if match.winner_id == user.pk else 0.0, played)
        RatingChange.objects.create(
            player=user, match=match, before=mine, after=mine + delta, delta=delta,
            played=played, ladder=ladder,
        )  # fmt: skip
        row = ratings[user.pk]
        setattr(row, fields[0], mine + delta)
        setattr(row, fields[1], played + 1)
        row.save(update_fields=list(fields))


def rating_changes_reverse(*, match: Match) -> int:
    """Undo a match's rating changes (moderation voids a match): each player's rating goes
    back by exactly the points that match gave, and the match stops counting as rated.

    Later matches keep their own changes (their deltas), but each later change of the player
    is shifted by the points undone, and counts one rated match fewer before it: the history
    stays one chain (each change starts where the one before ended, the last ends at the
    rating), so the profile, its chart, the end screens and the leaderboard say the same.
    Returns how many changes were undone.
    """
    with transaction.atomic():
        changes = list(
            RatingChange.objects.select_for_update().filter(match=match).order_by("player_id")
        )
        ratings = {
            r.user_id: r
            for r in PlayerRating.objects.select_for_update()
            .filter(user_id__in=[c.player_id for c in changes])
            .order_by("user_id")
        }
        for change in changes:
            row = ratings[change.player_id]
            fields = PlayerRating.FIELDS[change.ladder]
            value, played = row.on(change.ladder)
            counted = 0 if change.refund else 1  # a fair-play refund was no rated match
            setattr(row, fields[0], value - change.delta)
            setattr(row, fields[1], played - counted)
            row.save(update_fields=list(fields))
            later = Q(created_at__gt=change.created_at) | Q(
                created_at=change.created_at, pk__gt=change.pk
            )
            mine = RatingChange.objects.filter(player_id=change.player_id, ladder=change.ladder)
            mine = mine.exclude(pk__in=[c.pk for c in changes])  # (undone too: a refund's)
            mine.filter(later).update(
                before=F("before") - change.delta,
                after=F("after") - change.delta,
                played=F("played") - counted,
            )
        RatingChange.objects.filter(pk__in=[c.pk for c in changes]).delete()
    return len(changes)
