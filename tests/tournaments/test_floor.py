"""The desk at scale, the services: manual seat moves (now, or after the player's hand), seat
locks that every seat assignment respects, tables added and closed. Worked examples, then a
property test: whatever seats are locked, nobody is ever seated in one."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import FloorError
from dealer.models import Hand
from tests.examples import examples
from tests.pages import NAMES, NOW, deal, fold_to_end, tournament
from tournaments import balancing, seating
from tournaments.models import AuditEvent, ButtonDraw, Entry, Table, Tournament
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register
from tournaments.services.floor import entry_move_seat, table_add, table_close, table_lock_seat
from tournaments.services.tables import (
    tournament_balance_plan,
    tournament_confirm_moves,
    tournament_draw_seats,
)

PLAYERS = [f"Player {n:02d}" for n in range(1, 31)]


def table(event: Tournament, number: int) -> Table:
    return Table.objects.get(tournament=event, number=number)


def seated(event: Tournament, number: int) -> dict[int, Entry]:
    return {
        e.seat: e
        for e in Entry.objects.filter(
            tournament=event, table__number=number, status=Entry.Status.ACTIVE
        ).select_related("player")
        if e.seat is not None
    }


def number(entry: Entry) -> int:
    """The number of the table the entry sits at."""
    assert entry.table is not None
    return entry.table.number


def open_seat(event: Tournament, number: int) -> int:
    found = table(event, number)
    taken = set(seated(event, number)) | set(found.locked_seats)
    return next(s for s in range(1, found.seat_count + 1) if s not in taken)


def no_one_in_a_locked_seat(event: Tournament) -> None:
    locked = {t.pk: set(t.locked_seats) for t in Table.objects.filter(tournament=event)}
    for entry in Entry.objects.filter(tournament=event, status=Entry.Status.ACTIVE):
        if entry.table_id is not None:
            assert entry.seat not in locked[entry.table_id], f"{entry} sits in a locked seat"
        if entry.move_to_table_id is not None:
            assert entry.move_to_seat not in locked[entry.move_to_table_id], entry


def last_audit(event: Tournament) -> AuditEvent:
    found = AuditEvent.objects.filter(tournament=event).order_by("-pk").first()
    assert found is not None
    return found


# --- manual seat moves ------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_move_to_an_open_seat_takes_effect_at_once_and_is_audited() -> None:
    event = tournament(players=NAMES[:12], start=True)
    mover = next(iter(seated(event, 1).values()))
    came_from = mover.seat
    seat = open_seat(event, 2)

    moved = entry_move_seat(entry=mover, table=table(event, 2), seat=seat)

    mover.refresh_from_db()
    assert (moved.table_id, mover.table_id, mover.seat) == (
        table(event, 2).pk,
        table(event, 2).pk,
        seat,
    )
    assert mover.move_to_table_id is None
    audit = last_audit(event)
    assert audit.action == "seat_move"
    assert audit.detail["from_table"] == 1
    assert audit.detail["from_seat"] == came_from
    assert (audit.detail["table"], audit.detail["seat"], audit.detail["after_hand"]) == (
        2,
        seat,
        False,
    )


@pytest.mark.django_db
def test_a_player_in_a_hand_moves_when_it_ends() -> None:
    """The move waits for the hand like a balancing move: the seat is held, then taken when
    the tablet ends the hand."""
    event = tournament(players=NAMES[:12], start=True)
    hand = deal(event, 1)
    mover = Entry.objects.get(pk=hand.seats[0]["entry"])
    came_from = mover.seat
    seat = open_seat(event, 2)

    entry_move_seat(entry=mover.pk, table=table(event, 2).pk, seat=seat)
    mover.refresh_from_db()
    assert mover.move_to_table is not None
    waiting = (number(mover), mover.seat, mover.move_to_table.number, mover.move_to_seat)
    with pytest.raises(FloorError) as held:
        table_lock_seat(table=table(event, 2), seat=seat, locked=True)
    fold_to_end(Hand.objects.get(pk=hand.pk))
    mover.refresh_from_db()

    assert waiting == (1, came_from, 2, seat)
    assert held.value.code == "seat_held"
    assert (number(mover), mover.seat, mover.move_to_table_id) == (2, seat, None)
    assert AuditEvent.objects.filter(tournament=event, action="move_after_hand").count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("taken", "seat_taken"),
        ("held", "seat_taken"),
        ("locked", "seat_locked"),
        ("broken", "table_broken"),
        ("other", "other_tournament"),
        ("same", "same_seat"),
        ("no_seat", "no_such_seat"),
    ],
)
def test_a_move_is_refused_when_the_seat_is_not_free(case: str, code: str) -> None:
    event = tournament(players=NAMES[:12], start=True)
    mover = next(iter(seated(event, 1).values()))
    target, seat = table(event, 2), open_seat(event, 2)
    if case == "taken":
        seat = next(iter(seated(event, 2)))
    elif case == "held":
        hand = deal(event, 1)
        other = Entry.objects.get(pk=next(r["entry"] for r in hand.seats if r["entry"] != mover.pk))
        entry_move_seat(entry=other, table=target, seat=seat)
    elif case == "locked":
        table_lock_seat(table=target, seat=seat, locked=True)
    elif case == "broken":
        Table.objects.filter(pk=target.pk).update(is_broken=True)
    elif case == "other":
        target = tournament(players=NAMES[:4], draw=True, name="Other").tables.get(number=1)
        seat = 1
    elif case == "same":
        target, seat = table(event, number(mover)), mover.seat or 0
    elif case == "no_seat":
        seat = target.seat_count + 1

    with pytest.raises(FloorError) as error:
        entry_move_seat(entry=mover, table=target, seat=seat)

    assert error.value.code == code
    mover.refresh_from_db()
    assert number(mover) == 1


# --- seat locks ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_seat_is_locked_and_unlocked_with_the_audit() -> None:
    event = tournament(players=NAMES[:12], start=True)
    seat = open_seat(event, 1)

    table_lock_seat(table=table(event, 1), seat=seat, locked=True)
    table_lock_seat(table=table(event, 1), seat=seat, locked=True)  # again: no change
    locked = list(table(event, 1).locked_seats)
    table_lock_seat(table=table(event, 1).pk, seat=seat, locked=False)

    assert locked == [seat]
    assert table(event, 1).locked_seats == []
    actions = list(
        AuditEvent.objects.filter(tournament=event, action__in=["seat_lock", "seat_unlock"])
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == ["seat_lock", "seat_unlock"]


@pytest.mark.django_db
def test_an_occupied_seat_cannot_be_locked() -> None:
    event = tournament(players=NAMES[:12], start=True)
    seat, entry = next(iter(seated(event, 1).items()))

    with pytest.raises(FloorError) as error:
        table_lock_seat(table=table(event, 1), seat=seat, locked=True)

    assert error.value.code == "seat_taken"
    assert entry.player.name in error.value.detail
    assert table(event, 1).locked_seats == []


@pytest.mark.django_db
def test_the_draw_uses_the_tables_set_up_and_skips_their_locked_seats() -> None:
    """Two 9-seat tables set up before the draw, seats 1-4 locked at table 1: 12 players fit
    in 5 + 9 unlocked seats; the draw fills evenly as far as the locks allow (5 and 7)."""
    event = tournament(players=PLAYERS[:12])
    table_add(tournament=event)
    table_add(tournament=event, number=2, seat_count=9)
    for seat in (1, 2, 3, 4):
        table_lock_seat(table=table(event, 1), seat=seat, locked=True)

    tournament_draw_seats(tournament=event, rng=random.Random(4))

    assert sorted(seated(event, 1)) == [5, 6, 7, 8, 9]
    assert len(seated(event, 2)) == 7
    assert ButtonDraw.objects.filter(table__tournament=event).count() == 2
    assert Table.objects.filter(tournament=event).count() == 2


@pytest.mark.django_db
def test_the_draw_opens_more_tables_and_closes_those_not_needed() -> None:
    event = tournament(players=PLAYERS[:20])
    table_add(tournament=event, number=5, seat_count=6)
    table_add(tournament=event, number=9)

    tournament_draw_seats(tournament=event, rng=random.Random(2))

    in_play = dict(
        Table.objects.filter(tournament=event, is_broken=False).values_list("number", "seat_count")
    )
    assert in_play == {5: 6, 9: 9, 10: 9}  # 6 + 9 + 9 seats for 20 players
    assert sum(len(seated(event, n)) for n in in_play) == 20

    small = tournament(players=PLAYERS[:6], name="Small")
    table_add(tournament=small, number=1)
    table_add(tournament=small, number=2)
    tournament_draw_seats(tournament=small, rng=random.Random(2))
    assert table(small, 2).is_broken
    assert len(seated(small, 1)) == 6


@pytest.mark.django_db
def test_a_late_entry_never_gets_a_locked_seat() -> None:
    """Only seat 9 of table 2 is open and unlocked: every late entry's draw must land there."""
    event = tournament(players=PLAYERS[:17], start=True, late_registration_level=2)
    for seat in range(1, 10):
        if seat not in seated(event, 1):
            table_lock_seat(table=table(event, 1), seat=seat, locked=True)
    free = [s for s in range(1, 10) if s not in seated(event, 2)]
    for seat in free[1:]:
        table_lock_seat(table=table(event, 2), seat=seat, locked=True)

    late = entry_register(tournament=event, player_name="Late Lou", now=NOW)
    with pytest.raises(FloorError) as full:
        entry_register(tournament=event, player_name="Later Lia", now=NOW)

    assert (number(late), late.seat) == (2, free[0])
    assert full.value.code == "no_open_seat"


