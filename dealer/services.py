"""The only code that writes hands: start, record, undo, procedures, end.

Every write carries the client's id and the hand version it was made against. A resent write
(same client id) gets its original answer; a write against an older version is refused with 409
and the current state. Writes to one hand are serialized by a row lock on the hand (PostgreSQL;
SQLite serializes whole transactions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from dealer.cash.seats import plan as cash_plan
from dealer.cash.seats.services import cash_hand_end, cash_hand_reopen
from dealer.cash.takings.services import hand_takings_record
from dealer.codec import action_from_dict, action_to_dict, state_snapshot
from dealer.engine import HandSetup, HandState, PlayerSetup, apply, start_hand
from dealer.engine.actions import BETTING_KINDS, Action
from dealer.engine.errors import EngineError, RuleViolation
from dealer.engine.hand import unentered_deal
from dealer.engine.knockouts import knockouts
from dealer.engine.rules import Rules
from dealer.engine.state import Phase
from dealer.hand_log import groups_in_force, hand_replay, hand_setup, hand_state, log_entries
from dealer.models import Hand, HandEvent, ProcedureLog
from dealer.rotation.selectors import push_refusal
from dealer.state_cache import pack_state, unpack_state
from tournaments import balancing
from tournaments.actors import Actor, signed_in
from tournaments.errors import (
    FloorConflict,
    FloorError,
    FloorForbidden,
    FloorInvalid,
    FloorNotFound,
)
from tournaments.models import ChipMove, Entry, Table, Tournament
from tournaments.roles import is_director, may_deal
from tournaments.selectors.clock import clock_view
from tournaments.selectors.tables import table_next_hand
from tournaments.services.entries import lock_tournament
from tournaments.services.events import tournament_rules
from tournaments.services.hands import (
    SeatResult,
    entries_enter_hand,
    entries_hand_end,
    entries_hand_reopen,
)
from tournaments.services.knockouts import Eliminator
from tournaments.services.ledger import HandRef
from tournaments.services.tables import tables_draw_missing_buttons


class StaleVersionError(FloorConflict):
    """The write was made against an older version of the hand (a conflict: the API answers it
    with the hand's current state)."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(
            "stale_version",
            f"The hand has changed (version {hand.version}): "
            "reload it and enter the action again if it is still needed.",
        )
        self.hand = hand

    def answer_fields(self) -> dict[str, Any]:
        """The hand's current state, so that the tablet redraws without another request."""
        return {"state": self.hand.state}


class StaleTapError(StaleVersionError):
    """A tap drawn for one player reached a hand where another is to act (or nobody is):
    refused like a stale version, with the hand's current state, and nothing recorded."""

    def __init__(self, hand: Hand, *, drawn_for: int, to_act: dict[str, Any] | None) -> None:
        now = "no one is to act"
        if to_act is not None:
            now = f"{to_act['name']} (seat {to_act['seat']}) is to act"
        FloorConflict.__init__(
            self,
            "stale_tap",
            f"That button was drawn for seat {drawn_for}, but {now} now: nothing was recorded. "
            "Enter the action again if it is still needed.",
        )
        self.hand = hand


@dataclass(frozen=True, slots=True)
class Result:
    hand: Hand
    answer: dict[str, Any]
    # The entry this write appended (None for a resent write's first answer): the tablet's
    # answer to a tap shows its line of the log without reading the log again.
    event: HandEvent | None = None


def can_write(user: Any, table: Table) -> bool:
    """Directors may write to every hand; a dealer only to the tables assigned to them
    (`tournaments.roles.may_deal`)."""
    return may_deal(user, table)


def check_writer(actor: Actor, table: Table) -> None:
    """Refuse (403) a write by a user who may not write to the table's hands. Writes made by
    the system itself (no actor) are not checked. The hand writes check it on the table read
    with the hand's lock, so that a dealer's write costs no query of its own for it."""
    if actor is not None and not can_write(actor, table):
        raise FloorForbidden(
            "permission_denied",
            f"Only a director or the dealer of table {table.number} may.",
        )


# --- what a hand stores (read back by `dealer.hand_log`) -------------------------------------


def stakes_record(setup: HandSetup, *, ante: int) -> dict[str, Any]:
    """What `Hand.stakes` keeps of the set-up (read back by `hand_setup`)."""
    return {
        "small_blind": setup.small_blind,
        "big_blind": setup.big_blind,
        "ante": ante,
        "small_bet": setup.small_bet,
        "unit": setup.unit,
        "button_index": setup.button_index,
        "bring_in_index": setup.bring_in_index,
    }


def _save_first_state(hand: Hand, setup: HandSetup) -> Hand:
    """A new hand's state before any entry: the snapshot for reads and the engine's own."""
    state = start_hand(setup)
    hand.state = hand_snapshot(hand, state)
    hand.engine_state = pack_state(state, hand.pk, hand.version)
    hand.save(update_fields=["state", "engine_state"])
    return hand


