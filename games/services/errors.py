"""What the services refuse: a stable code and the facts behind it. The words and the HTTP
status are the edges' business (``games.presentation.refusals``)."""

from __future__ import annotations


class GameError(Exception):
    """A request the rules or the match refuse: a stable ``code`` and the facts (``params``)
    the edges need to say why (``games.presentation.refusals`` words it, and picks the HTTP
    status)."""

    def __init__(self, code: str, **params):
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return f"{self.code} {self.params}" if self.params else self.code


class NotFound(GameError):
    """No such match (or whatever the request named)."""


class NotAllowed(GameError):
    """Not this user's to do."""


class Conflict(GameError):
    """The match moved on (stale version) or is over."""


class LimitReached(GameError):
    """A cap on what one player may have at once (open matches, computer matches...)."""


class TooOften(GameError):
    """A rate: too many of these in the last while (or too many at once, for sockets)."""
