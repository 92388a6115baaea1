"""Seats have one owner (issue 28): the one read of who sits where and what is free
(`selectors.seats.seat_map_get`), and the many-seat writes of `services.seats`."""

from __future__ import annotations

import pytest

from tests.pages import NAMES, deal, tournament
from tournaments.models import Entry, Table, Tournament
from tournaments.selectors.seats import Hold, Holder, seat_map_get
from tournaments.services import seats as seat_writes
from tournaments.services.floor import entry_move_seat, table_lock_seat


def at(event: Tournament, number: int) -> Table:
    return Table.objects.get(tournament=event, number=number)


def sitting(event: Tournament) -> dict[int, tuple[int | None, int | None]]:
    return {
        pk: (table_id, seat)
        for pk, table_id, seat in Entry.objects.filter(tournament=event).values_list(
            "pk", "table_id", "seat"
        )
    }


@pytest.mark.django_db
def test_free_seats_exclude_the_seats_taken_held_and_locked() -> None:
    event = tournament(players=NAMES[:12], start=True)
    one, two = at(event, 1), at(event, 2)
    hand = deal(event, 1)
    mover = Entry.objects.get(pk=hand.seats[0]["entry"])
    assert mover.seat is not None
    before = seat_map_get(tournament=event).at(two)
    held, locked = before.free()[:2]
    entry_move_seat(entry=mover, table=two, seat=held)  # in a hand: the seat is held
    table_lock_seat(table=two, seat=locked, locked=True)

    seats = seat_map_get(tournament=event)
    there, here = seats.at(two), seats.at(one)

    assert there.free() == [s for s in before.free() if s not in (held, locked)]
    assert there.held == {held: mover.pk}
    assert there.locked == {locked}
    assert there.holder(held) == Holder(entry_id=mover.pk, hold=Hold.HELD)
    assert there.holder(held, but=mover.pk) is None
    assert there.holder(locked) is None  # locked, yet nobody has it
    assert held in there.taken
    assert locked not in there.taken
    # Until the hand ends the mover still sits at table 1; the plan counts them at table 2.
    assert here.seated[mover.seat] == mover.pk
    assert here.holder(mover.seat) == Holder(entry_id=mover.pk, hold=Hold.SITS)
    assert mover.seat in here.taken
    assert mover.seat not in here.free()
    assert here.leaving == {mover.pk}
    assert mover.pk not in here.after_moves().values()
    assert there.after_moves()[held] == mover.pk


@pytest.mark.django_db
def test_the_map_of_some_tables_sees_who_leaves_them(django_assert_num_queries) -> None:
    event = tournament(players=NAMES[:12], start=True)
    one, two = at(event, 1), at(event, 2)
    hand = deal(event, 1)
    mover = Entry.objects.get(pk=hand.seats[0]["entry"])
    seat = seat_map_get(tournament=event).at(two).free()[0]
    entry_move_seat(entry=mover, table=two, seat=seat)

    with django_assert_num_queries(3):  # the tables, the seats, the seats held
        whole = seat_map_get(tournament=event)
    with django_assert_num_queries(2):
        mine = seat_map_get(tournament=event, tables=[one])

    assert list(mine.tables) == [one.pk]
    assert mine.at(one) == whole.at(one)
    assert mine.at(one).leaving == {mover.pk}
    assert [t.table.number for t in whole.tables.values()] == [1, 2]


@pytest.mark.django_db
def test_many_seats_are_written_in_batches(monkeypatch) -> None:
    """The draw's write, over several batches: every entry gets its own table and seat."""
    event = tournament(players=NAMES[:12])
    tables = [Table.objects.create(tournament=event, number=n, seat_count=9) for n in (1, 2)]
    entries = list(Entry.objects.filter(tournament=event).order_by("pk"))
    wanted = {e.pk: (tables[i % 2].pk, 9 - i // 2) for i, e in enumerate(entries)}
    monkeypatch.setattr(seat_writes, "BATCH", 5)

    seat_writes.seats_assign_many(seats=[(pk, t, s) for pk, (t, s) in wanted.items()])

    assert sitting(event) == wanted


@pytest.mark.django_db
def test_a_redraw_may_swap_two_players_seats() -> None:
    event = tournament(players=NAMES[:4], draw=True)
    first, second = Entry.objects.filter(tournament=event).order_by("pk")[:2]
    assert first.table_id is not None
    assert second.table_id is not None
    before = sitting(event)

    seat_writes.seats_redraw(
        seats=[
            (first.pk, second.table_id, second.seat or 0),
            (second.pk, first.table_id, first.seat or 0),
        ]
    )

    after = sitting(event)
    assert (after[first.pk], after[second.pk]) == (before[second.pk], before[first.pk])
