"""Which language a request or a socket is served in, and the player's saved choice."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http.cookie import parse_cookie
from django.utils import translation

SESSION_LANGUAGE = "language"  # the player's saved language, copied into the session


def supported(code: str | None) -> str | None:
    """``code`` if the site speaks it, else None."""
    codes = {c for c, _ in settings.LANGUAGES}
    return code if code in codes else None


def language_for_scope(scope: dict) -> str:
    """A socket's language, chosen as for a page: the player's saved choice, the cookie, the
    browser's Accept-Language, then the default."""
    session = scope.get("session")
    saved = session.get(SESSION_LANGUAGE) if session is not None else None
    if supported(saved):
        return saved
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
    chosen = parse_cookie(headers.get("cookie", "")).get(settings.LANGUAGE_COOKIE_NAME)
    if supported(chosen):
        return chosen
    accept = headers.get("accept-language", "")
    for code, _ in translation.trans_real.parse_accept_lang_header(accept):
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


@receiver(user_logged_in)
def _remember_language(sender, request, user, **kwargs) -> None:
    from ..models import PlayerSettings

    saved = PlayerSettings.objects.filter(user=user).values_list("language", flat=True).first()
    if supported(saved) and request is not None:
        request.session[SESSION_LANGUAGE] = saved