def hand_snapshot(hand: Hand, state: HandState) -> dict[str, Any]:
    return {
        "hand": hand.pk,
        "table": hand.table.number,
        "number": hand.number,
        "version": hand.version,
        "status": hand.status,
        "button_seat": hand.button_seat,
        "small_blind_seat": hand.small_blind_seat,
        "big_blind_seat": hand.big_blind_seat,
        "stakes": {k: hand.stakes[k] for k in ("small_blind", "big_blind", "ante")},
        # Reopened: the hand is in progress again while the engine's state still has its end.
        **state_snapshot(
            state, hand.seats, reopened=hand.status == Hand.Status.IN_PROGRESS and state.is_over
        ),
    }


# --- starting a hand -------------------------------------------------------------------------


def start_refusal(table: Table, *, in_progress: bool) -> FloorError | None:
    """Why no hand may start at the table now, from the table's own state (None: a hand may
    start, as far as the table goes; `hand_start` then checks the players and the clock).
    `in_progress`: the table has a hand in progress. The tablet shows its start button by it."""
    tournament = table.tournament
    if tournament is None:
        if not table.is_open:
            return FloorError("table_closed", f"{table} is closed.")
    elif tournament.hand_for_hand and tournament.status in (
        Tournament.Status.RUNNING,
        Tournament.Status.PAUSED,
    ):
        # RP-8: the clock is stopped and each table deals one hand, then waits for the others.
        if not in_progress and table.hand_for_hand_round >= tournament.hand_for_hand_round:
            return FloorError(
                "hand_for_hand_wait",
                f"Hand for hand: {table} has played this hand. Wait until every table has "
                "finished theirs.",
            )
    elif tournament.status != Tournament.Status.RUNNING:
        return FloorError("not_running", "Hands are dealt while the tournament clock runs.")
    if tournament is not None and table.is_broken:
        return FloorError("table_broken", f"{table} is broken: its players have moved.")
    if in_progress:
        return FloorError("hand_in_progress", "Finish the hand in progress first.")
    return None


@transaction.atomic
def hand_start(
    *,
    table: Table,
    actor: Actor = None,
    now: datetime | None = None,
    straddle: bool = False,
    expected_plan: str = "",
) -> Hand:
    """Start the next hand at a table. In a tournament the button and blinds follow the dead
    button (T 32) from the table's last hand, the blinds are the level in force now (T 23), and
    every seated player is dealt in, absent or not (T 30), except a new player between the button
    and the small blind (T 10-A). At a cash table the plan decides (`dealer.cash.seats.plan`):
    `straddle` says the offered player straddles, and `expected_plan` (the plan's signature as the
    dealer saw it) refuses the start if the seats changed since. After the rotation's push the
    outgoing dealer may not start one (409 `push_due`): the incoming dealer signs in first; a
    director may."""
    now = now or timezone.now()
    if table.tournament_id is not None:
        # Locks in the floor's order: the tournament, then the table, then the entries.
        lock_tournament(table.tournament_id)
    table = (
        Table.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=table.pk)
    )
    refusal = start_refusal(
        table, in_progress=Hand.objects.filter(table=table, status=Hand.Status.IN_PROGRESS).exists()
    )
    if refusal is None:
        # After the push the outgoing dealer hands the table over before another hand.
        refusal = push_refusal(table, actor, now)
    if refusal is not None:
        raise refusal
    if table.tournament is None:
        return _cash_hand_start(table, actor, straddle=straddle, expected_plan=expected_plan)
    tournament = table.tournament
    entries = {
        e.seat: e
        for e in Entry.objects.filter(table=table, status=Entry.Status.ACTIVE).select_related(
            "player"
        )
        if e.seat is not None
    }
    if len(entries) < 2:
        raise FloorError("not_enough_players", f"{table} needs at least two players.")
    view = clock_view(tournament, now)
    level = view.level if not view.level.is_break else view.next_level
    if view.level.is_break or level is None:
        raise FloorError("on_break", "The clock is on a break: deal when play resumes.")
    rules = tournament_rules(tournament)
    if table.button_seat is None:
        # A table opened during play (added, then filled by late entries or moves) has no
        # button yet: its first hand begins with the high-card draw every table gets (T 7).
        tables_draw_missing_buttons(tournament=tournament, actor=actor)
        table.refresh_from_db(fields=["button_seat", "small_blind_seat", "big_blind_seat"])
    positions = _positions(table, entries)
    waiting = [e.player.name for seat, e in entries.items() if not positions.dealt_in(seat)]
    if len(entries) - len(waiting) < 2:
        raise FloorError(
            "not_enough_players",
            f"Only one player at {table} may be dealt in: {', '.join(waiting)} "
            f"{'waits' if len(waiting) == 1 else 'wait'} for the button (T 10-A). Balance the "
            "tables, or move a player here.",
        )
    setup, seats = _setup(rules, level, entries, positions)
    number = (Hand.objects.filter(table=table).count()) + 1
    hand = Hand.objects.create(
        table=table,
        number=number,
        rules=rules.as_dict(),
        stakes=stakes_record(setup, ante=level.ante),
        level_index=view.level_index,
        hand_for_hand_round=tournament.hand_for_hand_round if tournament.hand_for_hand else None,
        button_seat=positions.button,
        small_blind_seat=positions.small_blind,
        big_blind_seat=positions.big_blind,
        seats=seats,
        started_by=signed_in(actor),
    )
    dealt = [entries[row["seat"]] for row in seats]
    entries_enter_hand(tournament=tournament, entries=dealt, hand_id=hand.pk)
    if tournament.hand_for_hand:
        table.hand_for_hand_round = tournament.hand_for_hand_round
        table.save(update_fields=["hand_for_hand_round"])
    return _save_first_state(hand, setup)


