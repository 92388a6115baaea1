"""Balancing and breaking tables, halting play, the final table and hand-for-hand (T 10, T 11).

Pure floor logic (DESIGN.md "Layers"): no Django, no I/O, randomness is an argument. A service
loads the tables in play into :class:`TableState` values, calls :func:`plan` after every change
(a bust, a late entry, a finished move) and carries out the :class:`Plan`'s moves. Plans are
computed fresh each time; applying one (:func:`apply_plan`) and planning again gives an empty
plan. Rule keys: T = Poker TDA rules 2024, RP = its recommended procedures.

Positions (dead button, T 32; RULES.md section 2 ``button_mode=dead``). A table's positions for
the next hand follow from the last hand dealt there:

- the **small blind** is the seat that was last hand's big blind (empty seat: a dead small blind);
- the **big blind** is the first occupied seat clockwise after that seat, so the big blind moves
  one player each hand and a newly seated player in between is the next big blind;
- the **button** is the seat that was last hand's small blind (possibly empty: a dead button).

Before a table's first hand the button is the drawn button, and the blinds are the next two
occupied seats after it. Seats strictly clockwise between the button and the small blind cannot
be dealt in (T 10-A): a player put there waits until the button passes. Heads-up adjustments
(T 34-B) are the dealer engine's business; they do not arise between full tables.

"Worst position" (T 11-A) is the open seat that will be big blind soonest: the first open seat
clockwise after the next hand's small blind. That is the next big blind itself when an open seat
lies between the small and big blinds (a "single big blind"), and it is never the small blind's
seat. Before a table's first hand, open seats between the button and the small blind are skipped
too, because a player sat there would become the small blind. The seats between the button and
the small blind come last in that order: they wait a hand and then get the big blind last.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from dealer.engine.errors import ConfigError
from tournaments.seating import SeatRef, draw_seat

__all__ = [
    "BalancingError",
    "Move",
    "MoveReason",
    "NextHand",
    "Plan",
    "TableState",
    "apply_plan",
    "break_table",
    "draw_break_order",
    "needs_hand_for_hand",
    "next_hand",
    "plan",
    "worst_open_seat",
]

HALT_SHORT_BY = 3
"""T 11-D: full-table play halts on a table this many players short of the fullest table."""

MoveReason = Literal["balance", "break"]


class BalancingError(ConfigError):
    """Table states a plan cannot be made from (a ``ConfigError``: ``Invalid``); ``code`` says
    why."""

    code = "balancing_error"


@dataclass(frozen=True, slots=True, kw_only=True)
class TableState:
    """A table in play as the balancing plan sees it, between hands.

    ``seats`` is the number of seats (numbered 1..seats clockwise); ``occupied`` maps each
    occupied seat to its entry id (absent players count: they are dealt in, T 30). The positions
    are those of the **last hand dealt at this table**, as the dealer app records them:
    ``button``, ``small_blind`` and ``big_blind`` seats (the small blind's seat even when it was
    dead, i.e. empty). Before the first hand, give only ``button`` (the drawn button). With no
    position at all, the player to move and the seat to fill are drawn at random.
    ``small_blind`` only places the next button; when it is None the button is taken to be the
    seat just before last hand's big blind, the usual case. ``locked`` are the seats the floor
    keeps empty (a broken chair, a seat kept for a player who has not arrived): no move puts a
    player there, and they do not count towards the table's size.
    """

    number: int
    seats: int
    occupied: Mapping[int, int]
    button: int | None = None
    small_blind: int | None = None
    big_blind: int | None = None
    locked: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True, kw_only=True)
class NextHand:
    """Where the next hand's button and blinds fall at a table (dead button, T 32).

    ``button`` and ``small_blind`` may be empty seats (dead button, dead small blind);
    ``big_blind`` is always an occupied seat, or None when it cannot be known. ``first_hand`` is
    True before the table's first hand (open seats between the button and the small blind would
    make a new player the small blind).
    """

    seats: int
    button: int | None
    small_blind: int | None
    big_blind: int | None
    first_hand: bool = False

    def between_button_and_small_blind(self, seat: int) -> bool:
        """Whether ``seat`` lies strictly clockwise between the button and the small blind."""
        if self.button is None or self.small_blind is None:
            return False
        return (
            0
            < _distance(self.button, seat, self.seats)
            < _distance(self.button, self.small_blind, self.seats)
        )

    def dealt_in(self, seat: int) -> bool:
        """Whether a player newly seated at ``seat`` is dealt the next hand (T 8-A, 10-A).

        Not when the seat lies strictly between the button and the small blind: that player
        waits until the button passes. Before the first hand such a seat would simply be the
        small blind, and with unknown positions everyone is dealt in.
        """
        return self.first_hand or not self.between_button_and_small_blind(seat)

    def wait_reason(self, seat: int) -> str:
        """Why a player seated at ``seat`` is not dealt the next hand, in a few words for the
        tablet and the desk ("" when they are dealt in): a seat between the button and the
        small blind waits for the button to pass (T 10-A)."""
        return "" if self.dealt_in(seat) else "waits for the button (T 10-A)"


@dataclass(frozen=True, slots=True, kw_only=True)
class Move:
    """One player to move, with the seat they leave and the seat they take.

    ``reason`` is "balance" (T 11-A) or "break" (T 10-B). ``next_big_blind`` says the player was
    chosen as the next big blind of their table (False for a broken table, or when the table had
    no positions and the player was drawn). ``dealt_in_next_hand`` is False when the new seat is
    between the small blind and the button of the receiving table (T 10-A): the player waits.
    """

    entry_id: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: MoveReason
    next_big_blind: bool = False
    dealt_in_next_hand: bool = True

    def describe(self) -> str:
        """One line for the floor staff.

        For example "Move seat 4 at table 7 (next big blind) to table 12 seat 9".
        """
        if self.reason == "break":
            why = f" (table {self.from_table} breaks)"
        elif self.next_big_blind:
            why = " (next big blind)"
        else:
            why = " (drawn)"
        line = (
            f"Move seat {self.from_seat} at table {self.from_table}{why} "
            f"to table {self.to_table} seat {self.to_seat}"
        )
        if not self.dealt_in_next_hand:
            line += " (between the small blind and the button: waits for the button to pass)"
        return line


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """What the floor does now, in order: the broken tables' moves, then the balancing moves.

    ``halted_tables`` must stop dealing until the moves reach them (T 11-D). ``final_table`` is
    True when the remaining players fit at one table (RP-9); if more than one table is still in
    play, every one of them is listed in ``broken_tables`` and there are no moves: all players
    redraw with ``tournaments.seating.final_table_redraw`` (see :attr:`redraw_final_table`).
    """

    moves: tuple[Move, ...] = ()
    broken_tables: tuple[int, ...] = ()
    halted_tables: tuple[int, ...] = ()
    final_table: bool = False

    @property
    def redraw_final_table(self) -> bool:
        """True when the players of several tables must now redraw for the final table (RP-9)."""
        return self.final_table and bool(self.broken_tables)

    @property
    def is_empty(self) -> bool:
        """Nothing to do: no move, no table to break or halt, no final-table redraw."""
        return not (self.moves or self.broken_tables or self.halted_tables)

    def describe(self) -> tuple[str, ...]:
        """The plan as lines for the floor staff, in the order to carry it out."""
        lines: list[str] = []
        if self.redraw_final_table:
            tables = ", ".join(map(str, self.broken_tables))
            lines.append(f"Final table: stop play at tables {tables} and redraw every seat (RP-9)")
            return tuple(lines)
        lines += [f"Halt play at table {t} until its players arrive" for t in self.halted_tables]
        lines += [f"Break table {t}" for t in self.broken_tables]
        lines += [move.describe() for move in self.moves]
        return tuple(lines)


def next_hand(table: TableState) -> NextHand:
    """The next hand's button and blinds at ``table`` from its last hand (dead button, T 32)."""
    seats = table.seats
    if table.big_blind is not None:
        small = table.big_blind
        button = table.small_blind if table.small_blind is not None else _step(small, -1, seats)
        return NextHand(
            seats=seats, button=button, small_blind=small, big_blind=_next_occupied(table, small)
        )
    if table.button is not None:
        first_small = _next_occupied(table, table.button)
        big = _next_occupied(table, first_small) if first_small is not None else None
        return NextHand(
            seats=seats,
            button=table.button,
            small_blind=first_small,
            big_blind=big,
            first_hand=True,
        )
    return NextHand(seats=seats, button=None, small_blind=None, big_blind=None)


