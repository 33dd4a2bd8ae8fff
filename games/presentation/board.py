"""What the board partial shows a viewer: built from the match's public face
(``public.PublicMatch``) and the viewer's ``view_for``, and nothing else.

The opponent's cards are only counted here; no template can name them because they are not in
the context at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from ..db.public import PublicMatch
from ..engine import Action, cards, replay, view_for
from ..engine.cards import CODES, NO_TRUMP, RANK_CODES, SUIT_CODES, sort_key
from ..engine.verify import commitment
from ..engine.view import View
from ..models import EndReason, Match, MatchStatus, RematchState, Report

# Symbols come from the engine's tables: one face of each card everywhere. The words are
# translated (the English ones are the engine's).
SUIT_NAMES = {
    "C": pgettext_lazy("suit", "clubs"),
    "D": pgettext_lazy("suit", "diamonds"),
    "H": pgettext_lazy("suit", "hearts"),
    "S": pgettext_lazy("suit", "spades"),
}
SUIT_SYMBOLS = dict(zip(SUIT_CODES, cards.SUIT_SYMBOLS, strict=True))
RANK_LABELS = {code: "10" if code == "T" else code for code in RANK_CODES}
RANK_NAMES = {
    "7": pgettext_lazy("rank", "seven"),
    "8": pgettext_lazy("rank", "eight"),
    "9": pgettext_lazy("rank", "nine"),
    "T": pgettext_lazy("rank", "ten"),
    "J": pgettext_lazy("rank", "jack"),
    "Q": pgettext_lazy("rank", "queen"),
    "K": pgettext_lazy("rank", "king"),
    "A": pgettext_lazy("rank", "ace"),
}


@dataclass(frozen=True)
class Card:
    code: str

    @property
    def is_joker(self) -> bool:
        return self.code == "JK"

    @property
    def rank(self) -> str:
        return "★" if self.is_joker else RANK_LABELS[self.code[0]]

    @property
    def suit(self) -> str:
        return "" if self.is_joker else SUIT_SYMBOLS[self.code[1]]

    @property
    def suit_code(self) -> str:
        """The suit's letter, for the stylesheet's colours ("J" for the joker)."""
        return "J" if self.is_joker else self.code[1]

    @property
    def red(self) -> bool:
        return self.is_joker or self.code[1] in "DH"

    @property
    def label(self) -> str:
        """What a screen reader says for the card on its own."""
        return _("Joker") if self.is_joker else self.name

    @property
    def name(self) -> str:
        if self.is_joker:
            return _("the joker")
        rank, suit = RANK_NAMES[self.code[0]], SUIT_NAMES[self.code[1]]
        return _("%(rank)s of %(suit)s") % {"rank": rank, "suit": suit}


@dataclass(frozen=True)
class Control:
    action: str  # as the engine writes it: "order_up", "name:H"
    kind: str  # the data-action hook: "order_up", "name"...
    label: str
    suit: str = ""

    @property
    def key(self) -> str:
        """The access key shown on the button: the suit's letter, or the action's."""
        return self.suit or ACCESS_KEYS[self.kind]


# Each is the same in every language, like the suits' letters: "7" is "7" everywhere.
ACCESS_KEYS = {"pass": "P", "order_up": "O", "accept": "A", "take_up": "T", "leave": "L"}


CONTROL_LABELS = {
    "pass": gettext_lazy("Pass"),
    "order_up": gettext_lazy("Order it up"),
    "accept": gettext_lazy("Accept it"),
    "take_up": gettext_lazy("Take it up"),
    "leave": gettext_lazy("Leave it"),
}


def _control(text: str) -> Control:
    kind, _sep, arg = text.partition(":")
    if kind == "name":
        return Control(text, kind, _("Name %(suit)s") % {"suit": SUIT_NAMES[arg]}, arg)
    if kind == "joker":
        return Control(text, kind, _("Joker is %(suit)s") % {"suit": SUIT_NAMES[arg]}, arg)
    return Control(text, kind, str(CONTROL_LABELS[kind]))


def _outcome_line(result, seat, names) -> str:
    """How a hand ended, for this viewer: ``result`` is a hand's result or its log entry."""
    maker = result.seat if hasattr(result, "seat") else result.maker
    if result.outcome == "passed_out":
        return _("Both passed twice: no trump, the cards are dealt again.")
    who = {"maker": names[maker]}
    if seat is not None:
        mine = maker == seat
        if result.outcome == "euchred":
            if mine:
                return _("You were euchred: 2 points to your opponent.")
            return _("You euchred %(maker)s: 2 points to you.") % who
        if result.outcome == "march":
            if mine:
                return _("A march! You took all five tricks: 2 points.")
            return _("%(maker)s marched: all five tricks, 2 points.") % who
        if mine:
            return _("You made it with %(tricks)s tricks: 1 point.") % {
                "tricks": result.tricks_won[seat]
            }
        return _("%(maker)s made it: 1 point.") % who
    if result.outcome == "euchred":
        return _("%(maker)s was euchred: 2 points to the defender.") % who
    if result.outcome == "march":
        return _("%(maker)s marched: 2 points.") % who
    return _("%(maker)s made it: 1 point.") % who


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
    names = list(match.names)
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
        "winner_name": match.winner_name,
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
    context.update(
        {
            "view": view,
            "me": me,
            "them": them,
            "my_name": names[me],
            "their_name": names[them],
            "my_bot": match.bots[me],
            "their_bot": match.bots[them],
            "your_turn": seat is not None and view.turn == seat,
            "turn_name": names[view.turn] if view.turn is not None else "",
            "hand": [
                {
                    "card": card,
                    "action": card_actions.get(card.code, ""),
                    "key": str(number),
                    "tilt": tilt,
                }
                for number, (card, tilt) in enumerate(
                    zip(hand, fan(len(hand)), strict=True), start=1
                )
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
            "controls": [_control(a) for a in legal if not a.startswith(("play:", "discard:"))],
            "playing": playing,
            "discarding": discarding,
            "discard": Card(view.discard) if view.discard else None,
            "target": view.rules["target"],
            "prompt": _prompt(view, seat, names),
            "turn_title": _("● Your turn · Match %(number)s") % {"number": match.pk},
            **table_context(match, view, me),
        }
    )
    context["acting"] = view.turn if match.status == MatchStatus.ACTIVE else None
    if match.is_over:
        context["prompt"] = ""  # ended by a resignation, the clock or a moderator mid-hand
    if match.status == MatchStatus.ACTIVE and view.turn is not None:
        context.update(_clock_context(match, seat, view.turn, context["opponent_present"]))
    if match.is_over:
        context["result_line"] = _result_line(match, seat, names)
    if match.status == MatchStatus.FINISHED:
        context["your_turn"] = False
        context["rating_changes"] = match.rating_changes
    if match.is_over:
        context.update(_end_context(match, seat, view))
    return context


def fan(count: int) -> list[int]:
    """Each card's place in a fanned hand of ``count``, counted in half steps from the middle
    (-5 ... 5): the stylesheet turns and lifts each card by its place."""
    return [2 * i - (count - 1) for i in range(count)]


def table_context(match: PublicMatch, view: View, me: int) -> dict:
    """What the table's look needs beyond the board's facts: the fans of cards, the dealer's
    seat, the players' ratings and whether the cards were just dealt (the deal's motion)."""
    return {
        "their_fan": fan(view.hand_sizes[me ^ 1]),
        "my_fan": fan(view.hand_sizes[me]),
        "dealer_seat": view.dealer,
        "my_rating": match.ratings[me],
        "their_rating": match.ratings[me ^ 1],
        "just_dealt": bool(view.log) and view.log[-1].kind == "deal",
    }


def _end_context(match: PublicMatch, seat: int | None, view: View) -> dict:
    """The end screen: hands won, and the rematch (offered, answered, started) for this
    viewer."""
    me = seat if seat is not None else 0
    hands_won = [sum(1 for r in view.results if r.points[s] > 0) for s in (0, 1)]
    offer_mine = match.rematch_seat == seat and seat is not None
    state = match.rematch_state
    context = {
        "my_hands": hands_won[me],
        "their_hands": hands_won[me ^ 1],
        "next_match_id": match.next_match_id,
        "rematch_offered_by_me": state == RematchState.OFFERED and offer_mine,
        "rematch_offered_to_me": state == RematchState.OFFERED and seat is not None
        and not offer_mine,
        "rematch_declined": state == RematchState.DECLINED and offer_mine,
        "rematch_lapsed": state == RematchState.LAPSED and seat is not None,
        # The rematch's first dealer: whoever did not deal this match's first hand.
        "rematch_dealer": match.names[match.first_dealer ^ 1],
    }  # fmt: skip
    context["can_rematch"] = (
        seat is not None
        and match.status == MatchStatus.FINISHED
        and match.next_match_id is None
        and state != RematchState.OFFERED
        and not context["rematch_declined"]
    )
    if state == RematchState.OFFERED and match.rematch_until:
        left = max(0, int((match.rematch_until - timezone.now()).total_seconds()))
        context["rematch_seconds"] = left
        context["rematch_text"] = minutes(left)
    return context


def _result_line(match: PublicMatch, seat: int | None, names) -> str:
    """The banner over a finished match, for this viewer."""
    if match.status == MatchStatus.ABORTED:
        if match.end_reason == EndReason.ABORTED and match.dealt:
            return _(
                "Aborted: a player left before both had made a first move. "
                "No result, no rating change."
            )
        return _("This match was called off.")
    if match.status == MatchStatus.VOIDED:
        return _("A moderator voided this match: it does not count.")
    winner = match.winner_name
    reason = match.end_reason
    won = seat is not None and match.player_ids[seat] == match.winner_id
    if reason == "adjudicated":
        if won:
            return _("A moderator adjudicated this match: you win it.")
        return _("A moderator adjudicated this match: %(player)s wins it.") % {"player": winner}
    if seat is None:
        if reason == "played_out":
            return _("%(player)s won the match.") % {"player": winner}
        return _("%(player)s won the match (%(reason)s).") % {
            "player": winner,
            "reason": str(EndReason(reason).label).lower(),
        }
    other = {"player": names[seat ^ 1]}
    if won:
        return {
            "resigned": _("You won the match: %(player)s resigned."),
            "timeout": _("You won the match: %(player)s ran out of time."),
            "abandoned": _("You won the match: %(player)s left the table."),
        }.get(reason, _("You won the match.")) % other
    return {
        "resigned": _("%(player)s won the match: you resigned."),
        "timeout": _("%(player)s won the match: you ran out of time."),
        "abandoned": _("%(player)s won the match: you left the table and they claimed it."),
    }.get(reason, _("%(player)s won the match.")) % other


def _clock_context(match: PublicMatch, seat: int | None, turn: int, opponent_present: bool) -> dict:
    """The move clock of the player to act, or how long until an abandoned match may be
    claimed. Seconds as of this render: the page counts them down (static/js/clock.js)."""
    now = timezone.now()
    if match.deadline is not None:
        left = max(0, int((match.deadline - now).total_seconds()))
        return {"clock_seat": turn, "clock_seconds": left, "clock_text": minutes(left)}
    opens = match.claim_opens_at
    if opens is None or seat is None or turn == seat or opponent_present:
        return {}
    wait = max(0, int((opens - now).total_seconds()))
    return {"claim_seconds": wait, "claim_text": minutes(wait)}


def minutes(seconds: int) -> str:
    """``75`` -> ``"1:15"``: the way a clock shows time left."""
    return f"{seconds // 60}:{seconds % 60:02d}"


def _prompt(view, seat, names) -> str:
    if view.phase == "match_over":
        return ""
    if seat is None or view.turn != seat:
        return _("Waiting for %(player)s.") % {"player": names[view.turn]}
    suit = {"suit": SUIT_NAMES.get(view.upcard_suit or "", "")}
    phase = view.phase
    if phase == "name_joker":
        return _("The joker was turned up: name its suit.")
    if phase == "round_one":
        if view.dealer == seat:
            return _("Accept it to take the upcard up and make %(suit)s trump, or pass.") % suit
        return _("Order it up to make %(suit)s trump, or pass.") % suit
    if phase == "dealer_decides":
        return _("You were ordered up: take the upcard into your hand, or leave it.")
    if phase == "discard":
        return _("Discard one card face down.")
    if phase == "round_two":
        if "pass" in view.legal_actions:
            return _("Name any suit but %(suit)s as trump, or pass.") % suit
        return _("Name any suit but %(suit)s as trump: the dealer must name one.") % suit
    if not view.trick:
        return _("Your lead: play any card.")
    return _("Your turn: follow suit if you can.")


def move_words(player: str, text: str) -> str:
    """One move as a sentence: "alice plays the ten of hearts"."""
    kind, _sep, arg = text.partition(":")
    who = {"player": player}
    if kind == "name":
        return _("%(player)s names %(suit)s") % {**who, "suit": SUIT_NAMES[arg]}
    if kind == "joker":
        return _("%(player)s makes the joker %(suit)s") % {**who, "suit": SUIT_NAMES[arg]}
    if kind == "discard":
        return _("%(player)s discards %(card)s") % {**who, "card": Card(arg).name}
    if kind == "play":
        return _("%(player)s plays %(card)s") % {**who, "card": Card(arg).name}
    return {
        "pass": _("%(player)s passes"),
        "order_up": _("%(player)s orders it up"),
        "accept": _("%(player)s accepts it"),
        "take_up": _("%(player)s takes it up"),
        "leave": _("%(player)s leaves it"),
    }[kind] % who


def replay_context(match: Match, step: int) -> dict:
    """Everything face up, at ``step`` (0: the first deal; n: after the n-th move)."""
    moves = list(match.moves.order_by("seq").values_list("seat", "action"))
    step = max(0, min(step, len(moves)))
    state = replay(int(match.seed), match.rules, (Action.parse(s, a) for s, a in moves[:step]))
    names = [p.username for p in match.players]
    trump = NO_TRUMP if state.trump is None else state.trump
    hands = [
        [Card(CODES[c]) for c in sorted(state.hand_cards(seat), key=lambda c: sort_key(c, trump))]
        for seat in (0, 1)
    ]
    final = replay(int(match.seed), match.rules, (Action.parse(s, a) for s, a in moves))
    summary = [
        {
            "number": r.number + 1,
            "dealer": names[r.dealer],
            "trump": SUIT_SYMBOLS.get(SUIT_CODES[r.trump], "") if r.trump is not None else "",
            "trump_name": SUIT_NAMES[SUIT_CODES[r.trump]] if r.trump is not None else "",
            "maker": names[r.maker] if r.maker is not None else "",
            "tricks": r.tricks_won[r.maker] if r.maker is not None else None,
            "points": r.points,
            "outcome": r.outcome.value,
            "current": r.number == state.hand_number,
        }
        for r in final.results
    ]
    last = moves[step - 1] if step else None
    # The same summary as the table's, beside the next deal; face up, so the discard too.
    hand_summary_now = None
    if state.results and (not state.tricks or state.is_over):
        shown = view_for(state, state.results[-1].dealer).results[-1]
        hand_summary_now = hand_summary(shown, names, None)
    return {
        "match": match,
        "names": names,
        "step": step,
        "steps": len(moves),
        "hands": hands,
        "upcard": Card(CODES[state.upcard]),
        "upcard_fate_words": {
            "face_up": _("face up"),
            "taken_up": _("taken up by %(player)s") % {"player": names[state.dealer]},
            "left": _("left on the stock"),
            "turned_down": _("turned down"),
        }[state.upcard_fate.value],
        "discard": Card(CODES[state.discard]) if state.discard is not None else None,
        "trick": [{"name": names[s], "card": Card(CODES[c])} for s, c in state.trick],
        "last_trick": (
            [{"name": names[s], "card": Card(CODES[c])} for s, c in state.tricks[-1].plays]
            if state.tricks
            else []
        ),
        "trump_name": SUIT_NAMES[SUIT_CODES[state.trump]] if state.trump is not None else "",
        "trump_symbol": SUIT_SYMBOLS[SUIT_CODES[state.trump]] if state.trump is not None else "",
        "maker_name": names[state.maker] if state.maker is not None else "",
        "dealer_name": names[state.dealer],
        "hand_number": state.hand_number + 1,
        "scores": state.scores,
        "tricks_won": state.tricks_won,
        "last_move": move_words(names[last[0]], last[1]) if last else _("The first deal."),
        "summary": summary,
        "hand_summary": hand_summary_now,
        "commitment": commitment(int(match.seed)),
        "report_reasons": Report.Reason.choices,
    }


def log_words(entry, names, seat) -> str:
    """One line of the move log, in the viewer's language: never a card the viewer did not
    see (the view gives the discard's card to the dealer only)."""
    who = names[entry.seat] if entry.seat is not None else ""
    if entry.kind == "deal":
        return _("Hand %(number)s: %(player)s deals; the upcard is %(card)s.") % {
            "number": entry.hand + 1,
            "player": who,
            "card": Card(entry.card).name,
        }
    if entry.kind == "bid" and entry.suit:
        line = {
            "order_up": _("%(player)s orders up %(suit)s"),
            "accept": _("%(player)s takes up the upcard: %(suit)s are trump"),
        }[entry.action]
        return line % {"player": who, "suit": SUIT_NAMES[entry.suit]}
    if entry.kind == "bid":
        return move_words(who, entry.action)
    if entry.kind == "discard":
        if entry.card:
            return move_words(who, f"discard:{entry.card}")
        return _("%(player)s discards a card face down") % {"player": who}
    if entry.kind == "play":
        return move_words(who, f"play:{entry.card}")
    if entry.kind == "trick":
        return _("%(player)s wins the trick") % {"player": who}
    return _outcome_line(entry, seat, names)


def hand_log(view, names) -> list[dict]:
    """The log's lines, each with a key that stays the same from push to push (the page
    appends only the lines it has not shown, so a screen reader hears each once)."""
    counts: dict[int, int] = {}
    lines = []
    names, language = tuple(names), get_language()
    for entry in view.log:
        counts[entry.hand] = counts.get(entry.hand, 0) + 1
        lines.append(
            {
                "key": f"{entry.hand}-{counts[entry.hand]}",
                "kind": entry.kind,
                "mine": entry.seat == view.seat and entry.kind in ("bid", "discard", "play"),
                "text": _log_line(entry, names, view.seat, language),
            }
        )
    return lines


@lru_cache(maxsize=32_768)  # a hand's lines for every match a busy process serves, both seats
def _log_line(entry, names: tuple[str, str], seat, language: str) -> str:
    """``log_words``, remembered: a line is worded once per viewer and language, not again at
    every later move of its hand (``language``: the one active, part of the cache's key)."""
    return log_words(entry, names, seat)


POINTS_WHY = {
    "made": gettext_lazy("made: 1 point to %(player)s"),
    "march": gettext_lazy("march: 2 points to %(player)s"),
    "euchred": gettext_lazy("euchred: 2 points to the defender, %(player)s"),
}


def hand_summary(result, names, seat) -> dict:
    """A finished hand, as the table tells it: who made what trump, the tricks of each side,
    the points and why, and (for that hand's dealer only) the discard."""
    summary = {
        "number": result.number + 1,
        "outcome": result.outcome,
        "points": result.points,
        "discard": Card(result.discard) if result.discard else None,
        "dealer": names[result.dealer],
    }
    if result.outcome == "passed_out":
        summary["line"] = _outcome_line(result, seat, names)
        return summary
    scorer = result.maker if result.outcome != "euchred" else result.maker ^ 1
    summary.update(
        {
            "made": _("%(player)s made %(suit)s trump")
            % {
                "player": names[result.maker],
                "suit": SUIT_NAMES[result.trump],
            },
            "tricks": [{"name": names[s], "count": result.tricks_won[s]} for s in (0, 1)],
            "why": POINTS_WHY[result.outcome] % {"player": names[scorer]},
            "line": _outcome_line(result, seat, names),
        }
    )
    return summary


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
