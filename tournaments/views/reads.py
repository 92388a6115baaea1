"""Read-only queries the pages need beyond `tournaments.selectors`: the entry list, the tables
with their seats, the seated players, the latest busts, results, the audit log, the levels,
hand-for-hand's progress and a table's count sheet.

Nothing here writes or decides; the pages only show what these return.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import F, QuerySet

from dealer.services import ReopenOffer, hands_reopenable
from tournaments import clock
from tournaments.models import AuditEvent, Entry, Table, Tournament
from tournaments.services.clocks import HandForHandTable, hand_for_hand_tables
from tournaments.services.events import levels_as_clock
from tournaments.services.tables import seats_waiting

ACTIVE = Entry.Status.ACTIVE


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    seat: int
    entry_id: int | None = None
    name: str = ""
    chips: int = 0
    button: bool = False
    in_hand: bool = False
    moves_to: str = ""  # "table 2, seat 5": a move that waits for the end of the player's hand
    held_for: str = ""  # an open seat held for a player who moves here after their hand
    waits: str = ""  # why the next hand will not deal this player in (T 10-A)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableView:
    number: int
    players: int
    seats: tuple[SeatView, ...]
    halted: bool = False
    pk: int = 0
    dealer_id: int | None = None
    hand_number: int | None = None  # the hand in progress at the table
    reopen: ReopenOffer | None = None  # the last completed hand, which a director may reopen


@dataclass(frozen=True, slots=True, kw_only=True)
class LevelRow:
    index: int
    label: str
    level: clock.Level


def entry_list(tournament: Tournament, query: str = "") -> QuerySet[Entry]:
    """Every entry of the tournament, the newest first, optionally filtered by name, with the
    hand each is dealt in (if one is in progress)."""
    entries = Entry.objects.filter(tournament=tournament).select_related(
        "player", "table", "live_hand__table"
    )
    query = " ".join(query.split())
    if query:
        entries = entries.filter(player__name__icontains=query)
    return entries.order_by("-created_at", "-pk")


@dataclass(frozen=True, slots=True, kw_only=True)
class _Seated:
    pk: int
    name: str
    chips: int
    hand_number: int | None
    moves_to: tuple[int, int] | None


def table_list(tournament: Tournament, *, halted: tuple[int, ...] = ()) -> list[TableView]:
    """The tables in play, each with every seat (open or taken), the button, the hand in
    progress, the players dealt in it, the moves that wait for a hand's end, the players the
    next hand will not deal in and the hand a director may reopen (one query for the tables,
    one for the players, one for the hands)."""
    tables = list(tournament.tables.filter(is_broken=False).order_by("number"))
    taken: dict[int, dict[int, _Seated]] = {t.pk: {} for t in tables}
    held: dict[tuple[int, int], str] = {}
    for pk, name, chips, table_id, seat, hand, to_table, to_seat in Entry.objects.filter(
        tournament=tournament, status=ACTIVE, table__isnull=False
    ).values_list(
        "pk",
        "player__name",
        "chips",
        "table_id",
        "seat",
        "live_hand__number",
        "move_to_table__number",
        "move_to_seat",
    ):
        moves_to = (to_table, to_seat) if to_table is not None and to_seat is not None else None
        if moves_to is not None:
            held[moves_to] = name
        if table_id in taken and seat is not None:
            taken[table_id][seat] = _Seated(
                pk=pk, name=name, chips=chips, hand_number=hand, moves_to=moves_to
            )
    offers = hands_reopenable([table.pk for table in tables])
    return [
        _table_view(table, taken[table.pk], held, halted, offers.get(table.pk)) for table in tables
    ]


def _table_view(
    table: Any,
    taken: dict[int, _Seated],
    held: dict[tuple[int, int], str],
    halted: Any,
    reopen: ReopenOffer | None,
) -> TableView:
    hands = {s.hand_number for s in taken.values() if s.hand_number is not None}
    # Between hands only: during one, "in hand" says who was dealt in.
    waiting = {} if hands else seats_waiting(table, {seat: s.pk for seat, s in taken.items()})
    seats = []
    for seat in range(1, table.seat_count + 1):
        button = seat == table.button_seat
        found = taken.get(seat)
        if found is None:
            seats.append(
                SeatView(seat=seat, button=button, held_for=held.get((table.number, seat), ""))
            )
            continue
        seats.append(
            SeatView(
                seat=seat,
                entry_id=found.pk,
                name=found.name,
                chips=found.chips,
                button=button,
                in_hand=found.hand_number is not None,
                moves_to=f"table {found.moves_to[0]}, seat {found.moves_to[1]}"
                if found.moves_to
                else "",
                waits=waiting.get(seat, ""),
            )
        )
    return TableView(
        number=table.number,
        players=len(taken),
        seats=tuple(seats),
        halted=table.number in halted,
        pk=table.pk,
        dealer_id=table.dealer_id,
        hand_number=max(hands) if hands else None,
        reopen=reopen,
    )


def seated_entries(tournament: Tournament) -> QuerySet[Entry]:
    """Players in play with a seat, by table and seat (the eliminations form lists them)."""
    return (
        Entry.objects.filter(tournament=tournament, status=ACTIVE, table__isnull=False)
        .select_related("player", "table", "live_hand__table")
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


# --- the floor waiting for the hands -------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class HandForHandBoard:
    """Hand-for-hand on the desk: the hand-for-hand hand being played and where each table
    stands in it (waiting to deal, playing, done)."""

    hand: int
    tables: tuple[HandForHandTable, ...]

    @property
    def done(self) -> int:
        return sum(1 for table in self.tables if table.state == "done")


def hand_for_hand_board(tournament: Tournament) -> HandForHandBoard | None:
    """Where hand-for-hand play stands, or None when it is not in play."""
    if not tournament.hand_for_hand:
        return None
    return HandForHandBoard(
        hand=tournament.hand_for_hand_round, tables=tuple(hand_for_hand_tables(tournament))
    )


def count_sheet(table: Table) -> list[Entry]:
    """The players seated at a table, by seat, with their latest count (its source and time)
    and the hand each is dealt in, if one is in progress."""
    return list(
        Entry.objects.filter(table=table, status=ACTIVE)
        .select_related("player", "live_hand__table")
        .order_by("seat")
    )
