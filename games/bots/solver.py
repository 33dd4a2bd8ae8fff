"""The exact value of one hand's play when both hands are known (a determinized deal).

The hard bot samples the opponent's hand many times and asks this module, for each sample,
what each of its actions is worth. With both hands on the table the play is a two-player game
of perfect information, solved exactly by alpha-beta: "can the maker still take ``k`` tricks?"
is a yes/no question, so each search is a null window and cuts off at the first refutation.
Points follow from two such questions (3 tricks made, 5 a march), which is why the solver never
needs the exact trick count.

Of a seat's cards of one suit with no card of the other seat (nor the card led) between them,
one is searched: they win and lose the same tricks against every card still in play, so
whatever one of them achieves the other does too, and the answer is the same.
"""

from __future__ import annotations

from games.engine.cards import EFFECTIVE_SUIT, POWER, SUIT_MASK, cards_in

TRICKS_PER_HAND = 5

# ABOVE[trump][card]: the cards of the card's suit (as trump makes it) that beat it.
ABOVE: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(
            1 << other
            for other in range(33)
            if EFFECTIVE_SUIT[trump][other] == EFFECTIVE_SUIT[trump][card]
            and POWER[trump][EFFECTIVE_SUIT[trump][card]][other]
            > POWER[trump][EFFECTIVE_SUIT[trump][card]][card]
        )
        for card in range(33)
    )
    for trump in range(4)
)


def points_for_maker(tricks: int) -> int:
    """docs/RULES.md, "Scoring", from the maker's side: march +2, made +1, euchred -2."""
    if tricks == TRICKS_PER_HAND:
        return 2
    return 1 if tricks >= 3 else -2


class Solver:
    """Solves positions for one trump suit and one maker; the table is shared across samples
    (its keys are whole positions, so a position met again in another sample is not re-searched)."""

    def __init__(self, trump: int, maker: int):
        self.trump = trump
        self.maker = maker
        self.table: dict[tuple, bool] = {}
        # The cards of a set of moves, high first: the same few hands' sets come up at every
        # node of a search, and a lookup is cheaper than taking the mask apart again.
        self.high_first: dict[int, tuple[int, ...]] = {}

    def maker_points(self, hands: tuple[int, int], turn: int, lead: int | None, made: int) -> int:
        """Points the maker scores from here under best play by both seats.

        ``hands`` are the two seats' masks, ``turn`` the seat to play, ``lead`` the card already
        led to the current trick (None at a trick's start), ``made`` the maker's tricks so far.
        """
        lead = -1 if lead is None else lead
        h0, h1 = hands
        if not self._can(h0, h1, turn, lead, 3 - made):
            return -2
        return 2 if self._can(h0, h1, turn, lead, TRICKS_PER_HAND - made) else 1

    def _can(self, h0: int, h1: int, turn: int, lead: int, need: int) -> bool:
        """True if the maker can still take ``need`` more tricks against any defence."""
        if need <= 0:
            return True
        hand = h1 if turn else h0
        if need > hand.bit_count():
            return False
        key = (h0, h1, turn, lead, need)
        known = self.table.get(key)
        if known is not None:
            return known
        trump = self.trump
        maker_moves = turn == self.maker
        others = h0 if turn else h1  # the other seat's cards, and the card led
        if lead < 0:
            moves = hand
        else:
            led = EFFECTIVE_SUIT[trump][lead]
            moves = hand & SUIT_MASK[trump][led] or hand
            power = POWER[trump][led]
            beat = power[lead]
            others |= 1 << lead
        result = not maker_moves
        # High cards first: the likeliest refutation for either side is to win the trick.
        order = self.high_first.get(moves)
        if order is None:
            order = self.high_first[moves] = cards_in(moves)[::-1]
        above, suits = ABOVE[trump], EFFECTIVE_SUIT[trump]
        runs = []  # of each run searched: the other cards above it, and its suit
        for card in order:
            run = (above[card] & others) << 2 | suits[card]
            if run in runs:  # a card of a run searched already: the same answer
                continue
            runs.append(run)
            rest = hand ^ (1 << card)
            n0, n1 = (h0, rest) if turn else (rest, h1)
            if lead < 0:
                ok = self._can(n0, n1, turn ^ 1, card, need)
            else:
                winner = turn if power[card] > beat else turn ^ 1
                ok = self._can(n0, n1, winner, -1, need - (winner == self.maker))
            if ok is maker_moves:
                result = ok
                break
        self.table[key] = result
        return result
