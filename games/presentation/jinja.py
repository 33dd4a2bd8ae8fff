"""The board's template engine: Jinja2, through Django's own backend (settings.TEMPLATES).

The board is rendered at every move for each kind of viewer; Jinja2 compiles it to Python and
renders it in about half of Django's template time. Every other page stays a Django template.

The board keeps Django's words and ways: its strings are Django's gettext (``_("...")`` and
``{% trans %}`` blocks give the same message ids as ``{% translate %}`` and
``{% blocktranslate %}``, and ``manage.py makemessages`` reads them), undefined names render as
nothing, and the rarer pieces it shows (a clock, a hint, a hand's summary) are the site's Django
partials, included with the board's context.
"""

from __future__ import annotations

from functools import cache, lru_cache

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest
from django.template import engines
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.autoreload import file_changed
from django.utils.safestring import SafeString, mark_safe
from jinja2 import ChainableUndefined, Environment, pass_context

from ..templatetags.cards import card, forget_faces

BOARD = "board.jinja"


def environment(**options) -> Environment:
    """The Jinja2 environment of settings.TEMPLATES: Django's gettext, the card faces, URLs and
    Django partials."""
    options.update(extensions=["jinja2.ext.i18n"], undefined=ChainableUndefined)
    env = Environment(**options)  # noqa: S701 - Django's backend turns autoescape on
    env.install_gettext_translations(translation, newstyle=False)
    env.globals.update(card=card, url=_url, partial=_partial)
    return env


def render_board(context: dict, request: HttpRequest | None = None) -> SafeString:
    """The board partial (``#board``) for this context (``board.board_context``); with the
    ``request`` of a page or an htmx call, its forms carry the CSRF token. Its words are in
    the active language."""
    words = _words(translation.get_language())
    template = engines["jinja2"].get_template(BOARD)
    return mark_safe(template.render({**context, **words}, request))  # noqa: S308 - Jinja2 escaped it


@cache
def _words(language: str | None) -> dict:
    """The board's ``gettext`` and ``ngettext`` for one language, each message translated once
    and remembered until a catalogue changes (``_catalogues_changed``), not looked up behind
    the active language's context variable at every word. The i18n extension calls the ones
    in the context before its own."""

    @lru_cache(maxsize=1024)
    def gettext(message: str) -> str:
        with translation.override(language):
            return translation.gettext(message)

    @lru_cache(maxsize=1024)
    def ngettext(singular: str, plural: str, number: int) -> str:
        with translation.override(language):
            return translation.ngettext(singular, plural, number)

    return {"gettext": gettext, "ngettext": ngettext}


def _url(name: str, *args) -> str:
    return reverse(name, args=args)


@pass_context
def _partial(context, template_name: str, **extra) -> SafeString:
    """A Django partial rendered with the board's context, and ``extra`` (what ``{% include
    ... with %}`` would add)."""
    request = context.get("request")
    return mark_safe(  # noqa: S308 - a Django template's output, escaped by it
        render_to_string(template_name, {**context.get_all(), **extra}, request=request)
    )


@receiver(file_changed)
def _catalogues_changed(sender, file_path, **kwargs) -> None:
    """A compiled catalogue changed under the development server (Django reloads its
    translations without a restart): the remembered words and card faces go too."""
    if file_path.suffix == ".mo":
        _forget_words()


@receiver(setting_changed)
def _languages_changed(setting: str, **kwargs) -> None:
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"}:
        _forget_words()


def _forget_words() -> None:
    _words.cache_clear()
    forget_faces()
