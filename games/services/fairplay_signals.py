"""The fair-play signals: computed by the task worker after each rated match's analysis, for
each of its two players, over the player's last ``WINDOW`` rated matches, beside the same
figures of the players of their rating band and of the player's own earlier matches; a signal
at or beyond its threshold raises a flag (``fairplay.raise_flag``), which by itself changes
nothing for the player. Thresholds, how each was set and what the signals cannot see:
docs/FAIRPLAY.md (measured with bench/fairplay.py).

The figures are pure functions of plain rows (``Facts``); ``player_facts`` reads them with a
fixed handful of queries whatever the window (never a query per match), from what the site
already keeps: the matches, each choice's think time and loss (``InsightDecision``), the
stored analysis (each option's value: a decision's spread; the chances at a resignation), the
way each move came in (``Move.way``) and the hashed addresses of log-ins (``AccountEvent``).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db.models import Count, Q

from .. import rating as elo
from ..models import (
    AccountEvent,
    EndReason,
    InsightDecision,
    Match,
    MatchAnalysis,
    MatchStatus,
    Move,
    PlayerRating,
    is_bot,
)
from ..public.insights import BAND
from . import fairplay

WINDOW = 20  # a player's recent rated matches the signals are computed over
HISTORY = 20  # the matches before the window: the player's own earlier figures
BAND_MATCHES = 60  # the band's most recent analysed rated matches its figures come from
# A band player's figure counts with this many decisions that matter (their part of the band's
# matches is a few of them: the band's median is of figures over fewer decisions).
BAND_MIN_DECISIONS = 20

# A decision "matters" when its options differ by at least this many points (its spread, from
# the analysis: the best option's value less the worst's); agreement and timing read only these.
MATTERS = 0.1
AGREED = 0.005  # a loss under this is the best choice (losses are kept to the hundredth)
MIN_DECISIONS = 60  # fewer decisions that matter in the window: no agreement, loss, timing
MIN_LOSSES = 4  # fewer lost matches in the window: no stalling
API_WAYS = ("api_post", "api_socket")
CHEAP_ENDS = (EndReason.TIMEOUT, EndReason.ABANDONED)
EARLY_MOVES = 40  # a loss on time or by leaving before this many moves is an early one
BALANCED = 0.25  # a resignation while the resigner's chance was at least this is balanced

# The thresholds, set from bench/fairplay.py's measured distributions (docs/FAIRPLAY.md).
THRESHOLDS = {
    "agreement": 0.97,  # share of decisions that matter where the best was chosen: flags high
    "loss": 0.002,  # average points lost per decision: flags LOW
    "timing": 0.75,  # 1 - rank correlation of think time with spread: flags high (see below)
    "evenness": 0.30,  # the think times' coefficient of variation: flags LOW
    "api_moves": 0.10,  # share of the window's moves made through the API: flags high
    "trading": 3.0,  # cheap losses to one opponent, one-sided: flags high
    "stalling": 0.40,  # share of lost matches left to the clock or abandoned: flags high
}
# A correlation over n decisions wanders by about 1/sqrt(n): timing's threshold is the honest
# median ("timing" above) plus TIMING_NOISE/sqrt(n), above every honest window measured.
TIMING_NOISE = 4.0
TRADING_SHARED_ADDRESS = 2.0  # the trading threshold when the two share an address
ONE_SIDED = 0.8  # the loser lost at least this share of the pair's matches


@dataclass(frozen=True)
class Played:
    """One rated match of a player's window, as the signals need it."""

    match_id: int
    opponent_id: int | None
    won: bool
    lost: bool
    end_reason: str
    moves: int
    # A resignation's: the chance to win (every card known) its loser had; None otherwise.
    resigned_chance: float | None = None


@dataclass(frozen=True)
class Choice:
    """One decision of the player: its match, think time (None: untimed), loss and spread."""

    match_id: int
    seconds: float | None
    loss: float | None
    spread: float | None


