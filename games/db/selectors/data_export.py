"""Everything the site holds about a player, as the file they may download (its shape:
docs/DATA_EXPORT.md). Their matches as they may see them: the public face the API shows and
their seat's view (``view_for``), the moves with the opponent's discards hidden, and never the
seed (of a match in play it would give away every deal; the file holds none at all)."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from ...models import (
    AccountEvent,
    AccountSession,
    ApiToken,
    ArenaPlayer,
    Block,
    ChatLine,
    DataExport,
    FairPlayAppeal,
    FairPlayMark,
    FairPlayWarning,
    Follow,
    MailConfirmation,
    Match,
    Move,
    PlayerRating,
    PlayerSettings,
    PushSubscription,
    PuzzleAttempt,
    PuzzleRating,
    PuzzleStreak,
    RatingChange,
    Report,
    TranslationSuggestion,
)
from ...public import PLAYERS, shapes

FORMAT = "euchre-data 1"
SETTINGS = ("language", "sound", "theme", "four_colour", "bot", "bot_challenges", "puzzle_names",
            "turn_mail", "turn_mail_each", "arena_mail", "new_login_mail", "api_origins",
            "table_pace", "forced_card", "free_chat", "chat_sound", "insights_public",
            "turn_mail_with_push")  # fmt: skip


def data_export_of(*, user) -> DataExport | None:
    """The player's data file as the account page shows it (without its content), if asked
    for and not yet expired."""
    rows = DataExport.objects.defer("content").filter(user=user)
    return rows.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now())).first()


def data_export_file(*, user) -> DataExport | None:
    """The player's data file, if it is made and still offered."""
    rows = DataExport.objects.filter(user=user, ready_at__isnull=False)
    return rows.filter(expires_at__gt=timezone.now()).first()


def data_of(*, user) -> dict:
    """The player's data as one JSON value (dates as ISO strings once encoded)."""
    return {
        "format": FORMAT,
        "made_at": timezone.now(),
        "account": _account(user),
        "settings": PlayerSettings.objects.filter(user=user).values(*SETTINGS).first() or {},
        "ratings": PlayerRating.objects.filter(user=user)
        .values("value", "rated_matches", "correspondence", "correspondence_matches")
        .first(),
        "rating_changes": list(
            RatingChange.objects.filter(player=user)
            .order_by("created_at", "pk")
            .values("match_id", "ladder", "before", "after", "delta", "refund", "created_at")
        ),
        "matches": _matches(user),
        "puzzles": {
            "rating": PuzzleRating.objects.filter(user=user)
            .values("value", "attempts", "solved")
            .first(),
            "answers": list(
                PuzzleAttempt.objects.filter(user=user)
                .order_by("created_at", "pk")
                .values("puzzle_id", "chosen", "correct", "rated", "before", "after", "created_at")
            ),
            "streak": PuzzleStreak.objects.filter(user=user).values("current", "best").first(),
        },
        "arenas": list(
            ArenaPlayer.objects.filter(user=user)
            .order_by("joined_at")
            .values("arena_id", "arena__name", "score", "wins", "losses", "joined_at")
        ),
        "following": _names(Follow.objects.filter(follower=user), "followed", "notify"),
        "followers": _names(Follow.objects.filter(followed=user), "follower"),
        "blocked": _names(Block.objects.filter(blocker=user), "blocked"),
        "reports_made": [
            {**row, "reported": shapes.shown_name(row.pop("reported__username"))}
            for row in Report.objects.filter(reporter=user)
            .order_by("created_at", "pk")
            .values("reported__username", "match_id", "reason", "details", "status", "created_at")
        ],
        "chat_lines": list(
            ChatLine.objects.filter(author=user)
            .order_by("created_at", "pk")
            .values("match_id", "arena_id", "room", "phrase", "text", "created_at", "removed_at")
        ),
        "api_tokens": list(  # never their digests
            ApiToken.objects.filter(user=user)
            .order_by("created_at", "pk")
            .values("name", "scopes", "created_at", "last_used_at", "revoked_at")
        ),
        "sessions": list(
            AccountSession.objects.filter(user=user)
            .order_by("created_at")
            .values("user_agent", "created_at", "last_seen")
        ),
        "translation_suggestions": list(
            TranslationSuggestion.objects.filter(author=user)
            .order_by("created_at", "pk")
            .values("language", "msgid", "text", "note", "status", "created_at")
        ),
        "account_log": list(
            AccountEvent.objects.filter(user_number=user.pk)
            .order_by("created_at", "pk")
            .values("kind", "detail", "created_at")
        ),
        "notification_devices": list(  # never the push service's address or the keys
            PushSubscription.objects.filter(user=user)
            .order_by("created_at", "pk")
            .values("device", "kinds", "created_at", "last_sent_at")
        ),
        "fair_play": {  # what the player was told: never the signals behind a flag
            "marks": list(
                FairPlayMark.objects.filter(player=user)
                .order_by("created_at", "pk")
                .values("kind", "created_at", "lifted_at")
            ),
            "warnings": list(
                FairPlayWarning.objects.filter(player=user)
                .order_by("created_at", "pk")
                .values("created_at", "read_at")
            ),
            "appeals": list(
                FairPlayAppeal.objects.filter(player=user)
                .order_by("created_at", "pk")
                .values("text", "created_at", "outcome", "answer", "answered_at")
            ),
        },
    }


def _account(user) -> dict:
    waiting = MailConfirmation.objects.filter(user=user, confirmed_at__isnull=True)
    return {
        "id": user.pk,
        "username": user.username,
        "joined": user.date_joined,
        "last_login": user.last_login,
        "email": user.email or None,
        "email_waiting_for_confirmation": list(waiting.values_list("address", flat=True)),
    }


def _names(rows, who: str, *more: str) -> list[dict]:
    return [
        {
            "username": shapes.shown_name(row.pop(f"{who}__username")),
            **row,
        }
        for row in rows.order_by("created_at").values(f"{who}__username", *more, "created_at")
    ]


def _matches(user) -> list[dict]:
    mine = Match.objects.filter(Q(player0=user) | Q(player1=user)).select_related(*PLAYERS)
    shown = []
    for match in mine.order_by("created_at", "pk"):
        seat = 0 if match.player0_id == user.pk else 1
        face = shapes.public(match)
        state = match.state
        public = shapes.match_public(face, state)
        public.pop("seed", None)  # revealed once a match is over: still no one's to keep here
        rows = Move.objects.filter(match=match).order_by("seq")
        shown.append(
            {
                "match": public,
                "seat": seat,
                "view": shapes.match_view(state, seat),
                # The opponent's discards stay hidden, as during the match.
                "moves": [shapes.move(row, seat=seat, over=False) for row in rows],
            }
        )
    return shown
