"""The API's contract: every answer, refusal, stream event and websocket frame, typed, as the
OpenAPI schema publishes them (``/api/v1/openapi.json``, components) and the API page shows
them. Documentation only: the endpoints answer with plain dicts and nothing is checked on the
way out (no cost per request, no answer refused for a field); the suite checks every answer
it sees against these shapes, with no field they do not name (``tests/api/contract.py``).

A seat's view is the engine's own ``View`` (``games.engine.view``): the API sends what
``view_for`` gives, so its published shape is that dataclass's, its words given their values.
A client should ignore fields it does not know: the schema grows, it does not change."""

from __future__ import annotations

from typing import Literal

from django.conf import settings
from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema

from ..engine.state import HandOutcome, Phase, UpcardFate
from ..engine.view import View
from ..models import Challenge as ChallengeRow
from ..models import ChatRoom, DeclineReason, EndReason, MatchStatus, PuzzleTheme, RematchState
from ..presentation import refusals
from ..services.chat import PHRASES

SEAT = Literal[0, 1]
STATUS = Literal[tuple(MatchStatus.values)]  # type: ignore[valid-type]
END_REASON = Literal[tuple(EndReason.values)]  # type: ignore[valid-type]
DIRECTION = Literal["in", "out"]


class Shape(BaseModel):
    model_config = ConfigDict(extra="forbid")


def codes() -> list[str]:
    """Every refusal's code: the services' (``presentation.refusals``), the rules', and the
    API's own."""
    api = {"invalid", "unreadable", "not_found", "unauthorized", "too_many", "too_often",
           "moving_fast", "illegal", "bad_rules", "api_origins_too_many", "not_over",
           "origin_not_allowed", "no_messages", "too_many_sockets", "method_not_allowed",
           "server_error", "protocol_missing"}  # fmt: skip
    return sorted(api | set(refusals.service_codes()))


class Error(Shape):
    """A refusal: a stable ``code`` (what a program tests), the ``detail`` in the player's
    words (the request's Accept-Language), and the facts some codes carry."""

    code: str = Field(description="stable, one of the codes listed here")
    reason: str | None = Field(None, description="``illegal`` only: the rule that refuses the move")
    detail: str = Field(description="the player's words, in the request's language")
    retry_after: int | None = Field(None, description="429 only: whole seconds to wait")
    errors: list[FieldError] = Field(
        description="what could not be read, a field at a time (empty for other refusals)"
    )
    state: MatchAndView | None = Field(
        None, description="409 ``stale`` only: the match now, as ``GET matches/{id}/view``"
    )

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "example": {
                "code": "illegal",
                "reason": "not_your_turn",
                "detail": "It is not your turn",
                "errors": [],
            }
        },
    )


class FieldError(Shape):
    field: str = Field(description="the field of the body, query or path (dotted); body: all")
    message: str = Field(description="what is wrong with it, in the player's words")


class Player(Shape):
    id: int
    username: str
    bot: bool = Field(description="a bot account: plays through the API only")


class Rating(Shape):
    value: int
    rated_matches: int
    display: str = Field(description='as the site shows it: "1500?" while provisional')
    history: list[int] = Field(description="the rating after each rated match, oldest first")


class Tally(Shape):
    played: int
    won: int
    lost: int


class Account(Player):
    rating: Rating
    record: Tally
    bot_challenges: bool = Field(description="whether bot accounts may challenge this player")
    scopes: list[Literal["read", "play"]] = Field(description="the token's")


class BotSettings(Player):
    bot_challenges: bool = Field(description="whether bot accounts may challenge this player")


class PublicPlayer(Player):
    rating: Rating
    record: Tally


class InsightMeasure(Shape):
    value: float | None = Field(
        description="null when it rests on too few hands or decisions (``minimum``)"
    )
    count: int = Field(description="the hands (or decisions) it rests on")
    times: int | None = Field(None, description="a rate's: how many times it happened")


class InsightFigure(Shape):
    mine: InsightMeasure
    band: InsightMeasure = Field(description="the same over the players of the rating band")


class InsightFilters(Shape):
    period: Literal["30", "90", "365", "all"]
    rated: Literal["all", "rated", "casual"]
    opponent: Literal["all", "people", "computer"]
    deck: int | None
    target: int | None