@dataclass
class Facts:
    """What the signals of one player are computed from."""

    player_id: int
    bot: bool
    played: list[Played]  # the window, newest first
    choices: list[Choice]  # the window's decisions
    earlier: list[Choice] = field(default_factory=list)  # the decisions before the window
    moves: int = 0  # the player's moves in the window
    api_moves: int = 0  # of which through the API
    api_matches: list[int] = field(default_factory=list)
    shared: set[int] = field(default_factory=set)  # opponents sharing a hashed address
    names: dict[int, str] = field(default_factory=dict)  # opponents' names, for the detail


# -- the figures (pure) -----------------------------------------------------------------------


def agreement(choices: list[Choice], minimum: int = MIN_DECISIONS) -> tuple[float | None, int, int]:
    """The share of analysed decisions that matter where the best choice was made: (share or
    None below ``minimum`` decisions, decisions, agreeing)."""
    counted = [c for c in choices if c.loss is not None and (c.spread or 0) >= MATTERS]
    agreeing = sum(1 for c in counted if c.loss < AGREED)
    if len(counted) < minimum:
        return None, len(counted), agreeing
    return agreeing / len(counted), len(counted), agreeing


def average_loss(choices: list[Choice], minimum: int = MIN_DECISIONS) -> tuple[float | None, int]:
    """The average loss per analysed decision, in points (None below ``minimum``)."""
    losses = [c.loss for c in choices if c.loss is not None]
    if len(losses) < minimum:
        return None, len(losses)
    return sum(losses) / len(losses), len(losses)


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2  # ties share their average rank
        i = j + 1
    return ranks


def spearman(xs: list[float], ys: list[float]) -> float:
    """The rank correlation of two lists (0 when either is constant)."""
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return 0.0 if vx == 0 or vy == 0 else cov / (vx * vy) ** 0.5


def timing(choices: list[Choice], minimum: int = MIN_DECISIONS) -> tuple[float | None, int, float]:
    """How unlike a person's the think times are: 1 less the rank correlation of each timed
    decision's seconds with its spread (a person thinks longer on the decisions that matter:
    about 0.5; times that ignore the decision, uniform or random, about 1; fast on the hard
    ones and slow on the trivial ones, above 1). (figure or None below ``minimum`` timed
    decisions, timed decisions, the times' coefficient of variation)."""
    timed = [c for c in choices if c.seconds is not None and c.spread is not None]
    seconds = [c.seconds for c in timed]
    spread = statistics.pstdev(seconds) / statistics.fmean(seconds) if len(seconds) > 1 else 0.0
    if len(timed) < minimum:
        return None, len(timed), spread
    return 1 - spearman(seconds, [c.spread for c in timed]), len(timed), spread


def timing_limit(timed: int) -> float:
    """Timing's threshold over ``timed`` decisions: the honest median plus the noise allowance
    a correlation over that many has (TIMING_NOISE/sqrt(n))."""
    return round(THRESHOLDS["timing"] + TIMING_NOISE / timed**0.5, 4)


def cheap(played: Played) -> bool:
    """A loss that cost its loser nothing to give: on time or by leaving early in the match,
    or a resignation while the position was balanced."""
    if not played.lost:
        return False
    if played.end_reason in CHEAP_ENDS:
        return played.moves < EARLY_MOVES
    if played.end_reason == EndReason.RESIGNED:
        return played.resigned_chance is not None and played.resigned_chance >= BALANCED
    return False


def trading(played: list[Played], opponent: int) -> tuple[int, int, int, list[int]]:
    """With one opponent: (matches, the one-sided loser's cheap losses, 0 if the player lost
    them else 1, the matches). Both sides of a pair read the same figure: the one who lost
    the pair's matches gave the points, the other took them."""
    pair = [p for p in played if p.opponent_id == opponent]
    mine = [p for p in pair if p.lost]
    theirs = [p for p in pair if p.won]
    # Seen from the opponent's side, the player's wins are their losses; whether each was
    # cheap for them is the same facts with the sides swapped.
    given = sum(1 for p in mine if cheap(p))
    taken = sum(
        1 for p in theirs if cheap(Played(p.match_id, None, False, True, p.end_reason, p.moves,
                                          p.resigned_chance))
    )  # fmt: skip
    if len(mine) >= ONE_SIDED * len(pair) and given >= taken:
        return len(pair), given, 0, [p.match_id for p in pair]
    if len(theirs) >= ONE_SIDED * len(pair):
        return len(pair), taken, 1, [p.match_id for p in pair]
    return len(pair), 0, 0, [p.match_id for p in pair]


