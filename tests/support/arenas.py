"""Arenas for tests, made the way moderators and players make them: through services."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from games import services
from games.models import Arena


def moderator_made():
    """A moderator (the "Moderators" group must exist: the ``moderators_group`` fixture)."""
    users = get_user_model().objects
    user = users.create_user("mod", password="x", is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return users.get(pk=user.pk)  # permissions read afresh


def online(names: str) -> list:
    """A player for each letter, each with a page open (only those online are paired)."""
    players = [get_user_model().objects.create_user(n, password="x") for n in names]
    for i, user in enumerate(players):
        services.connection_open(user=user, channel_name=f"page-{i}", kind="page")
    return players


def running(moderator, players) -> Arena:
    """An arena started now, these players joined: its first round is due."""
    arena = services.arena_create(
        user=moderator, name="Friday arena", starts_at=timezone.now(), minutes=30
    )
    for user in players:
        services.arena_join(user=user, arena_id=arena.pk)
    assert services.arena_start(arena_id=arena.pk)
    arena.refresh_from_db()
    return arena


def announced(creator, players) -> Arena:
    """An arena announced by ``creator`` (a moderator, or a player with enough rated matches)
    for the hour to come, these players joined: nobody is paired before it starts."""
    arena = services.arena_create(
        user=creator, name="Friday arena", starts_at=timezone.now() + timedelta(hours=1),
        minutes=30,
    )  # fmt: skip
    for user in players:
        services.arena_join(user=user, arena_id=arena.pk)
    return arena