def worst_open_seat(table: TableState, *, max_players: int | None = None) -> int | None:
    """The open seat that gets the big blind soonest, never the small blind (T 11-A).

    Scans clockwise from the seat after the next small blind. Before the first hand, open seats
    between the button and the small blind are skipped (a player there would be the small
    blind); they and the small blind's own seat are used only when nothing else is open. None
    when the table is full (``max_players`` caps it below its seats; locked seats never count
    as open) or has no positions.
    """
    usable = table.seats - len(table.locked - set(table.occupied))
    if len(table.occupied) >= min(usable, max_players or table.seats):
        return None
    hand = next_hand(table)
    if hand.small_blind is None:
        return None
    fallback: int | None = None
    for seat in _clockwise(hand.small_blind, table.seats):
        if seat in table.occupied or seat in table.locked:
            continue
        # Before the first hand, a seat between the button and the small blind makes its player
        # the small blind; afterwards such a seat only waits for the button (T 10-A).
        if seat == hand.small_blind or (
            hand.first_hand and hand.between_button_and_small_blind(seat)
        ):
            if fallback is None:
                fallback = seat
            continue
        return seat
    return fallback


def draw_break_order(table_numbers: Iterable[int], rng: random.Random) -> tuple[int, ...]:
    """The order tables will break in, drawn in advance (T 10-B, first step of the 2-step draw).

    A uniform random order of the given tables. Pass it to :func:`plan` as ``break_order``;
    tables that break last on purpose (a feature table) can be appended by the caller instead.
    """
    order = sorted(set(table_numbers))
    rng.shuffle(order)
    return tuple(order)


