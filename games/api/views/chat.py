"""A match's chat and an arena's from a program: say a quick message or a line. The lines come
on the match's streams, or the arena's (``chat`` events, in the stream's language;
``chatRemoved`` when a moderator removes one), as they reach the match page or the arena's."""

from __future__ import annotations

from typing import Literal

from ninja import Field, Router, Schema
from pydantic import field_validator

from ... import services
from ...db import selectors
from ...models import CHAT_LENGTH
from ...services.chat import PHRASES
from ..feeds import chat_event
from ..schemas import ArenaChatEvent, ChatEvent, answers
from .common import PLAY, Id

router = Router()


class ChatLineIn(Schema):
    """Exactly one of ``phrase`` and ``text``."""

    phrase: Literal[PHRASES] = Field(  # type: ignore[valid-type]
        None, description="a quick message's code, read by each reader in their language"
    )
    text: str = Field(
        None,
        description="free chat (plain text; the caller must have turned free chat on; a bot "
        "account writes it only at a match, to an opponent who reads free chat)",
        json_schema_extra={"maxLength": CHAT_LENGTH, "pattern": r"^[^\x00]*[^\x00\s][^\x00]*$"},
    )

    @field_validator("text")
    @classmethod
    def _no_nul(cls, text: str | None) -> str | None:
        # The database keeps no NUL character (a site's form refuses it too): a 400, not a 500.
        if text and "\x00" in text:
            raise ValueError("free chat holds no NUL character")
        return text

    model_config = {
        "json_schema_extra": {"oneOf": [{"required": ["phrase"]}, {"required": ["text"]}]}
    }


class ChatIn(ChatLineIn):
    """Exactly one of ``phrase`` and ``text``, and the room."""

    room: Literal["players", "spectators"] = Field(  # type: ignore[valid-type]
        None, description="default: the players' if the caller plays, else the spectators'"
    )


@router.post(
    "/matches/{int:match_id}/chat",
    auth=PLAY,
    tags=["matches"],
    openapi_extra=answers(ChatEvent, 400, 403, 404, 409),
)
def chat_say(request, match_id: Id, payload: ChatIn):
    """Say a quick message (``{"phrase": "good_game"}``) or a line of free chat (``{"text":
    "..."}``) at the match: the line as the match's streams send it. Limited in rate (429),
    repetition (409 ``chat_repeated``) and length (400 ``chat_too_long``)."""
    line = services.chat_say(
        user=request.user, match_id=match_id, phrase=payload.phrase or "",
        text=payload.text or "", room=payload.room,
    )  # fmt: skip
    return chat_event(line)


@router.post(
    "/arenas/{int:arena_id}/chat",
    auth=PLAY,
    tags=["arenas"],
    openapi_extra=answers(ArenaChatEvent, 400, 403, 404, 409),
)
def arena_chat_say(request, arena_id: Id, payload: ChatLineIn):
    """Say a quick message or a line of free chat in the arena's chat (its players and the
    moderators say them; a bot account, quick messages only): the line as the arena's streams
    send it. Limited as a match's chat is (429, 409 ``chat_repeated``, 400 ``chat_too_long``)."""
    if selectors.arena_by_id(arena_id) is None:
        raise services.NotFound("no_such_arena")
    line = services.chat_say_arena(
        user=request.user, arena_id=arena_id, phrase=payload.phrase or "", text=payload.text or ""
    )
    return chat_event(line)