def stalling(played: list[Played]) -> tuple[float | None, int, int, list[int]]:
    """The share of lost matches left to the clock or abandoned: (share or None below
    MIN_LOSSES, losses, of which left, the matches left)."""
    lost = [p for p in played if p.lost]
    left = [p.match_id for p in lost if p.end_reason in CHEAP_ENDS]
    if len(lost) < MIN_LOSSES:
        return None, len(lost), len(left), left
    return len(left) / len(lost), len(lost), len(left), left


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 4) if values else 0.0


@dataclass(frozen=True)
class Band:
    """The median of each figure over the players of the band (0 when none has enough)."""

    agreement: float = 0.0
    loss: float = 0.0
    timing: float = 0.0
    evenness: float = 0.0
    stalling: float = 0.0
    players: int = 0


def band_of(facts: list[Facts]) -> Band:
    """The band's medians from its players' facts (each player's own figures first, over at
    least BAND_MIN_DECISIONS); stalling, a rare event, pooled over all the band's losses."""
    figures: dict[str, list[float]] = defaultdict(list)
    for f in facts:
        unlike, _timed, variation = timing(f.choices, BAND_MIN_DECISIONS)
        for name, value in (
            ("agreement", agreement(f.choices, BAND_MIN_DECISIONS)[0]),
            ("loss", average_loss(f.choices, BAND_MIN_DECISIONS)[0]),
            ("timing", unlike),
            ("evenness", None if unlike is None else variation),
        ):
            if value is not None:
                figures[name].append(value)
    lost = [p for f in facts for p in f.played if p.lost]
    left = sum(1 for p in lost if p.end_reason in CHEAP_ENDS)
    pooled = round(left / len(lost), 4) if lost else 0.0
    medians = {k: _median(v) for k, v in figures.items()}
    return Band(**medians, stalling=pooled, players=len(facts))


def _signal(kind: str, value: float, band: float, matches, threshold=None, **detail) -> dict:
    return {
        "kind": kind,
        "value": round(value, 4),
        "band": band,
        "threshold": THRESHOLDS[kind] if threshold is None else threshold,
        "matches": sorted({int(m) for m in matches}),
        "detail": detail,
    }


def signals_of(facts: Facts, band: Band = Band()) -> list[dict]:
    """Every signal computed for the player, crossing its threshold or not."""
    out: list[dict] = []
    window = [p.match_id for p in facts.played]
    history = agreement(facts.earlier)[0]
    share, decisions, agreeing = agreement(facts.choices)
    if share is not None:
        out.append(_signal("agreement", share, band.agreement, window, decisions=decisions,
                           agreeing=agreeing, history=history))  # fmt: skip
    loss, analysed = average_loss(facts.choices)
    if loss is not None:
        out.append(_signal("loss", loss, band.loss, window, decisions=analysed,
                           history=average_loss(facts.earlier)[0]))  # fmt: skip
    if not facts.bot:
        unlike, timed, variation = timing(facts.choices)
        if unlike is not None:
            limit = timing_limit(timed)
            out.append(_signal("timing", unlike, band.timing, window, threshold=limit,
                               decisions=timed, variation=round(variation, 3)))  # fmt: skip
            out.append(_signal("evenness", variation, band.evenness, window,
                               decisions=timed))  # fmt: skip
        if facts.moves:
            out.append(_signal("api_moves", facts.api_moves / facts.moves, 0.0,
                               facts.api_matches, moves=facts.moves,
                               api=facts.api_moves))  # fmt: skip
    best = None
    for opponent in {p.opponent_id for p in facts.played if p.opponent_id is not None}:
        n, count, side, matches = trading(facts.played, opponent)
        shared = opponent in facts.shared
        limit = TRADING_SHARED_ADDRESS if shared else THRESHOLDS["trading"]
        key = (count / limit, count)
        if best is None or key > best[0]:
            best = (key, count, limit, matches, opponent, n, side, shared)
    if best is not None:
        _, count, limit, matches, opponent, n, side, shared = best
        out.append(_signal("trading", count, 0.0, matches, threshold=limit, matches_with=n,
                           opponent=facts.names.get(opponent, str(opponent)),
                           gave="player" if side == 0 else "opponent",
                           address_shared=shared))  # fmt: skip
    left_share, lost, left, left_matches = stalling(facts.played)
    if left_share is not None:
        out.append(_signal("stalling", left_share, band.stalling, left_matches, lost=lost,
                           left=left))  # fmt: skip
    return out