def _cash_hand_start(table: Table, actor: Actor, *, straddle: bool, expected_plan: str) -> Hand:
    """A cash hand: exactly the posts of the plan the dealer was shown (RULES.md 2-4)."""
    read = cash_plan.engine_seats(table)
    seats = {seat.seat: seat for seat in read}
    plan = cash_plan.cash_table_plan(table, read)
    if expected_plan and expected_plan != cash_plan.plan_signature(plan):
        raise FloorError(
            "plan_changed",
            "The seats changed since this screen was drawn: check who posts what, then start.",
        )
    if straddle and plan.straddle_seat is None:
        raise FloorError("straddle_not_offered", "Nobody may straddle this hand.")
    rules, stakes = cash_plan.cash_table_rules(table), cash_plan.cash_stakes(table)
    setup = plan.setup(
        rules,
        stakes,
        {seat: seats[seat].stack for seat in plan.dealt},
        names={seat: seats[seat].name for seat in plan.dealt},
        straddle=straddle,
    )
    rows = [
        {
            "seat": player.seat,
            "cash_seat": seats[player.seat].key,
            "name": player.name,
            "stack": player.stack,
            "blind": player.blind,
            "ante": player.ante,
            "dead": player.dead,
        }
        for player in setup.players
    ]
    hand = Hand.objects.create(
        table=table,
        number=Hand.objects.filter(table=table).count() + 1,
        rules=rules.as_dict(),
        stakes=stakes_record(setup, ante=stakes.ante),
        button_seat=plan.button,
        small_blind_seat=plan.positions.small_blind,
        big_blind_seat=plan.big_blind,
        seats=rows,
        plan=cash_plan.plan_record(plan, straddle),
        started_by=signed_in(actor),
    )
    return _save_first_state(hand, setup)


def _positions(table: Table, entries: dict[int, Entry]) -> balancing.NextHand:
    """The next hand's button and blinds from the table's: each hand's end writes its positions
    there, and a seat or button draw (a new table, the final-table redraw) resets them, so that
    every player seated by the draw is dealt in."""
    positions = table_next_hand(table, {seat: e.pk for seat, e in entries.items()})
    if positions.big_blind is None:
        raise FloorError("no_button", f"{table} has no button: draw for the button first.")
    return positions


def _setup(
    rules: Rules, level: Any, entries: dict[int, Entry], positions: balancing.NextHand
) -> tuple[HandSetup, list[dict[str, Any]]]:
    seats_total = positions.seats
    button = positions.button or positions.big_blind
    assert button is not None
    order = [
        ((seat - button - 1) % seats_total, seat) for seat in entries if positions.dealt_in(seat)
    ]
    clockwise = [seat for _, seat in sorted(order)]
    heads_up = len(clockwise) == 2
    players: list[PlayerSetup] = []
    seats: list[dict[str, Any]] = []
    bring_in = 0
    for index, seat in enumerate(clockwise):
        entry = entries[seat]
        blind = 0
        if seat == positions.big_blind:
            blind, bring_in = level.big_blind, index
        elif seat == positions.small_blind or (heads_up and seat != positions.big_blind):
            blind = level.small_blind
        ante = (
            level.ante if not level.bb_ante else (level.ante if seat == positions.big_blind else 0)
        )
        players.append(
            PlayerSetup(
                stack=entry.chips, seat=seat, name=entry.player.name, blind=blind, ante=ante
            )
        )
        seats.append(
            {
                "seat": seat,
                "entry": entry.pk,
                "name": entry.player.name,
                "stack": entry.chips,
                "blind": blind,
                "ante": ante,
                "dead": 0,
            }
        )
    button_index = clockwise.index(button) if button in clockwise else None
    setup = HandSetup(
        rules=rules,
        players=tuple(players),
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        small_bet=level.big_blind,
        unit=level.smallest_chip,  # the level's smallest chip: pots split to it (RULES.md 6)
        button_index=button_index,
        bring_in_index=bring_in,
    )
    return setup, seats


# --- writing to a hand -----------------------------------------------------------------------


# On PostgreSQL a write costs four round trips: BEGIN, the hand locked with its table and its log
# (one statement), the event appended with the hand's new version and state (one statement), and
# COMMIT. Written in SQL, not through the ORM, whose work per query cost more than the database's
# (docs/performance.md, "Dealer actions through the web stack"). Other databases (SQLite, for
# development) take the ORM path. The columns come from the models, so new fields follow.


