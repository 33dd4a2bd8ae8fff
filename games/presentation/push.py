"""The words of a push notification (``services.push`` sends it), in the active language: a
name and what happened, never a card, a hand or a seed (the facts carry names and a link
only); and the kinds a player picks in settings."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..models import PushKind
from .devices import device_parts


def notification_words(kind: str, facts: dict) -> dict:
    """``{"title", "body"}`` of a notification of ``kind`` (a ``PushKind`` value)."""
    site = _("Two-hand euchre")
    if kind in (PushKind.TURN, PushKind.LIVE):
        body = _("Your turn against %(player)s") % {"player": facts["opponent"]}
    elif kind == PushKind.CHALLENGE:
        body = _("%(player)s challenges you to a match") % {"player": facts["player"]}
    elif kind == PushKind.REMATCH:
        body = _("%(player)s offers you a rematch") % {"player": facts["player"]}
    elif kind == PushKind.ARENA:
        body = _("The arena %(arena)s has started") % {"arena": facts["arena"]}
    elif kind == PushKind.FOLLOW:
        body = _("%(player)s opened a match: join it") % {"player": facts["player"]}
    else:
        raise ValueError(f"no push kind {kind!r}")
    return {"title": site, "body": body}


def kind_labels() -> list[tuple[str, str]]:
    """Each kind and its label for the settings' choices, in the active language."""
    return [
        (PushKind.TURN, _("My turn in a correspondence match")),
        (PushKind.LIVE, _("My turn in a live match while its tab is hidden")),
        (PushKind.CHALLENGE, _("A challenge to me")),
        (PushKind.REMATCH, _("A rematch offer")),
        (PushKind.ARENA, _("An arena I joined starting")),
        (PushKind.FOLLOW, _("A match opened by a player I follow and asked to hear of")),
    ]


def device_label(user_agent: str) -> str:
    """What a device is called in the list, kept with its subscription: the browser's and the
    system's names (their makers', the same in every language), "" for one unknown."""
    return " · ".join(part for part in device_parts(user_agent) if part)