def crossing(signal: dict) -> bool:
    """Whether a signal is at or beyond its threshold (the loss and the evenness: at or below
    it)."""
    if signal["kind"] in fairplay.LOW_IS_WORSE:
        return signal["value"] <= signal["threshold"]
    return signal["value"] >= signal["threshold"]


# -- the reads (a fixed handful of queries) ---------------------------------------------------


def _rated_finished():
    return Match.objects.filter(rated=True, status=MatchStatus.FINISHED)


def _analyses(match_ids) -> dict[int, dict]:
    """Each analysed decision's spread, and the seat-0 chance after the last one, by match."""
    rows = MatchAnalysis.objects.filter(match_id__in=match_ids).values_list("match_id", "result")
    out = {}
    for match_id, result in rows:
        spreads = {}
        last = None
        for d in result.get("decisions", ()):
            known = [o["known"] for o in d["options"]]
            spreads[d["index"]] = max(known) - min(known)
            last = d
        out[match_id] = {"spreads": spreads, "chance": None if last is None else last["chance"]}
    return out


def _played(row: dict, player_id: int, analyses: dict) -> Played:
    seat = 0 if row["player0_id"] == player_id else 1
    opponent = row["player1_id"] if seat == 0 else row["player0_id"]
    lost = row["winner_id"] is not None and row["winner_id"] != player_id
    chance = None
    if row["winner_id"] is not None and row["end_reason"] == EndReason.RESIGNED:
        seat0 = (analyses.get(row["pk"]) or {}).get("chance")
        seat0 = 0.5 if seat0 is None else seat0  # resigned before any decision: the start
        resigner = seat if lost else seat ^ 1
        chance = seat0 if resigner == 0 else 1 - seat0
    return Played(
        row["pk"], opponent, row["winner_id"] == player_id, lost, row["end_reason"],
        row["move_count"], chance,
    )  # fmt: skip


_MATCH_FIELDS = ("pk", "player0_id", "player1_id", "winner_id", "end_reason", "move_count")


def _choices(rows, analyses: dict) -> dict[tuple[int, int], list[Choice]]:
    """The decisions by (player, match), each with its spread from the match's analysis."""
    out: dict[tuple[int, int], list[Choice]] = defaultdict(list)
    for player_id, match_id, index, seconds, loss in rows:
        spread = (analyses.get(match_id) or {}).get("spreads", {}).get(index)
        out[player_id, match_id].append(Choice(match_id, seconds, loss, spread))
    return out


_CHOICE_FIELDS = ("player_id", "match_id", "index", "seconds", "loss")


