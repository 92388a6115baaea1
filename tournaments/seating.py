"""Seat draws for a tournament: the opening draw, late entries, the button draw, the final table.

Pure floor logic (DESIGN.md "Layers"): no Django, no I/O, and no hidden randomness. Every draw
takes a ``random.Random`` from the caller, so a seeded generator replays a draw exactly and a
service can store the seed next to the result. Rule keys: T = Poker TDA rules 2024, RP = its
recommended procedures.

Tables and seats are plain integers. Seats are numbered 1..``seats`` clockwise, so "clockwise
after seat s" is ascending seat number, wrapping from the last seat to seat 1.

How a draw chooses seats (T 7):

- **Tables are filled evenly.** Every table gets ``entries // tables`` players and the lowest
  numbered ``entries % tables`` tables get one more, so table sizes differ by at most one. Which
  table has the extra player does not matter for fairness: every entry's table is drawn at random.
- **Empty seats are random.** At a table with ``k`` players, the ``k`` occupied seats are a
  uniform random subset of the table's seats (``rng.sample``), so the empty seats are random too
  (a room that always leaves, say, seat 10 empty can pass ``seats_per_table=9``).
- **Entries are dealt into those seats in a random order** (``rng.shuffle``), which makes every
  balanced seating equally likely. The whole draw is O(entries).

Late entries (T 8-A) and players of a broken table (T 10-B, in ``tournaments.balancing``) use one
pool: a seat drawn uniformly from the open seats of the tables with the fewest players
(:func:`draw_seat` over :func:`shortest_pool`), so tables stay balanced as they fill.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from dealer.engine.cards import Card, DeckKind, shuffled_deck
from dealer.engine.draw import button_draw
from dealer.engine.errors import ConfigError
from dealer.engine.rules import DrawTiebreak

__all__ = [
    "ButtonDraw",
    "DrawTiebreak",
    "OpenTable",
    "SeatRef",
    "SeatingError",
    "TableLayout",
    "button_draw_for_table",
    "draw_seat",
    "final_table_redraw",
    "late_seat",
    "layout_tables",
    "seat_draw",
    "seat_draw_at",
    "shortest_pool",
]

MIN_SEATS = 2
MAX_SEATS = 10
"""Seats a table may have: a hand needs 2 to 10 players (``dealer.engine.setup.MAX_PLAYERS``)."""


class SeatingError(ConfigError):
    """A draw that cannot be made (a ``ConfigError``: ``Invalid``); ``code`` says why, the text
    says what to do."""

    code = "seating_error"


@dataclass(frozen=True, slots=True, kw_only=True, order=True)
class SeatRef:
    """One seat: a table number and a seat number at that table (seats count from 1)."""

    table: int
    seat: int

    def __str__(self) -> str:
        return f"table {self.table} seat {self.seat}"


@dataclass(frozen=True, slots=True, kw_only=True)
class TableLayout:
    """One table of a draw: its number, its seat count and how many players it gets (T 7)."""

    number: int
    seats: int
    players: int


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenTable:
    """A table the floor has set up before a draw: its number, its seats and the seats it keeps
    empty (``locked``: a broken chair, a seat kept clear for a wheelchair)."""

    number: int
    seats: int
    locked: frozenset[int] = frozenset()

    def usable(self, max_players: int) -> int:
        """How many players the table takes: its unlocked seats, at most ``max_players``."""
        return min(self.seats - len(self.locked), max_players)


class ButtonDraw(NamedTuple):
    """The result of a high-card draw for the button: who won and every card dealt, in order.

    ``cards[i]`` went to the i-th player in deal order; record them with the table's draw so a
    dispute can be settled later. Unpacks as ``(winner_index, cards)``.
    """

    winner_index: int
    cards: tuple[Card, ...]


def layout_tables(
    entry_count: int, tables: int | Sequence[int] | None, seats_per_table: int
) -> tuple[TableLayout, ...]:
    """How many players each table gets in an even draw (T 7), before any seat is drawn.

    ``tables`` is the table count (tables numbered 1..n), the table numbers to use, or None for
    ``ceil(entry_count / seats_per_table)`` tables numbered from 1. Table sizes differ by at most
    one; the lowest numbered tables (in the order given) take the extra players.
    """
    _check_seats(seats_per_table)
    if entry_count < 0:
        raise SeatingError("The number of entries cannot be negative.", code="bad_entry_count")
    numbers = _table_numbers(entry_count, tables, seats_per_table)
    if entry_count > len(numbers) * seats_per_table:
        raise SeatingError(
            f"{entry_count} entries do not fit on {len(numbers)} tables of {seats_per_table}: "
            "open more tables.",
            code="not_enough_seats",
        )
    if not numbers:
        return ()
    base, extra = divmod(entry_count, len(numbers))
    return tuple(
        TableLayout(number=number, seats=seats_per_table, players=base + (i < extra))
        for i, number in enumerate(numbers)
    )


def seat_draw(
    entry_ids: Sequence[int],
    tables: int | Sequence[int] | None,
    seats_per_table: int,
    rng: random.Random,
) -> dict[int, SeatRef]:
    """Random, correct seating for every entry (T 7): returns each entry's seat.

    Tables come from :func:`layout_tables` (``tables=None`` opens as few as fit). At each table
    the occupied seats are a random subset of its seats, and entries are dealt into the occupied
    seats in a random order, so every balanced seating is equally likely. O(entries).
    """
    _check_unique(entry_ids)
    layout = layout_tables(len(entry_ids), tables, seats_per_table)
    seat_numbers = range(1, seats_per_table + 1)
    pool: list[SeatRef] = []
    for table in layout:
        for seat in sorted(rng.sample(seat_numbers, table.players)):
            pool.append(SeatRef(table=table.number, seat=seat))
    order = list(entry_ids)
    rng.shuffle(order)
    return dict(zip(order, pool, strict=True))


def seat_draw_at(
    entry_ids: Sequence[int],
    tables: Sequence[OpenTable],
    rng: random.Random,
    *,
    max_players: int,
) -> dict[int, SeatRef]:
    """Random, correct seating (T 7) at tables laid out beforehand, whose sizes and locked seats
    may differ: returns each entry's seat, never a locked one.

    Tables are filled as evenly as their sizes allow: every table gets the same number of players
    unless it has fewer usable seats (``OpenTable.usable``), and the extra players go one each
    to the first tables in the order given. At each table the occupied seats are a random subset
    of its unlocked seats, and entries are dealt into them in a random order, as in
    :func:`seat_draw`.
    """
    _check_unique(entry_ids)
    _check_seats(max_players)
    sizes = {table.number: max(0, table.usable(max_players)) for table in tables}
    if len(sizes) != len(tables):
        raise SeatingError("A table number is listed twice.", code="duplicate_table")
    if len(entry_ids) > sum(sizes.values()):
        raise SeatingError(
            f"{len(entry_ids)} entries do not fit in the {sum(sizes.values())} open seats: "
            "open more tables or unlock seats.",
            code="not_enough_seats",
        )
    level = 0  # the most players any table gets, the extra ones aside
    while sum(min(size, level + 1) for size in sizes.values()) <= len(entry_ids) and level < max(
        sizes.values(), default=0
    ):
        level += 1
    players = {number: min(size, level) for number, size in sizes.items()}
    extra = len(entry_ids) - sum(players.values())
    for table in tables:
        if extra and sizes[table.number] > level:
            players[table.number] += 1
            extra -= 1
    pool: list[SeatRef] = []
    for table in tables:
        free = [seat for seat in range(1, table.seats + 1) if seat not in table.locked]
        for seat in sorted(rng.sample(free, players[table.number])):
            pool.append(SeatRef(table=table.number, seat=seat))
    order = list(entry_ids)
    rng.shuffle(order)
    return dict(zip(order, pool, strict=True))


def final_table_redraw(
    entry_ids: Sequence[int], seats_per_table: int, rng: random.Random, *, table: int = 1
) -> dict[int, SeatRef]:
    """New random seats for every remaining player at the final table (RP-9).

    All players redraw, including those already sitting at the table that becomes the final
    table; ``table`` is its number. With fewer players than seats, the empty seats are random.
    The button is then set by a new draw (:func:`button_draw_for_table`) if the event does so.
    """
    if len(entry_ids) > seats_per_table:
        raise SeatingError(
            f"{len(entry_ids)} players do not fit at a final table of {seats_per_table} seats.",
            code="not_enough_seats",
        )
    return seat_draw(entry_ids, [table], seats_per_table, rng)


def shortest_pool(
    open_seats: Mapping[int, Sequence[int]], table_counts: Mapping[int, int]
) -> list[tuple[int, Sequence[int]]]:
    """The open seats of the tables with the fewest players, as (table, seats) by table number.

    Only tables with at least one open seat count; a table missing from ``table_counts`` has no
    players. This is the pool late entries (T 8-A) and broken-table players (T 10-B) draw from.
    """
    candidates = [(table, seats) for table, seats in open_seats.items() if seats]
    if not candidates:
        return []
    fewest = min(table_counts.get(table, 0) for table, _ in candidates)
    return sorted(
        (table, seats) for table, seats in candidates if table_counts.get(table, 0) == fewest
    )


def draw_seat(pool: Sequence[tuple[int, Sequence[int]]], rng: random.Random) -> SeatRef:
    """One seat drawn uniformly from a pool of (table, open seats) (T 7, 8-A, 10-B).

    Every seat in the pool is equally likely, whatever table it is at. The pool is read in the
    order given, so the same pool and seed give the same seat.
    """
    total = sum(len(seats) for _, seats in pool)
    if total == 0:
        raise SeatingError("There is no open seat: open a new table.", code="no_open_seat")
    pick = rng.randrange(total)
    for table, seats in pool:
        if pick < len(seats):
            return SeatRef(table=table, seat=seats[pick])
        pick -= len(seats)
    raise AssertionError("unreachable: pick < total")  # pragma: no cover


def late_seat(
    open_seats: Sequence[SeatRef], table_counts: Mapping[int, int], rng: random.Random
) -> SeatRef:
    """A seat for a late entry, alternate or re-entry (T 8-A): drawn from the shortest tables.

    The seat is drawn uniformly from the open seats of the tables that have the fewest players
    (``table_counts``: players per table; a table not listed has none), the same pool a broken
    table's players draw from, so the tables stay balanced. The entry is dealt in at once unless
    the seat is between the small blind and the button (T 8-A, 10-A): see
    ``tournaments.balancing.next_hand(table).dealt_in(seat)``.
    """
    by_table: dict[int, list[int]] = {}
    for ref in open_seats:
        by_table.setdefault(ref.table, []).append(ref.seat)
    for seats in by_table.values():
        seats.sort()
    return draw_seat(shortest_pool(by_table, table_counts), rng)


def button_draw_for_table(
    players_in_deal_order: Sequence[object],
    rng: random.Random,
    deck_kind: DeckKind = DeckKind.STANDARD,
    tiebreak: DrawTiebreak = DrawTiebreak.SUIT,
) -> ButtonDraw:
    """Deal one card to each player from a shuffled deck; the high card wins the button (T 7).

    ``players_in_deal_order`` lists the players clockwise from the seat left of the (virtual)
    dealer: the first card goes to the first of them (RULES.md section 2). Only their number
    matters; the winner is reported by position. Ties: ``suit`` (spades > hearts > diamonds >
    clubs, no redraw; R, T) or ``deal_order`` (the tied card dealt first; S0, the 6+ profile).
    Uses ``dealer.engine.draw.button_draw``; the cards are returned so they can be recorded.
    """
    count = len(players_in_deal_order)
    deck = shuffled_deck(deck_kind, rng)
    if not 1 <= count <= len(deck):
        raise SeatingError(
            f"A button draw needs 1 to {len(deck)} players, not {count}.", code="bad_player_count"
        )
    cards = tuple(deck[:count])
    return ButtonDraw(winner_index=button_draw(cards, tiebreak), cards=cards)


def _table_numbers(
    entry_count: int, tables: int | Sequence[int] | None, seats_per_table: int
) -> list[int]:
    if tables is None:
        return list(range(1, -(-entry_count // seats_per_table) + 1))
    if isinstance(tables, int):
        if tables < 0:
            raise SeatingError("The number of tables cannot be negative.", code="bad_tables")
        return list(range(1, tables + 1))
    numbers = list(tables)
    if len(set(numbers)) != len(numbers):
        raise SeatingError("A table number is listed twice.", code="duplicate_table")
    return numbers


def _check_seats(seats_per_table: int) -> None:
    if not MIN_SEATS <= seats_per_table <= MAX_SEATS:
        raise SeatingError(
            f"A table has {MIN_SEATS} to {MAX_SEATS} seats, not {seats_per_table}.",
            code="bad_table_size",
        )


def _check_unique(entry_ids: Iterable[int]) -> None:
    seen: set[int] = set()
    for entry in entry_ids:
        if entry in seen:
            raise SeatingError(f"Entry {entry} is listed twice.", code="duplicate_entry")
        seen.add(entry)
