"""The endpoints of ``/api/v1/`` (django-ninja: the OpenAPI schema at ``/api/v1/openapi.json``
and a page to try them at ``/api/v1/docs``). Thin, as the site's views: the forms check what
comes in, the services do it, ``shapes`` answers from view_for; a refusal is JSON with a code
and the player's words (``games.presentation.refusals``), and a rate limit 429 with Retry-After."""

from __future__ import annotations

from typing import Annotated

from django.db import close_old_connections
from django.http import Http404, HttpRequest, JsonResponse, StreamingHttpResponse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Path, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.security import HttpBearer

from .. import services
from ..db import selectors
from ..models import Match
from ..presentation import refusals
from ..services import throttle
from ..web.forms import ComputerMatchForm, MatchCreateForm
from ..web.moves import Unreadable, move_submit
from . import shapes
from .auth import Unauthorized, authenticate
from .feeds import AccountFeed, MatchFeed, challenge, remember_move
from .streams import ndjson

DESCRIPTION = """Play two-hand euchre from a program. Make a token on your settings page and
send it as `Authorization: Bearer <token>`. Errors are JSON: `{"code": ..., "detail": ...}`,
the detail in the player's words (Accept-Language). Streams are newline-delimited JSON (a
blank line is a heartbeat); the same events come over the websocket
`/api/v1/ws/account` and `/api/v1/ws/matches/{id}?since=<version>`."""

api = NinjaAPI(
    title="Two-hand euchre API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api-v1",
    openapi_url="/openapi.json",
    docs_url="/docs",
)


class Token(HttpBearer):
    """A personal API token with ``scope`` (read or play)."""

    def __init__(self, scope: str):
        super().__init__()
        self.scope = scope

    def __call__(self, request: HttpRequest):
        # Also without a header: the refusal is worded (ninja would answer a bare 401).
        token = super().__call__(request)
        if token is None:
            raise Unauthorized("unauthorized")
        return token

    def authenticate(self, request: HttpRequest, token: str):
        row = authenticate(token, self.scope)
        request.user = row.user
        request.api_token = row
        return row


READ, PLAY = Token("read"), Token("play")


def _error(code: str, detail: str, status: int, **extra) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail, **extra}, status=status)


@api.exception_handler(services.GameError)
def _refused(request, error: services.GameError):
    status = 401 if isinstance(error, Unauthorized) else refusals.status(error)
    response = _error(error.code, refusals.words(error), status)
    if status == 401:
        response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(throttle.Throttled)
def _throttled(request, error: throttle.Throttled):
    response = _error("too_many", refusals.words(error), 429, retry_after=error.retry_after)
    response["Retry-After"] = str(error.retry_after)
    return response


@api.exception_handler(AuthenticationError)
def _unauthorized(request, error):
    return _refused(request, Unauthorized("unauthorized"))


@api.exception_handler(ValidationError)
def _invalid(request, error: ValidationError):
    detail = _("The request could not be read: see the errors")
    return _error("invalid", detail, 400, errors=error.errors)


@api.exception_handler(HttpError)
def _unparsable(request, error: HttpError):  # what ninja refuses itself: a body not JSON
    return _error("invalid", _("The request could not be read: see the errors"), 400)


@api.exception_handler(Unreadable)
def _unreadable(request, error):
    return _error("unreadable", _("That move could not be read"), 400)


@api.exception_handler(Http404)
def _not_found(request, error):
    return _error("not_found", _("There is nothing here"), 404)


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
    move_seconds: int | None = 60


class ComputerIn(Schema):
    strength: str = "medium"
    deck: int = 24
    target: int = 10
    stick_the_dealer: bool = False
    dealer_must_take_up: bool = False


class ChallengeIn(MatchIn):
    username: str


def _form_data(payload: Schema) -> dict:
    data = payload.dict()
    if "move_seconds" in data and data["move_seconds"] is None:
        data["move_seconds"] = ""  # the form's "no clock"
    return {k: v for k, v in data.items() if v is not False}  # a form's unticked box