def needs_hand_for_hand(players_left: int, places_paid: int, *, margin: int = 1) -> bool:
    """Whether the event plays hand-for-hand now (RP-8).

    By default exactly when one bust reaches the money: ``players_left == places_paid + 1`` (the
    bubble). Play stays hand-for-hand until that bust; busts on the same hand share the place.
    ``margin`` starts earlier at the director's choice: True whenever ``places_paid <
    players_left <= places_paid + margin``. Never once the field is in the money.
    """
    if places_paid < 0 or margin < 1:
        raise BalancingError(
            "Places paid cannot be negative and the margin is at least 1.", code="bad_payouts"
        )
    return places_paid < players_left <= places_paid + margin


def plan(
    tables: Sequence[TableState],
    rng: random.Random,
    *,
    max_table_size: int,
    break_order: Sequence[int] = (),
    final_table_size: int | None = None,
    halt_short_by: int | None = HALT_SHORT_BY,
    keep_open: Collection[int] = (),
) -> Plan:
    """What to do now with the tables in play: break, balance, halt, or redraw for the final table.

    - **Final table** (RP-9): the players fit at one table of ``final_table_size`` (default
      ``max_table_size``): ``final_table=True``, and with several tables in play all of them break
      for a redraw.
    - **Breaking** (T 10-B): while the players fit on the tables left after the next table of
      ``break_order`` breaks, it breaks (empty tables close first; tables missing from the order
      break after it, highest number first). Its players, in a random order, each draw a seat
      uniformly from the open seats of the currently shortest tables (second step of the draw).
    - **Balancing** (T 11-A, 11-C): while the fullest table has 2 or more players more than the
      shortest, the fullest table's next big blind moves to the worst position of the shortest
      table. Ties go to the lowest table number (a predetermined procedure, T 11-C).
    - **Halting** (T 11-D): tables still in play that are ``halt_short_by`` or more players short
      of the fullest one, counted before the moves (None disables).

    ``max_table_size`` caps players per table (a 10-seat table may be played 9-handed); a
    table's locked seats (``TableState.locked``) are never planned into. ``keep_open`` are
    tables the director has just opened: they are not closed while they wait for players.
    O(tables + moves x log tables), plus O(tables) per broken-table player.
    """
    work = _load(tables, max_table_size)
    total = sum(len(w.occupied) for w in work.values())
    if total <= (final_table_size or max_table_size):
        closing = tuple(sorted(work)) if len(work) > 1 else ()
        return Plan(broken_tables=closing, final_table=True)
    counts_before = {number: len(w.occupied) for number, w in work.items()}
    moves: list[Move] = []
    broken = _break_tables(work, total, break_order, rng, moves, frozenset(keep_open))
    halted = _halted(counts_before, work, halt_short_by)
    _balance(work, rng, moves)
    return Plan(moves=tuple(moves), broken_tables=tuple(broken), halted_tables=halted)


