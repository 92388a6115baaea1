"""The floor's own hand on the tables: a player moved to a seat the director picks, seats locked
and unlocked, a table added and a table closed. Every change is audited.

The rules still hold: a player in a hand in progress moves when it ends (TDA: a player moves
after the hand), like a balancing move; a locked seat is never given to anyone (the draw, late
entries, balancing, broken tables and the final table all skip it, see `services.tables`); a
closed table's players are reseated the way the rules break a table (T 10-B).
"""

from __future__ import annotations

import random

from django.db import transaction

from common.actors import Actor
from common.errors import FloorError, FloorInvalid, FloorNotFound, from_value_error
from dealer.engine.errors import ConfigError, Conflict
from tournaments import balancing, seating
from tournaments.models import Entry, Table, Tournament
from tournaments.selectors.seats import Hold, seat_map_get
from tournaments.services.audit import audit_record
from tournaments.services.locks import lock_table, lock_tables, lock_tournament
from tournaments.services.seats import seat_assign, seat_hold, seat_lock, seat_locks_clear
from tournaments.services.tables import (
    plan_carry_out,
    table_states,
    tables_draw_missing_buttons,
)

ACTIVE = Entry.Status.ACTIVE
MAX_TABLE_NUMBER = 9999


def _tournament_table(table: Table | int) -> tuple[Tournament, Table]:
    """The table, locked after its tournament (the floor's lock order: the tournament, then
    the table, then the entries)."""
    pk = table if isinstance(table, int) else table.pk
    tournament_id = Table.objects.filter(pk=pk).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        if Table.objects.filter(pk=pk).exists():
            raise FloorInvalid(
                "cash_table", "This is a cash table: seats are locked and moved at tournaments."
            )
        raise FloorNotFound("not_found", "There is no such table.")
    tournament = lock_tournament(tournament_id)
    return tournament, lock_table(pk)


