"""The reference clients (clients/python, clients/js) run as programs run them."""

from __future__ import annotations

import subprocess
import sys
import time

from games import services
from games.models import Match
from tests.support.matches import pass_if_allowed, start
from tests.support.servers import ROOT, Server

PYTHON_CLIENT = ROOT / "clients" / "python" / "euchre_bot.py"


def bot(server: Server, token: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(PYTHON_CLIENT), "--url", server.url, *args],
        env={"EUCHRE_TOKEN": token, "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        text=True,
    )


JS_CLIENT = ROOT / "clients" / "js" / "euchre_bot.js"


def rematch_played(program: subprocess.Popen, bot_account, person) -> Match:
    """A match of ``person`` against ``bot_account``, played by ``program`` (a reference client
    running): both begin it (the person through the services), the person resigns and offers
    a rematch. The new match, once the program has accepted the offer and moved in it (the
    person's first move made, if theirs comes first). The program is a process of its own:
    the database is read until it has done each step (or stopped, or taken too long)."""
    first = start(person, bot_account, move_seconds=None)

    def until(done, what: str, seconds: float = 30):
        deadline = time.monotonic() + seconds
        while not (found := done()):
            assert program.poll() is None, f"the program stopped before it {what}"
            assert time.monotonic() < deadline, f"the program never {what}"
            time.sleep(0.1)
        return found

    def persons_turn_played(match: Match) -> bool:
        """Whether both players have acted (then resigning ends the match, not calls it off);
        the person passes on their turn until then."""
        match = Match.objects.select_related("player0", "player1").get(pk=match.pk)
        if match.both_acted:
            return True
        if match.players[match.state.turn] == person:
            pass_if_allowed(match)
        return False

    until(lambda: persons_turn_played(first), "made a first move")
    services.match_resign(user=person, match_id=first.pk)
    services.rematch_offer(user=person, match_id=first.pk)
    new = until(lambda: Match.objects.get(pk=first.pk).next_match, "accepted the rematch")
    until(lambda: persons_turn_played(new), "moved in the rematch")
    return Match.objects.get(pk=new.pk)
