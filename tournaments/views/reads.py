"""Read-only queries the pages need beyond `tournaments.selectors`: the entry list, the tables
with their seats, the seated players, the latest busts, results, the audit log, the levels.

Nothing here writes or decides; the pages only show what these return.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import F, QuerySet

from tournaments import clock
from tournaments.models import AuditEvent, Entry, Tournament
from tournaments.services.events import levels_as_clock

ACTIVE = Entry.Status.ACTIVE


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    seat: int
    entry_id: int | None = None
    name: str = ""
    chips: int = 0
    button: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class TableView:
    number: int
    players: int
    seats: tuple[SeatView, ...]
    halted: bool = False
    pk: int = 0
    dealer_id: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LevelRow:
    index: int
    label: str
    level: clock.Level


def entry_list(tournament: Tournament, query: str = "") -> QuerySet[Entry]:
    """Every entry of the tournament, the newest first, optionally filtered by name."""
    entries = Entry.objects.filter(tournament=tournament).select_related("player", "table")
    query = " ".join(query.split())
    if query:
        entries = entries.filter(player__name__icontains=query)
    return entries.order_by("-created_at", "-pk")


def table_list(tournament: Tournament, *, halted: tuple[int, ...] = ()) -> list[TableView]:
    """The tables in play, each with every seat (open or taken) and the button."""
    tables = list(tournament.tables.filter(is_broken=False).order_by("number"))
    taken: dict[int, dict[int, tuple[int, str, int]]] = {t.pk: {} for t in tables}
    for pk, name, chips, table_id, seat in Entry.objects.filter(
        tournament=tournament, status=ACTIVE, table__isnull=False
    ).values_list("pk", "player__name", "chips", "table_id", "seat"):
        if table_id in taken and seat is not None:
            taken[table_id][seat] = (pk, name, chips)
    views = []
    for table in tables:
        seats = []
        for seat in range(1, table.seat_count + 1):
            button = seat == table.button_seat
            found = taken[table.pk].get(seat)
            if found is None:
                seats.append(SeatView(seat=seat, button=button))
                continue
            pk, name, chips = found
            seats.append(SeatView(seat=seat, entry_id=pk, name=name, chips=chips, button=button))
        views.append(
            TableView(
                number=table.number,
                players=len(taken[table.pk]),
                seats=tuple(seats),
                halted=table.number in halted,
                pk=table.pk,
                dealer_id=table.dealer_id,
            )
        )
    return views


def seated_entries(tournament: Tournament) -> QuerySet[Entry]:
    """Players in play with a seat, by table and seat (the eliminations form lists them)."""
    return (
        Entry.objects.filter(tournament=tournament, status=ACTIVE, table__isnull=False)
        .select_related("player", "table")
        .order_by("table__number", "seat")
    )


def seat_cards(tournament: Tournament, entry_id: int | None = None) -> QuerySet[Entry]:
    """Seated players by table and seat (or the one entry asked for), for printed seat cards."""
    cards = seated_entries(tournament)
    return cards.filter(pk=entry_id) if entry_id is not None else cards


def recent_busts(tournament: Tournament, limit: int = 30) -> QuerySet[Entry]:
    """Players out, the latest hand first."""
    return (
        Entry.objects.filter(tournament=tournament, status=Entry.Status.BUSTED)
        .select_related("player")
        .order_by(F("bust_group").desc(nulls_last=True), "finishing_place")[:limit]
    )


def results(tournament: Tournament) -> list[tuple[int | None, str, int, Decimal | None]]:
    """Place, name, entry number and prize of every entry that played: the players still in
    (no place yet) by chips, then everyone out, by place."""
    rows = (
        Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.Status.UNREGISTERED)
        .order_by(F("finishing_place").asc(nulls_first=True), "-chips", "player__name")
        .values_list("finishing_place", "player__name", "number", "prize")
    )
    return list(rows)


def audit_log(tournament: Tournament, limit: int = 200) -> QuerySet[AuditEvent]:
    return AuditEvent.objects.filter(tournament=tournament).select_related("actor")[:limit]


def level_list(tournament: Tournament) -> list[LevelRow]:
    """The tournament's schedule rows with the director's names ("Level 3", "Break")."""
    levels = levels_as_clock(tournament.levels.all())
    rows = []
    for index, level in enumerate(levels):
        number = clock.level_number(levels, index)
        label = "Break" if number is None else f"Level {number}"
        rows.append(LevelRow(index=index, label=label, level=level))
    return rows


def audit_detail(detail: Any) -> str:
    """An audit event's details as one readable line ("player: Ann Lee, table: 3")."""
    if not isinstance(detail, dict):
        return str(detail)
    parts = []
    for key, value in detail.items():
        if isinstance(value, list):
            value = "; ".join(audit_detail(item) for item in value)
        parts.append(f"{key.replace('_', ' ')}: {value}")
    return ", ".join(parts)