def _check_not_finished(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise FloorError(
            "tournament_finished", "The tournament is finished: its tables are closed."
        )


def _check_seat(table: Table, seat: int) -> None:
    if table.is_broken:
        raise FloorError("table_broken", f"{table} is closed: pick a table in play.")
    if not 1 <= seat <= table.seat_count:
        raise FloorInvalid(
            "no_such_seat", f"{table} has seats 1 to {table.seat_count}, not seat {seat}."
        )


def _seat_holder(tournament: Tournament, table: Table, seat: int, *, but: int | None = None) -> str:
    """Who has this seat: the player sitting there, or the one moving there after their hand
    ("" when it is free)."""
    seats = seat_map_get(tournament=tournament, tables=[table]).at(table)
    holder = seats.holder(seat, but=but)
    if holder is None:
        return ""
    name = Entry.objects.filter(pk=holder.entry_id).values_list("player__name", flat=True).get()
    if holder.hold == Hold.SITS:
        return f"{name} sits there"
    return f"it is held for {name}, who moves there after their hand"


@transaction.atomic
def entry_move_seat(
    *, entry: Entry | int, table: Table | int, seat: int, actor: Actor = None
) -> Entry:
    """Move a player to the table and seat the director picks (a seat change, a player moved
    for a reason the plan cannot know). Refused when the seat is taken, held for a player
    moving there, locked, at a closed table or another tournament's. A player dealt in a hand
    in progress moves when it ends: the move waits, its seat held, as a balancing move does."""
    pk = entry if isinstance(entry, int) else entry.pk
    tournament_id = Entry.objects.filter(pk=pk).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise FloorNotFound("not_found", "There is no such entry.")
    tournament = lock_tournament(tournament_id)
    mover = Entry.objects.select_related("player", "table").get(pk=pk)
    target = lock_table(table)
    _check_not_finished(tournament)
    if mover.status != ACTIVE:
        raise FloorError(
            "entry_not_active", f"{mover.player.name} is not playing ({mover.status})."
        )
    if target.tournament_id != tournament.pk:
        raise FloorInvalid(
            "other_tournament", f"That table is not one of {tournament.name}'s tables."
        )
    _check_seat(target, seat)
    if mover.table is None:
        raise FloorError(
            "not_seated", f"{mover.player.name} has no seat yet: draw the seats first."
        )
    if (mover.table_id, mover.seat) == (target.pk, seat):
        raise FloorInvalid(
            "same_seat", f"{mover.player.name} already sits at {target} seat {seat}."
        )
    if seat in (target.locked_seats or ()):
        raise FloorError("seat_locked", f"{target} seat {seat} is locked: unlock it first.")
    holder = _seat_holder(tournament, target, seat, but=mover.pk)
    if holder:
        raise FloorError("seat_taken", f"{target} seat {seat} is not free: {holder}.")
    came_from = (mover.table.number, mover.seat)
    after_hand = mover.live_hand_id is not None
    if after_hand:
        seat_hold(entry=mover, table=target, seat=seat)
    else:
        seat_assign(entry=mover, table=target, seat=seat)
    audit_record(
        tournament=tournament,
        actor=actor,
        action="seat_move",
        player=mover.player.name,
        entry=mover.pk,
        from_table=came_from[0],
        from_seat=came_from[1],
        table=target.number,
        seat=seat,
        after_hand=after_hand,
    )
    if not after_hand:
        tables_draw_missing_buttons(tournament=tournament, actor=actor)
    return mover


@transaction.atomic
def table_lock_seat(*, table: Table | int, seat: int, locked: bool, actor: Actor = None) -> Table:
    """Lock a seat (the floor keeps it empty: a broken chair, room for a wheelchair) or unlock
    it. Locking is refused while a player sits there or is moving there after their hand.
    Locking a locked seat, or unlocking an open one, changes nothing."""
    tournament, target = _tournament_table(table)
    _check_not_finished(tournament)
    _check_seat(target, seat)
    if locked == (seat in (target.locked_seats or ())):
        return target
    if locked:
        holder = _seat_holder(tournament, target, seat)
        if holder:
            code = "seat_taken" if holder.endswith("sits there") else "seat_held"
            raise FloorError(code, f"{target} seat {seat} cannot be locked: {holder}.")
    seat_lock(table=target, seat=seat, locked=locked)
    audit_record(
        tournament=tournament,
        actor=actor,
        action="seat_lock" if locked else "seat_unlock",
        table=target.number,
        seat=seat,
    )
    return target


@transaction.atomic
def table_add(
    *,
    tournament: Tournament | int,
    number: int | None = None,
    seat_count: int | None = None,
    actor: Actor = None,
) -> Table:
    """Open a table (by default the next number, the event's table size). Before the draw the
    draw uses it (with its locked seats); during play it takes late entries, and the balancing
    plan fills it from the fullest tables. A closed table of that number opens again, empty,
    its button drawn anew once two players sit there."""
    tournament = lock_tournament(tournament)
    _check_not_finished(tournament)
    seat_count = seat_count or tournament.seats_per_table
    if not seating.MIN_SEATS <= seat_count <= seating.MAX_SEATS:
        raise FloorInvalid(
            "bad_seat_count",
            f"A table has {seating.MIN_SEATS} to {seating.MAX_SEATS} seats, not {seat_count}.",
        )
    tables = lock_tables(tournament)
    number = number if number is not None else max(tables, default=0) + 1
    if not 1 <= number <= MAX_TABLE_NUMBER:
        raise FloorInvalid(
            "bad_table_number", f"A table number is 1 to {MAX_TABLE_NUMBER}, not {number}."
        )
    found = tables.get(number)
    if found is not None and not found.is_broken:
        raise FloorError("table_number_taken", f"Table {number} is already in play.")
    if found is None:
        found = Table.objects.create(tournament=tournament, number=number, seat_count=seat_count)
    else:
        found.is_broken = False
        found.seat_count = seat_count
        found.button_seat = found.small_blind_seat = found.big_blind_seat = None
        found.save(
            update_fields=[
                "is_broken",
                "seat_count",
                "button_seat",
                "small_blind_seat",
                "big_blind_seat",
            ]
        )
        seat_locks_clear(table=found)
    audit_record(
        tournament=tournament,
        actor=actor,
        action="table_add",
        table=number,
        seats=seat_count,
        reopened=found.hands.exists(),
    )
    return found


@transaction.atomic
def table_close(
    *, table: Table | int, actor: Actor = None, rng: random.Random | None = None
) -> balancing.Plan:
    """Close (break) a table now: its players are reseated as when the rules break a table
    (T 10-B), each in a seat drawn from the open, unlocked seats of the shortest tables; a
    player in a hand in progress moves when it ends, and the table deals no new hand. Refused
    when there is nowhere to put them, or for the last table in play."""
    tournament, target = _tournament_table(table)
    _check_not_finished(tournament)
    if target.is_broken:
        raise FloorError("table_broken", f"{target} is already closed.")
    states = table_states(tournament)
    closing = next(state for state in states if state.number == target.number)
    if not closing.occupied:
        plan = balancing.Plan(broken_tables=(target.number,))
    else:
        try:
            plan = balancing.break_table(
                states,
                target.number,
                rng or random.Random(),
                max_table_size=tournament.seats_per_table,
            )
        except (ValueError, ConfigError) as error:  # BalancingError: no room, the last table
            raise from_value_error(error, kind=Conflict) from error
    later = plan_carry_out(tournament=tournament, plan=plan)
    audit_record(
        tournament=tournament,
        actor=actor,
        action="table_close",
        table=target.number,
        moves=[move.describe() for move in plan.moves],
        after_hand=later,
    )
    tables_draw_missing_buttons(tournament=tournament, rng=rng, actor=actor)
    return plan
