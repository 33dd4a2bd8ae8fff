"""A match's chat from a program: say a quick message or a line. The lines come on the match's
streams (``chat`` events, in the stream's language; ``chatRemoved`` when a moderator removes
one), as they reach the match page."""

from __future__ import annotations

from typing import Literal

from ninja import Field, Router, Schema

from ... import services
from ...models import CHAT_LENGTH
from ...services.chat import PHRASES
from ..feeds import chat_event
from ..schemas import ChatEvent, answers
from .common import PLAY, Id

router = Router()


class ChatIn(Schema):
    """Exactly one of ``phrase`` and ``text``."""

    phrase: Literal[PHRASES] = Field(  # type: ignore[valid-type]
        None, description="a quick message's code, read by each reader in their language"
    )
    text: str = Field(
        None,
        description="free chat (plain text; the caller must have turned free chat on, and a "
        "bot account may write only to an opponent who reads free chat)",
        json_schema_extra={"maxLength": CHAT_LENGTH, "pattern": r"\S"},
    )
    room: Literal["players", "spectators"] = Field(  # type: ignore[valid-type]
        None, description="default: the players' if the caller plays, else the spectators'"
    )

    model_config = {
        "json_schema_extra": {"oneOf": [{"required": ["phrase"]}, {"required": ["text"]}]}
    }


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
    return chat_event(line, match_id)
