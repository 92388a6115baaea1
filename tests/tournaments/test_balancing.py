"""Balancing and breaking tables (T 10-A, 10-B, 11-A, 11-C, 11-D), the final table (RP-9) and
hand-for-hand (RP-8). Plain pytest and hypothesis, no database; every draw is seeded.

Tables are written as one character per seat, seat 1 first: ``x`` occupied, ``.`` empty. The
entry at table t, seat s is ``100 * t + s``.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.balancing import (
    BalancingError,
    Move,
    Plan,
    TableState,
    apply_plan,
    draw_break_order,
    needs_hand_for_hand,
    next_hand,
    plan,
    worst_open_seat,
)
from tournaments.seating import seat_draw


def _table(
    number: int,
    layout: str,
    *,
    button: int | None = None,
    small_blind: int | None = None,
    big_blind: int | None = None,
) -> TableState:
    return TableState(
        number=number,
        seats=len(layout),
        occupied={s: 100 * number + s for s, c in enumerate(layout, start=1) if c == "x"},
        button=button,
        small_blind=small_blind,
        big_blind=big_blind,
    )


FULL = "xxxxxxxxx"


def _plan(*tables: TableState, seed: int = 1, **options) -> Plan:
    options.setdefault("max_table_size", 9)
    return plan(list(tables), random.Random(seed), **options)


def _sizes(tables) -> list[int]:
    return [len(t.occupied) for t in tables]


# --- positions for the next hand (dead button, T 32) ---------------------------------------------


def test_t32_next_hand_small_blind_is_last_big_blind_and_big_blind_moves_one_player():
    hand = next_hand(_table(1, "xx.xxx.xx", button=2, small_blind=4, big_blind=5))
    assert (hand.button, hand.small_blind, hand.big_blind) == (4, 5, 6)


def test_t32_next_big_blind_skips_empty_seats_and_a_busted_big_blind_leaves_a_dead_small():
    hand = next_hand(_table(1, "xxxx..x.x", button=2, small_blind=3, big_blind=5))
    assert (hand.button, hand.small_blind, hand.big_blind) == (3, 5, 7)


def test_t32_without_the_small_blind_the_button_is_the_seat_before_last_big_blind():
    hand = next_hand(_table(1, FULL, button=2, big_blind=4))
    assert (hand.button, hand.small_blind, hand.big_blind) == (3, 4, 5)


def test_first_hand_blinds_follow_the_drawn_button():
    hand = next_hand(_table(1, "x..xxxxxx", button=9))
    assert (hand.button, hand.small_blind, hand.big_blind, hand.first_hand) == (9, 1, 4, True)


def test_t10a_seats_between_the_button_and_small_blind_are_not_dealt_in():
    hand = next_hand(_table(1, "xx..xxx.x", button=1, small_blind=2, big_blind=5))
    # next hand: button 2, small blind 5 (seats 3 and 4 lie between them)
    assert [s for s in range(1, 10) if not hand.dealt_in(s)] == [3, 4]


# --- T 11-A: who moves and where -----------------------------------------------------------------


def test_t11a_next_big_blind_moves_from_the_fullest_table():
    donor = _table(1, FULL, button=3, small_blind=4, big_blind=5)
    receiver = _table(2, "xxxxxxx..", button=1, small_blind=2, big_blind=3)
    result = _plan(donor, receiver)
    assert result.moves == (
        Move(
            entry_id=106,
            from_table=1,
            from_seat=6,
            to_table=2,
            to_seat=8,
            reason="balance",
            next_big_blind=True,
        ),
    )


def test_t11a_next_big_blind_moves_even_when_seats_between_are_empty():
    donor = _table(1, "xxxxx.xxx", button=3, small_blind=4, big_blind=5)
    other = _table(2, FULL, button=3, small_blind=4, big_blind=5)
    receiver = _table(3, "xxxxxx...", button=1, small_blind=2, big_blind=3)
    (move,) = _plan(other, donor, receiver).moves
    # table 2 is the fullest (9): its next big blind, seat 6, moves
    assert (move.from_table, move.from_seat, move.next_big_blind) == (2, 6, True)


def test_t11a_when_the_big_blind_busted_the_next_occupied_seat_is_next_big_blind():
    donor = _table(1, "xxxx.xxxx", button=3, small_blind=4, big_blind=5)  # seat 5 busted
    receiver = _table(2, "xxxxxx...", button=1, small_blind=2, big_blind=3)
    (move,) = _plan(donor, receiver).moves
    assert (move.from_seat, move.entry_id) == (6, 106)


def test_t11a_worst_position_takes_a_single_big_blind_when_one_is_open():
    donor = _table(1, FULL, button=3, small_blind=4, big_blind=5)
    # receiver: last big blind seat 5; seat 6 is open between it and the next big blind (seat 7)
    receiver = _table(2, "xxxxx.x.x", button=3, small_blind=4, big_blind=5)
    (move,) = _plan(donor, receiver).moves
    assert (move.to_table, move.to_seat, move.dealt_in_next_hand) == (2, 6, True)
    moved = apply_plan([donor, receiver], _plan(donor, receiver))[1]
    assert next_hand(moved).big_blind == 6  # the moved player posts the big blind next


def test_t11a_worst_position_is_the_open_seat_that_gets_the_big_blind_soonest():
    receiver = _table(2, "x.xxxxx.x", button=3, small_blind=4, big_blind=5)
    # next hand: SB 5, BB 6; seat 8 gets the big blind in 3 hands, seat 2 in 6
    assert worst_open_seat(receiver) == 8


def test_t11a_worst_position_is_never_the_small_blind():
    # the last big blind (seat 5) busted: seat 5 is next hand's (dead) small blind
    receiver = _table(2, "x.xx.xxxx", button=3, small_blind=4, big_blind=5)
    assert next_hand(receiver).small_blind == 5
    assert worst_open_seat(receiver) == 2
    donor = _table(1, FULL, button=3, small_blind=4, big_blind=5)
    (move,) = _plan(donor, receiver).moves
    assert move.to_seat == 2


def test_t11a_small_blind_seat_only_when_it_is_the_only_open_seat():
    receiver = _table(2, "xxxx.xxxx", button=3, small_blind=4, big_blind=5)
    assert worst_open_seat(receiver) == 5


def test_t10a_a_move_between_the_small_blind_and_the_button_waits_for_the_button():
    donor = _table(1, FULL, button=3, small_blind=4, big_blind=5)
    # next hand: button 4, small blind 7; only seats 5 and 6 are open
    receiver = _table(2, "xxxx..xxx", button=3, small_blind=4, big_blind=7)
    (move,) = _plan(donor, receiver).moves
    assert (move.to_seat, move.dealt_in_next_hand) == (5, False)
    assert "waits for the button" in move.describe()


def test_t11a_before_the_first_hand_no_one_is_moved_into_the_small_blind():
    # drawn button seat 9; seats 1 and 2 are open, a player there would be the small blind
    receiver = _table(2, "..xxxx.x.", button=8)
    hand = next_hand(receiver)
    assert (hand.small_blind, hand.big_blind) == (3, 4)
    assert worst_open_seat(receiver) == 7


def test_t10a_before_the_first_hand_a_player_seated_before_the_small_blind_is_dealt_in():
    hand = next_hand(_table(1, "..xxxx.x.", button=8))
    assert hand.between_button_and_small_blind(1)
    assert hand.dealt_in(1)  # a player there would simply be the small blind


@settings(max_examples=examples(300), deadline=None)
@given(
    layout=st.lists(st.booleans(), min_size=2, max_size=10),
    last_big_blind=st.integers(min_value=1, max_value=10),
)
def test_t11a_worst_open_seat_is_the_nearest_after_the_small_blind_and_never_it(
    layout, last_big_blind
):
    seats = len(layout)
    table = _table(
        1, "".join("x" if taken else "." for taken in layout), big_blind=min(last_big_blind, seats)
    )
    open_seats = [s for s in range(1, seats + 1) if s not in table.occupied]
    small_blind = next_hand(table).small_blind
    seat = worst_open_seat(table)
    if not open_seats:
        assert seat is None
        return
    if seat == small_blind:
        assert open_seats == [small_blind]
        return
    distance = {s: (s - small_blind) % seats for s in open_seats if s != small_blind}
    assert distance[seat] == min(distance.values())


def test_t11a_without_positions_the_mover_and_seat_are_drawn():
    donor = _table(1, FULL)
    receiver = _table(2, "xxxxxxx..")
    (move,) = _plan(donor, receiver, seed=3).moves
    assert not move.next_big_blind
    assert move.to_seat in (8, 9)
    assert "(drawn)" in move.describe()


def test_t11c_ties_for_fullest_and_shortest_go_to_the_lowest_table_number():
    tables = [
        _table(4, "xxxxxxx..", big_blind=1),
        _table(2, FULL, big_blind=1),
        _table(3, "xxxxxxx..", big_blind=1),
        _table(1, FULL, big_blind=1),
    ]
    moves = _plan(*tables).moves
    assert [(m.from_table, m.to_table) for m in moves] == [(1, 3), (2, 4)]


def test_t11a_tables_within_one_player_are_left_alone():
    result = _plan(_table(1, FULL, big_blind=2), _table(2, "xxxxxxxx.", big_blind=2))
    assert result.is_empty
    assert result.describe() == ()


def test_t11a_several_moves_in_one_plan_each_take_the_then_next_big_blind():
    donor = _table(1, FULL, button=3, small_blind=4, big_blind=5)
    receiver = _table(2, "xxxxx....", button=1, small_blind=2, big_blind=3)
    result = _plan(donor, receiver)
    assert [(m.from_seat, m.to_seat) for m in result.moves] == [(6, 6), (7, 7)]
    assert sorted(_sizes(apply_plan([donor, receiver], result))) == [7, 7]


def test_move_describe_names_the_seat_the_reason_and_the_new_seat():
    move = Move(
        entry_id=1,
        from_table=7,
        from_seat=4,
        to_table=12,
        to_seat=9,
        reason="balance",
        next_big_blind=True,
    )
    assert move.describe() == "Move seat 4 at table 7 (next big blind) to table 12 seat 9"


# --- T 11-D: play halts on a table 3 or more short ------------------------------------------------


def test_t11d_play_halts_on_a_table_3_short():
    tables = [_table(1, FULL), _table(2, FULL), _table(3, "xxxxxx..."), _table(4, "xxxxxxx..")]
    result = _plan(*tables)
    assert result.halted_tables == (3,)
    assert "Halt play at table 3 until its players arrive" in result.describe()


def test_t11d_two_short_does_not_halt_and_halting_can_be_waived():
    assert _plan(_table(1, FULL), _table(2, "xxxxxxx..")).halted_tables == ()
    waived = _plan(_table(1, FULL), _table(2, "xxxxxx..."), halt_short_by=None)
    assert waived.halted_tables == ()
    assert len(waived.moves) == 1


# --- T 10-B: breaking tables ----------------------------------------------------------------------


def _break_case() -> list[TableState]:
    # 27 players on 4 tables of 9: they fit on 3, so a table breaks
    return [
        _table(1, "xxxxxxx..", big_blind=2),
        _table(2, "xxxxxxxx.", big_blind=2),
        _table(3, "xxxxxx...", big_blind=2),
        _table(4, "xxxxxx...", big_blind=2),
    ]


def test_t10b_a_table_breaks_when_the_players_fit_on_one_fewer_table():
    tables = _break_case()
    result = _plan(*tables, break_order=(2, 4, 1, 3))
    assert result.broken_tables == (2,)
    assert {m.from_table for m in result.moves} == {2}
    assert all(m.reason == "break" for m in result.moves)
    assert all("(table 2 breaks)" in m.describe() for m in result.moves)
    after = apply_plan(tables, result)
    assert [t.number for t in after] == [1, 3, 4]
    assert _sizes(after) == [9, 9, 9]


def test_t10b_a_broken_tables_players_are_spread_by_a_random_draw():
    tables = [
        _table(1, "xxxxxx...", big_blind=2),
        _table(2, "xxxxxx...", big_blind=2),
        _table(3, "xxxxxx...", big_blind=2),
        _table(4, "xxxxxx...", big_blind=2),
        _table(5, "xxxxx....", big_blind=2),
    ]
    first = _plan(*tables, break_order=(5,), seed=1)
    assert first.broken_tables == (5,)
    assert _plan(*tables, break_order=(5,), seed=1) == first
    destinations = {(m.entry_id, m.to_table, m.to_seat) for m in first.moves}
    others = [_plan(*tables, break_order=(5,), seed=s).moves for s in range(2, 7)]
    assert all({(m.entry_id, m.to_table, m.to_seat) for m in o} != destinations for o in others)
    after = apply_plan(tables, first)
    assert sorted(e for t in after for e in t.occupied.values()) == sorted(
        e for t in tables for e in t.occupied.values()
    )
    assert max(_sizes(after)) - min(_sizes(after)) <= 1


def test_t10b_broken_players_fill_the_shortest_tables_first_then_tables_balance():
    tables = [
        _table(1, FULL, button=3, small_blind=4, big_blind=5),
        _table(2, FULL, button=3, small_blind=4, big_blind=5),
        _table(3, "xxx......", button=1, small_blind=2, big_blind=3),
        _table(4, "xxx......", button=1, small_blind=2, big_blind=3),
    ]
    result = _plan(*tables, break_order=(4,))
    breaks = [m for m in result.moves if m.reason == "break"]
    assert {m.to_table for m in breaks} == {3}
    assert [m.reason for m in result.moves] == ["break"] * 3 + ["balance"] * 2
    assert _sizes(apply_plan(tables, result)) == [8, 8, 8]
    assert result.halted_tables == (3,)


def test_t10b_empty_tables_close_before_the_break_order():
    tables = [_table(1, FULL), _table(2, "........."), _table(3, "xxxxxxxx.")]
    result = _plan(*tables, break_order=(1, 2, 3))
    assert result.broken_tables == (2,)
    assert result.moves == ()


def test_t10b_tables_missing_from_the_break_order_break_highest_number_first():
    tables = [_table(n, "xxxxx....", big_blind=1) for n in (1, 2, 3)]  # 15 players fit on 2
    assert _plan(*tables).broken_tables == (3,)
    assert _plan(*tables, break_order=(9, 1)).broken_tables == (1,)


def test_t10b_several_tables_break_at_once_when_needed():
    tables = [_table(n, "xxx......", big_blind=1) for n in range(1, 6)]  # 15 players fit on 2
    result = _plan(*tables, break_order=(5, 4, 3, 2, 1))
    assert result.broken_tables == (5, 4, 3)
    assert sorted(_sizes(apply_plan(tables, result))) == [7, 8]


def test_t10b_break_order_is_a_seeded_random_order_of_the_tables():
    order = draw_break_order(range(1, 21), random.Random(8))
    assert sorted(order) == list(range(1, 21))
    assert draw_break_order(range(1, 21), random.Random(8)) == order
    assert draw_break_order(range(1, 21), random.Random(9)) != order


# --- RP-9: final table ----------------------------------------------------------------------------


def test_rp9_final_table_when_the_players_fit_at_one_table():
    tables = [_table(1, "xxxxx....", big_blind=1), _table(3, "xxxx.....", big_blind=1)]
    result = _plan(*tables)
    assert result.final_table
    assert result.redraw_final_table
    assert result.broken_tables == (1, 3)
    assert result.moves == ()
    assert result.describe() == (
        "Final table: stop play at tables 1, 3 and redraw every seat (RP-9)",
    )
    with pytest.raises(BalancingError) as info:
        apply_plan(tables, result)
    assert info.value.code == "final_table_redraw"


def test_rp9_at_the_final_table_nothing_more_happens():
    result = _plan(_table(1, "xxxxxx...", big_blind=1))
    assert result.final_table
    assert not result.redraw_final_table
    assert result.is_empty


def test_rp9_final_table_size_can_differ_from_the_table_size():
    tables = [_table(1, "xxxxx.....", big_blind=1), _table(2, "xxxxx.....", big_blind=1)]
    assert not _plan(*tables, max_table_size=8).final_table
    assert _plan(*tables, max_table_size=8, final_table_size=10).final_table


# --- RP-8: hand-for-hand --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players_left", "places_paid", "expected"),
    [(101, 100, True), (102, 100, False), (100, 100, False), (10, 9, True), (3, 9, False)],
)
def test_rp8_hand_for_hand_exactly_one_bust_from_the_money(players_left, places_paid, expected):
    assert needs_hand_for_hand(players_left, places_paid) is expected


def test_rp8_hand_for_hand_can_start_earlier():
    assert needs_hand_for_hand(102, 100, margin=2)
    assert not needs_hand_for_hand(103, 100, margin=2)


# --- input checks ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tables", "code"),
    [
        ([_table(1, FULL), _table(1, FULL)], "duplicate_table"),
        ([_table(1, FULL), dataclasses.replace(_table(2, FULL), occupied={1: 101})], "bad_seat"),
        ([dataclasses.replace(_table(1, FULL), occupied={10: 5}), _table(2, FULL)], "bad_seat"),
        ([_table(1, FULL, big_blind=12), _table(2, FULL)], "bad_table"),
    ],
)
def test_tables_that_cannot_be_planned_are_refused(tables, code):
    with pytest.raises(BalancingError) as info:
        plan(tables, random.Random(1), max_table_size=9)
    assert info.value.code == code


def test_a_stale_plan_is_refused():
    donor = _table(1, FULL, button=3, small_blind=4, big_blind=5)
    receiver = _table(2, "xxxxxxx..", button=1, small_blind=2, big_blind=3)
    result = _plan(donor, receiver)
    moved = apply_plan([donor, receiver], result)
    with pytest.raises(BalancingError) as info:
        apply_plan(moved, result)
    assert info.value.code == "stale_plan"


# --- scale ----------------------------------------------------------------------------------------


def test_plan_after_a_bust_in_a_ten_thousand_entry_event_breaks_one_table():
    """At the largest scale (its time is `bench/bench_floor.py`'s, not this test's)."""
    rng = random.Random(3)
    seating = seat_draw(range(10_000), 1112, 9, rng)
    occupied: dict[int, dict[int, int]] = {}
    for entry, ref in seating.items():
        occupied.setdefault(ref.table, {})[ref.seat] = entry
    tables = [
        TableState(number=n, seats=9, occupied=occ, big_blind=min(occ))
        for n, occ in sorted(occupied.items())
    ]
    del occupied[1][min(occupied[1])]  # a bust
    result = plan(tables, rng, max_table_size=9, break_order=draw_break_order(occupied, rng))
    assert len(result.broken_tables) == 1  # 9,999 players fit on 1,111 tables


# --- properties: plans converge, no player is lost or doubled -------------------------------------


@st.composite
def _floors(draw: st.DrawFn) -> tuple[list[TableState], int]:
    cap = draw(st.integers(min_value=2, max_value=10))
    count = draw(st.integers(min_value=1, max_value=12))
    tables = []
    for number in draw(st.permutations(range(1, 30)))[:count]:
        seats = draw(st.integers(min_value=cap, max_value=10))
        taken = draw(st.lists(st.sampled_from(range(1, seats + 1)), max_size=cap, unique=True))
        positions = [draw(st.none() | st.integers(min_value=1, max_value=seats)) for _ in "bsB"]
        tables.append(
            TableState(
                number=number,
                seats=seats,
                occupied={seat: 1000 * number + seat for seat in taken},
                button=positions[0],
                small_blind=positions[1],
                big_blind=positions[2],
            )
        )
    return tables, cap


def _check_conserved(before: list[TableState], after: tuple[TableState, ...]) -> None:
    entries_before = Counter(e for t in before for e in t.occupied.values())
    entries_after = Counter(e for t in after for e in t.occupied.values())
    assert entries_after == entries_before, "a player was lost or duplicated"
    for table in after:
        assert all(1 <= seat <= table.seats for seat in table.occupied)


@settings(max_examples=examples(300), deadline=None)
@given(floor=_floors(), seed=st.integers(min_value=0, max_value=2**32))
def test_plans_converge_in_one_round_and_conserve_players(floor, seed):
    """Random tables -> plan -> apply: balanced, nothing left to break, every player once."""
    tables, cap = floor
    rng = random.Random(seed)
    order = draw_break_order([t.number for t in tables], rng)
    result = plan(tables, rng, max_table_size=cap, break_order=order)
    if result.final_table:
        assert sum(_sizes(tables)) <= cap
        assert result.moves == ()
        return
    after = apply_plan(tables, result)
    _check_conserved(tables, after)
    for move in result.moves:
        assert move.from_table != move.to_table
    again = plan(after, rng, max_table_size=cap, break_order=order)
    assert again.is_empty, "a second plan still has work to do"
    sizes = _sizes(after)
    assert max(sizes) - min(sizes) <= 1
    assert sum(sizes) > (len(after) - 1) * cap, "one table too many is still in play"


@settings(max_examples=examples(40), deadline=None)
@given(
    entries=st.integers(min_value=10, max_value=120),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_busting_players_one_by_one_keeps_tables_balanced_to_the_final_table(entries, seed):
    """A whole event: after every bust, plan, move, and play a hand; tables stay balanced."""
    rng = random.Random(seed)
    seating = seat_draw(range(entries), None, 9, rng)
    occupied: dict[int, dict[int, int]] = {}
    for entry, ref in seating.items():
        occupied.setdefault(ref.table, {})[ref.seat] = entry
    tables = [
        TableState(number=n, seats=9, occupied=occ, button=rng.choice(sorted(occ)))
        for n, occ in sorted(occupied.items())
    ]
    order = draw_break_order(occupied, rng)
    while True:
        result = plan(tables, rng, max_table_size=9, break_order=order)
        if result.final_table:
            assert sum(_sizes(tables)) <= 9
            return
        after = apply_plan(tables, result)
        _check_conserved(tables, after)
        sizes = _sizes(after)
        assert max(sizes) - min(sizes) <= 1
        tables = [_play_a_hand(t) for t in after]
        victim = rng.choice(tables)
        seat = rng.choice(sorted(victim.occupied))
        remaining = {s: e for s, e in victim.occupied.items() if s != seat}
        tables = [dataclasses.replace(t, occupied=remaining) if t is victim else t for t in tables]


def _play_a_hand(table: TableState) -> TableState:
    """The positions after one more hand with the dead button (T 32)."""
    hand = next_hand(table)
    if hand.big_blind is None:
        return table
    return dataclasses.replace(
        table, button=hand.button, small_blind=hand.small_blind, big_blind=hand.big_blind
    )
