"""What the board partial shows a viewer: built from the match's public face
(``public.PublicMatch``) and the viewer's ``view_for``, and nothing else.

The opponent's cards are only counted here; no template can name them because they are not in
the context at all.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType

from django.urls import reverse
from django.utils.translation import gettext as _

from .. import caches
from ..engine.view import View
from ..models import (
    DEALT_CARDS,
    HAND_END_BY_PACE,
    PACE_STAGES,
    MatchStatus,
    Report,
    is_deleted,
)
from ..public import PublicMatch
from .cards import SUIT_NAMES, SUIT_SYMBOLS, Card
from .controls import control, prompt
from .ending import clock_context, end_context, result_line
from .sentences import hand_log, hand_summary, player_name

# The addresses a board's forms post to, by URL name: reversed once per match and process, not
# by a ``{% url %}`` tag in every board of every move.
MATCH_URL_NAMES = (
    "match_board", "match_act", "match_resign", "match_claim", "match_abort", "match_join",
    "match_replay", "rematch_offer", "rematch_accept", "rematch_decline",
)  # fmt: skip


@lru_cache(maxsize=4096)
def match_urls(pk: int) -> MappingProxyType:
    """The match's addresses by URL name. The site is served at the root of its host, as the
    sockets' and the invite's paths assume: no script prefix to key them by (reading it costs
    more than the rest of this, as Django keeps it in an asgiref ``Local``)."""
    return MappingProxyType({name: reverse(name, args=[pk]) for name in MATCH_URL_NAMES})


def pace_context(pace: str, forced_card: bool) -> dict:
    """What the match page tells its script (static/js/table.js) of the hand's end: the
    viewer's pace, whether a forced card is played for them, and every pace's stages (in ms,
    with the server's wait before the next hand's first turn), which a test can sum."""
    paces = {
        str(name): {
            **stages, "dealt": DEALT_CARDS,
            "hand_end": int(HAND_END_BY_PACE[name].total_seconds() * 1000),
        }
        for name, stages in PACE_STAGES.items()
    }  # fmt: skip
    return {"table_pace": pace, "forced_card": forced_card, "table_paces": paces}


def board_context(
    match: PublicMatch,
    view: View | None,
    user,
    *,
    present: frozenset[int],
    spectators: int,
    casual_for_you: bool = False,
    error: str = "",
    base_url: str = "",
) -> dict:
    """What the board partial shows ``user``: a pure function of the match's public face and
    ``view``, what the user's seat (or a spectator) may see of its state (None before the
    deal). ``present``: the ids of the players connected to the match; ``spectators``: how
    many others watch; ``casual_for_you``: whether joining this open rated match would be
    casual for ``user``."""
    seat = match.seat_of(user)
    names = [player_name(name) for name in match.names]
    if match.computer:
        present = present | {match.player_ids[1]}  # the computer never leaves the table
    context = {
        "match": match,
        "user": user,
        "urls": match_urls(match.pk),
        "invite_url": f"{base_url}/matches/{match.pk}/",
        "invite_path": f"/matches/{match.pk}/",
        "opponent_present": seat is not None
        and match.player_ids[seat ^ 1] is not None
        and match.player_ids[seat ^ 1] in present,
        "seat": seat,
        "names": names,
        "error": error,
        "your_turn": False,
        "over": match.is_over,
        # The tests' and scripts' handle on the winner; a deleted account's in words too.
        "winner_name": (
            player_name(match.winner_name) if is_deleted(match.winner_name) else match.winner_name
        ),
        "spectators": spectators,  # people watching: the computer never watches
    }
    if view is None:
        if match.status == MatchStatus.OPEN and match.rated and seat is None and user:
            # Said before joining: this one would not count (see services.match_join).
            context["casual_for_you"] = casual_for_you
        return context  # open or aborted before the deal
    if seat is not None and not match.computer:  # nobody to report at a computer's table
        context["report_reasons"] = Report.Reason.choices
        context["opponent_name"] = names[seat ^ 1]
        context["back"] = f"/matches/{match.pk}/"
    # Provably fair: the seed's hash from the first deal on; the seed itself once it is over.
    context["commitment"] = match.commitment
    context["revealed_seed"] = match.revealed_seed
    # The end screen links to the analysis once the worker has stored it (pushed then).
    # The Hint button: casual matches against the computer only, on the player's turn.
    context["hint_offered"] = (
        seat is not None
        and bool(match.computer)
        and not match.rated
        and match.status == MatchStatus.ACTIVE
        and view.turn == seat
    )
    context["analysis_ready"] = match.status == MatchStatus.FINISHED and match.analysed
    context.update(seat_context(view, names, seat, bots=match.bots, ratings=match.ratings))
    context.update(
        {
            "act_url": context["urls"]["match_act"],
            "version": match.version,
            "your_turn": seat is not None and view.turn == seat,
            "turn_title": _("● Your turn · Match %(number)s") % {"number": match.pk},
        }
    )
    context["acting"] = view.turn if match.status == MatchStatus.ACTIVE else None
    if match.is_over:
        context["prompt"] = ""  # ended by a resignation, the clock or a moderator mid-hand
    if match.status == MatchStatus.ACTIVE and view.turn is not None:
        context.update(clock_context(match, seat, view.turn, context["opponent_present"]))
    if match.is_over:
        context["result_line"] = result_line(match, seat, names)
    if match.status == MatchStatus.FINISHED:
        context["your_turn"] = False
        context["rating_changes"] = [  # a deleted account's in words, as the plates name it
            replace(line, name=player_name(line.name)) for line in match.rating_changes
        ]
    if match.is_over:
        context.update(end_context(match, seat, view))
    return context


def seat_context(
    view: View,
    names: list[str],
    seat: int | None,
    *,
    bots: tuple[bool, bool] = (False, False),
    ratings: tuple[str, str] = ("", ""),
) -> dict:
    """What the felt (templates/jinja2/felt.jinja) shows of ``view`` to ``seat``: the hands,
    the trick, the stock, the score, the calls and the prompt. ``seat`` None is a spectator,
    who looks from seat 0's side; ``bots`` and ``ratings`` are the seats' badges and plates.
    A match's board (``board_context``) and the guided hand (``learn.context``) both show it."""
    me = seat if seat is not None else 0  # a spectator looks from seat 0's side
    them = me ^ 1
    legal = view.legal_actions
    playing = view.phase == "play"
    discarding = view.phase == "discard"
    card_actions = {a.split(":")[1]: a for a in legal if a.startswith(("play:", "discard:"))}
    hand = [Card(code) for code in view.hand]
    trick = [{"name": names[s], "mine": s == me, "card": Card(c)} for s, c in view.trick]
    upcard = Card(view.upcard)
    trump = view.trump
    return {
        "view": view,
        "me": me,
        "them": them,
        "my_name": names[me],
        "their_name": names[them],
        "my_bot": bots[me],
        "their_bot": bots[them],
        "turn_name": names[view.turn] if view.turn is not None else "",
        "hand": [
            {
                "card": card,
                "action": card_actions.get(card.code, ""),
                "key": str(number),
                "tilt": tilt,
            }
            for number, (card, tilt) in enumerate(zip(hand, fan(len(hand)), strict=True), start=1)
        ],
        "card_kind": "discard" if discarding else "play",
        "hand_has_choice": bool(card_actions),
        "their_count": view.hand_sizes[them],
        "my_count": view.hand_sizes[me],
        "upcard": upcard,
        "upcard_fate": view.upcard_fate,
        "upcard_suit_name": SUIT_NAMES.get(view.upcard_suit or "", ""),
        "trump_symbol": SUIT_SYMBOLS.get(trump or "", ""),
        "trump_name": SUIT_NAMES.get(trump or "", ""),
        "trump_red": trump in ("D", "H"),
        "maker_name": names[view.maker] if view.maker is not None else "",
        "dealer_name": names[view.dealer],
        "scores": view.scores,
        "my_score": view.scores[me],
        "their_score": view.scores[them],
        "tricks_won": view.tricks_won,
        "my_tricks": view.tricks_won[me],
        "their_tricks": view.tricks_won[them],
        "trick": trick,
        **trick_context(view, names, me),
        "log": hand_log(view, names),
        # Shown beside the next deal until that hand's first trick is taken.
        "hand_summary": (
            hand_summary(view.results[-1], names, seat)
            if view.results and (not view.tricks or view.phase == "match_over")
            else None
        ),
        "controls": [control(a) for a in legal if not a.startswith(("play:", "discard:"))],
        "playing": playing,
        "discarding": discarding,
        "discard": Card(view.discard) if view.discard else None,
        "target": view.rules["target"],
        "prompt": prompt(view, seat, names),
        "their_fan": fan(view.hand_sizes[them]),
        "my_fan": fan(view.hand_sizes[me]),
        "dealer_seat": view.dealer,
        "my_rating": ratings[me],
        "their_rating": ratings[them],
        "just_dealt": bool(view.log) and view.log[-1].kind == "deal",
        **hand_end_context(view, me),
    }


