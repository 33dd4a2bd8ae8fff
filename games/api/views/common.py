"""What the endpoints share: the bearer token and its scopes, ids, the request bodies, the
forms' refusals, and a match as the caller may see it.
"""

from __future__ import annotations

from typing import Annotated

from django import forms
from django.http import HttpRequest
from ninja import Field, Path, Schema
from ninja.security import HttpBearer

from ... import services
from ...db import selectors
from ...models import Match
from ...public import shapes
from ...web.forms import ComputerMatchForm, MatchCreateForm
from ..auth import Unauthorized, authenticate, stream_admit, token_from_header
from ..errors import form_errors


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


def offered(form: type[forms.Form], name: str, default=...):
    """A field the site's ``form`` judges, with the values it takes published as the schema's
    enum (``null`` for the form's empty choice): the form, which refuses any other in the
    player's words, stays the judge; the schema tells programs (and schemathesis) what it
    takes."""
    values = [None if value == "" else value for value, _ in form.base_fields[name].choices]
    return Field(default, json_schema_extra={"enum": values})


class MoveIn(Schema):
    # The bounds MoveForm reads a move within (else 400 ``unreadable``), published.
    action: str = Field(json_schema_extra={"minLength": 1, "maxLength": 16})
    version: int = Field(json_schema_extra={"minimum": 0, "maximum": 2**31})


class MatchIn(Schema):
    deck: int = offered(MatchCreateForm, "deck", 24)
    target: int = offered(MatchCreateForm, "target", 10)
    stick_the_dealer: bool = False
    dealer_must_take_up: bool = False
    rated: bool = True
    spectators_allowed: bool = True
    move_seconds: int | None = offered(
        MatchCreateForm, "move_seconds", services.DEFAULT_MOVE_SECONDS
    )
    days_per_move: int | None = offered(MatchCreateForm, "days_per_move", None)


class ComputerIn(Schema):
    strength: str = offered(ComputerMatchForm, "strength", "medium")
    deck: int = offered(ComputerMatchForm, "deck", 24)
    target: int = offered(ComputerMatchForm, "target", 10)
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
        raise FormRefused(form_errors(form.errors))
    return form.cleaned_data


class FormRefused(Exception):
    def __init__(self, errors: list):
        super().__init__("form")
        self.errors = errors


def match_or_refused(request, match_id: Id) -> Match:
    """The match the caller may see; refused (404, 403) as ``selectors.match_for_viewer``."""
    return selectors.match_for_viewer(match_id=match_id, user=request.user)


answer = shapes.answer  # a match a service or a selector gave, and the caller's view of it
