"""Poker hand ranking for Texas Hold'em and Texas 6+ (RULES.md section 1).

A hand is the best five of 5, 6 or 7 cards (S2, S4). :meth:`Ranker.value` gives one integer per
hand, bigger is better and equal means a split pot; it already reflects the game's category order
and options. :meth:`Ranker.best` adds the five cards played and a description a dealer reads out.

Value layout: ``position << 20 | r0 << 16 | r1 << 12 | r2 << 8 | r3 << 4 | r4`` where
``position`` is the category's place in the game's order (0 = lowest) and ``r0..r4`` are the
tie-break ranks of RULES.md section 1, most significant first, unused ones 0:

========================  ==========================================
category                  tie-break ranks
========================  ==========================================
straight (flush)          top card (5 for A-2-3-4-5, 9 for 6+ A-6-7-8-9)
four of a kind            quad rank, kicker
full house                trips rank, pair rank
flush, high card          the five ranks from the top
three of a kind           trips rank, two kickers
two pair                  high pair, low pair, kicker
pair                      pair rank, three kickers
========================  ==========================================

Suits never enter a value, so they never break a tie (R).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from dealer.engine.cards import (
    RANK_FIELD_BITS,
    SUIT_FIELD_BITS,
    SUIT_FIELD_SHIFT,
    SUITS,
    Card,
    CardError,
    DeckKind,
    lowest_rank,
    suit_strength,
)

__all__ = [
    "SIXPLUS_RANKER",
    "STANDARD_RANKER",
    "Category",
    "HandRank",
    "Ranker",
    "describe_win",
]


class Category(IntEnum):
    """Hand categories in the standard order (S1). The 6+ options reorder *values*, not these."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The category's name in plain English, e.g. ``"Two pair"``."""
        return _CATEGORY_LABELS[self]


_CATEGORY_LABELS = {
    Category.HIGH_CARD: "High card",
    Category.PAIR: "Pair",
    Category.TWO_PAIR: "Two pair",
    Category.THREE_OF_A_KIND: "Three of a kind",
    Category.STRAIGHT: "Straight",
    Category.FLUSH: "Flush",
    Category.FULL_HOUSE: "Full house",
    Category.FOUR_OF_A_KIND: "Four of a kind",
    Category.STRAIGHT_FLUSH: "Straight flush",
}

_NAMES = {
    2: ("two", "twos"),
    3: ("three", "threes"),
    4: ("four", "fours"),
    5: ("five", "fives"),
    6: ("six", "sixes"),
    7: ("seven", "sevens"),
    8: ("eight", "eights"),
    9: ("nine", "nines"),
    10: ("ten", "tens"),
    11: ("jack", "jacks"),
    12: ("queen", "queens"),
    13: ("king", "kings"),
    14: ("ace", "aces"),
}

_CATEGORY_SHIFT = 20
_TIE_SHIFTS = (16, 12, 8, 4, 0)

# Masks over the summed Card codes (see cards.py): the 13 rank-count fields, and the constants
# that test every 4-bit suit count for >= 5 at once (adding 3 sets a field's top bit exactly
# when the count is 5, 6 or 7).
_RANK_KEY_MASK = (1 << (13 * RANK_FIELD_BITS)) - 1
_SUIT_FIELDS = tuple(SUIT_FIELD_SHIFT + SUIT_FIELD_BITS * i for i in range(len(SUITS)))
_FLUSH_ADD = sum(3 << shift for shift in _SUIT_FIELDS)
_FLUSH_TEST = sum(8 << shift for shift in _SUIT_FIELDS)
# Rank-count fields of 2, 3, 4 and 5: these cards are not in the 36-card deck.
_BELOW_SIX_FIELDS = (1 << (4 * RANK_FIELD_BITS)) - 1