@dataclass(frozen=True, slots=True)
class _Columns:
    """Some of a model's columns as a statement selects them, with the converters the ORM would
    apply to their values (JSON is decoded, for one)."""

    fields: list[Any]
    columns: list[Any]
    converters: list[list[Any]]

    @classmethod
    def of(cls, model: Any, alias: str, exclude: tuple[str, ...] = ()) -> _Columns:
        fields = [f for f in model._meta.concrete_fields if f.name not in exclude]
        columns = [f.get_col(alias) for f in fields]
        converters = [
            connection.ops.get_db_converters(c) + c.get_db_converters(connection) for c in columns
        ]
        return cls(fields, columns, converters)

    def select(self, alias: str) -> str:
        return ", ".join(f"{alias}.{connection.ops.quote_name(f.column)}" for f in self.fields)

    def instance(self, model: Any, values: Any) -> Any:
        values = list(values)
        for index, (column, converters) in enumerate(
            zip(self.columns, self.converters, strict=True)
        ):
            for convert in converters:
                values[index] = convert(values[index], column, connection)
        return model.from_db(connection.alias, [f.attname for f in self.fields], values)


@cache
def _locked_sql(at_table: bool = False) -> tuple[str, _Columns, _Columns]:
    quote = connection.ops.quote_name
    hand, table = _Columns.of(Hand, "h", exclude=("state",)), _Columns.of(Table, "t")
    sql = (
        f"SELECT {hand.select('h')}, {table.select('t')} "
        f"FROM {quote(Hand._meta.db_table)} h JOIN {quote(Table._meta.db_table)} t "
        "ON t.id = h.table_id WHERE h.id = %s "
        + ("AND h.table_id = %s " if at_table else "")
        + "FOR UPDATE OF h"
    )
    return sql, hand, table


NO_SUCH_HAND = "There is no such hand."


class HandNotAtTableError(FloorNotFound):
    """The hand named is not at the table the caller named with it (or does not exist)."""

    def __init__(self) -> None:
        super().__init__("not_found", "There is no such hand at this table.")


def _not_found(at_table: int | None) -> FloorNotFound:
    return FloorNotFound("not_found", NO_SUCH_HAND) if at_table is None else HandNotAtTableError()


def _locked(hand: Hand | int, *, at_table: int | None = None) -> Hand:
    """The hand, locked for this transaction (writes to one hand are serialized), with its table
    (on PostgreSQL in one plain SQL statement). `at_table`: the table the caller named with the
    hand (a tablet's URL); a hand at another table is not found."""
    pk = hand if isinstance(hand, int) else hand.pk
    if connection.vendor != "postgresql":
        hands = Hand.objects.select_for_update(of=("self",)).select_related(
            "table", "table__tournament"
        )
        if at_table is not None:
            hands = hands.filter(table_id=at_table)
        try:
            return hands.get(pk=pk)
        except Hand.DoesNotExist as error:
            raise _not_found(at_table) from error
    sql, hand_columns, table_columns = _locked_sql(at_table is not None)
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk] if at_table is None else [pk, at_table])
        row = cursor.fetchone()
    if row is None:
        raise _not_found(at_table)
    split = len(hand_columns.fields)
    locked = hand_columns.instance(Hand, row[:split])
    locked.table = table_columns.instance(Table, row[split:])
    return locked


# And `state`, the new event's answer.
_HAND_SAVED = ("version", "status", "ended_at", "engine_state")


@cache
def _store_sql() -> tuple[str, list[Any], list[Any]]:
    quote = connection.ops.quote_name
    event_fields = [f for f in HandEvent._meta.concrete_fields if not f.primary_key]
    hand_fields: list[Any] = [Hand._meta.get_field(name) for name in _HAND_SAVED]
    hand_table = quote(Hand._meta.db_table)
    sql = (
        f"WITH event AS (INSERT INTO {quote(HandEvent._meta.db_table)} "
        f"({', '.join(quote(f.column) for f in event_fields)}) "
        f"VALUES ({', '.join(['%s'] * len(event_fields))}) "
        "ON CONFLICT DO NOTHING RETURNING response) "
        f"UPDATE {hand_table} SET "
        + ", ".join(f"{quote(f.column)} = %s" for f in hand_fields)
        + f", state = event.response FROM event WHERE {hand_table}.id = %s"
    )
    return sql, event_fields, hand_fields


def _store(hand: Hand, event: HandEvent) -> bool:
    """Append `event` to the log and save the hand's new version, status and state (the event's
    answer); False, with nothing written, when the event's `seq` or client id is taken already
    (a write that raced in without the lock, or a client id used again).

    On PostgreSQL one statement: the insert skips a conflicting row (ON CONFLICT DO NOTHING) and
    the hand is updated only with the row inserted, so no savepoint is needed to go on after a
    conflict. Elsewhere the insert runs in a savepoint that catches the unique constraint."""
    if connection.vendor != "postgresql":
        try:
            with transaction.atomic():
                event.save(force_insert=True)
        except IntegrityError:
            return False
        hand.save(update_fields=[*_HAND_SAVED, "state"])
        return True
    sql, event_fields, hand_fields = _store_sql()
    params = [f.get_db_prep_save(f.pre_save(event, True), connection) for f in event_fields]
    params += [f.get_db_prep_save(getattr(hand, f.attname), connection) for f in hand_fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, hand.pk])
        return cursor.rowcount == 1