def fan(count: int) -> list[int]:
    """Each card's place in a fanned hand of ``count``, counted in half steps from the middle
    (-5 ... 5): the stylesheet turns and lifts each card by its place."""
    return [2 * i - (count - 1) for i in range(count)]


def hand_end_context(view: View, me: int) -> dict:
    """A board whose last move ended a hand and dealt the next: the page plays the hand's end
    before it shows the new hand (static/js/table.js: the last trick, the summary, the deal),
    and until the summary shows, the scoreboard reads what the hand ended on."""
    kinds = [entry.kind for entry in view.log[-2:]]
    if kinds != ["result", "deal"] or not view.results:
        return {"hand_end": False}
    ended = view.results[-1]
    return {
        "hand_end": True,
        "ended": {
            "my_tricks": ended.tricks_won[me],
            "their_tricks": ended.tricks_won[me ^ 1],
            "my_score": view.scores[me] - ended.points[me],
            "their_score": view.scores[me ^ 1] - ended.points[me ^ 1],
        },
    }


def trick_context(view, names, seat) -> dict:
    """The trick on the table and the last one taken. A trick that has just been completed
    (the latest entry of the log is its winner, even if a new deal or the match's end came
    with it) is still shown on the table: the page lets it sit there for a beat."""
    context = {"trick_done": None, "last_trick": None, "new_card": ""}
    done = view.last_trick
    if done is not None:
        context["last_trick"] = {
            "plays": [
                {"name": names[s], "mine": s == seat, "card": Card(c)} for s, c in done.plays
            ],
            "winner": names[done.winner],
            "won_by_me": done.winner == seat,
        }
    kinds = [entry.kind for entry in view.log[-3:]]
    just_done = (kinds[-1:] == ["trick"] or kinds[-2:] == ["trick", "result"]
                 or kinds == ["trick", "result", "deal"])  # fmt: skip
    if done is not None and just_done and not view.trick:
        context["trick_done"] = context["last_trick"]
    if view.log and view.log[-1].kind == "play":
        context["new_card"] = view.log[-1].card
    return context


caches.register("match addresses", match_urls.cache_clear)
