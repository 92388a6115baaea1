"""The cash floor's chip ledger (issue 25): the one writer of a cash seat's chips.

Every change of a seat's chips is one `CashChips` row written here, and the seat's `chips`
(with `bought_in`, its buy-ins and top-ups) is moved by the same statement's transaction: a
seat's chips are the running total of its rows, and nothing else in the code assigns them (a
test reads the code to hold that). The house's takes from a hand (the rake and the
promotional drop) are rows of no seat. Callers hold the table's lock (`select_for_update`), as
every cash service does, so two rows of one seat never race.

Rows are never updated or deleted: a reopened hand is reversed by rows of its own
(`cash_hand_reverse`), and a miscount is set right by a `correction` naming who and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TypedDict

from django.contrib.auth.models import User
from django.utils import timezone

from common.actors import Actor, signed_in
from common.errors import FloorConflict, FloorInvalid
from dealer.cash.models import HOUSE_KINDS, CashChips, CashSeat, WaitingListEntry
from dealer.models import Hand
from tournaments.models import Table

Kind = CashChips.Kind

# Kinds that bring chips over the rail into a seat (counted as "bought in" on the seat).
BOUGHT = (Kind.BUY_IN, Kind.TOP_UP)
# The reversal of each kind a hand writes.
REVERSAL = {
    Kind.HAND: Kind.HAND_REVERSED,
    Kind.RAKE: Kind.RAKE_REVERSED,
    Kind.DROP: Kind.DROP_REVERSED,
}


def cash_chips_record(
    *,
    seat: CashSeat,
    kind: str,
    delta: int,
    hand: Hand | None = None,
    other_table: Table | None = None,
    note: str = "",
    actor: Actor = None,
    now: datetime | None = None,
) -> CashChips | None:
    """One change of a seat's chips: the row, and the seat's chips moved by `delta` (refused,
    409 `short_stack`, when the seat has fewer chips than it gives). A row of 0 is not written
    (a hand the seat broke even in leaves no row)."""
    if kind not in Kind.values or kind in HOUSE_KINDS:
        raise FloorInvalid("bad_kind", f"{kind} is not a seat's ledger row.")
    balance = seat.chips + delta
    if balance < 0:
        raise FloorConflict(
            "short_stack",
            f"{seat.player.name} has {seat.chips} at seat {seat.seat}: not {-delta}.",
        )
    row = CashChips(
        table_id=seat.table_id,
        sitting=seat.pk,
        seat=seat.seat,
        player_id=seat.player_id,
        kind=kind,
        delta=delta,
        balance=balance,
        hand=hand,
        other_table=other_table,
        note=note[:200],
        actor=signed_in(actor),
        created_at=now or timezone.now(),
    )
    if delta == 0:
        return None
    row.save()
    seat.chips = balance
    fields = ["chips"]
    if kind in BOUGHT:
        seat.bought_in += delta
        fields.append("bought_in")
    CashSeat.objects.filter(pk=seat.pk).update(**{name: getattr(seat, name) for name in fields})
    return row


def cash_house_record(
    *,
    table: Table,
    kind: str,
    amount: int,
    hand: Hand,
    note: str = "",
    actor: Actor = None,
    now: datetime | None = None,
) -> CashChips | None:
    """The house's take from `hand`'s pots (`rake`, `drop`, or their reversals): a row of no
    seat, nothing for no chips."""
    if kind not in (Kind.RAKE, Kind.DROP, Kind.RAKE_REVERSED, Kind.DROP_REVERSED):
        raise FloorInvalid("bad_kind", f"{kind} is not one of the house's takes.")
    if amount == 0:
        return None
    return CashChips.objects.create(
        table=table,
        kind=kind,
        delta=amount,
        hand=hand,
        note=note[:200],
        actor=signed_in(actor),
        created_at=now or timezone.now(),
    )


def cash_hand_record(
    *,
    hand: Hand,
    seats: dict[int, CashSeat],
    results: Sequence[tuple[int, int]],
    rake: int,
    drop: int = 0,
    actor: Actor = None,
    now: datetime | None = None,
) -> None:
    """A cash hand's end: each seat's result as a delta (`results`: the `CashSeat` id and its
    stack's change), and the house's rake and drop. The deltas and the takes sum to zero, or
    the hand made or lost chips: refused before anything is written."""
    if sum(delta for _, delta in results) + rake + drop != 0:
        raise FloorConflict(
            "hand_unbalanced",
            f"Hand {hand.number}'s results do not add up to its pots less the rake.",
        )
    now = now or timezone.now()
    for sitting, delta in results:
        cash_chips_record(seat=seats[sitting], kind=Kind.HAND, delta=delta, hand=hand, now=now)
    cash_house_record(table=hand.table, kind=Kind.RAKE, amount=rake, hand=hand, now=now)
    cash_house_record(table=hand.table, kind=Kind.DROP, amount=drop, hand=hand, now=now)


def cash_hand_reverse(
    *, hand: Hand, seats: dict[int, CashSeat], reason: str, actor: Actor = None
) -> list[CashChips]:
    """A reopened cash hand: every row its last end wrote is reversed by a row of its own (the
    seats' results and the house's takes), so the stacks and the cage are as before its end.
    `seats` holds the hand's seats (locked), by `CashSeat` id; a seat whose player has left
    since is refused before anything is written."""
    rows = list(CashChips.objects.filter(hand=hand, before_ledger=False).order_by("pk"))
    if not rows and CashChips.objects.filter(hand=hand, before_ledger=True).exists():
        raise FloorConflict(
            "before_ledger",
            f"Hand {hand.number} ended before the chip ledger began: the floor corrects it at "
            "the cage.",
        )
    last = _last_end(rows)
    now = timezone.now()
    missing = {row.sitting for row in last if row.sitting is not None} - set(seats)
    if missing:
        raise FloorConflict(
            "player_left",
            f"A player of hand {hand.number} has left the table since: the floor corrects "
            "their chips at the cage instead of reopening the hand.",
        )
    reversed_rows: list[CashChips] = []
    note = f"hand {hand.number} reopened: {reason}"
    for row in last:
        kind = REVERSAL[Kind(row.kind)]
        if row.sitting is None:
            house = cash_house_record(
                table=hand.table, kind=kind, amount=-row.delta, hand=hand, note=note, actor=actor
            )
            if house is not None:
                reversed_rows.append(house)
            continue
        seat_row = cash_chips_record(
            seat=seats[row.sitting],
            kind=kind,
            delta=-row.delta,
            hand=hand,
            note=note,
            actor=actor,
            now=now,
        )
        if seat_row is not None:
            reversed_rows.append(seat_row)
    return reversed_rows


def _last_end(rows: list[CashChips]) -> list[CashChips]:
    """The rows of a hand's latest end not yet reversed: after its last reversal, if any."""
    last: list[CashChips] = []
    for row in rows:
        if row.kind in REVERSAL:
            last.append(row)
        elif row.kind.endswith("_reversed"):
            last = []
    return last


class _CarriedRow(TypedDict):
    """What both rows of a stack carried off the list share."""

    table_id: int
    sitting: int
    player_id: int
    actor: User | None
    created_at: datetime


def cash_chips_carried_off(*, entry: WaitingListEntry, actor: Actor = None) -> None:
    """A player waiting with the stack of a closed or broken table leaves the list: the stack is
    cashed out, on the ledger of the seat it left (back from the list, then out: that seat's
    rows still net to zero)."""
    chips = entry.carried_chips
    if not chips or entry.carried_sitting is None or entry.carried_from_id is None:
        return
    now = timezone.now()
    common: _CarriedRow = {
        "table_id": entry.carried_from_id,
        "sitting": entry.carried_sitting,
        "player_id": entry.player_id,
        "actor": signed_in(actor),
        "created_at": now,
    }
    CashChips.objects.create(
        kind=Kind.MOVE_IN, delta=chips, balance=chips, note="back from the list", **common
    )
    CashChips.objects.create(
        kind=Kind.CASH_OUT, delta=-chips, balance=0, note="left the list with the stack", **common
    )
