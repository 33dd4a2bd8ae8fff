"""Players' suggestions for the site's words: their own waiting ones, and who is thanked."""

from __future__ import annotations

from django.db.models import Count

from ...models import TranslationSuggestion


def translation_suggestions_open(*, user, language: str) -> set[tuple[str, str]]:
    """The (context, message) pairs this player has a suggestion waiting for, in ``language``."""
    rows = TranslationSuggestion.objects.filter(
        author=user, language=language, status=TranslationSuggestion.Status.OPEN
    ).values_list("msgctxt", "msgid")
    return set(rows)


def translation_credits() -> list[dict]:
    """Each player who asked to be named, with how many of their suggestions were taken, by
    language: most first."""
    return list(
        TranslationSuggestion.objects.filter(
            status=TranslationSuggestion.Status.ACCEPTED, credit=True
        )
        .values("language", "author__username")
        .annotate(taken=Count("pk"))
        .order_by("language", "-taken", "author__username")
    )