def apply_plan(tables: Sequence[TableState], moves_plan: Plan) -> tuple[TableState, ...]:
    """The tables after a plan's moves, before the next hand (positions unchanged).

    Broken tables are dropped. A final-table redraw needs a draw, not this: it is refused.
    """
    if moves_plan.redraw_final_table:
        raise BalancingError(
            "A final-table redraw is a new seat draw: use seating.final_table_redraw.",
            code="final_table_redraw",
        )
    occupied = {table.number: dict(table.occupied) for table in tables}
    locked = {table.number: table.locked for table in tables}
    for move in moves_plan.moves:
        source, target = occupied.get(move.from_table), occupied.get(move.to_table)
        if (
            source is None
            or target is None
            or source.get(move.from_seat) != move.entry_id
            or move.to_seat in target
            or move.to_seat in locked[move.to_table]
        ):
            raise BalancingError(
                f"The plan does not match these tables ({move.describe()}): plan again.",
                code="stale_plan",
            )
        target[move.to_seat] = source.pop(move.from_seat)
    broken = set(moves_plan.broken_tables)
    return tuple(
        _state(table, occupied[table.number]) for table in tables if table.number not in broken
    )


# --- working state ----------------------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class _Work:
    """A table while a plan is being made: its players change as moves are planned."""

    state: TableState
    cap: int
    occupied: dict[int, int] = field(default_factory=dict)

    def view(self) -> TableState:
        return _state(self.state, self.occupied)

    def open_seats(self) -> list[int]:
        """The seats a player may be moved to: neither taken nor locked."""
        locked = self.state.locked
        return [
            s for s in range(1, self.state.seats + 1) if s not in self.occupied and s not in locked
        ]


def _state(table: TableState, occupied: Mapping[int, int]) -> TableState:
    return TableState(
        number=table.number,
        seats=table.seats,
        occupied=occupied,
        button=table.button,
        small_blind=table.small_blind,
        big_blind=table.big_blind,
        locked=table.locked,
    )


def _load(tables: Sequence[TableState], max_table_size: int) -> dict[int, _Work]:
    """Check the tables (unique numbers and entries, seats in range) and copy them for planning."""
    if max_table_size < 2:
        raise BalancingError("A table holds at least 2 players.", code="bad_table_size")
    work: dict[int, _Work] = {}
    seen: set[int] = set()
    for table in tables:
        if table.number in work:
            raise BalancingError(f"Table {table.number} is listed twice.", code="duplicate_table")
        if table.seats < 2 or any(
            p is not None and not 1 <= p <= table.seats
            for p in (table.button, table.small_blind, table.big_blind)
        ):
            raise BalancingError(
                f"Table {table.number}: bad seat count or position.", code="bad_table"
            )
        for seat, entry in table.occupied.items():
            if not 1 <= seat <= table.seats or entry in seen:
                raise BalancingError(
                    f"Table {table.number} seat {seat}: no such seat, or entry {entry} "
                    "is seated twice.",
                    code="bad_seat",
                )
            seen.add(entry)
        if any(not 1 <= seat <= table.seats for seat in table.locked):
            raise BalancingError(
                f"Table {table.number}: a locked seat is not a seat of the table.",
                code="bad_seat",
            )
        cap = min(table.seats - len(table.locked - set(table.occupied)), max_table_size)
        work[table.number] = _Work(state=table, cap=cap, occupied=dict(table.occupied))
    return work


