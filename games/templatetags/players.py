"""``{% piece "bot_badge" user|is_bot %}`` (the ``pieces`` library): the BOT badge beside a bot
account's name, wherever names show; ``{{ username|player_name }}``: a player as a sentence
names them (the computer in words); ``{{ match|time_left }}``: the time the player to act
has left, in words."""

from django import template
from django.utils import timezone

from ..models import is_bot as _is_bot
from ..models import is_deleted as _is_deleted
from ..presentation.ending import HOUR, days_and_hours, minutes
from ..presentation.sentences import player_name as _player_name

register = template.Library()


@register.filter
def is_bot(user) -> bool:
    return _is_bot(user)


@register.filter
def player_name(username: str) -> str:
    return _player_name(username)


@register.filter
def is_deleted(user) -> bool:
    """A deleted account's: named in words, linked to no profile."""
    return _is_deleted(user)


@register.filter
def time_left(match) -> str:
    """The time left to the player to act (a clock's "1:15", or "2 days 5 hours"); "" if
    their turn has no clock."""
    if match.deadline is None:
        return ""
    return clock_text(timeuntil_seconds(match.deadline))


@register.filter
def timeuntil_seconds(moment) -> int:
    """The seconds from now to ``moment`` (0 once it has passed)."""
    return max(0, int((moment - timezone.now()).total_seconds()))


@register.filter
def clock_text(seconds: int) -> str:
    """``seconds`` as a clock shows them ("12:05"), or in days and hours past an hour."""
    return minutes(seconds) if seconds < HOUR else days_and_hours(seconds)


@register.filter
def hours(seconds: int) -> int:
    """Whole hours in ``seconds`` (static/js/clock.js counts down only within the last)."""
    return seconds // HOUR