@pytest.mark.django_db
def test_balancing_moves_to_an_unlocked_seat() -> None:
    """Table 2 is short by 3 after busts: the plan moves players there, into unlocked seats
    only, and counts the locked seats out of its size."""
    event = tournament(players=PLAYERS[:18], start=True)
    out = list(seated(event, 2).values())[:3]
    for entry in out:
        entries_bust(tournament=event, busts=[Bust(entry_id=entry.pk, starting_stack=10)], now=NOW)
    open_at_2 = [s for s in range(1, 10) if s not in seated(event, 2)]
    table_lock_seat(table=table(event, 2), seat=open_at_2[0], locked=True)
    table_lock_seat(table=table(event, 2), seat=open_at_2[1], locked=True)

    plan = tournament_confirm_moves(tournament=event)

    assert [m.to_table for m in plan.moves] == [2]
    assert plan.moves[0].to_seat == open_at_2[2]
    no_one_in_a_locked_seat(event)


@pytest.mark.django_db
def test_the_final_table_redraw_skips_locked_seats() -> None:
    event = tournament(players=PLAYERS[:12], start=True)
    table_lock_seat(table=table(event, 1), seat=open_seat(event, 1), locked=True)
    # 8 players left fit at one table of 9 with a seat locked.
    for entry in list(Entry.objects.filter(tournament=event, status="active"))[:4]:
        entries_bust(tournament=event, busts=[Bust(entry_id=entry.pk, starting_stack=10)], now=NOW)

    plan = tournament_confirm_moves(tournament=event, rng=random.Random(1))

    assert plan.redraw_final_table
    final = Table.objects.get(tournament=event, is_broken=False)
    assert len(seated(event, final.number)) == 8
    no_one_in_a_locked_seat(event)


