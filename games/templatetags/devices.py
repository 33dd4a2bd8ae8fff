"""``{{ user_agent|device }}`` (the ``devices`` library): a browser's User-Agent in words a
person reads ("Chrome · Android"), for the account page's sessions and the new-device mail."""

from django import template

from ..presentation.devices import device_words

register = template.Library()


@register.filter
def device(user_agent: str) -> str:
    return device_words(user_agent)
