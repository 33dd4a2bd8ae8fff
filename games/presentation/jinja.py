"""The board's template engine: Jinja2, through Django's own backend (settings.TEMPLATES).

The board is rendered at every move for each kind of viewer; Jinja2 compiles it to Python and
renders it in about half of Django's template time. Every other page stays a Django template.

One engine for the board's whole subtree: ``templates/jinja2/board.jinja`` and the pieces it
shows (card faces, the clock, the hint, a hand's summary, the BOT badge, a match's options, the
invite, the analysis link) as Jinja2 macros in ``templates/jinja2/pieces.jinja``. Several of
those pieces are on Django pages too (the lobby, profiles, the replay...): the macro is their
one source, and a Django page calls it through ``{% piece "name" ... %}``
(games/templatetags/pieces.py), ``{% card %}`` for a face. The other way round (Django
partials under the board, through a bridge) cost a Django render, with the whole board's
context copied, per piece; and a Django board with a fragment cache per kind of viewer would
still pay Django's rendering for what changes at every move. A macro's output is Jinja2's
markup, which Django's templates leave as it is (escaped once, as a Django value is).

The board keeps Django's words and ways: its strings are Django's gettext (``_("...")`` and
``{% trans %}`` blocks give the same message ids as ``{% translate %}`` and
``{% blocktranslate %}``, and ``manage.py makemessages`` reads them), undefined names render
as nothing.
"""

from __future__ import annotations

from functools import cache, lru_cache, partial

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest
from django.template import engines
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.autoreload import file_changed
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from jinja2 import ChainableUndefined, Environment
from jinja2.environment import TemplateModule

from .. import caches
from .cards import Card

BOARD = "board.jinja"
LEARN_BOARD = "learn_board.jinja"  # the guided hand's table: the same felt as a match's
PUZZLE_BOARD = "puzzle_board.jinja"  # a puzzle's table: the same felt again
PIECES = "pieces.jinja"


class BoardEnvironment(Environment):
    """Jinja2's environment, reading ``a.b`` of a dict as its key first. Jinja2 tries the
    attribute first, and a dict has none of the board context's names: each such read
    raised and caught an AttributeError before it found the key, a hundred times a board.
    A name that is both a key and a method of dict (``items``) would read as the key: the
    templates use none."""

    def getattr(self, obj, attribute: str):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(**options) -> Environment:
    """The Jinja2 environment of settings.TEMPLATES: Django's gettext, the card faces, the
    log's lines, URLs and static files."""
    options.update(extensions=["jinja2.ext.i18n"], undefined=ChainableUndefined)
    env = BoardEnvironment(**options)  # noqa: S701 - Django's backend turns autoescape on
    env.install_gettext_translations(translation, newstyle=False)
    env.globals.update(card=card, hand_log_lines=hand_log_lines, url=_url, static=static)
    return env


def render_board(
    context: dict, request: HttpRequest | None = None, template_name: str = BOARD
) -> SafeString:
    """The board partial (``#board``) for this context (``board.board_context``, or
    ``learn.context`` with ``LEARN_BOARD``); with the ``request`` of a page or an htmx call,
    its forms carry the CSRF token. Its words are in the active language."""
    words = _language(translation.get_language())
    template = engines["jinja2"].get_template(template_name)
    return mark_safe(template.render({**context, **words}, request))  # noqa: S308 - Jinja2 escaped it


def pieces(language: str | None = None) -> TemplateModule:
    """The macros of ``pieces.jinja``, their words in ``language`` (the active one unless
    given): ``pieces().bot_badge(True)``."""
    return _language(language or translation.get_language())["pieces"]


@cache
def _language(language: str | None) -> dict:
    """The board's ``gettext`` and ``ngettext`` for one language, each message translated once
    and remembered until a catalogue changes (``_catalogues_changed``), not looked up behind
    the active language's context variable at every word; and ``pieces``, the macros with
    these words. The i18n extension calls the ones in the context before its own."""

    @lru_cache(maxsize=1024)
    def gettext(message: str) -> str:
        with translation.override(language):
            return translation.gettext(message)

    @lru_cache(maxsize=1024)
    def ngettext(singular: str, plural: str, number: int) -> str:
        with translation.override(language):
            return translation.ngettext(singular, plural, number)

    # ``_`` too: the i18n extension's own ``_`` only calls the context's ``gettext``; and
    # the card faces, in this language without asking which is active at every card.
    words = {
        "gettext": gettext, "ngettext": ngettext, "_": gettext,
        "card": partial(card, language=language),
    }  # fmt: skip
    module = engines["jinja2"].env.get_template(PIECES).make_module(words)
    return {**words, "pieces": module}


def card(
    card, extra_class: str = "", decorative: bool = False, label: str = "", language: str = ""
) -> SafeString:
    """A card's face (``pieces.jinja``'s ``face``): ``extra_class``, one more class on the card;
    ``decorative``, hidden from screen readers (a button around it says what it is); ``label``,
    the words read out instead of its name; ``language``, that of its words (the active one
    unless given).

    A board shows up to a dozen cards and is rendered at every move for each kind of viewer, so
    each distinct face (card, options, words, language) is rendered once per process and
    reused."""
    # The words as markup, escaped once here whichever engine gave them: the macro leaves
    # them as they are.
    label = conditional_escape(label)
    language = language or translation.get_language()
    return _face(card.code, extra_class, bool(decorative), label, language)


@lru_cache(maxsize=4096)
def _face(code: str, extra_class: str, decorative: bool, label: str, language: str) -> SafeString:
    return SafeString(pieces(language).face(Card(code), extra_class, decorative, label))


def hand_log_lines(log: list[dict]) -> SafeString:
    """The hand's log as the board keeps it for the page (``pieces.jinja``'s ``log_line``, a
    line each: ``sentences.hand_log``). A line stays the same from its move to the hand's
    end, so each is rendered once per process and reused at every later move; its words are
    worded already, so the line's markup is the same in every language."""
    return SafeString(
        "".join(_log_line(line["key"], line["kind"], line["mine"], line["text"]) for line in log)
    )


@lru_cache(maxsize=32_768)  # a hand's lines for every match a busy process serves, both seats
def _log_line(key: str, kind: str, mine: bool, text: str) -> str:
    line = {"key": key, "kind": kind, "mine": mine, "text": text}
    return str(engines["jinja2"].env.get_template(PIECES).module.log_line(line))


def _url(name: str, *args) -> str:
    return reverse(name, args=args)


@receiver(file_changed)
def _catalogues_changed(sender, file_path, **kwargs) -> None:
    """A compiled catalogue or a Jinja2 template changed under the development server (Django
    reloads its translations and templates without a restart): the remembered words, pieces
    and card faces go too."""
    if file_path.suffix in {".mo", ".jinja"}:
        caches.clear_all()


@receiver(setting_changed)
def _languages_changed(setting: str, **kwargs) -> None:
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "TEMPLATES"}:
        _forget_words()


def _forget_words() -> None:
    _language.cache_clear()
    _face.cache_clear()
    _log_line.cache_clear()


caches.register("board words", _forget_words)