@pytest.mark.django_db
def test_the_final_table_waits_until_the_players_fit_beside_the_locked_seats() -> None:
    event = tournament(players=PLAYERS[:12], start=True)
    for number in (1, 2):
        free = [s for s in range(1, 10) if s not in seated(event, number)]
        for seat in free[:3]:
            table_lock_seat(table=table(event, number), seat=seat, locked=True)
    # 9 players left do not fit at a table with 6 unlocked seats: no final table yet.
    for entry in list(Entry.objects.filter(tournament=event, status="active"))[:3]:
        entries_bust(tournament=event, busts=[Bust(entry_id=entry.pk, starting_stack=10)], now=NOW)

    plan = tournament_balance_plan(event)

    assert not plan.final_table


# --- adding and closing tables --------------------------------------------------------------


@pytest.mark.django_db
def test_a_table_added_during_play_is_filled_by_the_plan_and_gets_its_button() -> None:
    """27 players on three full tables; table 4 opens: the plan moves players there (it is not
    closed for being empty), and once two sit there its button is drawn by high card."""
    event = tournament(players=PLAYERS[:27], start=True)

    added = table_add(tournament=event, seat_count=9)
    plan = tournament_balance_plan(event)
    tournament_confirm_moves(tournament=event, rng=random.Random(3))

    added.refresh_from_db()
    assert added.number == 4
    assert 4 not in plan.broken_tables
    assert {m.to_table for m in plan.moves} == {4}
    assert len(plan.moves) == 6  # 9, 9, 9, 0 -> 7, 7, 7, 6
    assert added.button_seat in seated(event, 4)
    assert ButtonDraw.objects.filter(table=added).count() == 1


