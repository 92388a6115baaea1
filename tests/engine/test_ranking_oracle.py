"""Cross-checks of the ranker against pokerkit 0.7.7 (test-only oracle) and hypothesis properties.

Hands are random 7-card deals from a seeded ``random.Random``. Our order and pokerkit's must
agree on every pair of hands: ``a.value < b.value`` exactly when pokerkit's ``a < b``, and equal
values exactly when pokerkit's hands are equal. Sorting the hands by our value and comparing
neighbours checks all pairs at once (both orders are total), and a batch of random pairs checks
the statement literally.

Oracles:

* 52-card Hold'em: ``pokerkit.StandardHighHand.from_game(hole, board)``.
* Texas 6+: ``pokerkit.ShortDeckHoldemHand.from_game(hole, board)``. Its lookup
  (``pokerkit.lookups.ShortDeckHoldemLookup``) ranks a flush above a full house and keeps three
  of a kind below a straight, and takes A-6-7-8-9 as the lowest straight. That is our
  ``Ranker(deck=DeckKind.SIXPLUS, flush_beats_full_house=True, trips_beat_straight=False)``,
  i.e. ``sixplus_flush_beats_full_house=true``, ``sixplus_trips_beat_straight=false``. Our S0
  default (flush below full house) is checked against it with that one swap undone.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.engine.cards import Card, DeckKind, deck, format_cards
from dealer.engine.ranking import STANDARD_RANKER, Category, Ranker
from tests.examples import examples

pokerkit = pytest.importorskip("pokerkit")

POKERKIT_SHORT_DECK_RANKER = Ranker(deck=DeckKind.SIXPLUS, flush_beats_full_house=True)

_LABELS = {
    "High card": Category.HIGH_CARD,
    "One pair": Category.PAIR,
    "Two pair": Category.TWO_PAIR,
    "Three of a kind": Category.THREE_OF_A_KIND,
    "Straight": Category.STRAIGHT,
    "Flush": Category.FLUSH,
    "Full house": Category.FULL_HOUSE,
    "Four of a kind": Category.FOUR_OF_A_KIND,
    "Straight flush": Category.STRAIGHT_FLUSH,
}


def _deal(kind: DeckKind, count: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    cards = deck(kind)
    return [tuple(rng.sample(cards, 7)) for _ in range(count)]


def _oracle(hand_class: Any, hand: Sequence[Card]) -> Any:
    return hand_class.from_game(format_cards(hand[:2], ""), format_cards(hand[2:], ""))


def _check_against(
    ranker: Ranker,
    hand_class: Any,
    kind: DeckKind,
    count: int,
    seed: int,
    key: Callable[[Any], Any] | None = None,
) -> None:
    """Assert our order equals the oracle's on every pair of ``count`` random hands.

    ``key`` maps an oracle hand to a sortable strength when the oracle's own ``<`` is not the
    order under test (used to undo pokerkit's flush/full-house swap).
    """
    rows = []
    for hand in _deal(kind, count, seed):
        theirs = _oracle(hand_class, hand)
        rows.append((ranker.value(hand), key(theirs) if key else theirs, hand, theirs))
    rows.sort(key=lambda row: row[0])
    mismatches = []
    for (ours_a, theirs_a, hand_a, _), (ours_b, theirs_b, hand_b, _) in itertools.pairwise(rows):
        if (ours_a == ours_b) != (theirs_a == theirs_b) or (ours_a < ours_b) != (
            theirs_a < theirs_b
        ):
            mismatches.append(f"{format_cards(hand_a)} vs {format_cards(hand_b)}")
    assert not mismatches, mismatches[:5]

    rng = random.Random(seed + 1)
    for _ in range(count):
        (ours_a, theirs_a, *_), (ours_b, theirs_b, *_) = rng.sample(rows, 2)
        assert (ours_a < ours_b) == (theirs_a < theirs_b)
        assert (ours_a == ours_b) == (theirs_a == theirs_b)

    # The category and the five cards best() reports must be pokerkit's best hand too.
    for _, _, hand, theirs in rows[:: max(1, count // 500)]:
        ours = ranker.best(hand)
        assert ours.category is _LABELS[theirs.entry.label.value]
        assert hand_class(format_cards(ours.cards, "")) == theirs


def test_standard_order_matches_pokerkit_standard_high_hand() -> None:
    _check_against(STANDARD_RANKER, pokerkit.StandardHighHand, DeckKind.STANDARD, 3000, seed=1)


def test_sixplus_flush_beats_full_house_matches_pokerkit_short_deck() -> None:
    _check_against(
        POKERKIT_SHORT_DECK_RANKER, pokerkit.ShortDeckHoldemHand, DeckKind.SIXPLUS, 3000, seed=2
    )


def _s0_strength(hand: Any) -> tuple[int, int]:
    """pokerkit's short-deck strength with flush and full house put back in S0's order.

    Within a category pokerkit's entry index still orders hands; across categories we use our
    standard category numbers, which is S0's order.
    """
    return (_LABELS[hand.entry.label.value], hand.entry.index)


def test_sixplus_default_s0_order_matches_pokerkit_with_the_swap_undone() -> None:
    ranker = Ranker(deck=DeckKind.SIXPLUS)
    _check_against(
        ranker, pokerkit.ShortDeckHoldemHand, DeckKind.SIXPLUS, 3000, seed=3, key=_s0_strength
    )


def test_pokerkit_short_deck_is_not_the_trips_beat_straight_option() -> None:
    # Documents the mapping: with trips over straights we must disagree with pokerkit somewhere.
    ranker = Ranker(deck=DeckKind.SIXPLUS, flush_beats_full_house=True, trips_beat_straight=True)
    with pytest.raises(AssertionError):
        _check_against(ranker, pokerkit.ShortDeckHoldemHand, DeckKind.SIXPLUS, 1000, seed=4)


@pytest.mark.slow
def test_standard_order_matches_pokerkit_50000_hands() -> None:
    _check_against(STANDARD_RANKER, pokerkit.StandardHighHand, DeckKind.STANDARD, 50_000, seed=11)


@pytest.mark.slow
def test_sixplus_order_matches_pokerkit_50000_hands() -> None:
    _check_against(
        POKERKIT_SHORT_DECK_RANKER, pokerkit.ShortDeckHoldemHand, DeckKind.SIXPLUS, 50_000, seed=12
    )


# -- properties -------------------------------------------------------------------------------

RANKERS = {
    DeckKind.STANDARD: [STANDARD_RANKER],
    DeckKind.SIXPLUS: [
        Ranker(deck=DeckKind.SIXPLUS, flush_beats_full_house=flush, trips_beat_straight=trips)
        for flush in (False, True)
        for trips in (False, True)
    ],
}


@st.composite
def _seven_cards(draw: st.DrawFn) -> tuple[Ranker, tuple[Card, ...]]:
    kind = draw(st.sampled_from(list(DeckKind)))
    ranker = draw(st.sampled_from(RANKERS[kind]))
    cards = draw(st.lists(st.sampled_from(deck(kind)), min_size=7, max_size=7, unique=True))
    return ranker, tuple(cards)


@settings(max_examples=examples(300), deadline=None)
@given(_seven_cards())
def test_best_of_seven_is_the_best_five_card_subset(case: tuple[Ranker, tuple[Card, ...]]) -> None:
    ranker, cards = case
    subsets = [ranker.value(five) for five in itertools.combinations(cards, 5)]
    assert ranker.value(cards) == max(subsets)
    assert ranker.value(ranker.best(cards).cards) == ranker.value(cards)
    # Six cards work the same way, and a seventh card can only help.
    six = cards[:6]
    assert ranker.value(six) == max(ranker.value(five) for five in itertools.combinations(six, 5))
    assert ranker.value(six) <= ranker.value(cards)


@settings(max_examples=examples(300), deadline=None)
@given(_seven_cards(), st.randoms(use_true_random=False))
def test_value_ignores_card_order(
    case: tuple[Ranker, tuple[Card, ...]], rng: random.Random
) -> None:
    ranker, cards = case
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert ranker.value(shuffled) == ranker.value(cards)
    assert ranker.best(shuffled) == ranker.best(cards)
    assert ranker.best(shuffled).description == ranker.best(cards).description


@settings(max_examples=examples(200), deadline=None)
@given(_seven_cards())
def test_relabelling_suits_never_changes_the_value(case: tuple[Ranker, tuple[Card, ...]]) -> None:
    ranker, cards = case
    rotate = dict(zip("shdc", "hdcs", strict=True))
    relabelled = [Card(card.rank, rotate[card.suit]) for card in cards]
    assert ranker.value(relabelled) == ranker.value(cards)