# --- breaking (T 10-B) --------------------------------------------------------------------------


def _break_tables(
    work: dict[int, _Work],
    total: int,
    break_order: Sequence[int],
    rng: random.Random,
    moves: list[Move],
    keep_open: frozenset[int] = frozenset(),
) -> list[int]:
    """Break tables while the players fit without the next one; removes them from ``work``.
    While a table the director has opened (``keep_open``) waits for players, only empty tables
    close: breaking another table to fill the new one would move a whole table for nothing."""
    broken = [n for n in sorted(work) if not work[n].occupied and n not in keep_open]
    for number in broken:
        del work[number]
    if keep_open & set(work):
        return broken
    order = [t for t in dict.fromkeys(break_order) if t in work and t not in keep_open]
    order += sorted(set(work) - set(order) - keep_open, reverse=True)
    capacity = sum(w.cap for w in work.values())
    for number in order:
        table = work[number]
        if len(work) < 2 or total > capacity - table.cap:
            break
        del work[number]
        capacity -= table.cap
        broken.append(number)
        _reseat(work, number, table, rng, moves)
    return broken


def _reseat(
    work: dict[int, _Work], number: int, table: _Work, rng: random.Random, moves: list[Move]
) -> None:
    """Reseat a broken table's players, in a random order, each in a seat drawn from the open
    seats of the shortest tables left (T 10-B)."""
    players = sorted(table.occupied.items())
    rng.shuffle(players)
    for seat, entry in players:
        target = _draw_from_shortest(work, rng)
        receiver = work[target.table]
        hand = next_hand(receiver.view())
        receiver.occupied[target.seat] = entry
        moves.append(
            Move(
                entry_id=entry,
                from_table=number,
                from_seat=seat,
                to_table=target.table,
                to_seat=target.seat,
                reason="break",
                dealt_in_next_hand=hand.dealt_in(target.seat),
            )
        )


def break_table(
    tables: Sequence[TableState], number: int, rng: random.Random, *, max_table_size: int
) -> Plan:
    """Close table ``number`` now, on the floor's word (a table needed elsewhere, a dealer
    short): its players are reseated exactly as when the rules break a table (T 10-B), in seats
    drawn from the open, unlocked seats of the shortest tables left. Refused when it is the last
    table, or when the other tables have too few open seats for its players."""
    work = _load(tables, max_table_size)
    if number not in work:
        raise BalancingError(f"Table {number} is not in play.", code="no_such_table")
    if len(work) < 2:
        raise BalancingError(
            f"Table {number} is the last table in play: it cannot close.", code="last_table"
        )
    closing = work.pop(number)
    room = sum(max(0, w.cap - len(w.occupied)) for w in work.values())
    if len(closing.occupied) > room:
        raise BalancingError(
            f"Table {number} has {len(closing.occupied)} players and the other tables "
            f"{room} open seat{'' if room == 1 else 's'}: open a table or unlock seats first.",
            code="no_open_seat",
        )
    moves: list[Move] = []
    _reseat(work, number, closing, rng, moves)
    return Plan(moves=tuple(moves), broken_tables=(number,))


def _draw_from_shortest(work: Mapping[int, _Work], rng: random.Random) -> SeatRef:
    """A seat for a broken table's player: uniform over the open seats of the shortest tables.

    The same draw as ``seating.draw_seat(seating.shortest_pool(...))`` (tables with room, by
    number; same seed, same seat) without listing every open seat of every table: O(tables).
    """
    room = [w for w in work.values() if len(w.occupied) < w.cap]
    if not room:
        raise BalancingError("No open seat left for a broken table.", code="no_open_seat")
    fewest = min(len(w.occupied) for w in room)
    pool = sorted((w for w in room if len(w.occupied) == fewest), key=lambda w: w.state.number)
    # Locked seats are left out; without any, this is the same draw (same seed, same seat).
    open_at = [table.open_seats() for table in pool]
    pick = rng.randrange(sum(len(seats) for seats in open_at))
    for table, seats in zip(pool, open_at, strict=True):
        if pick < len(seats):
            return SeatRef(table=table.state.number, seat=seats[pick])
        pick -= len(seats)
    raise AssertionError("unreachable: pick < total")  # pragma: no cover


