"""Chat in tests: players who turned free chat on, and a line refused with its code."""

from __future__ import annotations

import pytest

from games import services


def free_chat(*users) -> None:
    for user in users:
        services.chat_settings_set(user=user, free_chat=True, chat_sound=False)


def chat_refused(say, code: str, **kwargs) -> services.GameError:
    """``say(**kwargs)`` (``services.chat_say``, ``chat_say_arena``) refused with ``code``."""
    with pytest.raises(services.GameError) as caught:
        say(**kwargs)
    assert caught.value.code == code, caught.value.code
    return caught.value
