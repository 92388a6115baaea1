"""What the house takes at a cash table (issue 15, "Rake and time"): the rake the engine took from
a hand's pots, recorded on the hand with its dealer, and time collected from a seat per period.

The rake itself is the engine's (RULES.md 6.5, `dealer/engine/rake.py`): this module only writes
it down. Time is charged between hands, once per seat per period (the unique constraint
`one_time_charge_per_period` is the last word when two taps race).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NamedTuple

from django.db import IntegrityError, transaction
from django.utils import timezone

from common.actors import Actor
from common.errors import FloorConflict, FloorInvalid
from dealer.cash import ledger
from dealer.cash.locks import lock_cash_table
from dealer.cash.models import CashSeat, TimeCharge
from dealer.models import Hand
from tournaments.models import Table
from tournaments.services.audit import audit_record

# Rooms charge time by the half hour.
TIME_PERIOD = timedelta(minutes=30)


def hand_takings_record(*, hand: Hand, rake: int) -> None:
    """A cash hand is over: its rake, and the dealer who dealt it (the one already recorded, set
    when the rotation signs a dealer in, or else the table's dealer now)."""
    dealer_id = hand.dealt_by_id or hand.table.dealer_id
    Hand.objects.filter(pk=hand.pk).update(rake=rake, dealt_by_id=dealer_id)
    hand.rake, hand.dealt_by_id = rake, dealer_id


def time_period_start(moment: datetime) -> datetime:
    """The start of the half hour `moment` falls in, in the room's time zone."""
    local = timezone.localtime(moment)
    return local.replace(minute=local.minute - local.minute % 30, second=0, microsecond=0)


@transaction.atomic
def time_charge_collect(
    *,
    cash_seat: CashSeat,
    amount: int,
    period_start: datetime | None = None,
    now: datetime | None = None,
    actor: Actor = None,
) -> TimeCharge:
    """Take `amount` chips of time from a seat for one period (the current half hour unless
    given). Refused during a hand the seat is in (its chips are in play), beyond the seat's
    chips, and a second time for the same seat and period."""
    now = now or timezone.now()
    table = lock_cash_table(cash_seat.table, why=": time is cash only")
    seat = CashSeat.objects.select_related("player").get(pk=cash_seat.pk)
    if amount < 1:
        raise FloorInvalid("bad_amount", "Charge at least one chip of time.")
    period = time_period_start(period_start or now)
    _check_chargeable(table, seat, amount, period)
    charge = TimeCharge(
        table=table,
        player=seat.player,
        seat=seat.seat,
        amount=amount,
        period_start=period,
        dealer=table.dealer,
        created_at=now,
    )
    try:
        with transaction.atomic():
            charge.ledger_row = ledger.cash_chips_record(
                seat=seat, kind=ledger.Kind.TIME, delta=-amount, actor=actor, now=now
            )
            charge.save()
    except IntegrityError as error:  # the same seat and period, charged by another tap
        raise _already_charged(seat, period) from error
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_time_charged",
        table=table.number,
        seat=seat.seat,
        player=seat.player.name,
        amount=amount,
        period=period.isoformat(),
    )
    return charge


class TableTime(NamedTuple):
    """A whole table's time in one step: the charges made, and each seat passed over with why
    (in the hand, short of chips, paid already)."""

    charged: list[TimeCharge]
    passed: list[tuple[int, str]]


@transaction.atomic
def time_collect_table(
    *,
    table: Table,
    amount: int,
    period_start: datetime | None = None,
    now: datetime | None = None,
    actor: Actor = None,
) -> TableTime:
    """Take `amount` of time from every seat at the table for one period, in one step, as the
    dealer collects it around the table. A seat that cannot pay now is passed over and named
    (the same checks as one seat's charge); the rest pay."""
    if amount < 1:
        raise FloorInvalid("bad_amount", "Charge at least one chip of time.")
    table = lock_cash_table(table, why=": time is cash only")
    charged: list[TimeCharge] = []
    passed: list[tuple[int, str]] = []
    for seat in CashSeat.objects.filter(table=table).order_by("seat"):
        try:
            with transaction.atomic():
                charged.append(
                    time_charge_collect(
                        cash_seat=seat,
                        amount=amount,
                        period_start=period_start,
                        now=now,
                        actor=actor,
                    )
                )
        except FloorConflict as refusal:
            passed.append((seat.seat, refusal.detail))
    return TableTime(charged, passed)


def _check_chargeable(table: Table, seat: CashSeat, amount: int, period: datetime) -> None:
    hand = Hand.objects.filter(table=table, status=Hand.Status.IN_PROGRESS).first()
    if hand is not None and any(row.get("cash_seat") == seat.pk for row in hand.seats):
        raise FloorConflict(
            "in_hand",
            f"{seat.player.name} is in a hand: collect time between hands.",
        )
    if amount > seat.chips:
        raise FloorConflict(
            "short_stack",
            f"{seat.player.name} has {seat.chips} in front: not enough for {amount} of time.",
        )
    if TimeCharge.objects.filter(table=table, seat=seat.seat, period_start=period).exists():
        raise _already_charged(seat, period)


def _already_charged(seat: CashSeat, period: datetime) -> FloorConflict:
    return FloorConflict(
        "already_charged",
        f"Seat {seat.seat} has already paid time for the half hour from "
        f"{timezone.localtime(period):%H:%M}.",
    )
