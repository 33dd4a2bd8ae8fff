"""A match's record once it is over (docs/EXPORT.md): JSON, or the text form with
``?format=text`` or ``Accept: text/plain``."""

from __future__ import annotations

from typing import Literal

from django.http import HttpResponse
from django.utils.cache import patch_vary_headers
from ninja import Field, Router, Schema, Status

from ...db import selectors
from ...models import EndReason
from ...presentation import export
from ..schemas import refusals_of
from .common import READ, Id, match_or_refused

router = Router()

# An example of the text form, for the schema's page.
TEXT_EXAMPLE = """[Format "euchre-record 1"]
[Match "42"]
[Seat0 "alice"]
[Seat1 "bob"]
...
[Winner "0"]
[Score "10-7"]

1. 1:pass 0:order_up 1:take_up 1:discard:9C 0:play:JH 1:play:TH ... {maker 0 made, tricks \
3-2, points 1-0, score 1-0}
"""


TEXT_CONTENT = {"schema": {"type": "string"}, "example": TEXT_EXAMPLE}


class RecordPlayer(Schema):
    seat: Literal[0, 1]
    id: int | None = Field(description="null: nobody took the seat (an open match called off)")
    username: str | None
    bot: bool


class RecordRules(Schema):
    deck: Literal[24, 25, 32]
    target: int
    stick_the_dealer: bool
    dealer_must_take_up: bool


class RecordResult(Schema):
    status: Literal["finished", "aborted", "voided"]
    end_reason: Literal[tuple(EndReason.values)] | None  # type: ignore[valid-type]
    winner: Literal[0, 1] | None = Field(description="the winner's seat; null: nobody won")
    scores: list[int] = Field(description="seat 0's, then seat 1's, as the match ended")


class RecordAction(Schema):
    seq: int = Field(description="1, 2, 3... in the order played")
    seat: Literal[0, 1]
    action: str = Field(examples=["pass", "order_up", "name:H", "discard:9C", "play:JH"])
    version: int | None = Field(description="the match's version this move made")


class RecordTrick(Schema):
    leader: Literal[0, 1]
    plays: list[tuple[int, str, list[str]]] = Field(
        description="[seat, card, the cards that seat might legally have played]"
    )
    winner: Literal[0, 1]


class RecordHand(Schema):
    """A hand that was played out (or passed out), as a self-play transcript's line."""

    match: int
    hand: int = Field(description="0 for the first deal")
    rules: RecordRules
    dealer: Literal[0, 1]
    hands: list[list[str]] = Field(description="the cards dealt to seat 0 and to seat 1")
    upcard: str
    stock: list[str]
    bidding: list[tuple[int, str]]
    discard: str | None
    trump: Literal["C", "D", "H", "S"] | None
    maker: Literal[0, 1] | None
    tricks: list[RecordTrick]
    points: list[int]
    score: list[int]
    winner: Literal[0, 1] | None = Field(description="set on the hand that reached the target")


class Record(Schema):
    format: Literal["euchre-record"]
    format_version: int
    match_id: int
    players: list[RecordPlayer]
    rules: RecordRules
    rated: bool
    move_seconds: int | None = Field(description="the move clock; null: none")
    seed: str = Field(description="the deals' seed, in decimal")
    commitment: str = Field(description="SHA-256 of the seed, shown from the first deal on")
    started_at: str | None
    ended_at: str | None
    result: RecordResult
    actions: list[RecordAction]
    hands: list[RecordHand]


class RecordRefused(Schema):
    code: str
    detail: str
    errors: list[dict]


@router.get(
    "/matches/{int:match_id}/export",
    auth=READ,
    tags=["matches"],
    response={200: Record, 403: RecordRefused, 404: RecordRefused, 409: RecordRefused},
    openapi_extra={
        "responses": {200: {"content": {"text/plain": TEXT_CONTENT}}, **refusals_of(404, 409)}
    },
)
def match_export(
    request, response: HttpResponse, match_id: Id, format: Literal["json", "text"] | None = None
):
    """The record of a match that is over: players, rules, seed, commitment, result and every
    action (docs/EXPORT.md). JSON, or the text form with ``?format=text`` or ``Accept:
    text/plain``. A match still open or in play is refused (409 ``not_over``): the seed would
    give its deals away."""
    match = match_or_refused(request, match_id)
    if not match.is_over:
        return Status(409, {"code": "not_over", "detail": export.not_over_words(), "errors": []})
    moves = selectors.match_move_rows(match=match)
    if format is None:
        offered = request.get_preferred_type(["application/json", "text/plain"])
        format = "text" if offered == "text/plain" else "json"
    if format == "text":
        response = HttpResponse(export.match_record_text(match, moves), export.TEXT_TYPE)
        patch_vary_headers(response, ["Accept"])
        return response
    patch_vary_headers(response, ["Accept"])
    return export.match_record(match, moves)
