"""``{% piece "bot_badge" user|is_bot %}`` (the ``pieces`` library): the BOT badge beside a bot
account's name, wherever names show."""

from django import template

from ..models import is_bot as _is_bot

register = template.Library()


@register.filter
def is_bot(user) -> bool:
    return _is_bot(user)
