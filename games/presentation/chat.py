"""Table talk as a reader sees it: each quick message in the reader's own language (the same
line reads "Good luck" to one player and "ขอให้โชคดี" to the other), free chat as it was typed
(plain text: escaped as any other user text, no link ever made clickable), and the frames that
bring lines to an open page."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from ..models import ChatRoom

# Every quick message's words, by its code (games.services.chat.PHRASES), in that order.
PHRASE_WORDS = {
    "good_luck": _("Good luck!"),
    "have_fun": _("Have fun!"),
    "well_played": _("Well played!"),
    "thanks": _("Thanks!"),
    "good_game": _("Good game!"),
    "nice_trick": _("Nice trick!"),
    "oops": _("Oops!"),
    "sorry": _("Sorry!"),
    "one_more": _("One more?"),
    "have_to_go": _("I have to go."),
}


def line_words(line) -> str:
    """What the line says, in the active language for a quick message."""
    if line.phrase:
        return str(PHRASE_WORDS.get(line.phrase, ""))
    return line.text


def chat_items(lines, viewer) -> list[dict]:
    """The lines as the move log shows them to ``viewer``."""
    return [
        {
            "id": line.pk,
            "author": line.author.username,
            "words": line_words(line),
            "quick": bool(line.phrase),
            "mine": viewer is not None and line.author_id == getattr(viewer, "pk", None),
            "spectators": line.room == ChatRoom.SPECTATORS,
            "moves": line.move_count,
            "chat": True,
        }
        for line in lines
    ]


# The log's lines that are moves (games.engine.view.LogEntry kinds); the others (a deal, a
# trick won, a hand's result) are not counted in a match's ``move_count``.
MOVE_KINDS = frozenset({"bid", "discard", "play"})


def log_with_chat(log: list[dict], chat: list[dict], move_count: int) -> list[dict]:
    """The move log as a page opens, each line of chat in its place among the moves: after
    the move it followed (a line of an earlier hand than the log shows comes first), as the
    page places a line that arrives while it is open. ``move_count``: the match's moves."""
    first = move_count - sum(1 for line in log if line["kind"] in MOVE_KINDS)
    lines = [said for said in chat if said["moves"] < first]
    waiting = [said for said in chat if said["moves"] >= first]
    done = first
    for line in log:
        if line["kind"] in MOVE_KINDS:
            while waiting and waiting[0]["moves"] <= done:
                lines.append(waiting.pop(0))
            done += 1
        lines.append(line)
    return lines + waiting


def chat_frame(lines, viewer) -> str:
    """The socket's frame of new lines: the page puts them in its move log (static/js/chat.js),
    each once."""
    items = chat_items(lines, viewer)
    return render_to_string("partials/chat_news.html", {"chat_lines": items})


def chat_removed_frame(line_id: int) -> str:
    """The socket's frame of a line a moderator removed: gone from the page at once."""
    return render_to_string("partials/chat_news.html", {"removed": line_id})
