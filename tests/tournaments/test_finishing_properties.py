"""Property test of finishing places (issue 26): random busts with starting stacks over tables,
with hand-for-hand hands among ordinary ones, against a small reference written from the TDA
text, one pair of players at a time:

- out on different hands: the later out finishes higher;
- out on the same hand at the same table: more chips at the start of the hand finishes higher,
  equal stacks tie (T);
- out on the same hand-for-hand hand at different tables: they tie (RP-8); when a table loses
  several players on it, its own order stands and the tables line up from their shortest
  stacks (A11).

The prizes of tied places are then shared (`payouts.split_places`): nothing is lost or made.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments import payouts
from tournaments.finishing import Out, finishing_places

STACKS = (100, 200, 300, 500)  # few values: equal stacks are frequent


@dataclass(frozen=True)
class Busted:
    out: Out
    hand_index: int  # the hand (ordinary, or one hand-for-hand hand over every table) in order


@st.composite
def bust_records(draw: st.DrawFn) -> tuple[int, list[Busted]]:
    """Players still in, and the busts of a run of hands in the order they were played; a
    hand-for-hand hand's tables may be typed apart (one bust group per table, or per player)."""
    left = draw(st.integers(min_value=1, max_value=5))
    busted: list[Busted] = []
    when = group = h4h_round = 0
    for index in range(draw(st.integers(min_value=1, max_value=5))):
        h4h = draw(st.booleans())
        h4h_round += h4h
        tables = draw(st.sets(st.integers(1, 4), min_size=1, max_size=4 if h4h else 1))
        for table in sorted(tables, key=lambda _: draw(st.integers(0, 9))):
            stacks = draw(st.lists(st.sampled_from(STACKS), min_size=1, max_size=3))
            apart = h4h and draw(st.booleans())  # each of this table's busts typed on its own
            group += 1
            when += 1
            for stack in stacks:
                if apart:
                    group += 1
                    when += 1
                entry = Out(
                    entry_id=len(busted) + 1,
                    when=when,
                    hand=group,
                    stack=stack,
                    table=table,
                    round=h4h_round if h4h else None,
                )
                busted.append(Busted(out=entry, hand_index=index))
    return left, busted


def _depth(player: Busted, busted: list[Busted]) -> int:
    """How many distinct starting stacks, smaller than the player's, went out on the same hand
    at the same table (0: the shortest there)."""
    return len(
        {
            other.out.stack
            for other in busted
            if other.hand_index == player.hand_index
            and other.out.table == player.out.table
            and other.out.stack < player.out.stack
        }
    )


def finishes_above(a: Busted, b: Busted, busted: list[Busted]) -> bool:
    """The reference: does `a` finish above `b`?"""
    if a.hand_index != b.hand_index:
        return a.hand_index > b.hand_index  # out later
    if a.out.table == b.out.table:
        return a.out.stack > b.out.stack  # same hand, same table: more chips
    return _depth(a, busted) > _depth(b, busted)  # hand-for-hand, other tables (A11)


@settings(max_examples=examples(300), deadline=None)
@given(bust_records())
def test_places_follow_the_tda_reference(record: tuple[int, list[Busted]]) -> None:
    left, busted = record
    places = finishing_places(left=left, out=[b.out for b in busted])

    for player in busted:
        above = sum(finishes_above(other, player, busted) for other in busted)
        assert places[player.out.entry_id] == left + 1 + above
    # A tie of k players at place p covers p..p+k-1: the next place used is p+k.
    counts = Counter(places.values())
    used = sorted(counts)
    assert used[0] == left + 1
    for place, following in pairwise(used):
        assert following == place + counts[place]
    assert used[-1] + counts[used[-1]] == left + 1 + len(busted)


@settings(max_examples=examples(300), deadline=None)
@given(bust_records())
def test_the_tda_sentences_hold(record: tuple[int, list[Busted]]) -> None:
    """The two sentences of the rule, read on their own, where they apply alone."""
    left, busted = record
    places = finishing_places(left=left, out=[b.out for b in busted])
    for a in busted:
        for b in busted:
            if a.hand_index != b.hand_index:
                continue
            place_a, place_b = places[a.out.entry_id], places[b.out.entry_id]
            if a.out.table == b.out.table:  # same hand, same table (T)
                if a.out.stack > b.out.stack:
                    assert place_a < place_b
                elif a.out.stack == b.out.stack:
                    assert place_a == place_b
            elif _depth(a, busted) == _depth(b, busted) == 0:  # hand-for-hand, two tables
                assert a.out.round is not None
                assert place_a == place_b


@settings(max_examples=examples(200), deadline=None)
@given(bust_records(), st.sampled_from([Decimal("1"), Decimal("5"), Decimal("0.01")]))
def test_shared_places_share_exactly_the_prizes_they_cover(
    record: tuple[int, list[Busted]], unit: Decimal
) -> None:
    left, busted = record
    places = finishing_places(left=left, out=[b.out for b in busted])
    field = left + len(busted)
    table = payouts.default_payout_table(max(field, 9))
    prizes = payouts.payouts(Decimal(55) * field, table, unit)
    counts = Counter(places.values())
    paid = Decimal(0)
    for place, tied in counts.items():
        shares = payouts.split_places(prizes, range(place, place + tied), unit=unit)
        assert len(set(shares[1:])) <= 1  # equal shares, the remainder on the first
        paid += sum(shares, Decimal(0))
    covered = range(left + 1, field + 1)
    assert paid == sum((prizes[p - 1] for p in covered if p <= len(prizes)), Decimal(0))
