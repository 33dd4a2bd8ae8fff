"""Arenas: those running and announced, one with its standings, joining and pausing. An
arena's matches come as any match does: ``matchStart`` on the account's stream (with the
match's ``arena_id``)."""

from __future__ import annotations

from ninja import Router

from ... import services
from ...db import selectors
from ...models import ArenaPlayer
from ..feeds import arena_detail, arena_shape
from ..schemas import ArenaDetail, Arenas, answers
from .common import PLAY, READ, Id

router = Router()


@router.get("/arenas", auth=READ, tags=["arenas"], openapi_extra=answers(Arenas))
def arenas(request):
    """The arenas running and announced, the soonest first."""
    listed = selectors.arenas_listed()
    shown = listed["running"] + listed["upcoming"]
    entries = {
        e.arena_id: e for e in ArenaPlayer.objects.filter(user=request.user, arena__in=shown)
    }
    return {"arenas": [arena_shape(a, entries.get(a.pk)) for a in shown]}


@router.get(
    "/arenas/{int:arena_id}", auth=READ, tags=["arenas"], openapi_extra=answers(ArenaDetail, 404)
)
def arena(request, arena_id: Id):
    """An arena with its standings (score, then performance)."""
    found = selectors.arena_by_id(arena_id)
    if found is None:
        raise services.NotFound("no_such_arena")
    return arena_detail(found, request.user)


@router.post(
    "/arenas/{int:arena_id}/join",
    auth=PLAY,
    tags=["arenas"],
    openapi_extra=answers(ArenaDetail, 403, 404, 409),
)
def arena_join(request, arena_id: Id):
    """Join an arena (again: back from a pause). While it runs, a free player with a stream or
    socket open is paired within seconds: the match comes as a ``matchStart``."""
    services.arena_join(user=request.user, arena_id=arena_id)
    return arena_detail(selectors.arena_by_id(arena_id), request.user)


@router.post(
    "/arenas/{int:arena_id}/pause",
    auth=PLAY,
    tags=["arenas"],
    openapi_extra=answers(ArenaDetail, 404),
)
def arena_pause(request, arena_id: Id):
    """Leave the pairing for now (a match in play goes on); join again to come back."""
    services.arena_pause(user=request.user, arena_id=arena_id)
    return arena_detail(selectors.arena_by_id(arena_id), request.user)