def player_facts(player_id: int) -> Facts:
    """The player's window and earlier matches, read in seven queries at most."""
    mine = _rated_finished().filter(Q(player0_id=player_id) | Q(player1_id=player_id))
    rows = list(mine.order_by("-finished_at", "-pk").values(*_MATCH_FIELDS)[: WINDOW + HISTORY])
    window, earlier = rows[:WINDOW], rows[WINDOW:]
    ids = [r["pk"] for r in rows]
    analyses = _analyses(ids)
    decisions = InsightDecision.objects.filter(match_id__in=ids, player_id=player_id)
    by_match = _choices(decisions.values_list(*_CHOICE_FIELDS), analyses)
    window_ids = [r["pk"] for r in window]
    ways = (
        Move.objects.filter(match_id__in=window_ids, player_id=player_id)
        .values("match_id", "way")
        .annotate(n=Count("pk"))
        .order_by()
    )
    moves, api, api_matches = 0, 0, set()
    for row in ways:
        moves += row["n"]
        if row["way"] in API_WAYS:
            api += row["n"]
            api_matches.add(row["match_id"])
    played = [_played(r, player_id, analyses) for r in window]
    opponents = {p.opponent_id for p in played if p.opponent_id is not None}
    addresses = (
        AccountEvent.objects.filter(user_id__in=[player_id, *opponents], kind="login")
        .exclude(address_hash="")
        .values_list("user_id", "address_hash", "user__username")
        .distinct()
    )
    held: dict[int, set[str]] = defaultdict(set)
    names = {}
    for user_id, address, name in addresses:
        held[user_id].add(address)
        names[user_id] = name
    shared = {o for o in opponents if held[o] & held[player_id]}
    if len(names) < len(opponents) + 1:
        names.update(_names(opponents - names.keys()))
    return Facts(
        player_id=player_id,
        bot=_is_bot(player_id),
        played=played,
        choices=[c for r in window for c in by_match.get((player_id, r["pk"]), ())],
        earlier=[c for r in earlier for c in by_match.get((player_id, r["pk"]), ())],
        moves=moves,
        api_moves=api,
        api_matches=sorted(api_matches),
        shared=shared,
        names=names,
    )


def _names(ids) -> dict[int, str]:
    return dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))


def _is_bot(player_id: int) -> bool:
    user = get_user_model().objects.select_related("settings").filter(pk=player_id).first()
    return is_bot(user)


def band_facts(player_id: int) -> list[Facts]:
    """The facts of the players rated within BAND of the player (not the player), from the
    band's last BAND_MATCHES analysed rated matches: five queries."""
    rated = PlayerRating.objects.filter(user_id=player_id).values_list("value", flat=True).first()
    rating = elo.INITIAL if rated is None else rated
    band_ids = (
        PlayerRating.objects.filter(value__range=(rating - BAND, rating + BAND))
        .exclude(user_id=player_id)
        .values("user_id")
    )
    recent = (
        _rated_finished()
        .exclude(analysed_at=None)
        .filter(Q(player0_id__in=band_ids) | Q(player1_id__in=band_ids))
        .order_by("-finished_at", "-pk")
        .values(*_MATCH_FIELDS)[:BAND_MATCHES]
    )
    rows = list(recent)
    ids = [r["pk"] for r in rows]
    members = set(band_ids.values_list("user_id", flat=True)) if rows else set()
    analyses = _analyses(ids)
    decisions = InsightDecision.objects.filter(match_id__in=ids, player_id__in=members)
    by_match = _choices(decisions.values_list(*_CHOICE_FIELDS), analyses)
    facts = []
    for member in members:
        theirs = [r for r in rows if member in (r["player0_id"], r["player1_id"])]
        if not theirs:
            continue
        facts.append(
            Facts(
                player_id=member,
                bot=False,
                played=[_played(r, member, analyses) for r in theirs],
                choices=[c for r in theirs for c in by_match.get((member, r["pk"]), ())],
            )
        )
    return facts


def signals_compute(*, player_id: int) -> tuple[list[dict], list[int]]:
    """Every signal of the player (crossing or not) and their window's match ids."""
    facts = player_facts(player_id)
    return signals_of(facts, band_of(band_facts(player_id))), [p.match_id for p in facts.played]


def signals_check(*, match_id: int) -> list[dict]:
    """After the rated match ``match_id`` was analysed: each person's signals (not the
    computer's), and a flag raised through ``fairplay.raise_flag`` for a player with any at or
    beyond its threshold. Returns, for each player, {"player_id", "signals" (every one
    computed), "flag" (the flag raised or updated, or None)}."""
    row = (
        Match.objects.filter(pk=match_id, rated=True, status=MatchStatus.FINISHED, computer="")
        .values_list("player0_id", "player1_id")
        .first()
    )
    if row is None:
        return []
    checked = []
    for player_id in row:
        if player_id is None:
            continue
        signals, window = signals_compute(player_id=player_id)
        crossed = [s for s in signals if crossing(s)]
        flag = None
        if crossed:
            player = get_user_model().objects.get(pk=player_id)
            flag = fairplay.raise_flag(player=player, signals=crossed, match_ids=window)
        checked.append({"player_id": player_id, "signals": signals, "flag": flag})
    return checked
