"""One move, followed through each way it comes in: the page's socket, the page's form post,
the API's POST and websocket, and the computer's turn (the task worker's function, run here).
For each, over ``--moves`` moves, with the opponent's page socket open in this process:

- the snapshot's decodes a move (``Match.state``'s decoder, wrapped; every decode goes there),
- the rooms' reads of a match a move (a move made here should need none),
- the database's statements a move, transactions' commands included (in every thread;
  ``SQL=1`` prints them),
- the modules of ``games`` whose code ran during the move (in every thread), and
- the wall time until the opponent's board shows the move (median; this machine's, in process).

Run it against another commit by running the file from that commit's worktree (it needs only
the site and PostgreSQL): ``DATABASE_URL=postgres://... python bench/pipeline.py``. It makes
and drops its own database (``bench_pipeline``)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
os.environ.setdefault("TEST_DATABASE_NAME", "bench_pipeline")
os.environ.setdefault("SECRET_KEY", "bench-only-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz")

import django  # noqa: E402

django.setup()

from channels.db import database_sync_to_async as db  # noqa: E402
from channels.testing import WebsocketCommunicator  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

GAMES = str(ROOT / "games")


class Watch:
    """Decodes, room reads and the games modules run, while ``on``."""

    def __init__(self) -> None:
        self.on = False
        self.decodes = 0
        self.reads = 0
        self.statements: list[str] = []
        self.modules: set[str] = set()

    def start(self) -> None:
        self.decodes = self.reads = 0
        self.statements = []
        self.modules = set()
        self.on = True

    def profile(self, frame, event, arg):
        if self.on and event == "call":
            name = frame.f_code.co_filename
            if name.startswith(GAMES):
                self.modules.add(name[len(GAMES) - 5 :])


def wrap(watch: Watch) -> None:
    """Count every decode of a snapshot (wherever a module of games took the engine's
    decoder) and every read of a room; watch the code that runs, in every thread."""
    from games.engine import serialize
    from games.realtime import tables

    decode, read = serialize.state_from_json, tables.read_tables

    def counting_decode(snapshot):
        if watch.on:
            watch.decodes += 1
        return decode(snapshot)

    def counting_read(match_ids, presence_ids, moves):
        if watch.on and match_ids:
            watch.reads += 1
        return read(match_ids, presence_ids, moves)

    for name, module in list(sys.modules.items()):
        if name.startswith("games.") and getattr(module, "state_from_json", None) is decode:
            module.state_from_json = counting_decode
    tables.read_tables = counting_read

    from django.db.backends import utils

    execute, executemany = utils.CursorWrapper._execute, utils.CursorWrapper._executemany

    def counting_execute(self, sql, *args):
        if watch.on:
            watch.statements.append(sql)
        return execute(self, sql, *args)

    def counting_executemany(self, sql, *args):
        if watch.on:
            watch.statements.append(sql)
        return executemany(self, sql, *args)

    utils.CursorWrapper._execute = counting_execute
    utils.CursorWrapper._executemany = counting_executemany
    if connection.vendor == "postgresql":  # BEGIN, COMMIT, SAVEPOINT...: round trips too
        from psycopg import Connection

        command = Connection._exec_command

        def counting_command(self, sql, *args, **kwargs):
            if watch.on:
                watch.statements.append(sql.decode() if isinstance(sql, bytes) else str(sql))
            return command(self, sql, *args, **kwargs)

        Connection._exec_command = counting_command
    threading.setprofile(watch.profile)
    sys.setprofile(watch.profile)


def cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def page_socket(application, user, match_id: int) -> WebsocketCommunicator:
    headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
    headers.append((b"cookie", await db(cookie)(user)))
    socket = WebsocketCommunicator(application, f"/ws/matches/{match_id}/", headers=headers)
    assert (await socket.connect())[0]
    return socket


async def board_at(socket, version: int) -> None:
    while f'data-version="{version}"' not in (await socket.receive_from(timeout=10)):
        pass


async def one_way(way: str, application, users, watch: Watch, moves: int) -> dict:
    from games import services
    from games.engine import legal_actions
    from games.models import Match

    alice, bob = users
    figures = {"decodes": [], "reads": [], "statements": [], "modules": set(), "ms": []}
    for _ in range(moves):
        if way == "computer":
            match = await db(services.match_create_computer)(user=alice, strength="easy")
            done = db(services.match_resign)  # the cap on computer matches: one at a time
            if match.state.turn == 0:
                action = str(legal_actions(match.state)[0])
                await db(services.move_apply)(
                    user=alice, match_id=match.pk, action=action, version=match.version
                )
        else:
            created = await db(services.match_create)(user=alice, move_seconds=None)
            match = await db(services.match_join)(user=bob, match_id=created.pk)
        related = Match.objects.select_related("player0", "player1")
        match = await db(related.get)(pk=match.pk)
        mover = match.players[match.state.turn]
        watcher = match.players[match.state.turn ^ 1] if way != "computer" else alice
        page = await page_socket(application, watcher, match.pk)
        await board_at(page, match.version)
        move = {"action": str(legal_actions(match.state)[0]), "version": match.version}
        mine = None
        if way == "page socket":
            mine = await page_socket(application, mover, match.pk)
            await board_at(mine, match.version)
        stream = None
        if way == "API socket":
            from games.services import api_token_create

            token = (await db(api_token_create)(user=mover, name="bench", scopes=["read", "play"]))[
                1
            ]
            stream = WebsocketCommunicator(
                application, f"/api/v1/ws/matches/{match.pk}", headers=[(b"host", b"testserver")],
                subprotocols=["euchre.v1", f"euchre.token.{token}"],
            )  # fmt: skip
            assert (await stream.connect())[0]
            await stream.receive_from(timeout=10)
        api = None
        if way == "API POST":
            from games.services import api_token_create

            token = (await db(api_token_create)(user=mover, name="bench", scopes=["read", "play"]))[
                1
            ]
            api = Client(headers={"Authorization": f"Bearer {token}"})
        client = Client()
        await db(client.force_login)(mover)
        watch.start()
        began = time.perf_counter()
        if way == "page socket":
            await mine.send_to(text_data=json.dumps(move))
        elif way == "page form":
            url = f"/matches/{match.pk}/act"
            await db(client.post)(url, move, headers={"HX-Request": "true"})
        elif way == "API POST":
            url = f"/api/v1/matches/{match.pk}/move"
            await db(api.post)(url, move, content_type="application/json")
        elif way == "API socket":
            await stream.send_to(text_data=json.dumps(move))
        else:
            from games.services.computer import play_turn

            await db(play_turn)(match.pk, version=match.version)
        await board_at(page, match.version + 1)
        figures["ms"].append((time.perf_counter() - began) * 1000)
        await asyncio.sleep(0.05)  # the mover's own answer, whose rendering counts too
        watch.on = False
        figures["decodes"].append(watch.decodes)
        figures["reads"].append(watch.reads)
        figures["statements"].append(watch.statements)
        figures["modules"] |= watch.modules
        for socket in (page, mine, stream):
            if socket is not None:
                await socket.disconnect()
        if way == "computer":
            await done(user=alice, match_id=match.pk)
    return figures


async def run(moves: int) -> None:
    from euchre_site.asgi import application
    from games import admin, services  # noqa: F401  every module that decodes, imported

    watch = Watch()
    wrap(watch)
    users = await db(
        lambda: [
            get_user_model().objects.create_user(name, password=None) for name in ("alice", "bob")
        ]
    )()
    print("a move's decodes, rooms' reads and modules of games run (medians; wall ms until the")
    print("opponent's board shows it, in this process: the test client's and sockets' overhead in)")
    print(f"{'way in':14} {'decodes':>8} {'reads':>6} {'SQL':>4} {'modules':>8} {'ms p50':>7}")
    for way in ("page socket", "page form", "API POST", "API socket", "computer"):
        figures = await one_way(way, application, users, watch, moves)
        print(
            f"{way:14} {statistics.median(figures['decodes']):8.0f} "
            f"{statistics.median(figures['reads']):6.0f} "
            f"{statistics.median(len(s) for s in figures['statements']):4.0f} "
            f"{len(figures['modules']):8d} "
            f"{statistics.median(figures['ms']):7.1f}"
        )
        if os.environ.get("MODULES"):
            print("   ", " ".join(sorted(figures["modules"])))
        if os.environ.get("SQL"):
            print("\n".join(f"    {sql[:150]}" for sql in figures["statements"][-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=5)
    args = parser.parse_args()
    setup_test_environment()
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        asyncio.run(run(args.moves))
    finally:
        dropped(name)


def dropped(name: str) -> None:
    """Drop the bench's database, the sockets' database threads' connections with it."""
    import psycopg
    from django.conf import settings

    db_settings = settings.DATABASES["default"]
    with psycopg.connect(
        dbname="postgres", host=db_settings["HOST"], port=db_settings["PORT"] or None,
        user=db_settings["USER"], password=db_settings["PASSWORD"], autocommit=True,
    ) as admin:  # fmt: skip
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