def _previous(hand: Hand, client_id: str) -> HandEvent | None:
    return HandEvent.objects.filter(hand=hand, client_id=client_id).only("response").first()


def _write(
    hand: Hand | int,
    *,
    client_id: str,
    version: int,
    actor: Actor,
    kind: str,
    payload: dict[str, Any],
    make: Any,
    locked: bool = False,
    at_table: int | None = None,
) -> Result:
    """The common path of every write: writer check, resend check, version check, apply,
    append, answer. `hand` is read and locked here and its writer checked, unless `locked` says
    the caller did both in this transaction; `at_table`: the table the hand must be at."""
    if not locked or not isinstance(hand, Hand):
        hand = _locked(hand, at_table=at_table)
        check_writer(actor, hand.table)
    resent = _resend_or_refuse(hand, client_id=client_id, version=version)
    if resent is not None:
        return resent
    if hand.status != Hand.Status.IN_PROGRESS:
        raise FloorError("hand_over", "This hand is over: start the next hand.")
    state = hand_state(hand)
    state, payload = make(hand, state, payload)
    hand.version += 1
    hand.engine_state = pack_state(state, hand.pk, hand.version)
    if state.is_over:
        hand.status = Hand.Status.VOID if state.phase == Phase.VOID else Hand.Status.COMPLETE
        hand.ended_at = timezone.now()
    hand.state = hand_snapshot(hand, state)
    result = _append(hand, kind=kind, payload=payload, client_id=client_id, actor=actor)
    if result.event is not None and hand.status != Hand.Status.IN_PROGRESS:
        _hand_end(hand, state, actor)
    return result


def _resend_or_refuse(hand: Hand, *, client_id: str, version: int) -> Result | None:
    """None for a write made against the hand's version; the first answer for a resend; else
    409 `stale_version`. Every stored write moves the version on, so only a write made against
    an older version can be a resend: look for it then, and spare the query on every first try."""
    if version == hand.version:
        return None
    previous = _previous(hand, client_id)
    if previous is not None:
        return Result(hand, previous.response)
    raise StaleVersionError(hand)


def _append(
    hand: Hand, *, kind: str, payload: dict[str, Any], client_id: str, actor: Actor
) -> Result:
    """Store the hand (its new version, state and snapshot already set) with the write's event,
    the snapshot its answer. Another write that raced in on another connection wins: then the
    answer is this client id's earlier one, or 409 `stale_version` with the hand as it is now."""
    event = HandEvent(
        hand=hand,
        seq=hand.version,
        kind=kind,
        payload=payload,
        client_id=client_id,
        response=hand.state,
        actor=signed_in(actor),
    )
    if not _store(hand, event):
        # `hand` holds this write's unsaved state: answer with the hand as it is now.
        current = Hand.objects.select_related("table").get(pk=hand.pk)
        previous = _previous(current, client_id)
        if previous is not None:  # this client id was used before (a client reusing its ids)
            return Result(current, previous.response)
        raise StaleVersionError(current)
    return Result(hand, hand.state, event)


def _player_of_seat(hand: Hand, action: dict[str, Any]) -> dict[str, Any]:
    """The action with its `seat` read as `player`, the index in `hand.seats` (from the left of
    the button); a seat or player not dealt in is refused (400)."""
    seats = [row["seat"] for row in hand.seats]
    action = dict(action)
    seat = action.pop("seat", None)
    player = action.get("player")
    if seat is not None:
        if seat not in seats:
            raise FloorInvalid("not_in_hand", f"Seat {seat} is not dealt in this hand.")
        if player is not None and player != seats.index(seat):
            raise FloorInvalid(
                "seat_player_mismatch",
                f"Seat {seat} is player {seats.index(seat)}, not player {player}.",
            )
        action["player"] = seats.index(seat)
    elif isinstance(player, int) and not 0 <= player < len(seats):
        raise FloorInvalid("not_in_hand", f"Player {player} is not dealt in this hand.")
    if "pot" in action:  # an award names its pot and its winners' seats
        action["amount"] = action.pop("pot")
    if "seats" in action:
        winners = action.pop("seats")
        for seat in winners:
            if seat not in seats:
                raise FloorInvalid("not_in_hand", f"Seat {seat} is not dealt in this hand.")
        action["winners"] = [seats.index(seat) for seat in winners]
    return action


def check_tap_seat(hand: Hand, state: HandState, expected_seat: int | None) -> None:
    """The seat a tap's button was drawn for is still the one to act; `None`: not checked."""
    if expected_seat is None:
        return
    to_act = hand.seats[state.actor] if state.actor is not None else None
    if to_act is None or to_act["seat"] != expected_seat:
        raise StaleTapError(hand, drawn_for=expected_seat, to_act=to_act)


