"""The table plan (every table in play with its seats, the button, the hand in progress, the
moves that wait for a hand, the seats held and the players the next hand will not deal in) and
hand-for-hand's progress: what the desk shows and the API sends. Also the reads the tablet and
the hand services share: the next hand's positions at a table (`table_next_hand`), who it will
not deal in (`seats_waiting`), who moves when a hand ends (`moves_after_hand`), and where each
table stands in the hand-for-hand hand (`hand_for_hand_tables`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TypedDict

from django.db import connection
from django.db.models import Count

from tournaments import balancing
from tournaments.hands import ReopenOffer, hand_reader
from tournaments.models import ButtonDraw, Entry, Table, Tournament

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
    locked: bool = False  # an open seat the floor keeps empty


class ButtonDrawView(TypedDict):
    """A table's high-card draw for the button, as stored."""

    seats: list[int]  # in the order the cards were dealt
    cards: str
    tiebreak: str
    winner_seat: int


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
    seat_count: int = 0
    button_seat: int | None = None
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None
    is_broken: bool = False
    dealer_name: str | None = None
    button_draw: ButtonDrawView | None = None  # the latest high-card draw for the button
    locked_seats: tuple[int, ...] = ()  # the seats the floor keeps empty


@dataclass(frozen=True, slots=True, kw_only=True)
class _Seated:
    pk: int
    name: str
    chips: int
    hand_number: int | None
    moves_to: tuple[int, int] | None


def table_plan(
    tournament: Tournament, *, halted: tuple[int, ...] = (), broken: bool = False
) -> list[TableView]:
    """The tables in play (with `broken`, the broken ones too), each with every seat (open or
    taken), the button and the blinds, its dealer and its latest button draw, the hand in
    progress, the players dealt in it, the moves that wait for a hand's end, the players the
    next hand will not deal in and the hand a director may reopen: the desk's tables page and
    the API's tables (one query for the tables, one for the players, one for the hands, one
    for the button draws)."""
    queryset = tournament.tables.select_related("dealer").order_by("number")
    tables = list(queryset if broken else queryset.filter(is_broken=False))
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
    offers = hand_reader().reopen_offers([table.pk for table in tables])
    draws: dict[int, ButtonDrawView] = {}
    for draw in ButtonDraw.objects.filter(table__in=tables).order_by("pk"):
        draws[draw.table_id] = {
            "seats": draw.seats,
            "cards": draw.cards,
            "tiebreak": draw.tiebreak,
            "winner_seat": draw.winner_seat,
        }
    return [
        _table_view(table, taken[table.pk], held, halted, offers.get(table.pk), draws.get(table.pk))
        for table in tables
    ]


def _table_view(
    table: Table,
    taken: dict[int, _Seated],
    held: dict[tuple[int, int], str],
    halted: tuple[int, ...],
    reopen: ReopenOffer | None,
    draw: ButtonDrawView | None,
) -> TableView:
    hands = {s.hand_number for s in taken.values() if s.hand_number is not None}
    # Between hands only: during one, "in hand" says who was dealt in.
    waiting = {} if hands else seats_waiting(table, {seat: s.pk for seat, s in taken.items()})
    seats = []
    locked = tuple(sorted(table.locked_seats or ()))
    for seat in range(1, table.seat_count + 1):
        button = seat == table.button_seat
        found = taken.get(seat)
        if found is None:
            seats.append(
                SeatView(
                    seat=seat,
                    button=button,
                    held_for=held.get((table.number, seat), ""),
                    locked=seat in locked,
                )
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
        seat_count=table.seat_count,
        button_seat=table.button_seat,
        small_blind_seat=table.small_blind_seat,
        big_blind_seat=table.big_blind_seat,
        is_broken=table.is_broken,
        dealer_name=table.dealer.get_username() if table.dealer else None,
        button_draw=draw,
        locked_seats=locked,
    )


# --- who the next hand deals in, who moves after the hand ------------------------------------


def table_next_hand(table: Table, occupied: Mapping[int, int]) -> balancing.NextHand:
    """The next hand's button and blinds at `table` with these seats taken (seat to entry id):
    from the positions its last hand wrote on the table, or from a seat or button draw (which
    resets them, so that everyone it seated is dealt in). Reads no row of its own."""
    return balancing.next_hand(
        balancing.TableState(
            number=table.number,
            seats=table.seat_count,
            occupied=occupied,
            button=table.button_seat,
            small_blind=table.small_blind_seat,
            big_blind=table.big_blind_seat,
        )
    )


def seats_waiting(table: Table, occupied: Mapping[int, int]) -> dict[int, str]:
    """The seated players the next hand at `table` will not deal in, by seat, each with why
    (T 10-A: a new player between the button and the small blind waits for the button). The
    tablet and the desk show these; `dealer.services.hand_start` deals by the same positions."""
    positions = table_next_hand(table, occupied)
    reasons = {seat: positions.wait_reason(seat) for seat in occupied}
    return {seat: reason for seat, reason in sorted(reasons.items()) if reason}


@cache
def _moves_after_hand_sql() -> str:
    """The statement of `moves_after_hand`, built once by the ORM (the hand is its parameter):
    unordered, since the entries' default order joins the tournament and the player."""
    moving = Entry.objects.filter(live_hand_id=0, move_to_table__isnull=False).order_by()
    sql, params = moving.values_list(
        "seat", "move_to_table__number", "move_to_seat"
    ).query.sql_with_params()
    assert tuple(params) == (0,), params
    return sql


def moves_after_hand(hand_id: int) -> dict[int, str]:
    """The players of a hand in progress who move when it ends (a balancing move or a broken
    table confirmed during it), by seat, each with where to: the tablet says so on the seat.
    Read on every tap: the statement is built once (building the ORM's query cost the tap more
    than the database's work)."""
    with connection.cursor() as cursor:
        cursor.execute(_moves_after_hand_sql(), [hand_id])
        rows = cursor.fetchall()
    return {
        seat: f"moves to table {to_table}, seat {to_seat} after this hand"
        for seat, to_table, to_seat in rows
        if seat is not None
    }


# --- the floor waiting for the hands -------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class HandForHandTable:
    """Where one table stands in the hand-for-hand hand being played."""

    number: int
    state: str  # "waiting" (not dealt yet), "playing", "done"


def hand_for_hand_tables(tournament: Tournament) -> list[HandForHandTable]:
    """Each table in play with two or more players, and whether it has dealt, is playing or
    has finished the current hand-for-hand hand."""
    playing = set(
        Entry.objects.filter(
            tournament=tournament, status=Entry.Status.ACTIVE, live_hand__isnull=False
        ).values_list("table_id", flat=True)
    )
    seated = (
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .values("table_id")
        .annotate(n=Count("pk"))
    )
    counts = {row["table_id"]: row["n"] for row in seated}
    tables = []
    for table in tournament.tables.filter(is_broken=False).order_by("number"):
        if counts.get(table.pk, 0) < 2:
            continue
        if table.pk in playing:
            state = "playing"
        elif table.hand_for_hand_round >= tournament.hand_for_hand_round:
            state = "done"
        else:
            state = "waiting"
        tables.append(HandForHandTable(number=table.number, state=state))
    return tables


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
