"""A cash table's next hand, and what it is read from: the table's rules and stakes, the seats
as the engine sees them, where the last hand's button and blinds were; the plan from the engine's
`plan_hand` and the signature the dealer's start sends back.

Read only: the services (`dealer.cash.seats.services`, and `dealer.services` starting a hand) and
the read model (`dealer.cash.seats.selectors`) both build on it, so neither imports the other.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict

from common.errors import FloorConflict
from dealer.cash.models import CashSeat
from dealer.engine import cash as engine_cash
from dealer.engine.errors import ConfigError
from dealer.engine.rules import Rules
from dealer.engine.setup import Stakes
from tournaments.models import Table
from tournaments.selectors.rules import rules_current

# --- the game ----------------------------------------------------------------------------------


def cash_table_rules(table: Table) -> Rules:
    """The table's rules: its profile, its game and structure, and its single-key overrides
    (built as every table's are, `selectors.rules.rules_current`)."""
    return rules_current(table)


def cash_stakes(table: Table) -> Stakes:
    return Stakes(small_blind=table.small_blind, big_blind=table.big_blind, ante=table.ante)


# --- the next hand -----------------------------------------------------------------------------


# A seat's flags for what its player owes or waits for: the plan reads them, a hand's end may
# settle or set them.
OWED_FIELDS = ("new", "missed_small", "missed_big", "wait_button", "wait_big_blind", "skip_button")


def engine_seats_row(row: CashSeat) -> engine_cash.CashSeat:
    """The engine's view of one seat row."""
    return engine_cash.CashSeat(
        seat=row.seat,
        stack=row.chips,
        key=row.pk,
        name=row.player.name,
        away=row.away,
        new=row.new,
        missed_small=row.missed_small,
        missed_big=row.missed_big,
        wait_button=row.wait_button,
        wait_big_blind=row.wait_big_blind,
        skip_button=row.skip_button,
    )


def engine_seats(table: Table) -> list[engine_cash.CashSeat]:
    rows = CashSeat.objects.filter(table=table).select_related("player").order_by("seat")
    return [engine_seats_row(row) for row in rows]


def last_positions(table: Table) -> engine_cash.Positions | None:
    """Where the last hand's button and blinds were (None before the first hand)."""
    if table.big_blind_seat is None:
        return None
    return engine_cash.Positions(table.button_seat, table.small_blind_seat, table.big_blind_seat)


def cash_table_plan(
    table: Table, seats: list[engine_cash.CashSeat] | None = None
) -> engine_cash.CashPlan:
    """The plan of the next hand at a cash table, as the seats stand now (read only); `seats`
    when the caller has read them already (`engine_seats`)."""
    try:
        return engine_cash.plan_hand(
            cash_table_rules(table),
            cash_stakes(table),
            table.seat_count,
            engine_seats(table) if seats is None else seats,
            last_positions(table),
            first_button=table.button_seat,
        )
    except ConfigError as error:
        raise FloorConflict(error.code, error.detail) from error


def plan_signature(plan: engine_cash.CashPlan) -> str:
    """A short tag of what the dealer was shown: the positions, the posts and who waits."""
    shown = {
        "positions": asdict(plan.positions),
        "posts": [asdict(post) for post in plan.posts],
        "waiting": [asdict(wait) for wait in plan.waiting],
        "straddle": plan.straddle_seat,
    }
    return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:16]


def plan_record(plan: engine_cash.CashPlan, straddle: bool) -> dict[str, object]:
    """What the hand keeps of its plan: what was shown, and what it does to the seats."""
    return {
        "signature": plan_signature(plan),
        "straddle": straddle,
        "restart": plan.restart,
        "heads_up": plan.heads_up,
        "waiting": [asdict(wait) for wait in plan.waiting],
        "posts": [asdict(post) for post in plan.posts if post.live or post.dead],
        **asdict(plan.after),
    }
