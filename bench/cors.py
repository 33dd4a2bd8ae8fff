"""What the API's CORS costs a request (``games.api.cors.ApiCors``): django-cors-headers with
the players' origins through its hook, against the hand-written middleware it replaced, in the
same sitting.

The hand-written one is read from git (``--against``) into a module of its own; nothing of it
stays in the tree. Each middleware wraps an endpoint that answers at once (as a token's
endpoint leaves it: ``request.api_token`` set), so the figure is the middleware's alone; the
players' origins come from the cache, as they do but for the first request after a change.
Rounds alternate the two, each first in every other round. Prints the median over rounds of
µs per request, for a preflight from an origin a player allows and from one nobody does, for
a request from the token's player's page, from another page and from a program (no Origin),
and for a request to a page of the site (not the API's: no CORS). No database is used.

    .venv/bin/python bench/cors.py [--requests 5000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.before import module_at  # noqa: E402

# The last commit whose games/api/cors.py was the hand-written middleware.
BEFORE = "e0f5c57"
MINE, ELSEWHERE = "https://alice.example", "https://elsewhere.example"


def before(rev: str):
    """The hand-written middleware of ``rev``, imported as a sibling of today's."""
    return module_at(rev, "games/api/cors.py")


def requests():
    """(case, request) for each case, made once and sent over and over."""
    from django.test import RequestFactory

    factory = RequestFactory()
    preflight = {"access-control-request-method": "POST", "access-control-request-headers": "a"}
    made = {
        "preflight, allowed": factory.options(
            "/api/v1/matches/1/move", headers={"origin": MINE, **preflight}
        ),
        "preflight, refused": factory.options(
            "/api/v1/matches/1/move", headers={"origin": ELSEWHERE, **preflight}
        ),
        "request, shared": factory.get("/api/v1/account", headers={"origin": MINE}),
        "request, not shared": factory.get("/api/v1/account", headers={"origin": ELSEWHERE}),
        "request, no Origin": factory.get("/api/v1/account"),  # a program, not a page
        "a page, not the API": factory.post("/matches/1/act", headers={"origin": MINE}),
    }
    for request in made.values():
        request.api_token = types.SimpleNamespace(user_id=1)  # as the endpoint leaves it
    return made


def per_request(middleware, request, count: int) -> float:
    started = time.perf_counter()
    for _ in range(count):
        middleware(request)
    return (time.perf_counter() - started) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=5000, help="per case and round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--against", default=BEFORE, help="the commit of the hand-written one")
    args = parser.parse_args()
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret-0123456789-abcdefghijklmnopqrstuvwx")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
    import django

    django.setup()
    from django.core.cache import cache
    from django.http import HttpResponse

    from games.api import cors
    from games.services.players import API_ORIGINS_KEY

    cache.set(API_ORIGINS_KEY, {MINE: frozenset({1})}, None)

    def endpoint(request):
        return HttpResponse(b"{}", content_type="application/json")

    old = before(args.against)
    middlewares = {
        f"before ({args.against})": old.ApiCors(endpoint),
        "django-cors-headers": cors.ApiCors(endpoint),
    }
    made = requests()
    times: dict[tuple[str, str], list[float]] = {}
    for round in range(args.rounds):
        for name, middleware in sorted(middlewares.items(), reverse=round % 2 == 1):
            for case, request in made.items():
                measured = per_request(middleware, request, args.requests)
                times.setdefault((case, name), []).append(measured)
    print(f"µs per request, median of {args.rounds} rounds of {args.requests} (min-max)")
    for (case, name), found in sorted(times.items()):
        print(
            f"  {case:20} {name:20} {statistics.median(found):6.1f}"
            f"  ({min(found):.1f}-{max(found):.1f})"
        )


if __name__ == "__main__":
    main()
