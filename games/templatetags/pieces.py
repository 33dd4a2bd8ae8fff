"""``{% piece "name" argument ... %}``: one of the board's pieces on a Django page, the macro
``name`` of ``templates/jinja2/pieces.jinja`` in the active language (its one source:
games/presentation/jinja.py says why). ``{% piece "bot_badge" user|is_bot %}``,
``{% piece "match_options" m %}``, ``{% piece "invite" url path %}``,
``{% piece "hand_summary" s %}``.

The macro escapes what it is given, as a Django template would (Django's safe strings stay as
they are); Django's template leaves the macro's markup as it is."""

from django import template
from django.utils.safestring import SafeString

from ..presentation.jinja import pieces

register = template.Library()


@register.simple_tag
def piece(name: str, *args, **kwargs) -> SafeString:
    return SafeString(getattr(pieces(), name)(*args, **kwargs))
