"""The game's terms, translated once: every page says them the same way (a test checks that
each language's catalogue uses its glossary word wherever the English term appears)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

# (the English term as it appears in the site's texts, its translation, what it means)
TERMS = [
    ("right bower", _("right bower"), _("the jack of the trump suit: the highest card")),
    ("left bower", _("left bower"), _("the other jack of the same colour: second highest")),
    ("order it up", _("order it up"), _("make the upcard's suit trump as the non-dealer")),
    ("euchred", _("euchred"), _("the maker took fewer than three tricks")),
    ("march", _("march"), _("all five tricks taken by the maker")),
]
