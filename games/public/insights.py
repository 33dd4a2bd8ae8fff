"""A player's insights as values (``Insights``), and as the API's JSON (``insights_json``):
the page (``games.presentation.insights``) and the API (``GET /api/v1/players/{name}/insights``)
are both made from the one value the selector builds (``games.db.selectors.insights``), and
the API's schema (``games.api.schemas.Insights``) is checked against this JSON by the tests.

A figure built from fewer than ``MINIMUM`` hands (or decisions) has no value: the page says
so rather than show a number that means nothing yet.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date

MINIMUM = 20  # hands (or decisions) a figure needs before it is shown
BAND = 100  # the rating band: players rated within this of the player
PERIODS = {"30": 30, "90": 90, "365": 365, "all": None}  # days back (None: every match)
RATED = ("all", "rated", "casual")
OPPONENTS = ("all", "people", "computer")
DECKS = (24, 25, 32)
TARGETS = (5, 7, 10, 11)
TRUMPS = ("1", "2", "3", "4+")  # trumps held when bidding: none or one, two, three, four or more
BOWERS = ("0", "1", "2+")  # of them bowers (the joker counts as one)
KINDS = ("bid", "discard", "play")  # a decision's kind, for the time taken


@dataclass(frozen=True)
class Filters:
    """Which matches the figures count: ``period`` (a key of PERIODS), rated or casual, against
    people or the computer, the deck and the target (None: any)."""

    period: str = "all"
    rated: str = "all"
    opponent: str = "all"
    deck: int | None = None
    target: int | None = None


@dataclass(frozen=True)
class Measure:
    """A figure over ``count`` hands (or decisions): ``value`` (None: fewer than MINIMUM),
    and for a rate the ``times`` it happened (its value: times / count)."""

    value: float | None
    count: int
    times: int | None = None

    @staticmethod
    def average(total: float | None, count: int, digits: int = 2) -> Measure:
        enough = count >= MINIMUM and total is not None
        return Measure(round(total / count, digits) if enough else None, count)

    @staticmethod
    def rate(times: int, count: int) -> Measure:
        enough = count >= MINIMUM
        return Measure(round(times / count, 4) if enough else None, count, times)

    @property
    def enough(self) -> bool:
        return self.value is not None


@dataclass(frozen=True)
class Figure:
    """One figure for the player and for the players of their rating band."""

    mine: Measure
    band: Measure


@dataclass(frozen=True)
class Outcomes:
    """How a group of bids ended: how many, made (3 or 4 tricks), marched, euchred; the shares
    only from MINIMUM bids on."""

    count: int
    made: int
    march: int
    euchred: int

    @property
    def enough(self) -> bool:
        return self.count >= MINIMUM

    def share(self, outcome: str) -> float | None:
        return round(getattr(self, outcome) / self.count, 4) if self.enough else None


@dataclass(frozen=True)
class BidRow:
    bid: str  # order_up, take_up, name; "all" for the bowers' rows
    held: str  # a key of TRUMPS, or of BOWERS
    mine: Outcomes
    band: Outcomes


@dataclass(frozen=True)
class Point:
    """The accuracy of one week or month (``start``: its first day)."""

    start: date
    loss: float | None  # average points lost a decision (None: too few decisions)
    decisions: int


@dataclass(frozen=True)
class Insights:
    player: str
    filters: Filters
    rating: int
    band_low: int
    band_high: int
    band_players: int  # players in the band with hands counted (the player not among them)
    hands: Figure  # points a hand, every hand
    maker: Figure
    defender: Figure
    dealer: Figure
    not_dealer: Figure
    euchred: Figure  # euchred as maker: a rate over hands as maker
    euchres: Figure  # euchres inflicted as defender: over hands defended
    marches: Figure  # marches as maker: over hands as maker
    bids: list[BidRow]  # by bid and trumps held
    bowers: list[BidRow]  # every bid, by bowers held
    accuracy: Figure  # average points lost a decision (analysed ones)
    over_time: list[Point]
    step: str  # "week" or "month": the length of each point
    seconds: Figure  # average seconds a decision
    seconds_by_kind: dict[str, Figure] = field(default_factory=dict)


def _measure(m: Measure) -> dict:
    return {
        "value": m.value,
        "count": m.count,
        **({"times": m.times} if m.times is not None else {}),
    }


def _figure(f: Figure) -> dict:
    return {"mine": _measure(f.mine), "band": _measure(f.band)}


def _outcomes(o: Outcomes) -> dict:
    return {**asdict(o), "shares": {k: o.share(k) for k in ("made", "march", "euchred")}}


def insights_json(i: Insights) -> dict:
    """The API's JSON of ``i`` (``games.api.schemas.Insights``)."""
    return {
        "player": i.player,
        "filters": asdict(i.filters),
        "minimum": MINIMUM,
        "rating": i.rating,
        "band": {"low": i.band_low, "high": i.band_high, "players": i.band_players},
        "points": {
            name: _figure(getattr(i, name))
            for name in ("hands", "maker", "defender", "dealer", "not_dealer")
        },
        "outcomes": {name: _figure(getattr(i, name)) for name in ("euchred", "euchres", "marches")},
        "bids": [
            {"bid": r.bid, "trumps": r.held, "mine": _outcomes(r.mine), "band": _outcomes(r.band)}
            for r in i.bids
        ],
        "bowers": [
            {"bowers": r.held, "mine": _outcomes(r.mine), "band": _outcomes(r.band)}
            for r in i.bowers
        ],
        "accuracy": {
            **_figure(i.accuracy),
            "step": i.step,
            "over_time": [
                {"start": p.start.isoformat(), "loss": p.loss, "decisions": p.decisions}
                for p in i.over_time
            ],
        },
        "seconds": {
            **_figure(i.seconds),
            "by_kind": {k: _figure(f) for k, f in i.seconds_by_kind.items()},
        },
    }
