"""The tournament's seats, written here and nowhere else (issue 28, "Seats"): where an entry
sits (`Entry.table`, `Entry.seat`), the seat held for it while it finishes a hand
(`Entry.move_to_table`, `Entry.move_to_seat`), and the seats the floor keeps empty
(`Table.locked_seats`).

The callers (the registration desk, the draws and balancing, the floor, busts) keep their checks,
their locks (the tournament's row first, `locks.lock_tournament`) and their audit entries:
these functions only write, inside the caller's transaction. `tournaments.selectors.seats`
answers who sits where and what is free.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from django.db.models import Func, IntegerField, JSONField, TextField, Value
from django.db.models.functions import Cast

if TYPE_CHECKING:
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.models.sql.compiler import SQLCompiler

from tournaments.models import Entry, Table

SEAT_FIELDS = ["table", "seat", "move_to_table", "move_to_seat"]
BATCH = 2000


def seat_assign(*, entry: Entry, table: Table, seat: int) -> None:
    """Sit the entry at this table and seat now; a seat held for it is let go. An entry not
    yet saved (a late registration) takes the seat with its insert, which the caller makes."""
    entry.table, entry.seat = table, seat
    entry.move_to_table, entry.move_to_seat = None, None
    if entry.pk is not None:
        entry.save(update_fields=SEAT_FIELDS)


def seat_hold(*, entry: Entry, table: Table, seat: int) -> None:
    """Hold a seat for an entry dealt in a hand in progress: it stays where it is until the
    hand ends, then moves there (`seat_move_complete`)."""
    entry.move_to_table, entry.move_to_seat = table, seat
    entry.save(update_fields=["move_to_table", "move_to_seat"])


def seat_move_complete(*, entry: Entry) -> None:
    """The entry's hand has ended: it takes the seat held for it."""
    table, seat = entry.move_to_table, entry.move_to_seat
    if table is None or seat is None:
        raise ValueError(f"entry {entry.pk} has no seat held")
    seat_assign(entry=entry, table=table, seat=seat)


def seat_clear(*, entry: Entry) -> None:
    """The entry leaves the tables (unregistered): no seat, none held."""
    entry.table, entry.seat = None, None
    entry.move_to_table, entry.move_to_seat = None, None
    entry.save(update_fields=SEAT_FIELDS)


def seats_release_held(*, entries: Iterable[Entry]) -> None:
    """Let go the seats held for these entries (busted while their move waited for the hand):
    one statement, and none when no seat was held. A busted entry keeps its own seat, to
    which an undone bust brings it back."""
    holding = [e for e in entries if e.move_to_table_id is not None or e.move_to_seat is not None]
    for entry in holding:
        entry.move_to_table, entry.move_to_seat = None, None
    if holding:
        Entry.objects.filter(pk__in=[e.pk for e in holding]).update(
            move_to_table=None, move_to_seat=None
        )


class _Drawn(Func):
    """`rows[str(pk)][index]`, read by the database from one JSON parameter: one UPDATE gives
    thousands of entries each its own table and seat, in one pass. A `bulk_update` writes a
    CASE with a branch per entry that Django resolves one by one: for the 10,000-seat draw,
    many times slower than this (docs/performance.md, "Seats")."""

    output_field = IntegerField()

    def __init__(self, rows: dict[str, list[int]], index: int) -> None:
        super().__init__(Value(rows, output_field=JSONField()), Cast("pk", TextField()))
        self.index = index

    def _parts(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper
    ) -> tuple[str, str, list[str | int]]:
        rows, pk = self.get_source_expressions()
        rows_sql, rows_params = compiler.compile(rows)
        pk_sql, pk_params = compiler.compile(pk)
        return rows_sql, pk_sql, [*rows_params, *pk_params]

    def as_postgresql(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra: object
    ) -> tuple[str, list[str | int]]:
        rows, pk, params = self._parts(compiler, connection)
        return f"CAST(jsonb_extract_path_text({rows}, {pk}, '{self.index:d}') AS integer)", params

    def as_sqlite(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra: object
    ) -> tuple[str, list[str | int]]:
        rows, pk, params = self._parts(compiler, connection)
        return f"""json_extract({rows}, '$."' || {pk} || '"[{self.index:d}]')""", params


def seats_assign_many(*, seats: Sequence[tuple[int, int, int]]) -> None:
    """Seat many entries that have no seat yet (the opening draw, a day's draw): (entry id,
    table id, seat) rows, one UPDATE per 2,000 entries whatever the size of the field."""
    for first in range(0, len(seats), BATCH):
        batch = seats[first : first + BATCH]
        rows = {str(pk): [table_id, seat] for pk, table_id, seat in batch}
        Entry.objects.filter(pk__in=[pk for pk, _, _ in batch]).update(
            table_id=_Drawn(rows, 0), seat=_Drawn(rows, 1)
        )


def seats_redraw(*, seats: Sequence[tuple[int, int, int]]) -> None:
    """Seat players who are seated already anew (the final table's redraw): their seats are
    emptied first, since two of them may swap seats and the database checks one entry a seat
    row by row."""
    Entry.objects.filter(pk__in=[pk for pk, _, _ in seats]).update(table=None, seat=None)
    seats_assign_many(seats=seats)


def seat_lock(*, table: Table, seat: int, locked: bool) -> None:
    """Lock a seat (the floor keeps it empty) or unlock it."""
    seats = set(table.locked_seats or ())
    if locked:
        seats.add(seat)
    else:
        seats.discard(seat)
    table.locked_seats = sorted(seats)
    table.save(update_fields=["locked_seats"])


def seat_locks_clear(*, table: Table) -> None:
    """Unlock every seat of the table (a closed table opened again starts with none locked)."""
    table.locked_seats = []
    table.save(update_fields=["locked_seats"])
