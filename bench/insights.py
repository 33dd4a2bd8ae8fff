"""The insights page of a player with 200 finished matches: the server's time to answer it
(the whole Django path: middleware, session, the view, its seven sums, the template) and the
queries it takes, median and max over ``--requests``, for every match and for a filtered
page.

    DATABASE_URL=postgres://euchre:euchre@127.0.0.1:5432/euchre \\
    .venv/bin/python bench/insights.py [--matches 200] [--requests 20]

The matches are played with random legal moves by the engine and stored as rows (a match and
its moves), then recorded by the service that records a match when it ends
(``services.insights_record``) and given losses as the analysis gives them
(``services.insights_losses``); each opponent (ten, rated within the band) has rows too. It
makes a database of its own (``<name>_bench_insights``), dropped and created afresh.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import fresh_database  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--requests", type=int, default=20, help="requests of each page")
    args = parser.parse_args()
    env = {**os.environ, "DEBUG": "0", "DJANGO_SETTINGS_MODULE": "euchre_site.settings"}
    env.setdefault("SECRET_KEY", "bench-only-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz")
    if not env.get("DATABASE_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL): the benchmark runs production-style")
    env["DATABASE_URL"] = fresh_database(env["DATABASE_URL"], "bench_insights")
    env.pop("REDIS_URL", None)
    os.environ.update(env)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games import services
    from games.engine import Rules, apply, legal_actions, new_match
    from games.models import Match, MatchStatus, Move, PlayerRating

    users = get_user_model().objects
    me = users.create_user("me")
    others = [users.create_user(f"opponent{n}") for n in range(10)]
    for n, user in enumerate([me, *others]):
        PlayerRating.objects.update_or_create(user=user, defaults={"value": 1450 + 10 * n})
    rng = random.Random(57)
    made = time.perf_counter()
    for n in range(args.matches):
        seed = rng.getrandbits(64)
        rules = Rules(deck=rng.choice((24, 24, 32, 25)), target=rng.choice((5, 10, 10)))
        state, actions = new_match(seed, rules), []
        while not state.is_over:
            action = rng.choice(legal_actions(state))
            actions.append((action.seat, str(action)))
            state = apply(state, action)
        opponent = others[n % len(others)]
        ended = timezone.now() - timedelta(days=rng.randrange(400), minutes=n)
        match = Match.objects.create(
            player0=me, player1=opponent, created_by=me, seed=str(seed),
            status=MatchStatus.FINISHED, deck=rules.deck, target=rules.target,
            rated=rng.random() < 0.7, finished_at=ended, move_count=len(actions),
        )  # fmt: skip
        Move.objects.bulk_create(
            Move(match=match, seq=i + 1, seat=seat, player=(me, opponent)[seat], action=text)
            for i, (seat, text) in enumerate(actions)
        )
        services.insights_record(match=match)
        losses = {i: round(rng.expovariate(8), 2) for i in range(len(actions))}
        services.insights_losses(match_id=match.pk, losses=losses)
    print(f"{args.matches} matches made and recorded in {time.perf_counter() - made:.1f} s")

    client = Client()
    client.force_login(me)
    pages = {
        "every match": "/users/me/insights/",
        "last 90 days, rated, 24 cards": "/users/me/insights/?period=90&rated=rated&deck=24",
    }
    print(f"GET the insights page, {args.requests} requests each: server ms (wall), queries")
    print(f"{'page':<34} {'median':>8} {'max':>8} {'queries':>8}")
    for name, url in pages.items():
        times, queries = [], 0
        client.get(url)  # the first: templates compiled, connections opened
        for _ in range(args.requests):
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                answer = client.get(url)
                times.append(1000 * (time.perf_counter() - start))
            assert answer.status_code == 200, answer.status_code
            queries = len(captured)
        print(f"{name:<34} {statistics.median(times):>8.1f} {max(times):>8.1f} {queries:>8}")


if __name__ == "__main__":
    main()