# How many leading tie-break ranks the plain description names; the rest are kickers.
_MAIN_RANKS = {
    Category.HIGH_CARD: 1,
    Category.PAIR: 1,
    Category.TWO_PAIR: 2,
    Category.THREE_OF_A_KIND: 1,
    Category.STRAIGHT: 1,
    Category.FLUSH: 1,
    Category.FULL_HOUSE: 2,
    Category.FOUR_OF_A_KIND: 1,
    Category.STRAIGHT_FLUSH: 1,
}
_TIE_RANK_COUNT = {
    Category.HIGH_CARD: 5,
    Category.PAIR: 4,
    Category.TWO_PAIR: 3,
    Category.THREE_OF_A_KIND: 3,
    Category.STRAIGHT: 1,
    Category.FLUSH: 5,
    Category.FULL_HOUSE: 2,
    Category.FOUR_OF_A_KIND: 2,
    Category.STRAIGHT_FLUSH: 1,
}


def _name(rank: int) -> str:
    return _NAMES[rank][0]


def _plural(rank: int) -> str:
    return _NAMES[rank][1]


def _tie_ranks(value: int) -> list[int]:
    return [(value >> shift) & 15 for shift in _TIE_SHIFTS]


@dataclass(frozen=True, slots=True, eq=False, order=False)
class HandRank:
    """A ranked hand: ``value`` (bigger is better, equal splits), its category, the five cards
    played in reading order and a description a dealer reads out.

    Comparison and hashing use ``value`` only, so two hands that differ only in suits are equal
    (R: suits never break a tie). Values are only comparable between hands of the same
    :class:`Ranker`.
    """

    value: int
    category: Category
    cards: tuple[Card, ...]
    description: str

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandRank):
            return NotImplemented
        return self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __lt__(self, other: HandRank) -> bool:
        if not isinstance(other, HandRank):
            return NotImplemented
        return self.value < other.value

    def __le__(self, other: HandRank) -> bool:
        if not isinstance(other, HandRank):
            return NotImplemented
        return self.value <= other.value

    def __gt__(self, other: HandRank) -> bool:
        if not isinstance(other, HandRank):
            return NotImplemented
        return self.value > other.value

    def __ge__(self, other: HandRank) -> bool:
        if not isinstance(other, HandRank):
            return NotImplemented
        return self.value >= other.value

    def __str__(self) -> str:
        return self.description


# Caches shared by all rankers of one configuration: rank-count key -> best non-flush value, and
# flush-suit rank mask -> flush or straight flush value. They fill lazily (at most ~74,000 and
# 4,000 entries for the 52-card deck) so importing this module costs nothing.
_Tables = tuple[dict[int, int], dict[int, int]]
_TABLES: dict[tuple[DeckKind, bool, bool], _Tables] = {}


