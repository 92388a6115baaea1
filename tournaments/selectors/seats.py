"""Who sits where, and what is free (issue 28, "Seats"): the one read of a tournament's seats.

A seat is taken when a player in play sits there, or when it is held for a player who moves
there after their hand; a locked seat (the floor keeps it empty) is never free either. The late
seat, the balancing plan's tables, the floor's moves and locks and the undo of a bust all ask
this read, so "is this seat free" has one answer. `tournaments.services.seats` writes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from django.db.models import Q

from tournaments.models import Entry, Table, Tournament


class Hold(StrEnum):
    """How a seat is taken."""

    SITS = "sits"  # a player sits there now
    HELD = "held"  # a player moves there when their hand ends


@dataclass(frozen=True, slots=True, kw_only=True)
class Holder:
    """The player who has a seat, and how."""

    entry_id: int
    hold: Hold


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSeats:
    """One table's seats: `seated` and `held` map a seat number to an entry id; `leaving` are
    the entries sitting here whose held seat (at this table or another) waits for their hand."""

    table: Table
    seated: Mapping[int, int]
    held: Mapping[int, int]
    leaving: frozenset[int]

    @property
    def locked(self) -> frozenset[int]:
        return frozenset(self.table.locked_seats or ())

    @property
    def taken(self) -> frozenset[int]:
        """The seats a player sits in or is moving to."""
        return frozenset(self.seated) | frozenset(self.held)

    def free(self) -> list[int]:
        """The seats nobody sits in, none held and none locked, in order."""
        closed = self.taken | self.locked
        return [s for s in range(1, self.table.seat_count + 1) if s not in closed]

    def holder(self, seat: int, *, but: int | None = None) -> Holder | None:
        """Who has this seat (the player sitting there first), `but` that entry; None: free
        of players (it may still be locked)."""
        for hold, seats in ((Hold.SITS, self.seated), (Hold.HELD, self.held)):
            entry_id = seats.get(seat)
            if entry_id is not None and entry_id != but:
                return Holder(entry_id=entry_id, hold=hold)
        return None

    def after_moves(self) -> dict[int, int]:
        """Seat to entry id once the waiting moves are made: a leaving player no longer sits
        here, a player moving here does (how the balancing plan counts the table)."""
        staying = {s: pk for s, pk in self.seated.items() if pk not in self.leaving}
        return {**staying, **self.held}


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatMap:
    """The seats of a tournament's tables (by table id, in table number order)."""

    tables: Mapping[int, TableSeats]

    def at(self, table: Table | int) -> TableSeats:
        return self.tables[table if isinstance(table, int) else table.pk]


def seat_map_get(*, tournament: Tournament | int, tables: Iterable[Table] | None = None) -> SeatMap:
    """The seats of the tournament's tables in play, or of the `tables` given (the caller's
    rows, locked or not; a broken one too). Players in play only. Three queries, or two with
    `tables`, whatever the size of the field: the tables, where players sit, the seats held
    (the few waiting moves on their own, so the big read stays three columns)."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    if tables is None:
        found = list(Table.objects.filter(tournament_id=tournament_id, is_broken=False))
    else:
        found = list(tables)
    found.sort(key=lambda t: t.number)
    active = Entry.objects.filter(tournament_id=tournament_id, status=Entry.Status.ACTIVE)
    if tables is not None:
        ids = [t.pk for t in found]
        sitting = active.filter(table__in=ids)
        # A player here moving elsewhere too: they are `leaving`.
        moving = active.filter(
            Q(move_to_table__in=ids) | Q(table__in=ids, move_to_table__isnull=False)
        )
    else:
        sitting = active.filter(table__isnull=False)
        moving = active.filter(move_to_table__isnull=False)
    seated: dict[int, dict[int, int]] = {t.pk: {} for t in found}
    held: dict[int, dict[int, int]] = {t.pk: {} for t in found}
    leaving: set[int] = set()
    for pk, table_id, seat in moving.values_list("pk", "move_to_table_id", "move_to_seat"):
        leaving.add(pk)
        if table_id in held and seat is not None:
            held[table_id][seat] = pk
    for pk, table_id, seat in sitting.values_list("pk", "table_id", "seat"):
        if table_id in seated and seat is not None:
            seated[table_id][seat] = pk
    return SeatMap(
        tables={
            t.pk: TableSeats(
                table=t,
                seated=seated[t.pk],
                held=held[t.pk],
                leaving=frozenset(pk for pk in seated[t.pk].values() if pk in leaving),
            )
            for t in found
        }
    )
