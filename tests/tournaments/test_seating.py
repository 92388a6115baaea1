"""Seat draws: random correct seating (T 7), late entries (T 8-A), the button draw (RULES.md 2),
the final-table redraw (RP-9). Plain pytest, no database; every draw is seeded."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dealer.engine.cards import DeckKind, shuffled_deck
from dealer.engine.draw import button_draw
from tournaments.seating import (
    ButtonDraw,
    SeatingError,
    SeatRef,
    TableLayout,
    button_draw_for_table,
    draw_seat,
    final_table_redraw,
    late_seat,
    layout_tables,
    seat_draw,
    shortest_pool,
)


def _sizes(seating: dict[int, SeatRef]) -> Counter[int]:
    return Counter(ref.table for ref in seating.values())


def _check_valid(seating: dict[int, SeatRef], entries: list[int], seats: int) -> None:
    assert sorted(seating) == sorted(entries)
    assert len(set(seating.values())) == len(entries), "a seat is double-booked"
    assert all(1 <= ref.seat <= seats for ref in seating.values())


# --- T 7: the opening draw ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "seats", "tables"),
    [(1, 9, 1), (9, 9, 1), (10, 9, 2), (100, 9, 12), (101, 10, 11), (8467, 9, 941)],
)
def test_t7_seat_draw_opens_as_few_tables_as_fit_and_fills_them_evenly(entries, seats, tables):
    ids = list(range(1000, 1000 + entries))
    seating = seat_draw(ids, None, seats, random.Random(7))
    _check_valid(seating, ids, seats)
    sizes = _sizes(seating)
    assert sorted(sizes) == list(range(1, tables + 1))
    assert max(sizes.values()) - min(sizes.values()) <= 1


def test_t7_seat_draw_uses_the_table_numbers_given():
    ids = list(range(40))
    seating = seat_draw(ids, [12, 3, 40, 7, 8], 9, random.Random(1))
    _check_valid(seating, ids, 9)
    assert _sizes(seating) == {12: 8, 3: 8, 40: 8, 7: 8, 8: 8}


def test_t7_seat_draw_with_a_table_count_spreads_players_within_one():
    ids = list(range(23))
    seating = seat_draw(ids, 4, 9, random.Random(3))
    assert sorted(_sizes(seating).values()) == [5, 6, 6, 6]


def test_t7_layout_gives_the_extra_players_to_the_first_tables():
    assert layout_tables(20, None, 9) == (
        TableLayout(number=1, seats=9, players=7),
        TableLayout(number=2, seats=9, players=7),
        TableLayout(number=3, seats=9, players=6),
    )
    assert layout_tables(0, None, 9) == ()


def test_t7_same_seed_same_seating_other_seed_other_seating():
    ids = list(range(200))
    first = seat_draw(ids, None, 9, random.Random(11))
    assert seat_draw(ids, None, 9, random.Random(11)) == first
    others = [seat_draw(ids, None, 9, random.Random(seed)) for seed in range(12, 17)]
    assert all(other != first for other in others)


def test_t7_every_entry_can_land_anywhere():
    """Over many seeded draws each entry meets many tables and seats: nothing is fixed."""
    ids = list(range(27))
    seen_tables: set[int] = set()
    seen_seats: set[int] = set()
    for seed in range(60):
        ref = seat_draw(ids, None, 9, random.Random(seed))[0]
        seen_tables.add(ref.table)
        seen_seats.add(ref.seat)
    assert seen_tables == {1, 2, 3}
    assert seen_seats == set(range(1, 10))


def test_t7_empty_seats_are_drawn_at_random():
    ids = list(range(10))  # two tables of 5: four empty seats at each
    empties = set()
    for seed in range(30):
        seating = seat_draw(ids, None, 9, random.Random(seed))
        taken = {ref.seat for ref in seating.values() if ref.table == 1}
        assert len(taken) == 5
        empties.add(frozenset(set(range(1, 10)) - taken))
    assert len(empties) > 20


@pytest.mark.parametrize(
    ("entries", "tables", "seats", "code"),
    [
        (19, 2, 9, "not_enough_seats"),
        (5, [1, 1], 9, "duplicate_table"),
        (5, None, 1, "bad_table_size"),
        (5, None, 11, "bad_table_size"),
        (5, -1, 9, "bad_tables"),
    ],
)
def test_t7_draws_that_cannot_be_made_are_refused(entries, tables, seats, code):
    with pytest.raises(SeatingError) as info:
        seat_draw(list(range(entries)), tables, seats, random.Random(1))
    assert info.value.code == code


def test_t7_an_entry_listed_twice_is_refused():
    with pytest.raises(SeatingError) as info:
        seat_draw([1, 2, 2], None, 9, random.Random(1))
    assert info.value.code == "duplicate_entry"


def test_t7_ten_thousand_entries_draw_on_even_tables():
    """The largest field seated at once: every entry in a seat of its own, the tables within
    one player of each other. How long it takes is measured in `bench/bench_floor.py`
    (`make bench`), beside a reference, not timed here."""
    seating = seat_draw(list(range(10_000)), 1112, 9, random.Random(5))
    assert set(seating) == set(range(10_000))
    assert len({(ref.table, ref.seat) for ref in seating.values()}) == 10_000
    sizes = Counter(ref.table for ref in seating.values())
    assert len(sizes) == 1112
    assert max(sizes.values()) - min(sizes.values()) <= 1
    assert all(1 <= ref.seat <= 9 for ref in seating.values())


# --- T 8-A: late entries draw from the shortest tables ------------------------------------------


def _open(spec: dict[int, list[int]]) -> list[SeatRef]:
    return [SeatRef(table=t, seat=s) for t, seats in spec.items() for s in seats]


def test_t8a_late_seat_goes_to_a_shortest_table():
    open_seats = _open({1: [4], 2: [1, 5], 3: [2, 8], 4: [3, 6, 9]})
    counts = {1: 8, 2: 7, 3: 7, 4: 6}
    drawn = {late_seat(open_seats, counts, random.Random(seed)) for seed in range(40)}
    assert drawn == set(_open({4: [3, 6, 9]}))


def test_t8a_late_seats_are_drawn_among_all_open_seats_of_tied_shortest_tables():
    open_seats = _open({1: [4], 2: [1, 5], 3: [2, 8]})
    counts = {1: 8, 2: 7, 3: 7}
    drawn = Counter(late_seat(open_seats, counts, random.Random(seed)) for seed in range(200))
    assert set(drawn) == set(_open({2: [1, 5], 3: [2, 8]}))


def test_t8a_a_table_without_a_count_is_empty_and_shortest():
    open_seats = _open({1: [4, 5], 9: [1, 2, 3]})
    assert late_seat(open_seats, {1: 7}, random.Random(2)).table == 9


def test_t8a_late_seat_with_no_open_seat_is_refused():
    with pytest.raises(SeatingError) as info:
        late_seat([], {1: 9}, random.Random(1))
    assert info.value.code == "no_open_seat"


def test_draw_seat_same_pool_and_seed_same_seat():
    pool = shortest_pool({3: [2, 7], 1: [5], 2: [1]}, {1: 5, 2: 6, 3: 5})
    assert pool == [(1, [5]), (3, [2, 7])]
    assert draw_seat(pool, random.Random(4)) == draw_seat(pool, random.Random(4))


# --- button draw (RULES.md 2; T) ----------------------------------------------------------------


def test_button_draw_records_the_cards_dealt_in_order():
    players = [101, 102, 103, 104, 105, 106]
    result = button_draw_for_table(players, random.Random(21))
    assert isinstance(result, ButtonDraw)
    winner, cards = result
    assert cards == tuple(shuffled_deck(DeckKind.STANDARD, random.Random(21))[:6])
    assert winner == button_draw(cards, "suit")
    assert cards[winner].rank == max(card.rank for card in cards)


def test_button_draw_with_the_sixplus_deck_deals_six_or_higher():
    _, cards = button_draw_for_table(range(9), random.Random(3), DeckKind.SIXPLUS, "deal_order")
    assert len(cards) == 9
    assert min(card.rank for card in cards) >= 6


def _seed_with_tied_high_cards(players: int) -> int:
    """A seed whose draw ties on the top rank, the later tied card having the higher suit."""
    for seed in range(10_000):
        _, cards = button_draw_for_table(range(players), random.Random(seed))
        top = max(card.rank for card in cards)
        tied = [i for i, card in enumerate(cards) if card.rank == top]
        if len(tied) > 1 and button_draw(cards, "suit") != tied[0]:
            return seed
    raise AssertionError("no tie found")  # pragma: no cover


def test_button_draw_ties_by_suit_or_by_deal_order():
    seed = _seed_with_tied_high_cards(9)
    by_suit, cards = button_draw_for_table(range(9), random.Random(seed), tiebreak="suit")
    by_order, same_cards = button_draw_for_table(
        range(9), random.Random(seed), tiebreak="deal_order"
    )
    assert cards == same_cards
    top = [i for i, card in enumerate(cards) if card.rank == max(c.rank for c in cards)]
    assert by_order == top[0]
    assert by_suit != by_order
    assert by_suit in top


def test_button_draw_needs_a_player():
    with pytest.raises(SeatingError) as info:
        button_draw_for_table([], random.Random(1))
    assert info.value.code == "bad_player_count"


# --- RP-9: the final table is redrawn -----------------------------------------------------------


def test_rp9_final_table_redraw_gives_every_player_a_new_random_seat():
    ids = [17, 4, 99, 250, 31, 8, 77, 5]
    first = final_table_redraw(ids, 9, random.Random(1), table=50)
    _check_valid(first, ids, 9)
    assert {ref.table for ref in first.values()} == {50}
    assert final_table_redraw(ids, 9, random.Random(2), table=50) != first


def test_rp9_final_table_redraw_refuses_more_players_than_seats():
    with pytest.raises(SeatingError) as info:
        final_table_redraw(list(range(10)), 9, random.Random(1))
    assert info.value.code == "not_enough_seats"