def _checked(form) -> dict:
    if not form.is_valid():
        errors = [{"field": f, "messages": [str(m) for m in ms]} for f, ms in form.errors.items()]
        raise _FormRefused(errors)
    return form.cleaned_data


class _FormRefused(Exception):
    def __init__(self, errors: list):
        super().__init__("form")
        self.errors = errors


@api.exception_handler(_FormRefused)
def _form_refused(request, error: _FormRefused):
    return _error("invalid", _("The request could not be read: see the errors"), 400,
                  errors=error.errors)  # fmt: skip


def _match(request, match_id: Id) -> Match:
    match = Match.objects.select_related("player0", "player1", "winner").filter(pk=match_id).first()
    if match is None:
        raise services.NotFound("no_such_match")
    if match.closed_to(request.user):
        raise services.NotAllowed("not_open_to_watch")
    return match


def _answer(match: Match, user) -> dict:
    return shapes.match_for(match, user)


# The account, ratings and history


@api.get("/account", auth=READ, tags=["account"])
def account(request):
    """The token's player: name, bot or not, rating, record, and the token's scopes."""
    user = request.user
    return {
        **shapes.player(user),
        "rating": _rating(user),
        "record": selectors.record(user=user),
        "scopes": request.api_token.scope_list,
    }


def _rating(user) -> dict:
    rating = selectors.rating_of(user=user)
    return {
        "value": rating.value, "rated_matches": rating.rated_matches,
        "display": rating.display, "history": selectors.rating_history(user=user),
    }  # fmt: skip


@api.get("/account/history", auth=READ, tags=["account"])
def history(request, page: int = 1, opponent: str = "", result: str = "", kind: str = ""):
    """The player's ended matches, newest first, 20 a page."""
    page = min(max(1, page), 100_000)
    rows, more = selectors.match_history(
        user=request.user, page=page, opponent=opponent.replace("\x00", "")[:150],
        result=result, kind=kind,
    )  # fmt: skip
    return {
        "matches": [
            {**shapes.match_public(row["match"]), "won": row["won"], "rating_change": row["change"]}
            for row in rows
        ],
        "next_page": page + 1 if more else None,
    }


@api.get("/users/{username}", auth=READ, tags=["account"])
def user(request, username: str):
    """Another player's public record: rating and results."""
    found = selectors.user_by_name(username)
    if found is None:
        raise Http404
    return {
        **shapes.player(found),
        "rating": _rating(found),
        "record": selectors.record(user=found),
    }


@api.get("/leaderboard", auth=READ, tags=["account"])
def leaderboard(request, bots: bool = False):
    """The leaderboard of people, or (``bots``) the bot accounts' own."""
    return {
        "players": [
            {
                **shapes.player(row.user),
                "rating": row.value,
                "display": row.display,
                "rated_matches": row.rated_matches,
                "won": row.won,
                "lost": row.lost,
            }
            for row in selectors.leaderboard(bots=bots)
        ]  # fmt: skip
    }


# Matches


@api.get("/matches/{int:match_id}", auth=READ, tags=["matches"])
def match_public(request, match_id: Id):
    """A match as anyone who may watch it sees it: the spectator's view (no hand, no stock,
    no seed until it is over)."""
    match = _match(request, match_id)
    return {"match": shapes.match_public(match), "view": shapes.match_view(match, None)}


@api.get("/matches/{int:match_id}/view", auth=READ, tags=["matches"])
def match_view(request, match_id: Id):
    """The caller's own view of a match they play: their hand and what they may do
    (``view.legal_actions``) at ``match.version``."""
    match = _match(request, match_id)
    if match.seat_of(request.user) is None:
        raise services.NotAllowed("not_playing")
    return _answer(match, request.user)


@api.post("/matches", auth=PLAY, tags=["matches"])
def match_create(request, payload: MatchIn):
    """Open a match that waits for an opponent (as the lobby's form)."""
    options = _checked(MatchCreateForm(_form_data(payload)))
    return _answer(services.match_create(user=request.user, **options), request.user)


