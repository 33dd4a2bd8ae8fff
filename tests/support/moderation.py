"""The moderators' desk in tests: an admin list's action applied with its reason."""

from __future__ import annotations


def run_action(moderator, model: str, action: str, ids, reason="Seen in the logs", **extra):
    """``action`` on the rows ``ids`` of the admin list ``model`` ("games/match"), posted as
    the action's reason page posts it (``extra``: its other fields), followed to the list."""
    return moderator.client.post(
        f"/admin/{model}/",
        {"action": action, "_selected_action": [str(i) for i in ids], "apply": "1",
         "reason": reason, **extra},
        follow=True,
    )  # fmt: skip
