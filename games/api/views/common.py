"""What the endpoints share: the bearer token and its scopes, ids, the request bodies, the
forms' refusals, and a match as the caller may see it.
"""

from __future__ import annotations

from typing import Annotated

from django.http import HttpRequest
from ninja import Path, Schema
from ninja.security import HttpBearer

from ... import services
from ...models import Match
from .. import shapes
from ..auth import Unauthorized, authenticate, stream_admit, token_from_header


class Token(HttpBearer):
    """A personal API token with ``scope`` (read or play)."""

    def __init__(self, scope: str):
        super().__init__()
        self.scope = scope

    def __call__(self, request: HttpRequest):
        # Read as the websocket reads it, one spelling (ninja takes `Bearer  x` for " x"); and
        # without a token, a worded refusal (ninja would answer a bare 401).
        token = token_from_header(request.headers.get("Authorization", ""))
        if token is None:
            raise Unauthorized("unauthorized")
        return self.authenticate(request, token)

    def authenticate(self, request: HttpRequest, token: str):
        row = self.admit(token)
        request.user = row.user
        request.api_token = row
        return row

    def admit(self, token: str):
        return authenticate(token, self.scope)


class StreamToken(Token):
    """A read token opening a stream: refused (429) while its account holds as many
    streams as it may, from memory once the database has said so (``auth.stream_admit``)."""

    def __init__(self):
        super().__init__("read")

    def admit(self, token: str):
        return stream_admit(token)


READ, PLAY, STREAM = Token("read"), Token("play"), StreamToken()


# Ids that always fit the database's 64-bit keys (a longer one is a 404, not a database error).
Id = Annotated[int, Path(ge=1, lt=10**18)]


class MoveIn(Schema):
    action: str
    version: int


class MatchIn(Schema):
    deck: int = 24
    target: int = 10
    stick_the_dealer: bool = False
    dealer_must_take_up: bool = False
    rated: bool = True
    spectators_allowed: bool = True
    move_seconds: int | None = services.DEFAULT_MOVE_SECONDS
    days_per_move: int | None = None


class ComputerIn(Schema):
    strength: str = "medium"
    deck: int = 24
    target: int = 10
    stick_the_dealer: bool = False
    dealer_must_take_up: bool = False


class ChallengeIn(MatchIn):
    username: str


def form_data(payload: Schema) -> dict:
    data = payload.dict()
    if "move_seconds" in data and data["move_seconds"] is None:
        data["move_seconds"] = ""  # the form's "no clock"
    if data.get("days_per_move") is None:
        data.pop("days_per_move", None)  # the form's "live"
    return {k: v for k, v in data.items() if v is not False}  # a form's unticked box


def checked(form) -> dict:
    if not form.is_valid():
        errors = [{"field": f, "messages": [str(m) for m in ms]} for f, ms in form.errors.items()]
        raise FormRefused(errors)
    return form.cleaned_data


class FormRefused(Exception):
    def __init__(self, errors: list):
        super().__init__("form")
        self.errors = errors


def match_or_refused(request, match_id: Id) -> Match:
    match = Match.objects.select_related("player0", "player1", "winner").filter(pk=match_id).first()
    if match is None:
        raise services.NotFound("no_such_match")
    if match.closed_to(request.user):
        raise services.NotAllowed("not_open_to_watch")
    return match


def answer(match: Match, user) -> dict:
    return shapes.match_for(match, user)