@dataclass(frozen=True, slots=True, kw_only=True)
class Ranker:
    """Ranks hands for one game: the deck and, for Texas 6+, the two category-order options.

    ``flush_beats_full_house`` (``sixplus_flush_beats_full_house``, default False) and
    ``trips_beat_straight`` (``sixplus_trips_beat_straight``, default False) exist only for
    :attr:`DeckKind.SIXPLUS`; setting either with the 52-card deck raises ``ValueError``. S0
    itself keeps the standard order; the options follow short-deck room practice (RULES.md 1).

    The lowest straight is A-2-3-4-5 (five high, S1) with 52 cards and A-6-7-8-9 (nine high, the
    ace standing in for the missing 5, S0) with 36. Straights never wrap (Q-K-A-2-3 is nothing).
    """

    deck: DeckKind = DeckKind.STANDARD
    flush_beats_full_house: bool = False
    trips_beat_straight: bool = False
    _positions: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _categories: tuple[Category, ...] = field(init=False, repr=False, compare=False)
    _lowest: int = field(init=False, repr=False, compare=False)
    _table: dict[int, int] = field(init=False, repr=False, compare=False)
    _flush_table: dict[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kind = DeckKind(self.deck)
        if kind is not DeckKind.SIXPLUS and (
            self.flush_beats_full_house or self.trips_beat_straight
        ):
            raise ValueError(
                "flush_beats_full_house and trips_beat_straight are Texas 6+ options: "
                "use them with deck=DeckKind.SIXPLUS."
            )
        order = list(Category)
        if self.trips_beat_straight:
            order[Category.THREE_OF_A_KIND], order[Category.STRAIGHT] = (
                Category.STRAIGHT,
                Category.THREE_OF_A_KIND,
            )
        if self.flush_beats_full_house:
            order[Category.FLUSH], order[Category.FULL_HOUSE] = (
                Category.FULL_HOUSE,
                Category.FLUSH,
            )
        positions = [0] * len(order)
        for position, category in enumerate(order):
            positions[category] = position
        config = (kind, self.flush_beats_full_house, self.trips_beat_straight)
        tables = _TABLES.setdefault(config, ({}, {}))
        object.__setattr__(self, "deck", kind)
        object.__setattr__(self, "_positions", tuple(positions))
        object.__setattr__(self, "_categories", tuple(order))
        object.__setattr__(self, "_lowest", lowest_rank(kind))
        object.__setattr__(self, "_table", tables[0])
        object.__setattr__(self, "_flush_table", tables[1])

    # -- fast path ---------------------------------------------------------------------------

    def value(self, cards: Sequence[Card]) -> int:
        """The value of the best five of 5-7 cards: bigger is better, equal is a split (S1, R).

        This is the showdown fast path. It trusts that the cards are distinct (the engine deals
        them from a deck); use :meth:`best` to validate input. Raises ``ValueError`` for fewer
        than 5 or more than 7 cards and :class:`CardError` for a card below 6 in Texas 6+.
        """
        key = 0
        for card in cards:
            key += card._code
        if (key + _FLUSH_ADD) & _FLUSH_TEST:
            return self._flush_value(cards, key)
        try:
            return self._table[key & _RANK_KEY_MASK]
        except KeyError:
            return self._fill(key & _RANK_KEY_MASK)

    def _flush_value(self, cards: Sequence[Card], key: int) -> int:
        if not 5 <= len(cards) <= 7:
            raise ValueError(f"a hand is 5 to 7 cards, got {len(cards)}")
        if self._lowest == 6 and key & _BELOW_SIX_FIELDS:
            raise _below_six_error()
        suit_counts = key >> SUIT_FIELD_SHIFT
        suit = next(
            s for i, s in enumerate(SUITS) if (suit_counts >> (SUIT_FIELD_BITS * i)) & 15 >= 5
        )
        mask = 0
        for card in cards:
            if card.suit == suit:
                mask |= 1 << card.rank
        # Five or more suited cards out of at most seven leave at most two off-suit cards, too
        # few for quads or a full house, so the flush (or straight flush) is the best hand.
        try:
            return self._flush_table[mask]
        except KeyError:
            pass
        if self._lowest == 6 and mask & 0b111100:
            raise _below_six_error()
        top = self._straight_top(mask)
        if top:
            result = self._encode(Category.STRAIGHT_FLUSH, (top,))
        else:
            result = self._encode(Category.FLUSH, _top_ranks(mask, 5))
        self._flush_table[mask] = result
        return result

    def _fill(self, key: int) -> int:
        counts = [(key >> (RANK_FIELD_BITS * (rank - 2))) & 7 for rank in range(2, 15)]
        total = sum(counts)
        if not 5 <= total <= 7:
            raise ValueError(f"a hand is 5 to 7 cards, got {total}")
        if max(counts) > 4:
            raise CardError("a card is given twice: each card can appear only once.")
        if self._lowest == 6 and key & _BELOW_SIX_FIELDS:
            raise _below_six_error()
        result = self._ranks_value(counts)
        self._table[key] = result
        return result

    # -- rules -------------------------------------------------------------------------------

    def _encode(self, category: Category, ranks: Sequence[int]) -> int:
        result = self._positions[category] << _CATEGORY_SHIFT
        for shift, rank in zip(_TIE_SHIFTS, ranks, strict=False):
            result |= rank << shift
        return result

    def _straight_top(self, mask: int) -> int:
        """Top card of the best straight in a rank mask (bit ``1 << rank``), or 0 (S0, S1).

        Windows run from A-K-Q-J-T down to the lowest five ranks of the deck; the ace-low
        straight uses the ace below the deck's lowest rank and tops out at lowest + 3 (5 or 9).
        No wrap-around: Q-K-A-2-3 is not a straight.
        """
        for top in range(14, self._lowest + 3, -1):
            window = 0b11111 << (top - 4)
            if mask & window == window:
                return top
        ace_low = (1 << 14) | (0b1111 << self._lowest)
        if mask & ace_low == ace_low:
            return self._lowest + 3
        return 0

    def _ranks_value(self, counts: Sequence[int]) -> int:
        """Best non-flush value for rank counts (``counts[rank - 2]``) of 5-7 cards.

        Every category the cards can make is scored with its own tie-breaks (RULES.md 1) and the
        best wins, so the 6+ reorderings need no special case (e.g. trips and a straight in the
        same seven cards).
        """
        present = [rank for rank in range(14, 1, -1) if counts[rank - 2]]
        quads = [rank for rank in present if counts[rank - 2] == 4]
        trips = [rank for rank in present if counts[rank - 2] == 3]
        pairs = [rank for rank in present if counts[rank - 2] == 2]
        mask = sum(1 << rank for rank in present)
        candidates: list[int] = []

        def kickers(*used: int) -> list[int]:
            return [rank for rank in present if rank not in used]

        if quads:
            candidates.append(
                self._encode(Category.FOUR_OF_A_KIND, [quads[0], kickers(quads[0])[0]])
            )
        if trips and (len(trips) > 1 or pairs):
            pair = max([*trips[1:], *pairs])
            candidates.append(self._encode(Category.FULL_HOUSE, [trips[0], pair]))
        top = self._straight_top(mask)
        if top:
            candidates.append(self._encode(Category.STRAIGHT, [top]))
        if trips and len(others := kickers(trips[0])) >= 2:
            candidates.append(self._encode(Category.THREE_OF_A_KIND, [trips[0], *others[:2]]))
        if len(pairs) >= 2:
            high, low = pairs[0], pairs[1]
            candidates.append(self._encode(Category.TWO_PAIR, [high, low, kickers(high, low)[0]]))
        if pairs and len(others := kickers(pairs[0])) >= 3:
            candidates.append(self._encode(Category.PAIR, [pairs[0], *others[:3]]))
        if len(present) >= 5:
            candidates.append(self._encode(Category.HIGH_CARD, present[:5]))
        return max(candidates)

    # -- full answer -------------------------------------------------------------------------

    def category_of(self, value: int) -> Category:
        """The category of a value made by this ranker."""
        return self._categories[value >> _CATEGORY_SHIFT]

    def best(self, cards: Iterable[Card]) -> HandRank:
        """The best five of 5-7 cards with category, the cards in reading order and a description.

        Validates the input: raises ``ValueError`` unless there are 5 to 7 cards and
        :class:`CardError` for a non-card, a card given twice or, in Texas 6+, a card below 6.
        Playing the board (S2, S4) needs nothing special: the best five may be all board cards.
        """
        hand = tuple(cards)
        for card in hand:
            if not isinstance(card, Card):
                raise CardError(f"{card!r} is not a card.", text=str(card))
        if not 5 <= len(hand) <= 7:
            raise ValueError(f"a hand is 5 to 7 cards, got {len(hand)}")
        if len(set(hand)) != len(hand):
            twice = next(card for i, card in enumerate(hand) if card in hand[:i])
            raise CardError(
                f"{str(twice)!r} is given twice: each card can appear only once.", text=str(twice)
            )
        for card in hand:
            if card.rank < self._lowest:
                raise CardError(
                    f"{str(card)!r} is not in the 36-card Texas 6+ deck: it has 6 to A only (S0).",
                    text=str(card),
                )
        value = self.value(hand)
        category = self.category_of(value)
        ranks = _tie_ranks(value)
        five = self._five_cards(hand, category, ranks)
        return HandRank(value, category, five, self._describe(category, ranks))

    def _straight_ranks(self, top: int) -> list[int]:
        if top == self._lowest + 3:
            return [top, top - 1, top - 2, top - 3, 14]
        return [top - i for i in range(5)]

    def _five_cards(
        self, hand: Sequence[Card], category: Category, ranks: Sequence[int]
    ) -> tuple[Card, ...]:
        """The five cards played, in reading order; among equal ranks the stronger suit first."""
        pool = sorted(hand, key=lambda card: -suit_strength(card.suit))
        if category in (Category.FLUSH, Category.STRAIGHT_FLUSH):
            suit = next(s for s in SUITS if sum(card.suit == s for card in hand) >= 5)
            pool = [card for card in pool if card.suit == suit]
        if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
            wanted = [(rank, 1) for rank in self._straight_ranks(ranks[0])]
        else:
            groups = {
                Category.FOUR_OF_A_KIND: (4, 1),
                Category.FULL_HOUSE: (3, 2),
                Category.THREE_OF_A_KIND: (3, 1, 1),
                Category.TWO_PAIR: (2, 2, 1),
                Category.PAIR: (2, 1, 1, 1),
            }.get(category, (1, 1, 1, 1, 1))
            wanted = list(zip(ranks, groups, strict=False))
        five: list[Card] = []
        for rank, count in wanted:
            five.extend([card for card in pool if card.rank == rank][:count])
        return tuple(five)

    def _describe(self, category: Category, ranks: Sequence[int]) -> str:
        """The hand in words, naming only what defines it (kickers: see :func:`describe_win`)."""
        first, second = ranks[0], ranks[1]
        if category is Category.STRAIGHT_FLUSH:
            return "Royal flush" if first == 14 else f"Straight flush, {_name(first)} high"
        if category is Category.FOUR_OF_A_KIND:
            return f"Four of a kind, {_plural(first)}"
        if category is Category.FULL_HOUSE:
            return f"Full house, {_plural(first)} full of {_plural(second)}"
        if category is Category.FLUSH:
            return f"Flush, {_name(first)} high"
        if category is Category.STRAIGHT:
            return f"Straight, {_name(first)} high"
        if category is Category.THREE_OF_A_KIND:
            return f"Three of a kind, {_plural(first)}"
        if category is Category.TWO_PAIR:
            return f"Two pair, {_plural(first)} and {_plural(second)}"
        if category is Category.PAIR:
            return f"Pair of {_plural(first)}"
        return f"High card, {_name(first)}"


def _top_ranks(mask: int, count: int) -> list[int]:
    return [rank for rank in range(14, 1, -1) if mask >> rank & 1][:count]


def _below_six_error() -> CardError:
    return CardError("cards 2 to 5 are not in the 36-card Texas 6+ deck: it has 6 to A only (S0).")


def describe_win(winner: HandRank, loser: HandRank) -> str:
    """The winner's description, plus the kickers when kickers decided the pot (R, S4).

    Kickers are named only when both hands share the category and the ranks the description
    names, and only down to the first one that differs: "Pair of jacks, ace kicker",
    "Pair of jacks, ace-queen kickers", "Flush, ace-king-queen high", "High card, ace-king-nine".
    A tie or a win on the named ranks gives the plain description. Only the best five count
    (S4's "next highest card" read that way), so a sixth or seventh card is never named.
    """
    category = winner.category
    if category is not loser.category or winner.value <= loser.value:
        return winner.description
    main = _MAIN_RANKS[category]
    ours, theirs = _tie_ranks(winner.value), _tie_ranks(loser.value)
    if ours[:main] != theirs[:main]:
        return winner.description
    count = _TIE_RANK_COUNT[category]
    decider = next(i for i in range(main, count) if ours[i] != theirs[i])
    if category in (Category.FLUSH, Category.HIGH_CARD):
        run = "-".join(_name(rank) for rank in ours[: decider + 1])
        return f"Flush, {run} high" if category is Category.FLUSH else f"High card, {run}"
    named = ours[main : decider + 1]
    noun = "kicker" if len(named) == 1 else "kickers"
    return f"{winner.description}, {'-'.join(_name(rank) for rank in named)} {noun}"


STANDARD_RANKER = Ranker()
"""Texas Hold'em, 52 cards, standard category order (S1)."""

SIXPLUS_RANKER = Ranker(deck=DeckKind.SIXPLUS)
"""Texas 6+, 36 cards, S0's standard category order (both 6+ options off, their defaults)."""