@pytest.mark.django_db
def test_t7_a_table_filled_by_late_entries_draws_its_button_before_its_first_hand() -> None:
    """Two full tables; table 3 opens and the next late entries sit there (the shortest
    table). Its tablet deals: the first hand draws the button by high card (T 7) instead of
    refusing with "no button"."""
    event = tournament(players=PLAYERS[:18], start=True, late_registration_level=3)
    added = table_add(tournament=event, seat_count=9)
    for name in ("Late One", "Late Two", "Late Three"):
        entry_register(tournament=event, player_name=name, now=NOW, rng=random.Random(5))
    assert len(seated(event, 3)) == 3

    hand = deal(event, 3)

    added.refresh_from_db()
    assert added.button_seat in seated(event, 3)
    assert hand.button_seat == added.button_seat
    assert ButtonDraw.objects.filter(table=added).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("number", "seats", "code"),
    [(1, 9, "table_number_taken"), (3, 11, "bad_seat_count"), (0, 9, "bad_table_number")],
)
def test_adding_a_table_is_refused_in_plain_words(number: int, seats: int, code: str) -> None:
    event = tournament(players=NAMES[:12], start=True)

    with pytest.raises(FloorError) as error:
        table_add(tournament=event, number=number, seat_count=seats)

    assert error.value.code == code


@pytest.mark.django_db
def test_closing_a_table_reseats_its_players_in_open_unlocked_seats() -> None:
    """7, 7 and 2 players; one seat locked at tables 1 and 2 leaves one open seat at each:
    closing table 3 puts one of its two players in each of them."""
    event = tournament(players=PLAYERS[:21], start=True)  # 7, 7, 7
    for entry in list(seated(event, 3).values())[:5]:
        entries_bust(tournament=event, busts=[Bust(entry_id=entry.pk, starting_stack=10)], now=NOW)
    leaving = {e.pk for e in seated(event, 3).values()}
    free = {}
    for number in (1, 2):
        table_lock_seat(table=table(event, number), seat=open_seat(event, number), locked=True)
        free[number] = open_seat(event, number)

    plan = table_close(table=table(event, 3), rng=random.Random(5))

    assert table(event, 3).is_broken
    assert plan.broken_tables == (3,)
    assert {m.entry_id for m in plan.moves} == leaving
    assert sorted((m.to_table, m.to_seat) for m in plan.moves) == sorted(free.items())
    assert len(seated(event, 1)) + len(seated(event, 2)) == 16
    no_one_in_a_locked_seat(event)
    assert last_audit(event).action == "table_close"


@pytest.mark.django_db
def test_closing_a_table_in_a_hand_moves_its_players_when_the_hand_ends() -> None:
    event = tournament(players=PLAYERS[:12], start=True)
    table_add(tournament=event)
    tournament_confirm_moves(tournament=event, rng=random.Random(1))  # 4, 4, 4
    hand = deal(event, 3)

    table_close(table=table(event, 3), rng=random.Random(1))
    waiting = Entry.objects.filter(tournament=event, move_to_table__number__in=[1, 2]).count()
    fold_to_end(Hand.objects.get(pk=hand.pk))

    assert len(hand.seats) == 4
    assert waiting == 4
    assert len(seated(event, 1)) + len(seated(event, 2)) == 12
    assert not seated(event, 3)


@pytest.mark.django_db
def test_closing_is_refused_when_the_others_have_no_room_or_it_is_the_last_table() -> None:
    event = tournament(players=PLAYERS[:18], start=True)  # two full tables

    with pytest.raises(FloorError) as no_room:
        table_close(table=table(event, 2))
    table_add(tournament=event, number=3, seat_count=2)
    with pytest.raises(FloorError) as still:
        table_close(table=table(event, 2))

    assert no_room.value.code == "no_open_seat"
    assert "open a table or unlock seats first" in no_room.value.detail
    assert still.value.code == "no_open_seat"
    assert not table(event, 2).is_broken

    small = tournament(players=NAMES[:5], start=True, name="Small")
    with pytest.raises(FloorError) as last:
        table_close(table=table(small, 1))
    assert last.value.code == "last_table"


# --- the property: whatever is locked, nobody sits there ------------------------------------