class InsightBand(Shape):
    low: int
    high: int
    players: int = Field(description="other players in the band with hands counted")


class InsightShares(Shape):
    made: float | None
    march: float | None
    euchred: float | None


class InsightOutcomes(Shape):
    count: int
    made: int
    march: int
    euchred: int
    shares: InsightShares = Field(description="null below ``minimum`` bids")


class InsightBid(Shape):
    bid: Literal["order_up", "take_up", "name"]
    trumps: Literal["1", "2", "3", "4+"] = Field(
        description="trumps in the bidder's five cards (1: one or none)"
    )
    mine: InsightOutcomes
    band: InsightOutcomes


class InsightBowers(Shape):
    bowers: Literal["0", "1", "2+"] = Field(description="bowers held (the joker counts)")
    mine: InsightOutcomes
    band: InsightOutcomes


class InsightPoints(Shape):
    hands: InsightFigure
    maker: InsightFigure
    defender: InsightFigure
    dealer: InsightFigure
    not_dealer: InsightFigure


class InsightRates(Shape):
    euchred: InsightFigure = Field(description="euchred as maker, of hands as maker")
    euchres: InsightFigure = Field(description="euchres inflicted, of hands defended")
    marches: InsightFigure = Field(description="marches, of hands as maker")


class InsightPeriod(Shape):
    start: str = Field(description="the week's or month's first day (ISO 8601)")
    loss: float | None
    decisions: int


class InsightAccuracy(InsightFigure):
    step: Literal["week", "month"]
    over_time: list[InsightPeriod]


class InsightSecondsByKind(Shape):
    bid: InsightFigure
    discard: InsightFigure
    play: InsightFigure


class InsightSeconds(InsightFigure):
    by_kind: InsightSecondsByKind


class Insights(Shape):
    """A player's figures over their finished matches (``filters``), each beside the same
    figure for the players rated within 100 of them."""

    player: str
    filters: InsightFilters
    minimum: int = Field(description="hands (or decisions) a figure needs to have a value")
    rating: int
    band: InsightBand
    points: InsightPoints = Field(description="points scored less conceded, a hand")
    outcomes: InsightRates
    bids: list[InsightBid]
    bowers: list[InsightBowers]
    accuracy: InsightAccuracy = Field(description="points lost a decision (analysed ones)")
    seconds: InsightSeconds = Field(description="seconds a decision")


class LeaderboardRow(Player):
    rating: int
    display: str
    rated_matches: int
    won: int
    lost: int


class Leaderboard(Shape):
    players: list[LeaderboardRow] = Field(description="best rated first")


class ChallengesFrom(Shape):
    people: bool
    bots: bool


class BotOnline(Player):
    rating: int
    display: str
    rated_matches: int
    challenges_from: ChallengesFrom = Field(description="whom the bot takes challenges from")


class BotsOnline(Shape):
    bots: list[BotOnline] = Field(description="best rated first, at most 200")


class Options(Shape):
    deck: Literal[24, 25, 32] = Field(description="25: with the joker")
    target: int = Field(description="the points that win the match")
    stick_the_dealer: bool
    dealer_must_take_up: bool
    rated: bool
    spectators_allowed: bool
    move_seconds: int | None = Field(description="the move clock; null: none")
    days_per_move: Literal[1, 3, 7] | None = Field(
        description="a correspondence match: days for each action (then no move clock)"
    )


class Rematch(Shape):
    """Where a finished match's rematch stands (``POST matches/{id}/rematch`` and after)."""

    state: Literal[tuple(RematchState.values)] | None  # type: ignore[valid-type]
    seat: SEAT | None = Field(description="who offered it")
    until: str | None = Field(description="while offered: when the offer lapses (ISO 8601)")
    next_match_id: int | None = Field(description="the match the rematch started")