@api.post("/matches/computer", auth=PLAY, tags=["matches"])
def match_create_computer(request, payload: ComputerIn):
    """Play the computer (easy, medium or hard): the match starts at once, casual."""
    options = _checked(ComputerMatchForm(_form_data(payload)))
    return _answer(services.match_create_computer(user=request.user, **options), request.user)


@api.post("/matches/{int:match_id}/move", auth=PLAY, tags=["matches"])
def move(request, match_id: Id, payload: MoveIn):
    """Make a move: ``{"action": "play:JH", "version": 12}``, the version being the match's
    as the move was chosen (a stale one is refused with ``stale``)."""
    match = move_submit(user=request.user, match_id=match_id, data=payload.dict(), api=True)
    remember_move(match, user=request.user, action=payload.action)
    return _answer(match, request.user)


def _match_action(service, name: str, doc: str):
    def view(request, match_id: Id):
        return _answer(service(user=request.user, match_id=match_id), request.user)

    view.__name__ = name
    view.__doc__ = doc
    api.post(f"/matches/{{int:match_id}}/{name}", auth=PLAY, tags=["matches"])(view)


_match_action(services.match_join, "join", "Take the free seat of an open match.")
_match_action(services.match_resign, "resign", "Give the match up.")
_match_action(services.match_claim, "claim", "Claim a match the opponent left (no clock).")
_match_action(services.match_abort, "abort", "Call a match off before both have acted.")


# Challenges


@api.get("/challenges", auth=READ, tags=["challenges"])
def challenges(request):
    """Challenges waiting for the player's answer, and theirs waiting for others'."""
    pending = selectors.pending_challenges(user=request.user)
    return {
        "incoming": [challenge(c) for c in pending["challenges_to_me"]],
        "outgoing": [challenge(c) for c in pending["challenges_from_me"]],
    }


@api.post("/challenges", auth=PLAY, tags=["challenges"])
def challenge_create(request, payload: ChallengeIn):
    """Challenge a player by name, with the options of a match."""
    challenged = selectors.user_by_name(payload.username)
    if challenged is None:
        raise Http404
    data = _form_data(payload)
    data.pop("username")
    options = _checked(MatchCreateForm(data))
    row = services.challenge_create(user=request.user, challenged=challenged, **options)
    return challenge(row)


@api.post("/challenges/{int:challenge_id}/accept", auth=PLAY, tags=["challenges"])
def challenge_accept(request, challenge_id: Id):
    """Accept a challenge: the match starts."""
    match = services.challenge_accept(user=request.user, challenge_id=challenge_id)
    return _answer(match, request.user)


@api.post("/challenges/{int:challenge_id}/decline", auth=PLAY, tags=["challenges"])
def challenge_decline(request, challenge_id: Id):
    """Decline a challenge, or withdraw one's own."""
    row = services.challenge_decline(user=request.user, challenge_id=challenge_id)
    return {"id": row.pk, "status": row.status}


# Streams


def _stream(feed, first: list[dict]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(
        ndjson(feed, first, get_language()), content_type="application/x-ndjson"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy passes each line on at once
    # The stream reads in the sockets' database threads (``streams.ndjson``): this request's
    # pooled connection goes back now, not when the stream ends (hours later, perhaps).
    close_old_connections()
    return response


@api.get("/stream/account", auth=READ, tags=["streams"])
def stream_account(request):
    """The player's news as newline-delimited JSON: ``matchStart`` (also for each match in
    play when the stream opens), ``matchFinish``, ``challenge`` and ``challengeGone``."""
    feed = AccountFeed(token=request.api_token)
    return _stream(feed, feed.start())


@api.get("/stream/matches/{int:match_id}", auth=READ, tags=["streams"])
def stream_match(request, match_id: Id, since: int | None = None):
    """One match's changes as newline-delimited JSON: each ``move`` since ``since`` (the
    last version the client saw: what it missed) and a ``state`` at every version, with the
    caller's view. A ``closed`` event ends it (the token was revoked)."""
    feed = MatchFeed(token=request.api_token, match_id=match_id, since=since)
    return _stream(feed, feed.start())
