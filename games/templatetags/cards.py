"""``{% card some_card %}``: a card's face, the board's (``presentation.jinja.card``: the macro
``face`` of ``templates/jinja2/pieces.jinja``, each face rendered once per process).

``extra_class``: one more class on the card; ``decorative``: hidden from screen readers (a
button around it says what it is); ``label``: the words read out instead of its name."""

from django import template

from ..presentation.jinja import card

register = template.Library()
register.simple_tag(card, name="card")