class Match(Shape):
    """A match as anyone who may follow it may know it: never a hand, the stock, or the seed
    while it is played (its SHA-256, the commitment, from the first deal on)."""

    id: int
    status: STATUS
    version: int = Field(description="grows by one at every change; send it with a move")
    move_count: int
    players: list[Player | None] = Field(description="seat 0, seat 1 (null: not taken yet)")
    computer: Literal["easy", "medium", "hard"] | None
    options: Options
    created_at: str | None = Field(description="ISO 8601")
    deadline: str | None = Field(description="when the player to act runs out of time")
    turn: SEAT | None = Field(description="the seat to act while the match is in play")
    scores: list[int] = Field(description="seat 0's, then seat 1's")
    winner: SEAT | None = Field(description="the winner's seat")
    end_reason: END_REASON | None
    commitment: str | None = Field(description="SHA-256 of the seed, from the first deal on")
    seed: str | None = Field(description="once the match is over")
    rematch: Rematch
    arena_id: int | None = Field(description="the arena that paired its players, if any")


class MatchAndView(Shape):
    """A match and the caller's view of it: their seat's if they play, else a spectator's."""

    match: Match
    seat: SEAT | None = Field(description="the caller's seat; null: a spectator")
    view: View | None = Field(description="what that seat sees; null before the first deal")


class MatchWatched(Shape):
    """A match as a spectator sees it."""

    match: Match
    view: View | None = Field(description="a spectator's view; null before the first deal")


class HistoryRow(Match):
    won: bool
    rating_change: int | None = Field(description="null: not rated")


class History(Shape):
    matches: list[HistoryRow] = Field(description="newest first, 20 a page")
    next_page: int | None


class Challenge(Shape):
    id: int
    challenger: Player
    challenged: Player
    options: Options
    until: str = Field(description="when it lapses unanswered (ISO 8601)")


class ArenaStanding(Shape):
    rank: int
    player: Player
    score: int
    on_fire: bool = Field(description="two wins in a row: the next win scores double")
    wins: int
    losses: int
    performance: int = Field(description="the tie-break: the tournament performance rating")
    paused: bool


class Arena(Shape):
    id: int
    name: str
    status: Literal["scheduled", "running", "finished", "cancelled"]
    starts_at: str = Field(description="ISO 8601")
    ends_at: str = Field(description="ISO 8601: no match starts after it")
    minutes: int
    options: Options = Field(description="the options of its matches")
    invited_only: bool
    bots_allowed: bool
    joined: bool = Field(description="whether the caller has joined it")
    paused: bool = Field(description="whether the caller has paused (not paired)")


class Arenas(Shape):
    arenas: list[Arena] = Field(description="running and announced, the soonest first")


class ArenaDetail(Arena):
    standings: list[ArenaStanding]


class Challenges(Shape):
    incoming: list[Challenge] = Field(description="to the player, waiting for their answer")
    outgoing: list[Challenge] = Field(description="from the player, waiting for others'")


class ChallengeAnswered(Challenge):
    status: Literal[tuple(ChallengeRow.Status.values)]  # type: ignore[valid-type]
    decline_reason: Literal[tuple(DeclineReason.values)] | None  # type: ignore[valid-type]


class Puzzle(Shape):
    id: int
    theme: Literal[tuple(PuzzleTheme.values)]  # type: ignore[valid-type]
    rating: int
    seat: SEAT
    view: View = Field(description="the seat's view before its move")
    options: list[str] = Field(description="the actions to choose from")


class PuzzleRatings(Shape):
    before: int
    after: int


class PuzzleAnswer(Shape):
    id: int
    correct: bool
    answer: str = Field(description="the best action")
    values: dict[str, float] = Field(description="each option's value, by action")
    graded: Literal["points", "chances"] = Field(
        description="points of the hand, or chances to win the match"
    )
    line: list[tuple[SEAT, str]] = Field(description="the rest of the hand after the answer")
    rating: PuzzleRatings = Field(description="the account's puzzle rating")
    match_id: int | None = Field(description="the source, if both its players let it be named")


# The streams' events (NDJSON lines, websocket frames).


class MoveEvent(Shape):
    """A move the client missed (a reconnection with ``since``), before the ``state``."""

    type: Literal["move"]
    match_id: int
    seq: int
    seat: SEAT
    action: str = Field(description='a dealer\'s discard is "discard" to all others')
    version: int | None


class StateEvent(MatchAndView):
    """The match at ``version``: first, and after every change."""

    type: Literal["state"]
    version: int


