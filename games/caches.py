"""The process's caches, registered in one place: each module that keeps one registers how to
empty it, and ``clear_all`` empties every one (tests between cases; a catalogue or template
that changes under the development server).

What is registered: the board's words, pieces and card faces, and the move log's lines
(``presentation.jinja``, ``presentation.sentences``); the matches' addresses
(``presentation.board``); the sessions already verified (``realtime.sessions``); the compiled
statements (``db.statements``). The rooms (``realtime.room``) are no cache: they are kept
current, and dropped with their last subscriber.
"""

from __future__ import annotations

from collections.abc import Callable

_clears: dict[str, Callable[[], None]] = {}


def register(name: str, clear: Callable[[], None]) -> None:
    """``clear()`` empties the cache called ``name``."""
    _clears[name] = clear


def clear_all() -> None:
    for clear in list(_clears.values()):
        clear()


def registered() -> list[str]:
    return sorted(_clears)
