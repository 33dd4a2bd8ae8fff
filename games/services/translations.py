"""Players' suggestions for better wording in their language, and the moderators' answers.

An accepted suggestion goes into the language's catalogue (``locale/<code>/LC_MESSAGES``) once
the moderator's answer is committed, and every server process reads the catalogue again within
seconds (``i18n.catalogues.reload_if_changed``). ``manage.py update_catalogues`` writes any
accepted one that is not in the catalogue yet.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ..errors import Conflict, GameError, NotFound, TooOften
from ..i18n import catalogues, wording
from ..models import ModerationAction, TranslationSuggestion
from .moderation import audit_record

log = logging.getLogger(__name__)

SUGGESTIONS_PER_HOUR = 30
LONGEST = 2000


def translation_suggest(
    *, author, language: str, msgid: str, msgctxt: str = "", text: str, note: str = "",
    credit: bool = False,
) -> TranslationSuggestion:  # fmt: skip
    """A player suggests ``text`` as the translation of one message into ``language``."""
    if language == "en" or language not in {code for code, _name in settings.LANGUAGES}:
        raise GameError("bad_language")
    current = catalogues.wording(language, msgctxt, msgid)
    if current is None:
        raise NotFound("no_such_message")
    text = (text or "").strip()
    if not text:
        raise GameError("suggestion_empty")
    if len(text) > LONGEST:
        raise GameError("suggestion_too_long", count=LONGEST)
    _check(msgid, text)
    if text == current:
        raise Conflict("suggestion_same")
    with transaction.atomic():
        mine = TranslationSuggestion.objects.select_for_update().filter(author=author)
        if mine.filter(
            language=language, msgctxt=msgctxt, msgid=msgid,
            status=TranslationSuggestion.Status.OPEN,
        ).exists():  # fmt: skip
            raise Conflict("already_suggested")
        hour_ago = timezone.now() - timedelta(hours=1)
        if mine.filter(created_at__gte=hour_ago).count() >= SUGGESTIONS_PER_HOUR:
            raise TooOften("suggestions_per_hour", count=SUGGESTIONS_PER_HOUR)
        return TranslationSuggestion.objects.create(
            author=author, language=language, msgctxt=msgctxt, msgid=msgid, current=current,
            text=text, note=(note or "").strip()[:1000], credit=credit,
        )  # fmt: skip


def _check(msgid: str, text: str) -> None:
    """Refuses a wording the pages could not show as it is (``i18n.wording.problem``)."""
    found = wording.problem(msgid, text)
    if found is not None:
        code, params = found
        raise GameError(code, **params)


def translation_review(
    *, moderator, suggestion_id: int, accepted: bool, reason: str = ""
) -> TranslationSuggestion:
    """A moderator accepts a suggestion (it goes into the catalogue once this commits) or
    rejects it; either way audited."""
    with transaction.atomic():
        suggestion = TranslationSuggestion.objects.select_for_update().filter(pk=suggestion_id)
        suggestion = suggestion.first()
        if suggestion is None:
            raise NotFound("no_such_suggestion")
        if suggestion.status != TranslationSuggestion.Status.OPEN:
            raise Conflict("suggestion_handled")
        if accepted:  # checked again: made before today's check, or the message changed since
            _check(suggestion.msgid, suggestion.text)
        Status = TranslationSuggestion.Status
        suggestion.status = Status.ACCEPTED if accepted else Status.REJECTED
        suggestion.reviewed_by = moderator
        suggestion.reviewed_at = timezone.now()
        suggestion.save(update_fields=["status", "reviewed_by", "reviewed_at"])
        kind = (
            ModerationAction.Kind.ACCEPT_WORDING
            if accepted
            else ModerationAction.Kind.REJECT_WORDING
        )
        words = f"{suggestion.language} {suggestion.msgid!r}: {suggestion.text!r}"
        audit_record(moderator, kind, (reason or "").strip() or words, player=suggestion.author)
        if accepted:
            transaction.on_commit(translations_apply)
    return suggestion


def translations_apply() -> int:
    """Writes every accepted suggestion that is not in its catalogue yet (the latest accepted
    per message wins), and marks it applied. Returns how many were written."""
    waiting = TranslationSuggestion.objects.filter(
        status=TranslationSuggestion.Status.ACCEPTED, applied_at__isnull=True
    ).order_by("reviewed_at", "pk")
    by_language: dict[str, dict[tuple[str, str], TranslationSuggestion]] = {}
    for suggestion in waiting:
        by_language.setdefault(suggestion.language, {})[suggestion.msgctxt, suggestion.msgid] = (
            suggestion
        )
    count = 0
    for language, latest in by_language.items():
        changes = [(ctxt, msgid, s.text) for (ctxt, msgid), s in latest.items()]
        try:
            written = catalogues.write_translations(language, changes)
        except OSError:  # a catalogue this process cannot write: left for update_catalogues
            log.warning("accepted %s wording not written to its catalogue", language, exc_info=True)
            continue
        ids = [s.pk for s in waiting if s.language == language]
        # A message gone from the catalogue cannot take it: marked too, so it is not tried again.
        TranslationSuggestion.objects.filter(pk__in=ids).update(applied_at=timezone.now())
        count += len(written)
    return count