class OpponentGone(Shape):
    """The opponent's last page or stream on the match closed (``gone``), or they came back."""

    type: Literal["opponentGone"]
    match_id: int
    version: int
    gone: bool
    claim_opens_at: str | None = Field(
        description="when the caller may claim the match (no clock, the opponent's turn)"
    )
    claim_in_seconds: int | None


class ClosedEvent(Shape):
    """The last event: the server ends the stream (a websocket then closes with the code
    listed beside the socket)."""

    type: Literal["closed"]
    code: Literal["over", "token_revoked", "not_open_to_watch"]
    detail: str = Field(description="the player's words")


class IdleEvent(Shape):
    """An account with nothing to report as its stream opens: a first event all the same."""

    type: Literal["idle"]


class MatchStartEvent(MatchAndView):
    """A match of the player's started (or is in play as the stream opens)."""

    type: Literal["matchStart"]


class MatchFinishEvent(MatchAndView):
    type: Literal["matchFinish"]


class ChallengeEvent(Shape):
    type: Literal["challenge"]
    direction: DIRECTION = Field(description="in: to the player; out: from them")
    challenge: Challenge


class ChallengeGoneEvent(Shape):
    type: Literal["challengeGone"]
    challenge_id: int
    direction: DIRECTION
    status: Literal[tuple(ChallengeRow.Status.values)]  # type: ignore[valid-type]
    match_id: int | None = Field(description="the match an acceptance started")
    decline_reason: Literal[tuple(DeclineReason.values)] | None  # type: ignore[valid-type]


REMATCH_STATUS = Literal["offered", "accepted", "declined", "withdrawn", "lapsed"]


class ChatEvent(Shape):
    """A line of the match's chat that the caller reads (a player: the players' room, and
    the spectators' once the match is over; a spectator: the spectators'). Lines by a player
    the caller blocked or muted never come; free chat only if the caller turned it on."""

    type: Literal["chat"]
    match_id: int
    id: int
    room: Literal[tuple(ChatRoom.values)]  # type: ignore[valid-type]
    author: Player
    phrase: Literal[PHRASES] | None = Field(  # type: ignore[valid-type]
        description="a quick message's code (null: free chat)"
    )
    text: str | None = Field(description="free chat as typed: plain text, never markup")
    words: str = Field(description="what it says, a quick message in the stream's language")


class ChatRemovedEvent(Shape):
    """A moderator removed a line: a client drops it from what it shows."""

    type: Literal["chatRemoved"]
    match_id: int
    id: int


class ArenaEvent(ArenaDetail):
    """The arena with its standings (``GET arenas/{id}``'s answer): first, and again whenever
    it changes (its status, its players, a result)."""

    type: Literal["arena"]


class ArenaChatEvent(Shape):
    """A line of the arena's chat (its players and the moderators say them; every account
    reads them): never a line by a player the caller blocked; free chat only if the caller
    turned it on."""

    type: Literal["chat"]
    arena_id: int
    id: int
    room: Literal["arena"]
    author: Player
    phrase: Literal[PHRASES] | None = Field(  # type: ignore[valid-type]
        description="a quick message's code (null: free chat)"
    )
    text: str | None = Field(description="free chat as typed: plain text, never markup")
    words: str = Field(description="what it says, a quick message in the stream's language")


class ArenaChatRemovedEvent(Shape):
    """A moderator removed a line of the arena's chat: a client drops it from what it shows."""

    type: Literal["chatRemoved"]
    arena_id: int
    id: int


class RematchEvent(Shape):
    """A finished match's rematch, after the ``state`` that shows it: offered (also as the
    stream opens), then accepted (the new match's id), declined, withdrawn or lapsed. The
    stream stays open while a rematch may come (docs/API.md: Streams)."""

    type: Literal["rematch"]
    match_id: int = Field(description="the finished match")
    version: int
    status: REMATCH_STATUS
    seat: SEAT | None = Field(description="who offered it")
    until: str | None = Field(description="offered: when the offer lapses (ISO 8601)")
    next_match_id: int | None = Field(description="accepted: the new match")


class RematchOfferEvent(Shape):
    """A rematch offer of a finished match of the player's: to them (``in``: answer it with
    ``POST matches/{id}/rematch/accept`` or ``.../decline``) or from them (``out``)."""

    type: Literal["rematchOffer"]
    direction: DIRECTION = Field(description="in: to the player; out: from them")
    match_id: int = Field(description="the finished match")
    offered_by: Player
    options: Options = Field(description="the new match's (the other player deals first)")
    until: str = Field(description="when it lapses unanswered (ISO 8601)")


