"""Load: many concurrent matches over real http and websockets, served the production way.

Starts PostgreSQL-backed, Redis-layered web processes as docs/OPERATING.md's production does: two
uvicorn processes behind nginx with the site's own config (``deploy/nginx.conf``: every
socket of a match reaches the same process), or, with ``--front none``, two uvicorn workers
sharing one port (``uvicorn --workers 2``: a match's two sockets land on either). Then it
plays N matches at once from this separate process. Each move is made the way the match page
makes it: over the page's open websocket (``--http``: posted over http, the page's way when
its socket is down), and the opponent's socket must receive the pushed board. Prints moves
per second, move-to-push latency (p50, p95, p99), errors and moves lost (acknowledged but
absent from the database), the CPU per move of the web processes, of nginx and of PostgreSQL
(its processes, when it runs on this machine), how busy the whole machine was in the play
window, and the latency of a bare view (``/healthz``) under the same concurrency, as a
floor. Then a deploy with every page open: the web processes are stopped (SIGTERM) and
started again (nginx stays up), every page reopens its socket as live.js does, and it prints
how long until all are back with their boards, and whether any board is behind the database.

    DATABASE_URL=postgres://euchre:euchre@127.0.0.1:5432/euchre \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
    .venv/bin/python -m bench.load --matches 200 --seconds 30 --think 2.0 [--http]

(``.venv/bin/python bench/load ...`` runs it too.)

With ``--computer hard`` each match is a person against the computer, whose moves are made by
``--task-workers`` worker processes (``manage.py run_worker``): it prints the push latency of
the people's sockets under that load, and the computer's delay beyond its natural one (the time
from the board that leaves the computer to act to the board with its move, less
``COMPUTER_MOVE_DELAY_SECONDS``), and its reply with that delay. ``--beside 200`` plays 200
matches between two people beside them, as the page plays, and prints their pushes apart:
what people feel while the computer thinks for others. No restart phase in that mode.

With ``--api`` the matches are played by programs through the API (``/api/v1/``): each player
has a token; in half the matches they follow their match over the streaming http response and
post their moves (``POST /api/v1/matches/<id>/move``), in the other half over the API's
websocket, moves sent there too. It prints move-to-opponent-event latency. No restart phase.

It makes a database of its own (``<name>_bench``), dropped and created afresh at each run.

The modules: ``servers`` (the bench's database, the web processes, nginx, the task workers,
and their CPU time), ``client`` (the players: one loop that plays a match over any of the
transports above), ``measuring`` (the figures kept during play, quantiles, the machine's and
this process's own lateness, the bare view), ``restart`` (the deploy with every page open)
and ``cli`` (the options, the run, the printed report).
"""

# Kept light: bench/moves.py and bench/boards.py import this for their database alone.
from .servers import fresh_database, in_process_env

__all__ = ["fresh_database", "in_process_env"]