@transaction.atomic
def hand_record_action(
    *,
    hand: Hand | int,
    action: dict[str, Any],
    client_id: str,
    version: int,
    actor: Actor = None,
    expected_seat: int | None = None,
    deal_unentered: bool = False,
    at_table: int | None = None,
) -> Result:
    """Record one entry: a betting action, board cards, a show or muck (engine rules apply).
    `deal_unentered`: the board cards due were dealt without being entered, and this betting
    action is the next street's first: both are one entry (one tap, one undo).
    The player may be named by `seat` (a seat number) instead of `player` (the engine index).
    `expected_seat`: the seat to act when the button was drawn; a tap that finds another one to
    act is refused (`stale_tap`). A resend of a recorded tap still answers its first answer: the
    version check comes first. `at_table`: the table the caller named (a tablet's URL): a hand
    at another table is not found (checked in the statement that locks the hand)."""

    def make(
        locked: Hand, state: HandState, payload: dict[str, Any]
    ) -> tuple[HandState, dict[str, Any]]:
        dealt = [unentered_deal(state)] if payload.get("deal_unentered") else []
        for deal in dealt:
            state = apply(state, deal)
        check_tap_seat(locked, state, expected_seat)
        engine_action = action_from_dict(_player_of_seat(locked, payload["action"]))
        if dealt and engine_action.kind not in BETTING_KINDS:
            raise FloorInvalid(
                "deal_unentered_betting_only",
                "Only a betting action says the board was dealt without its cards.",
            )
        new = apply(state, engine_action)
        return new, {"actions": [action_to_dict(a) for a in (*dealt, engine_action)]}

    flag = {"deal_unentered": True} if deal_unentered else {}
    return _write(
        hand,
        client_id=client_id,
        version=version,
        actor=actor,
        kind=HandEvent.Kind.ACTION,
        payload={"action": action, **flag},
        make=make,
        at_table=at_table,
    )


@transaction.atomic
def hand_undo(
    *, hand: Hand | int, reason: str, client_id: str, version: int, actor: Actor = None
) -> Result:
    """Cancel the latest entry still in force (a correction event: nothing is deleted)."""

    def make(
        locked: Hand, state: HandState, payload: dict[str, Any]
    ) -> tuple[HandState, dict[str, Any]]:
        groups = groups_in_force(log_entries(locked))
        if not groups:
            raise RuleViolation("Nothing to undo in this hand.", code="nothing_to_undo")
        new = start_hand(hand_setup(locked))
        for action in [a for group in groups[:-1] for a in group]:
            new = apply(new, action)
        return new, {"reason": reason, "undone": [action_to_dict(a) for a in groups[-1]]}

    if not reason.strip():
        raise FloorInvalid("reason_required", "Say why the entry is undone.")
    return _write(
        hand,
        client_id=client_id,
        version=version,
        actor=actor,
        kind=HandEvent.Kind.UNDO,
        payload={"reason": reason},
        make=make,
    )


def _apply_procedure(
    locked: Hand,
    *,
    actions: list[Action],
    details: dict[str, Any],
    client_id: str,
    version: int,
    actor: Actor = None,
) -> Result:
    """Apply a procedure's engine actions as one event, to a hand `hand_run_procedure` has
    locked in this transaction."""

    def make(
        _: Hand, state: HandState, payload: dict[str, Any]
    ) -> tuple[HandState, dict[str, Any]]:
        for action in actions:
            state = apply(state, action)
        return state, {**details, "actions": [action_to_dict(a) for a in actions]}

    return _write(
        locked,
        client_id=client_id,
        version=version,
        actor=actor,
        kind=HandEvent.Kind.PROCEDURE,
        payload=details,
        make=make,
        locked=True,
    )


def _hand_ref(hand: Hand) -> HandRef:
    return HandRef(
        hand_id=hand.pk,
        table_number=hand.table.number,
        hand_number=hand.number,
        hand_for_hand_round=hand.hand_for_hand_round,
    )


def _seat_results(
    hand: Hand, stacks: Sequence[int] | None, state: HandState | None = None
) -> list[SeatResult]:
    """Each dealt entry's stack at the start and at the end (unchanged when `stacks` is None);
    with the finished `state`, who knocked out each player it left with nothing (KO-1), the
    engine's players read as entries through `hand.seats`."""
    finishing = list(stacks) if stacks is not None else [s["stack"] for s in hand.seats]
    entry_of = [seat["entry"] for seat in hand.seats]
    by: dict[int, tuple[Eliminator, ...]] = {}
    for knockout in knockouts(state) if state is not None else ():
        by[knockout.busted] = tuple(
            Eliminator(entry_id=entry_of[player], share=share)
            for player, share in zip(knockout.eliminators, knockout.shares, strict=True)
        )
    return [
        SeatResult(
            entry_id=seat["entry"],
            start=seat["stack"],
            finish=stack,
            eliminated_by=by.get(index, ()),
        )
        for index, (seat, stack) in enumerate(zip(hand.seats, finishing, strict=True))
    ]


