"""The world the fuzz plays in, made in a child process with Django set up
(``python -m bench.fuzz _world``): the accounts, the matches (in play, finished, open,
against the computer), challenges, sessions and API tokens, made through the services as
players make them, and every route of Django's resolver; printed as one line of JSON."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from .values import PASSWORD

# ---------------------------------------------------------------------------------------------
# The world: accounts, matches, sessions, tokens, routes (in a child process with Django set up)


def world_main() -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.test import Client
    from django.urls import URLResolver, get_resolver

    from games import services
    from games.engine import legal_actions
    from games.models import MatchStatus

    users = get_user_model().objects
    made = {
        name: users.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("alice", "bob", "carol", "dave", "mod")
    }
    alice, bob, carol, dave, mod = (made[n] for n in ("alice", "bob", "carol", "dave", "mod"))
    mod.is_staff = True
    mod.save(update_fields=["is_staff"])
    moderators = Group.objects.filter(name="Moderators").first()
    if moderators is not None:
        mod.groups.add(moderators)

    def start(a, b, **options):
        return services.match_join(user=b, match_id=services.match_create(user=a, **options).pk)

    def to_the_end(match):
        rng = random.Random(3)
        while match.status == MatchStatus.ACTIVE:
            state = match.state
            match = services.move_apply(
                user=match.players[state.turn],
                match_id=match.pk,
                action=str(rng.choice(legal_actions(state))),
                version=match.version,
            ).match
        return match

    matches = {
        "mine": start(alice, bob, move_seconds=None).pk,  # in play, the http fuzz's
        "ws": start(alice, bob, move_seconds=None).pk,  # in play, the sockets'
        "private": start(bob, carol, move_seconds=None, spectators_allowed=False).pk,
        "public": start(bob, carol, move_seconds=None).pk,
        "finished": to_the_end(start(carol, alice, move_seconds=None)).pk,
        "open": services.match_create(user=carol, move_seconds=None).pk,
        "own-open": services.match_create(user=alice, move_seconds=None).pk,
        "computer": services.match_create_computer(user=alice, strength="easy").pk,
    }
    challenges = {
        "challenge-to-me": services.challenge_create(user=bob, challenged=alice).pk,
        "challenge-mine": services.challenge_create(user=alice, challenged=carol).pk,
    }
    play = [
        services.api_token_create(user=alice, name=f"fuzz {i}", scopes=["read", "play"])[1]
        for i in range(12)
    ]  # rotated: each stays under the per-token limit
    read_only = services.api_token_create(user=alice, name="read only", scopes=["read"])[1]
    decoy, _ = services.api_token_create(user=alice, name="to revoke", scopes=["read"])
    bob_row, bob_token = services.api_token_create(user=bob, name="bob", scopes=["read", "play"])

    def session(user) -> str:
        client = Client()
        client.force_login(user)
        return client.cookies[settings.SESSION_COOKIE_NAME].value

    sessions = {
        "alice": [session(alice)],
        "bob": [session(bob)],
        "carol": [session(carol)],
        "mod": [session(mod) for _ in range(25)],
        "dave": [session(dave) for _ in range(80)],
    }

    routes, seen = [], set()

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern), pattern.name or ""

    for route, name in walk(get_resolver().url_patterns):
        template, params = template_of(route)
        if template in seen:
            continue
        seen.add(template)
        family = (
            "admin"
            if template.startswith("/admin/")
            else "api"
            if template.startswith("/api/")
            else "web"
        )
        routes.append({"template": template, "name": name, "params": params, "family": family})

    static_root = Path(settings.STATIC_ROOT)
    static = sorted(
        "/static/" + str(p.relative_to(static_root))
        for p in static_root.rglob("*")
        if p.is_file() and p.suffix in {".js", ".css", ".svg", ".png", ".gz", ".br"}
    )[::7][:40]
    print(
        json.dumps(
            {
                "users": {n: u.pk for n, u in made.items()},
                "matches": matches,
                "challenges": challenges,
                "tokens": {"play": play, "read": read_only, "bob": bob_token},
                "token_ids": {"decoy": decoy.pk, "bob": bob_row.pk},
                "sessions": sessions,
                "routes": routes,
                "static": static,
            }
        )
    )


def template_of(route: str) -> tuple[str, dict[str, str]]:
    """``matches/<match:match_id>/act`` -> ``/matches/{match_id}/act``, {match_id: match}; the
    admin's regexes: ``^(?P<app_label>auth|games)/$`` -> ``{app_label}``, choice:auth|games."""
    params: dict[str, str] = {}

    def typed(m: re.Match) -> str:
        params[m.group(2)] = m.group(1) or "str"
        return "{" + m.group(2) + "}"

    def grouped(m: re.Match) -> str:
        body = m.group(2)
        params[m.group(1)] = "choice:" + body if re.fullmatch(r"[\w|]+", body) else "any"
        return "{" + m.group(1) + "}"

    template = re.sub(r"<(?:(\w+):)?(\w+)>", typed, route)
    template = re.sub(r"\(\?P<(\w+)>([^)]*)\)", grouped, template)
    return "/" + template.replace("^", "").replace("$", ""), params
