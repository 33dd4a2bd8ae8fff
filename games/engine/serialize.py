"""States to and from plain JSON data, for the database snapshot; and a match's record.

The snapshot holds everything, the seed and hidden cards included: it never leaves the server.
What players see is built by ``view_for``, never from this.

The record (docs/EXPORT.md) is an ended match told in full: its options, seed and commitment,
result and every action, as JSON data or as text (headers, then a line of actions a hand).
Nobody may have it before the match is over: the seed in it gives away every deal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .cards import CODES
from .rules import apply, legal_actions, new_match, replay
from .selfplay import transcript
from .state import (
    Action,
    ActionKind,
    HandOutcome,
    HandResult,
    Phase,
    Rules,
    State,
    Trick,
    UpcardFate,
)
from .verify import commitment


def _trick(trick: Trick) -> list:
    return [trick.leader, [list(play) for play in trick.plays], trick.winner]


def _untrick(data: list) -> Trick:
    leader, plays, winner = data
    return Trick(leader, tuple((seat, card) for seat, card in plays), winner)


def _bids(bids: tuple[Action, ...]) -> list:
    return [[a.seat, str(a)] for a in bids]


def _unbids(data: list) -> tuple[Action, ...]:
    return tuple(Action.parse(seat, text) for seat, text in data)


def state_to_json(state: State) -> dict:
    return {
        "rules": state.rules.as_dict(),
        "seed": str(state.seed),  # 128-bit: too big for JSON numbers in most readers
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "scores": list(state.scores),
        "phase": state.phase.value,
        "turn": state.turn,
        "hands": list(state.hands),
        "upcard": state.upcard,
        "upcard_suit": state.upcard_suit,
        "upcard_fate": state.upcard_fate.value,
        "stock": state.stock,
        "bids": _bids(state.bids),
        "trump": state.trump,
        "maker": state.maker,
        "discard": state.discard,
        "leader": state.leader,
        "trick": [list(play) for play in state.trick],
        "tricks": [_trick(t) for t in state.tricks],
        "results": [
            {
                "number": r.number,
                "dealer": r.dealer,
                "upcard": r.upcard,
                "bids": _bids(r.bids),
                "discard": r.discard,
                "trump": r.trump,
                "maker": r.maker,
                "tricks": [_trick(t) for t in r.tricks],
                "tricks_won": list(r.tricks_won),
                "points": list(r.points),
                "outcome": r.outcome.value,
            }
            for r in state.results
        ],
        "winner": state.winner,
    }


def state_from_json(data: dict) -> State:
    return State(
        rules=Rules(**data["rules"]),
        seed=int(data["seed"]),
        hand_number=data["hand_number"],
        dealer=data["dealer"],
        scores=tuple(data["scores"]),
        phase=Phase(data["phase"]),
        turn=data["turn"],
        hands=tuple(data["hands"]),
        upcard=data["upcard"],
        upcard_suit=data["upcard_suit"],
        upcard_fate=UpcardFate(data["upcard_fate"]),
        stock=data["stock"],
        bids=_unbids(data["bids"]),
        trump=data["trump"],
        maker=data["maker"],
        discard=data["discard"],
        leader=data["leader"],
        trick=tuple((seat, card) for seat, card in data["trick"]),
        tricks=tuple(_untrick(t) for t in data["tricks"]),
        results=tuple(
            HandResult(
                number=r["number"],
                dealer=r["dealer"],
                upcard=r["upcard"],
                bids=_unbids(r["bids"]),
                discard=r["discard"],
                trump=r["trump"],
                maker=r["maker"],
                tricks=tuple(_untrick(t) for t in r["tricks"]),
                tricks_won=tuple(r["tricks_won"]),
                points=tuple(r["points"]),
                outcome=HandOutcome(r["outcome"]),
            )
            for r in data["results"]
        ),
        winner=data["winner"],
    )


RECORD_FORMAT = "euchre-record"
RECORD_VERSION = 1


def record(
    *,
    match_id: int,
    players: list[dict],
    rules: Rules,
    rated: bool,
    move_seconds: int | None,
    seed: int,
    started_at: str | None,
    ended_at: str | None,
    status: str,
    end_reason: str | None,
    winner: int | None,
    actions: list[tuple[int, int, str, int | None]],
) -> dict:
    """The JSON record of an ended match; ``actions``: (seq, seat, action, version), in order.
    The score comes from replaying them; each finished hand is told as a self-play transcript
    line (CONTRIBUTING.md, "Self-play transcripts")."""
    moves = [Action.parse(seat, action) for _seq, seat, action, _version in actions]
    state, legal_cards = _replay_noting_legal_cards(seed, rules, moves)
    return {
        "format": RECORD_FORMAT,
        "format_version": RECORD_VERSION,
        "match_id": match_id,
        "players": players,
        "rules": rules.as_dict(),
        "rated": rated,
        "move_seconds": move_seconds,
        "seed": str(seed),
        "commitment": commitment(seed),
        "started_at": started_at,
        "ended_at": ended_at,
        "result": {
            "status": status,
            "end_reason": end_reason,
            "winner": winner,
            "scores": list(state.scores),
        },
        "actions": [
            {"seq": seq, "seat": seat, "action": action, "version": version}
            for seq, seat, action, version in actions
        ],
        "hands": list(transcript(match_id, seed, rules, state, legal_cards)),
    }


def _replayed(state: State, actions: Iterable[Action]) -> Iterator[tuple[State, Action, State]]:
    """Each action with the states before and after it, from ``state`` on."""
    for act in actions:
        after = apply(state, act)
        yield state, act, after
        state = after


def _replay_noting_legal_cards(
    seed: int, rules: Rules, actions: list[Action]
) -> tuple[State, list[list[list[str]]]]:
    """The state after ``actions``, and per hand the legal cards of every play (as
    ``selfplay.play_match`` notes them for the transcript)."""
    state = new_match(seed, rules)
    legal_cards: list[list[list[str]]] = [[]]
    for before, act, after in _replayed(state, actions):
        if act.kind is ActionKind.PLAY:
            legal = [CODES[a.card] for a in legal_actions(before) if a.kind is ActionKind.PLAY]
            legal_cards[-1].append(sorted(legal))
        if after.hand_number != before.hand_number:
            legal_cards.append([])
        state = after
    return state, legal_cards


def record_state(data: dict) -> State:
    """A record's match replayed from its seed, rules and actions (raises ``IllegalAction``
    on an action the rules refuse, ``ValueError`` on bad rules or seed)."""
    actions = (Action.parse(move["seat"], move["action"]) for move in data["actions"])
    return replay(int(data["seed"]), Rules(**data["rules"]), actions)


# The text form: [Tag "value"] lines in this order, a blank line, then one line a hand.
_TAGS = (
    "Format", "Match", "Seat0", "Seat1", "Deck", "Target", "StickTheDealer",
    "DealerMustTakeUp", "Rated", "Clock", "Seed", "Commitment", "Started", "Ended",
    "Status", "EndReason", "Winner", "Score",
)  # fmt: skip
_NEEDED = ("Format", "Seed", "Deck", "Target", "StickTheDealer", "DealerMustTakeUp")
_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9]*) "((?:[^"\\]|\\.)*)"\]')
_HAND = re.compile(r"([0-9]+)\.")
_COMMENT = re.compile(r"\{[^{}]*\}")


def _quoted(value: object) -> str:
    text = "" if value is None else str(value)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def record_text(data: dict) -> str:
    """The record as text: a person reads it, ``record_from_text`` reads it back (all but the
    players' ids and bot flags, the moves' versions and the transcript of each hand)."""
    rules, result = data["rules"], data["result"]
    names = [p["username"] if p else None for p in data["players"]]
    values = (
        f"{data['format']} {data['format_version']}", data["match_id"], names[0], names[1],
        rules["deck"], rules["target"], _yes_no(rules["stick_the_dealer"]),
        _yes_no(rules["dealer_must_take_up"]), _yes_no(data["rated"]), data["move_seconds"],
        data["seed"], data["commitment"], data["started_at"], data["ended_at"],
        result["status"], result["end_reason"], result["winner"],
        "-".join(str(score) for score in result["scores"]),
    )  # fmt: skip
    lines = [f"[{tag} {_quoted(value)}]" for tag, value in zip(_TAGS, values, strict=True)]
    lines.append("")
    lines += _hand_lines(data)
    return "\n".join(lines) + "\n"


def _hand_lines(data: dict) -> list[str]:
    """One line a hand: its number, its actions (seat:action), and once the hand is over a
    comment that sums it up; a hand the match ended in (a resignation...) has none."""
    start = new_match(int(data["seed"]), Rules(**data["rules"]))
    actions = [Action.parse(move["seat"], move["action"]) for move in data["actions"]]
    lines: list[str] = []
    tokens: list[str] = []
    for before, act, after in _replayed(start, actions):
        tokens = tokens or [f"{before.hand_number + 1}."]
        tokens.append(f"{act.seat}:{act}")
        if after.hand_number != before.hand_number or after.is_over:
            lines.append(" ".join([*tokens, _summary(after.results[-1], after.scores)]))
            tokens = []
    if tokens:
        lines.append(" ".join(tokens))
    return lines


def _summary(result: HandResult, scores: tuple[int, int]) -> str:
    if result.outcome is HandOutcome.PASSED_OUT:
        return "{passed out}"
    return (
        f"{{maker {result.maker} {result.outcome.value}, "
        f"tricks {result.tricks_won[0]}-{result.tricks_won[1]}, "
        f"points {result.points[0]}-{result.points[1]}, score {scores[0]}-{scores[1]}}}"
    )


def record_from_text(text: str) -> dict:
    """A record's text read back into its JSON data, less what the text leaves out (the
    players' ids and bot flags and ``hands``: absent; the moves' versions: None). Raises
    ``ValueError`` saying what is wrong, and on which line."""
    lines = text.splitlines()
    at = 0
    while at < len(lines) and not lines[at].strip():
        at += 1
    tags: dict[str, str] = {}
    while at < len(lines) and (found := _TAG.fullmatch(lines[at].strip())):
        tags[found.group(1)] = re.sub(r"\\(.)", r"\1", found.group(2))
        at += 1
    if not tags:
        raise ValueError(f'line {at + 1}: a record starts with [Tag "value"] lines')
    missing = [tag for tag in _NEEDED if not tags.get(tag)]
    if missing:
        raise ValueError(f"the record lacks the tags {', '.join(missing)}")
    data = _header_data(tags)
    data["actions"] = _actions_from_lines(lines[at:], at + 1)
    return data


def _flag(value: str) -> bool:
    if value not in ("yes", "no"):
        raise ValueError(value)
    return value == "yes"


def _seat(value: str) -> int:
    if value not in ("0", "1"):
        raise ValueError(value)
    return int(value)


def _scores(value: str) -> list[int]:
    first, second = value.split("-")  # two whole numbers, or ValueError
    return [int(first), int(second)]


def _seed(value: str) -> str:
    if not value.isdigit():
        raise ValueError(value)
    return str(int(value))


def _header_data(tags: dict[str, str]) -> dict:
    kind, _space, version = tags["Format"].partition(" ")
    if kind != RECORD_FORMAT or not version.isdigit():
        raise ValueError(f'Format is "{RECORD_FORMAT} <version>", not {tags["Format"]!r}')
    if int(version) > RECORD_VERSION:
        raise ValueError(f"this record is format {version}: this reader knows {RECORD_VERSION}")

    def get(tag: str, read=str):
        value = tags.get(tag, "")
        if value == "":
            return None
        try:
            return read(value)
        except ValueError:
            raise ValueError(f"{tag} cannot be {value!r}") from None

    return {
        "format": RECORD_FORMAT,
        "format_version": int(version),
        "match_id": get("Match", int),
        "players": [{"seat": 0, "username": get("Seat0")}, {"seat": 1, "username": get("Seat1")}],
        "rules": {
            "deck": get("Deck", int),
            "target": get("Target", int),
            "stick_the_dealer": get("StickTheDealer", _flag),
            "dealer_must_take_up": get("DealerMustTakeUp", _flag),
        },
        "rated": get("Rated", _flag),
        "move_seconds": get("Clock", int),
        "seed": get("Seed", _seed),
        "commitment": get("Commitment"),
        "started_at": get("Started"),
        "ended_at": get("Ended"),
        "result": {
            "status": get("Status"),
            "end_reason": get("EndReason"),
            "winner": get("Winner", _seat),
            "scores": get("Score", _scores),
        },
    }


def _actions_from_lines(lines: list[str], first_number: int) -> list[dict]:
    actions: list[dict] = []
    hand = 0
    for number, line in enumerate(lines, first_number):
        text = _COMMENT.sub(" ", line)
        if "{" in text or "}" in text:
            raise ValueError(f"line {number}: a comment is {{...}}, on one line")
        for token in text.split():
            marker = _HAND.fullmatch(token)
            if marker:
                if int(marker.group(1)) != hand + 1:
                    raise ValueError(f"line {number}: hand {hand + 1} comes next, not {token}")
                hand += 1
                continue
            seat, colon, action = token.partition(":")
            if not colon or seat not in ("0", "1"):
                raise ValueError(f"line {number}: {token!r} is not seat:action (as 0:pass)")
            try:
                Action.parse(int(seat), action)
            except ValueError:
                raise ValueError(f"line {number}: {action!r} is not an action") from None
            actions.append(
                {"seq": len(actions) + 1, "seat": int(seat), "action": action, "version": None}
            )
    return actions