class RematchGoneEvent(Shape):
    """A rematch offer is no longer open: accepted (the new match's ``matchStart`` comes
    first), declined, withdrawn by who made it, or lapsed."""

    type: Literal["rematchGone"]
    direction: DIRECTION
    match_id: int = Field(description="the finished match")
    status: Literal["accepted", "declined", "withdrawn", "lapsed"]
    next_match_id: int | None = Field(description="accepted: the new match")


class ErrorFrame(Shape):
    """A websocket's refusal: of the connection (then it closes), or of a move sent on it."""

    type: Literal["error"]
    code: str
    detail: str
    retry_after: int | None = Field(None, description="``too_many`` only")
    state: MatchAndView | None = Field(None, description="``stale`` only: the match now")


class HeartbeatFrame(Shape):
    """A websocket's sign of life, sent when nothing else was for a heartbeat's while (the
    http streams send a blank line instead)."""

    type: Literal["heartbeat"]


class MoveFrame(Shape):
    """What a player may send on a match's websocket."""

    action: str = Field(examples=["pass", "order_up", "name:H", "discard:9C", "play:JH"])
    version: int = Field(description="the match's version as the move was chosen")


MATCH_EVENTS = (MoveEvent, StateEvent, OpponentGone, RematchEvent, ChatEvent, ChatRemovedEvent,
                ClosedEvent)  # fmt: skip
ACCOUNT_EVENTS = (IdleEvent, MatchStartEvent, MatchFinishEvent, ChallengeEvent,
                  ChallengeGoneEvent, RematchOfferEvent, RematchGoneEvent,
                  ClosedEvent)  # fmt: skip
ARENA_EVENTS = (ArenaEvent, ArenaChatEvent, ArenaChatRemovedEvent, ClosedEvent)
ANSWERS = (Error, Account, BotSettings, PublicPlayer, Leaderboard, BotsOnline, MatchAndView,
           Arenas, ArenaDetail, *ARENA_EVENTS,
           MatchWatched, History, Challenges, Challenge, ChallengeAnswered, Puzzle,
           PuzzleAnswer, Insights, *MATCH_EVENTS, *ACCOUNT_EVENTS, ErrorFrame, MoveFrame,
           HeartbeatFrame)  # fmt: skip
Error.model_rebuild()

# A view's words: what the dataclass types as strings, given their values.
VIEW_WORDS = {
    "View": {"phase": [p.value for p in Phase], "upcard_fate": [f.value for f in UpcardFate]},
    "HandResultView": {"outcome": [o.value for o in HandOutcome]},
}

# The websockets, as the API page describes them.
CLOSE_CODES = {
    4400: "the request could not be read: no ``euchre.v1`` among the subprotocols offered, "
    "or ``since`` past the match's version (the error frame says which)",
    1000: "the match is over, and its rematch settled (after the ``closed`` event ``over``)",
    4401: "no valid token, or it was revoked (``closed`` ``token_revoked``)",
    4403: "not the caller's to follow, or no longer",
    4404: "no such match",
    4429: "too many streams or sockets (the error frame says when to try again)",
}
# An arena's socket: its own words for what differs.
ARENA_CLOSE_CODES = {
    **CLOSE_CODES,
    4400: "the request could not be read: no ``euchre.v1`` among the subprotocols offered",
    1000: "the arena is over: finished or cancelled (after the ``closed`` event ``over``)",
    4403: "opened from a web page whose origin the token's player does not list",
    4404: "no such arena",
}
SOCKETS = [
    {
        "path": "/api/v1/ws/account",
        "about": "The account stream's events as JSON frames.",
        "events": ACCOUNT_EVENTS,
        "sends": None,
        "close_codes": CLOSE_CODES,
    },
    {
        "path": "/api/v1/ws/matches/{match_id}?since=<version>",
        "about": "The match stream's events as JSON frames; a player may send moves on it. A "
        "refused move gets an error frame and changes nothing.",
        "events": MATCH_EVENTS,
        "sends": MoveFrame,
        "close_codes": CLOSE_CODES,
    },
    {
        "path": "/api/v1/ws/arenas/{arena_id}",
        "about": "The arena stream's events as JSON frames (it takes no messages: say a line "
        "with ``POST /api/v1/arenas/{id}/chat``).",
        "events": ARENA_EVENTS,
        "sends": None,
        "close_codes": ARENA_CLOSE_CODES,
    },
]