def _hand_end(hand: Hand, state: HandState, actor: Actor) -> None:
    """The hand's result to the tournament (`entries_hand_end`: the chip ledger, busts, the moves
    that waited) or the cash table's seats, and the positions for the next hand. A misdeal only
    frees the players: the redeal uses the same button, blinds and players (T)."""
    table = hand.table
    void = state.phase == Phase.VOID
    if table.tournament_id is not None and not hand.plan:
        entries_hand_end(
            table=table,
            hand=_hand_ref(hand),
            results=_seat_results(
                hand, None if void else state.finishing_stacks, None if void else state
            ),
            void=void,
            now=timezone.now(),
            actor=actor,
        )
    if void:
        return
    table.button_seat = hand.button_seat
    table.small_blind_seat = hand.small_blind_seat
    table.big_blind_seat = hand.big_blind_seat
    table.save(update_fields=["button_seat", "small_blind_seat", "big_blind_seat"])
    if hand.plan:
        # The house's take is the rake and the promotional drop, each a ledger row of its own.
        house = state.rake - state.drop
        cash_hand_end(hand, state.finishing_stacks or (), house, drop=state.drop, actor=actor)
        hand_takings_record(hand=hand, rake=house)


@transaction.atomic
def hand_reopen(
    *, hand: Hand | int, reason: str, client_id: str, version: int, actor: Actor = None
) -> Result:
    """Open a finished hand again to correct it: its result is reversed through the chip ledger
    (a tournament's stacks, busts, places and prizes; a cash table's stacks, rake and drop), and
    the dealer undoes and re-enters what was wrong; its next end writes the corrected result.
    A dealer may reopen the table's latest hand before the next one starts; a director may
    reopen the table's last completed hand at any time, as long as no hand is in progress
    there."""
    if not reason.strip():
        raise FloorInvalid("reason_required", "Say why the hand is reopened.")
    locked = _locked(hand)
    check_writer(actor, locked.table)
    resent = _resend_or_refuse(locked, client_id=client_id, version=version)
    if resent is not None:
        return resent
    _check_reopen(locked, actor)
    table = locked.table
    state = hand_state(locked)
    if locked.plan:
        cash_hand_reopen(hand=locked, reason=reason, actor=actor)
    else:
        entries_hand_reopen(
            table=table,
            hand=_hand_ref(locked),
            results=_seat_results(locked, state.finishing_stacks),
            now=timezone.now(),
            actor=actor,
            reason=reason,
        )
    locked.status = Hand.Status.IN_PROGRESS
    locked.ended_at = None
    locked.version += 1
    locked.engine_state = pack_state(state, locked.pk, locked.version)
    locked.state = hand_snapshot(locked, state)
    return _append(
        locked,
        kind=HandEvent.Kind.REOPEN,
        payload={"reason": reason, "actions": []},
        client_id=client_id,
        actor=actor,
    )


def _check_reopen(hand: Hand, actor: Actor) -> None:
    if hand.status == Hand.Status.VOID:
        raise FloorError("hand_void", "A misdeal is dealt again, not reopened.")
    if hand.status != Hand.Status.COMPLETE:
        raise FloorError("hand_in_progress", "This hand is still in progress: undo instead.")
    later = Hand.objects.filter(table_id=hand.table_id, number__gt=hand.number)
    if later.filter(status=Hand.Status.COMPLETE).exists():
        raise FloorError(
            "not_last_hand",
            f"Hand {hand.number} is not the last hand played at {hand.table}: only the last "
            "one can be reopened.",
        )
    director = actor is None or is_director(actor)
    if later.exists() and not director:
        # Checked before the hand in progress: the dealer's answer is the floor, either way.
        raise FloorForbidden(
            "next_hand_started",
            f"The next hand at {hand.table} has started since: ask the floor to reopen "
            f"hand {hand.number}.",
        )
    if later.filter(status=Hand.Status.IN_PROGRESS).exists():
        raise FloorError(
            "hand_in_progress", f"{hand.table} has a hand in progress: finish it first."
        )


def reopen_refusal(hand: Hand, actor: Actor) -> FloorError | None:
    """Why `actor` may not reopen `hand` now, by the hand's own rules (None: they may, as far
    as the hand goes; `hand_reopen` then checks the players). The tablet offers its "Reopen the
    last hand" by it."""
    try:
        _check_reopen(hand, actor)
    except FloorError as error:
        return error
    return None


def check_hands() -> list[str]:
    """Replay every stored hand; the problems found (empty when every cache is right)."""
    problems = []
    for hand in Hand.objects.select_related("table").order_by("pk").iterator():
        try:
            state = hand_replay(hand)
        except EngineError as error:
            problems.append(f"{hand}: the log does not replay ({error.detail})")
            continue
        if hand_snapshot(hand, state) != hand.state:
            problems.append(f"{hand}: the cached state differs from the replay")
        stored = unpack_state(hand.engine_state, hand.pk, hand.version)
        if stored is not None and stored != state:
            problems.append(f"{hand}: the stored engine state differs from the replay")
    return problems


