"""``{% card some_card %}``: a card's face, as ``partials/card.html`` draws it.

A board shows up to a dozen cards and is rendered at every move for each kind of viewer, so
each distinct face (card, options, words, language) is rendered from the partial once per
process and reused: the same markup, without a template include per card."""

from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from ..presentation.cards import Card

register = template.Library()


@register.simple_tag
def card(card, extra_class: str = "", decorative: bool = False, label: str = "") -> SafeString:
    """``extra_class``: one more class on the card; ``decorative``: hidden from screen readers
    (a button around it says what it is); ``label``: the words read out instead of its name."""
    # The words as markup, escaped once here whichever engine gave them (Jinja2's safe text is
    # not Django's): the face's template leaves them as they are.
    label = conditional_escape(label)
    return _face(card.code, extra_class, bool(decorative), label, get_language())


def forget_faces() -> None:
    """Every face rendered so far, forgotten (their words changed)."""
    _face.cache_clear()


@lru_cache(maxsize=4096)
def _face(code: str, extra_class: str, decorative: bool, label: str, language: str) -> SafeString:
    context = {
        "card": Card(code), "extra_class": extra_class, "decorative": decorative, "label": label
    }  # fmt: skip
    return mark_safe(render_to_string("partials/card.html", context))  # noqa: S308 - a template's