def websockets() -> list[dict]:
    """The sockets for the schema (``x-websockets``): each one's events and what it takes,
    as components, and the close codes."""
    return [
        {
            "path": socket["path"],
            "description": socket["about"],
            "events": one_of(socket["events"]),
            "sends": ref(socket["sends"]) if socket["sends"] else None,
            "errors": ref(ErrorFrame),
            "heartbeat": {
                "every_seconds": settings.REALTIME_HEARTBEAT_SECONDS,
                "frame": ref(HeartbeatFrame),
                "about": "sent when nothing else was for that long: a client that hears "
                "nothing for three times as long may take the socket for cut off and "
                "reconnect (to a match's with ``since``)",
            },
            "close_codes": {str(code): about for code, about in socket["close_codes"].items()},
        }
        for socket in SOCKETS
    ]


def ref(model: type[BaseModel]) -> dict:
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def one_of(models) -> dict:
    return {"oneOf": [ref(m) for m in models], "discriminator": {"propertyName": "type"}}


def components() -> dict:
    """Every shape, as OpenAPI components: the refusal's codes as an enum, the view's words
    given their values."""
    _, found = models_json_schema(
        [(m, "serialization") for m in ANSWERS], ref_template="#/components/schemas/{model}"
    )
    shapes = found["$defs"]
    for shape in shapes.values():  # published open: a client ignores what it does not know
        if shape.get("additionalProperties") is False:
            del shape["additionalProperties"]
    shapes["Error"]["properties"]["code"]["enum"] = codes()
    shapes["Error"]["properties"]["reason"]["anyOf"][0]["enum"] = refusals.rule_codes()
    for name, words in VIEW_WORDS.items():
        for field, values in words.items():
            shapes[name]["properties"][field]["enum"] = values
    shapes["MatchEvent"] = {"description": "A match stream's line or frame", **one_of(MATCH_EVENTS)}
    shapes["ArenaStreamEvent"] = {
        "description": "An arena stream's line or frame",
        **one_of(ARENA_EVENTS),
    }
    shapes["AccountEvent"] = {
        "description": "An account stream's line or frame",
        **one_of(ACCOUNT_EVENTS),
    }
    return shapes


def json_answer(model: type[BaseModel] | dict, about: str = "") -> dict:
    schema = ref(model) if isinstance(model, type) else model
    return {"description": about or "OK", "content": {"application/json": {"schema": schema}}}


REFUSALS = {
    400: "The request could not be read (``invalid``, ``unreadable``) or the rules refuse it",
    401: "No valid token (``unauthorized``)",
    403: "Not the caller's to do, or the token lacks the scope",
    404: "No such thing",
    409: "The match moved on (``stale``, with ``state``) or the action is no longer open",
    429: "Too many requests: ``retry_after`` seconds (also the Retry-After header)",
}


def answers(ok: type[BaseModel], *refused: int, about: str = "") -> dict:
    """An operation's ``openapi_extra``: ``ok`` at 200, and the refusals it may give (any
    operation may answer 400 (a parameter it cannot read), 401, 403 (the token lacks the
    scope) and 429)."""
    return {"responses": {200: json_answer(ok, about), **refusals_of(*refused)}}


def refusals_of(*statuses: int) -> dict:
    """The refusals an operation may give, for its ``openapi_extra``'s answers."""
    return {s: json_answer(Error, REFUSALS[s]) for s in sorted({400, 401, 403, 429, *statuses})}


def stream_answers(events: str, about: str) -> dict:
    """A stream's ``openapi_extra``: NDJSON lines, each one of ``events`` (a component)."""
    ndjson = {"schema": {"$ref": f"#/components/schemas/{events}"}}
    responses = {200: {"description": about, "content": {"application/x-ndjson": ndjson}}}
    return {"responses": {**responses, **refusals_of(404)}}