@pytest.mark.django_db
@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 10_000), players=st.integers(12, 30), locks=st.integers(0, 10))
def test_nobody_is_ever_seated_in_a_locked_seat(seed: int, players: int, locks: int) -> None:
    """Random locks on the tables set up before the draw, then more during play: the draw, late
    entries, balancing after busts, a closed table and the final table never use them."""
    rng = random.Random(seed)
    event = tournament(
        players=[f"P{seed}-{n}" for n in range(players)],
        late_registration_level=2,
        name=f"Prop {seed}-{players}-{locks}",
    )
    for _ in range(4):
        table_add(tournament=event)
    for _ in range(locks):
        table_lock_seat(table=table(event, rng.randint(1, 4)), seat=rng.randint(1, 9), locked=True)
    tournament_draw_seats(tournament=event, rng=rng)
    clock_start(tournament=event, now=NOW)
    no_one_in_a_locked_seat(event)
    refused = []  # only ever for want of an open, unlocked seat
    for n in range(3):
        try:
            entry_register(tournament=event, player_name=f"P{seed}-late-{n}", now=NOW, rng=rng)
        except FloorError as error:
            refused.append(error.code)
        no_one_in_a_locked_seat(event)
    while Entry.objects.filter(tournament=event, status="active").count() > 3:
        in_play = list(Table.objects.filter(tournament=event, is_broken=False))
        target = rng.choice(in_play)
        free = set(range(1, target.seat_count + 1)) - set(seated(event, target.number))
        if free:
            table_lock_seat(table=target, seat=rng.choice(sorted(free)), locked=True)
        out = rng.sample(list(Entry.objects.filter(tournament=event, status="active")), 3)
        entries_bust(
            tournament=event,
            busts=[Bust(entry_id=e.pk, starting_stack=10 + i) for i, e in enumerate(out)],
            now=NOW,
        )
        with contextlib.suppress(FloorError):  # e.g. no room left while so much is locked
            tournament_confirm_moves(tournament=event, rng=rng)
        no_one_in_a_locked_seat(event)
        in_play = list(Table.objects.filter(tournament=event, is_broken=False))
        if len(in_play) > 1 and rng.random() < 0.3:
            try:
                table_close(table=rng.choice(in_play), rng=rng)
            except FloorError as error:
                refused.append(error.code)
            no_one_in_a_locked_seat(event)
    assert set(refused) <= {"no_open_seat"}


def test_a_locked_seat_is_never_planned_into() -> None:
    """The pure plan: random tables and locks, every move and broken-table seat is unlocked."""
    for seed in range(300):
        rng = random.Random(seed)
        states, entry = [], 0
        for number in range(1, rng.randint(2, 7)):
            locked = frozenset(rng.sample(range(1, 10), rng.randint(0, 4)))
            free = [s for s in range(1, 10) if s not in locked]
            seats = rng.sample(free, rng.randint(0, len(free)))
            occupied = {}
            for seat in seats:
                entry += 1
                occupied[seat] = entry
            states.append(
                balancing.TableState(
                    number=number,
                    seats=9,
                    occupied=occupied,
                    button=min(occupied) if occupied else None,
                    locked=locked,
                )
            )
        try:
            plan = balancing.plan(states, rng, max_table_size=9)
        except balancing.BalancingError:
            continue
        if plan.redraw_final_table:
            continue
        after = balancing.apply_plan(states, plan)  # refuses a move into a locked seat
        for state in after:
            assert not set(state.occupied) & state.locked


def test_the_draw_at_set_up_tables_never_uses_a_locked_seat() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        tables = [
            seating.OpenTable(
                number=n,
                seats=(size := rng.randint(4, 10)),
                locked=frozenset(rng.sample(range(1, size + 1), rng.randint(0, 3))),
            )
            for n in range(1, rng.randint(2, 6))
        ]
        room = sum(t.usable(9) for t in tables)
        entries = list(range(rng.randint(0, room)))

        draw = seating.seat_draw_at(entries, tables, rng, max_players=9)

        by_number = {t.number: t for t in tables}
        assert len(set(draw.values())) == len(entries)
        assert all(ref.seat not in by_number[ref.table].locked for ref in draw.values())
        counts = [sum(1 for r in draw.values() if r.table == t.number) for t in tables]
        # As even as the sizes allow: a table with room left is at most one short of any other.
        for i, t in enumerate(tables):
            if counts[i] < t.usable(9):
                assert all(c <= counts[i] + 1 for c in counts)