# --- halting (T 11-D) ---------------------------------------------------------------------------


def _halted(
    counts_before: Mapping[int, int], work: Mapping[int, _Work], short_by: int | None
) -> tuple[int, ...]:
    if short_by is None or not work:
        return ()
    fullest = max(counts_before[number] for number in work)
    return tuple(sorted(n for n in work if counts_before[n] <= fullest - short_by))


# --- balancing (T 11-A) -------------------------------------------------------------------------


def _balance(work: dict[int, _Work], rng: random.Random, moves: list[Move]) -> None:
    """Move next big blinds from the fullest to the shortest table until sizes differ by <= 1."""
    fullest = [(-len(w.occupied), n) for n, w in work.items()]
    shortest = [(len(w.occupied), n) for n, w in work.items() if len(w.occupied) < w.cap]
    heapq.heapify(fullest)
    heapq.heapify(shortest)
    while True:
        donor = _top(fullest, work, sign=-1)
        receiver = _top(shortest, work, sign=1)
        if donor is None or receiver is None:
            return
        if len(donor.occupied) - len(receiver.occupied) < 2:
            return
        moves.append(_balance_move(donor, receiver, rng))
        for table in (donor, receiver):
            size, number = len(table.occupied), table.state.number
            heapq.heappush(fullest, (-size, number))
            if size < table.cap:
                heapq.heappush(shortest, (size, number))


def _top(heap: list[tuple[int, int]], work: Mapping[int, _Work], *, sign: int) -> _Work | None:
    """The heap's best table whose entry is still current (stale entries are dropped)."""
    while heap:
        key, number = heap[0]
        table = work[number]
        if key == sign * len(table.occupied) and (sign < 0 or key < table.cap):
            return table
        heapq.heappop(heap)
    return None


def _balance_move(donor: _Work, receiver: _Work, rng: random.Random) -> Move:
    """The donor's next big blind to the receiver's worst position (T 11-A)."""
    from_seat = next_hand(donor.view()).big_blind
    next_big_blind = from_seat is not None
    if from_seat is None:
        from_seat = rng.choice(sorted(donor.occupied))
    view = receiver.view()
    to_seat = worst_open_seat(view, max_players=receiver.cap)
    if to_seat is None:
        to_seat = draw_seat([(receiver.state.number, receiver.open_seats())], rng).seat
    entry = donor.occupied.pop(from_seat)
    receiver.occupied[to_seat] = entry
    return Move(
        entry_id=entry,
        from_table=donor.state.number,
        from_seat=from_seat,
        to_table=receiver.state.number,
        to_seat=to_seat,
        reason="balance",
        next_big_blind=next_big_blind,
        dealt_in_next_hand=next_hand(view).dealt_in(to_seat),
    )


# --- seat arithmetic ----------------------------------------------------------------------------


def _distance(start: int, seat: int, seats: int) -> int:
    """How many seats clockwise from ``start`` to ``seat`` (0 for the same seat)."""
    return (seat - start) % seats


def _step(seat: int, by: int, seats: int) -> int:
    return (seat - 1 + by) % seats + 1


def _clockwise(start: int, seats: int) -> list[int]:
    """Every seat clockwise after ``start``, ending with ``start`` itself."""
    return [_step(start, k, seats) for k in range(1, seats + 1)]


def _next_occupied(table: TableState, start: int) -> int | None:
    """The first occupied seat clockwise after ``start`` (None if no other seat is occupied)."""
    for seat in _clockwise(start, table.seats)[:-1]:
        if seat in table.occupied:
            return seat
    return None
