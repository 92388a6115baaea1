"""The desk at scale: every table of a big field at a glance (one small tile per table) and the
one search box that finds a table by its number or a player by part of their name, accents and
case aside ("jose" finds José), so the floor gets to a table in one step."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from django.db.models import Q

from tournaments.models import Entry, Tournament
from tournaments.names import fold
from tournaments.selectors.tables import SeatView, TableView, table_plan

MATCH_LIMIT = 20
_TABLE_NUMBER = re.compile(r"^(?:t(?:able)?\s*)?(\d{1,4})$")


@dataclass(frozen=True, slots=True, kw_only=True)
class TableTile:
    """One table in the overview: what the floor needs to see from across the room."""

    pk: int
    number: int
    players: int
    seat_count: int
    dots: tuple[str, ...]  # per seat: "taken", "held" (a player moves here), "locked", "open"
    dealer_name: str | None
    hand_number: int | None  # the hand in progress
    locked: int
    is_broken: bool
    halted: bool
    no_button: bool  # opened during play: the button is drawn once two players sit here
    found: bool  # the search found this table or a player at it


@dataclass(frozen=True, slots=True, kw_only=True)
class TableMatch:
    """What the search found: a table (``name`` empty) or a player and where they sit."""

    table: int
    table_pk: int
    seat: int | None = None
    name: str = ""
    entry_id: int | None = None
    moves_to: str = ""  # "table 12, seat 4": where the player goes after their hand
    is_broken: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class TablesOverview:
    """The tables page's read: the tables in play (with every seat), a tile for every table,
    and what the search found."""

    tables: tuple[TableView, ...]
    tiles: tuple[TableTile, ...]
    matches: tuple[TableMatch, ...]
    query: str
    seats_drawn: bool
    next_number: int

    @property
    def found_tables(self) -> frozenset[int]:
        return frozenset(match.table for match in self.matches)

    @property
    def jump(self) -> int | None:
        """The one table the search found (a table number, or players all at one table)."""
        found = self.found_tables
        return next(iter(found)) if len(found) == 1 else None


def table_search(tournament: Tournament, query: str) -> list[TableMatch]:
    """A table by number ("57", "t57", "table 57") or the seated players whose name contains
    the query, accents and case aside, or whose player number it is; at most 20, by name."""
    folded = fold(query)
    if not folded:
        return []
    tables = {t.number: t for t in tournament.tables.all()}
    matches = []
    number = _TABLE_NUMBER.match(folded)
    if number and int(number.group(1)) in tables:
        table = tables[int(number.group(1))]
        matches.append(TableMatch(table=table.number, table_pk=table.pk, is_broken=table.is_broken))
    if folded.isdigit():  # a number is a table's or a player card's, never part of a name
        by_name = Q(player__number=folded)
    else:
        by_name = Q(player__search_name__contains=folded) | Q(player__name__icontains=query.strip())
    rows = (
        Entry.objects.filter(by_name, tournament=tournament, status=Entry.Status.ACTIVE)
        .filter(table__isnull=False)
        .order_by("player__search_name", "player__name", "pk")
        .values_list(
            "pk",
            "player__name",
            "table__number",
            "table_id",
            "seat",
            "move_to_table__number",
            "move_to_seat",
        )[:MATCH_LIMIT]
    )
    for pk, name, table_number, table_pk, seat, to_table, to_seat in rows:
        matches.append(
            TableMatch(
                table=table_number,
                table_pk=table_pk,
                seat=seat,
                name=name,
                entry_id=pk,
                moves_to=f"table {to_table}, seat {to_seat}" if to_table is not None else "",
            )
        )
    return matches


def table_tiles(tables: Sequence[TableView], *, found: Collection[int] = ()) -> list[TableTile]:
    """A tile per table, from the table plan's views (no query of its own)."""
    return [
        TableTile(
            pk=table.pk,
            number=table.number,
            players=table.players,
            seat_count=table.seat_count,
            dots=tuple(_dot(seat) for seat in table.seats),
            dealer_name=table.dealer_name,
            hand_number=table.hand_number,
            locked=len(table.locked_seats),
            is_broken=table.is_broken,
            halted=table.halted,
            no_button=table.button_seat is None and not table.is_broken,
            found=table.number in found,
        )
        for table in tables
    ]


def _dot(seat: SeatView) -> str:
    if seat.entry_id is not None:
        return "taken"
    if seat.held_for:
        return "held"
    return "locked" if seat.locked else "open"


def tables_overview(
    tournament: Tournament, *, halted: tuple[int, ...] = (), query: str = ""
) -> TablesOverview:
    """Everything the tables page shows: the table plan (broken tables as tiles only), the
    tiles, and the search's matches (those tables marked found)."""
    views = table_plan(tournament, halted=halted, broken=True)
    matches = table_search(tournament, query) if query.strip() else []
    found = {match.table for match in matches}
    return TablesOverview(
        tables=tuple(view for view in views if not view.is_broken),
        tiles=tuple(table_tiles(views, found=found)),
        matches=tuple(matches),
        query=query.strip(),
        seats_drawn=any(view.button_seat is not None for view in views),
        next_number=max((view.number for view in views), default=0) + 1,
    )
