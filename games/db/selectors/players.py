"""Reads of players: records, ratings and their history, the leaderboard, settings."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from ...models import (
    DELETED_USERNAME,
    Ladder,
    Match,
    MatchStatus,
    ModerationAction,
    PlayerRating,
    PlayerSettings,
    RatingChange,
    TablePace,
    is_deleted,
)
from .fairplay import marked_players


def record(*, user) -> dict[str, int]:
    """Finished matches won and lost (aborted and voided ones do not count)."""
    finished = Match.objects.filter(Q(player0=user) | Q(player1=user), status=MatchStatus.FINISHED)
    won = finished.filter(winner=user).count()
    return {"played": finished.count(), "won": won, "lost": finished.count() - won}


def user_by_name(username: str):
    if "\x00" in username:  # no name holds one, and PostgreSQL refuses it in a query
        return None
    if is_deleted(username):  # a deleted account has no profile, and takes no challenge
        return None
    return get_user_model().objects.filter(username=username).first()


def rating_of(*, user) -> PlayerRating:
    """The player's rating; one who has never played a rated match has the initial one."""
    return PlayerRating.objects.filter(user=user).first() or PlayerRating(user=user)


LEADERBOARD_MIN_MATCHES = 5


def leaderboard(
    *, limit: int = 100, bots: bool = False, ladder: str = Ladder.LIVE
) -> list[PlayerRating]:
    """Players with at least 5 rated matches on ``ladder`` (live or correspondence), best
    first, each with ``won``, ``lost``, ``last_played`` and the ladder's ``display``; people
    and bot accounts (``bots``) are ranked apart."""
    value, played = PlayerRating.FIELDS[ladder]
    mine = RatingChange.objects.filter(player=OuterRef("user"), ladder=ladder)
    wins = (
        mine.filter(match__winner=OuterRef("user"))
        .values("player")
        .annotate(n=Count("pk"))
        .values("n")
    )
    last = mine.order_by("-created_at").values("created_at")[:1]
    ranked = PlayerRating.objects.filter(**{f"{played}__gte": LEADERBOARD_MIN_MATCHES})
    ranked = ranked.exclude(user__username__startswith=DELETED_USERNAME.format(""))  # left
    ranked = ranked.exclude(user__in=marked_players())  # marked for fair play
    bot_users = PlayerSettings.objects.filter(bot=True).values("user")
    ranked = ranked.filter(user__in=bot_users) if bots else ranked.exclude(user__in=bot_users)
    rows = (
        ranked.select_related("user__settings")
        .annotate(won=Coalesce(Subquery(wins), 0), last_played=Subquery(last))
        .order_by(f"-{value}", "user__username")[:limit]
    )
    for row in rows:
        row.lost = row.on(ladder)[1] - row.won
        row.ladder_display = row.display_on(ladder)
    return list(rows)


def rating_history(*, user, ladder: str = Ladder.LIVE) -> list[int]:
    """The user's rating on ``ladder`` after each rated match, oldest first, starting from the
    initial one."""
    return [value for value, _when in rating_points(user=user, ladder=ladder)]


def rating_points(*, user, ladder: str = Ladder.LIVE) -> list[tuple[int, datetime]]:
    """``rating_history`` with when each rating was reached (the initial one: at the first
    rated match, which it was the rating before)."""
    changes = RatingChange.objects.filter(player=user, ladder=ladder).order_by("created_at", "pk")
    rows = list(changes.values_list("before", "after", "created_at"))
    if not rows:
        return []
    return [(rows[0][0], rows[0][2]), *((after, when) for _before, after, when in rows)]


def table_look(*, user) -> dict:
    """The player's theme and whether they play with the four-colour deck."""
    found = PlayerSettings.objects.filter(user=user).values("theme", "four_colour").first()
    return found or {"theme": "auto", "four_colour": False}


def turn_mail_wanted(*, user) -> bool:
    """Whether the player wants a mail on their turn in a correspondence match (yes unless
    they said no)."""
    return not PlayerSettings.objects.filter(user=user, turn_mail=False).exists()


def sound_on(*, user) -> bool:
    """The player's choice of a sound on their turn (off unless they turned it on)."""
    return PlayerSettings.objects.filter(user=user, sound=True).exists()


def chat_sound_on(*, user) -> bool:
    """The player's choice of a sound when a line of chat arrives."""
    return PlayerSettings.objects.filter(user=user, chat_sound=True).exists()


def table_pace(*, user) -> tuple[str, bool]:
    """The player's table pace (a ``TablePace`` value) and whether their page plays a forced
    card for them: quick, and no, unless they chose otherwise."""
    row = PlayerSettings.objects.filter(user=user).values_list("table_pace", "forced_card")
    return row.first() or (TablePace.QUICK, False)


def table_pace_slowest(*, user_ids) -> str:
    """The slower pace of the players ``user_ids`` (a computer and a player who never chose
    are quick): a hand's end waits for the slower of the two tables."""
    relaxed = PlayerSettings.objects.filter(user_id__in=user_ids, table_pace=TablePace.RELAXED)
    return TablePace.RELAXED if relaxed.exists() else TablePace.QUICK


def bots_may_challenge(user) -> bool:
    return PlayerSettings.objects.filter(user=user, bot_challenges=True).exists()


def bot_ids(*, user_ids) -> set[int]:
    """Which of these users are bot accounts, in one query."""
    rows = PlayerSettings.objects.filter(user_id__in=set(user_ids), bot=True)
    return set(rows.values_list("user_id", flat=True))


def suspended_account(*, user_id) -> object | None:
    """The account ``user_id``, if a moderator suspended it and it is suspended still."""
    found = get_user_model().objects.filter(pk=user_id, is_active=False).first()
    suspensions = ModerationAction.objects.filter(kind=ModerationAction.Kind.SUSPEND)
    return found if found and suspensions.filter(player=found).exists() else None


def suspension_reason(*, user) -> str:
    """The reason the moderator gave when they last suspended ``user`` ("" if none was kept)."""
    last = ModerationAction.objects.filter(player=user, kind=ModerationAction.Kind.SUSPEND)
    return last.order_by("-created_at", "-pk").values_list("reason", flat=True).first() or ""
