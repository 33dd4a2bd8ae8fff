"""What the services refuse, as values: a stable code and the facts behind it, and a rate
limit's wait. The words and the HTTP status are the edges' business
(``games.presentation.refusals``), which can import these without importing the services."""

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


class Throttled(Exception):
    """Over a limit: ``retry_after`` whole seconds until the window ends; ``code`` says which
    limit (``too_many``, or ``moving_fast`` for a player's moves), for the edges to word."""

    def __init__(self, retry_after: int, code: str = "too_many"):
        super().__init__(code, retry_after)
        self.retry_after = retry_after
        self.code = code