def check_hand_chips(tournament: Tournament) -> list[str]:
    """The ledger against the tournament's hands: each finished hand's rows are what the hand
    says each player won or lost, and the players of a hand in progress, only they, are marked
    as in it. Hands that ended before the tournament's ledger began (its first row: the opening
    balances) have no rows and are not read."""
    problems: list[str] = []
    hands = Hand.objects.filter(table__tournament=tournament, plan={}).select_related("table")
    began = (
        ChipMove.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("created_at", flat=True)
        .first()
    )
    if began is not None:
        hands = hands.exclude(status=Hand.Status.COMPLETE, ended_at__lt=began)
    results: dict[int | None, dict[int, int]] = {}
    for hand_id, entry_id, delta in (
        ChipMove.objects.filter(tournament=tournament, kind=ChipMove.Kind.HAND)
        .order_by("pk")
        .values_list("hand_id", "entry_id", "delta")
    ):
        results.setdefault(hand_id, {})[entry_id] = delta  # the latest end of a reopened hand
    live = dict(
        Entry.objects.filter(tournament=tournament, live_hand__isnull=False).values_list(
            "pk", "live_hand_id"
        )
    )
    for hand in hands.order_by("pk").iterator():
        if hand.status == Hand.Status.COMPLETE:
            try:
                stacks = hand_state(hand).finishing_stacks or ()
            except EngineError as error:
                problems.append(f"{hand}: the log does not replay ({error.detail})")
                continue
            expected = {
                s["entry"]: stack - s["stack"] for s, stack in zip(hand.seats, stacks, strict=True)
            }
            if results.get(hand.pk, {}) != expected:
                problems.append(f"{hand}: the ledger's result differs from the hand's")
        elif hand.status == Hand.Status.IN_PROGRESS:
            for seat in hand.seats:
                if live.pop(seat["entry"], None) != hand.pk:
                    problems.append(f"{hand}: {seat['name']} is not marked as in the hand")
    for entry_id, hand_id in live.items():
        problems.append(
            f"entry {entry_id} is marked as in hand {hand_id}, which is not in progress"
        )
    return problems


# --- dealer-error procedures (RULES.md 8) ------------------------------------------------------


def _procedure_remedy(
    hand: Hand, trigger: str, player_seat: int | None, details: dict[str, Any] | None
) -> Any:
    from dealer.engine import procedures

    try:
        chosen = procedures.Trigger(trigger)
    except ValueError as error:
        known = ", ".join(t.value for t in procedures.Trigger)
        raise FloorInvalid(
            "unknown_trigger", f"Unknown procedure '{trigger}': pick one of {known}."
        ) from error
    player = None
    if player_seat is not None:
        seats = [s["seat"] for s in hand.seats]
        if player_seat not in seats:
            raise FloorInvalid("not_in_hand", f"Seat {player_seat} is not dealt in this hand.")
        player = seats.index(player_seat)
    return procedures.remedy(hand_state(hand), chosen, player=player, details=details or {})


def procedure_preview(
    *,
    hand: Hand,
    trigger: str,
    player_seat: int | None = None,
    details: dict[str, Any] | None = None,
) -> Any:
    """What the procedure says for this hand now (read-only): the steps before confirming, or
    the refusal the confirmation would meet (a floor misdeal after the threshold, ...)."""
    return _procedure_remedy(hand, trigger, player_seat, details)


@transaction.atomic
def hand_run_procedure(
    *,
    hand: Hand | int,
    trigger: str,
    player_seat: int | None = None,
    details: dict[str, Any] | None = None,
    client_id: str,
    version: int,
    actor: Actor = None,
) -> tuple[Result, ProcedureLog | None]:
    """Apply a dealer-error procedure's effect to the hand and log it for the floor. The floor's
    own decisions (`floor_misdeal`, `floor_dead_hand`, with `details["note"]` as the reason) are
    triggers too, so the tablet page and the API write them here and they are logged alike."""
    locked = _locked(hand)
    check_writer(actor, locked.table)
    # A procedure's client id is looked for whatever the version: the sheet may resend it
    # with the version its first answer gave.
    resent = _previous(locked, client_id)
    if resent is not None:
        return Result(locked, resent.response), None
    remedy = _procedure_remedy(locked, trigger, player_seat, details)
    record = {
        "trigger": trigger,
        "title": remedy.title,
        "steps": list(remedy.steps),
        "effect": str(remedy.effect.value),
        "player_seat": player_seat,
        "rule": remedy.rule,
        "option": remedy.option,
    }
    result = _apply_procedure(
        locked,
        actions=list(remedy.actions),
        details=record,
        client_id=client_id,
        version=version,
        actor=actor,
    )
    log = ProcedureLog.objects.create(
        hand=result.hand,
        table=result.hand.table,
        dealer=signed_in(actor),
        trigger=trigger,
        title=remedy.title,
        steps=list(remedy.steps),
        effect=record["effect"],
        player_seat=player_seat,
        rule=remedy.rule or "",
    )
    return result, log
