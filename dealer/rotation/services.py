"""The rotation's writes: the plan, the shift list, the schedule of downs, and the push.

The push keeps `Table.dealer` the one answer to "who may deal here now": the incoming dealer
signs in on the tablet with their PIN, between hands, and `table_assign_dealer` (its one
writer) moves the table to them; the tables' permissions (`tournaments.roles.may_deal`) follow
at once.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max

from common.actors import Actor
from common.errors import FloorConflict, FloorForbidden, FloorInvalid, FloorNotFound
from common.roles import DEALER_GROUP, is_director
from dealer.models import Hand
from dealer.rotation.pins import dealer_pin_verify
from dealer.rotation.selectors import dealer_name, open_shifts, rotation_plan_get, rotation_tables
from tournaments import rotation
from tournaments.models import DealerDown, DealerShift, RotationPlan, Table
from tournaments.services.audit import audit_record
from tournaments.services.tables import table_assign_dealer

# How far ahead a start writes the downs: a shift's length, written again at each change.
SCHEDULE_HOURS = 8
# A running rotation is written on again once fewer than these hours of downs are left
# (`rotation_extend`: at each push's sign-in and by the beat's task), so it never runs out.
EXTEND_WITHIN_HOURS = 2


def rotation_plan_set(
    *, down_minutes: int, downs_before_break: int, break_minutes: int, actor: Actor = None
) -> RotationPlan:
    """Set the room's plan (a new row: the latest is in force). Downs last 20 to 30 minutes,
    the room's choice; it applies from the next start of the rotation."""
    if not 20 <= down_minutes <= 30:
        raise FloorInvalid("bad_down", "A down lasts 20 to 30 minutes.")
    if not 1 <= downs_before_break <= 12:
        raise FloorInvalid("bad_downs_before_break", "A break comes after 1 to 12 downs.")
    if not 5 <= break_minutes <= 60:
        raise FloorInvalid("bad_break", "A break lasts 5 to 60 minutes.")
    plan = RotationPlan.objects.create(
        down_minutes=down_minutes,
        downs_before_break=downs_before_break,
        break_minutes=break_minutes,
    )
    audit_record(
        tournament=None, actor=actor, action="rotation_plan", down=down_minutes,
        downs_before_break=downs_before_break, break_minutes=break_minutes,
    )  # fmt: skip
    return plan


@transaction.atomic
def dealer_shift_start(*, dealer_id: int, at: datetime, actor: Actor = None) -> DealerShift:
    """Put a dealer on the shift list; a running rotation takes them in from its next push."""
    dealer = (
        get_user_model()
        .objects.filter(pk=dealer_id, is_active=True, groups__name=DEALER_GROUP)
        .first()
    )
    if dealer is None:
        raise FloorInvalid("not_a_dealer", "Pick a dealer: an active account in the dealer group.")
    if DealerShift.objects.select_for_update().filter(dealer=dealer, ends_at=None).exists():
        raise FloorConflict("already_on_shift", f"{dealer_name(dealer)} is already on shift.")
    shift = DealerShift.objects.create(dealer=dealer, starts_at=at)
    audit_record(tournament=None, actor=actor, action="shift_start", dealer=dealer.get_username())
    _replan_if_running(at=at)
    return shift


@transaction.atomic
def dealer_shift_end(*, dealer_id: int, at: datetime, actor: Actor = None) -> DealerShift:
    """Take a dealer off the shift list: they finish the down they are in, and a running
    rotation goes on without them from its next push."""
    shift = (
        DealerShift.objects.select_for_update().filter(dealer_id=dealer_id, ends_at=None).first()
    )
    if shift is None:
        raise FloorNotFound("not_on_shift", "That dealer is not on shift.")
    shift.ends_at = at
    shift.save(update_fields=["ends_at"])
    audit_record(
        tournament=None, actor=actor, action="shift_end", dealer=shift.dealer.get_username()
    )
    _replan_if_running(at=at)
    return shift


def next_push_at(at: datetime) -> datetime | None:
    """The next push of a running rotation: the end of the downs in progress at `at`."""
    down = DealerDown.objects.filter(starts_at__lte=at, ends_at__gt=at, table__isnull=False)
    first = down.order_by("ends_at", "pk").first()
    return first.ends_at if first else None


@transaction.atomic
def rotation_start(*, at: datetime, actor: Actor = None) -> list[DealerDown]:
    """Write the downs of the next hours for the dealers on shift and the open tables: from
    the next push of a running rotation (each dealer going on from where they are), else from
    `at`. Downs not yet begun are replaced."""
    start = next_push_at(at) or at
    downs = _write_schedule(start=start, resume=start != at)
    audit_record(tournament=None, actor=actor, action="rotation_start", start=start.isoformat())
    return downs


@transaction.atomic
def rotation_extend(*, at: datetime) -> int:
    """A running rotation with fewer than EXTEND_WITHIN_HOURS of downs left is written on from
    its next push, each dealer going on from where they stand (downs not yet begun are written
    again, as at a change of shift). Nothing to do otherwise, so it may run at any time, often:
    answers the downs written (0 when none was due)."""
    last = DealerDown.objects.aggregate(last=Max("ends_at"))["last"]
    if last is None or last <= at or last > at + timedelta(hours=EXTEND_WITHIN_HOURS):
        return 0  # not running (never started, or stopped), or far enough ahead
    start = next_push_at(at)
    if start is None or not open_shifts() or not rotation_tables():
        return 0
    return len(_write_schedule(start=start, resume=True))


def _replan_if_running(*, at: datetime) -> None:
    """Schedule again from the next push; with no dealer left (or no table), the rotation
    stops there instead of refusing the change of shift."""
    start = next_push_at(at)
    if start is None:
        return
    if not open_shifts() or not rotation_tables():
        DealerDown.objects.filter(starts_at__gte=start).delete()
        DealerDown.objects.filter(ends_at__gt=start).update(ends_at=start)
        return
    _write_schedule(start=start, resume=True)


def _write_schedule(*, start: datetime, resume: bool) -> list[DealerDown]:
    shifts = {s.dealer_id: s for s in open_shifts()}
    if not shifts:
        raise FloorConflict("no_dealers_on_shift", "Put the dealers on shift first.")
    tables = rotation_tables()
    if not tables:
        raise FloorConflict("no_open_tables", "No table is open: open a game first.")
    model = rotation_plan_get()
    plan = rotation.Plan(
        down_minutes=model.down_minutes,
        downs_before_break=model.downs_before_break,
        break_minutes=model.break_minutes,
    )
    # Breaks running on past the start are cut there (they are written again from `since`).
    DealerDown.objects.filter(starts_at__gte=start).delete()
    since = _since(start, plan) if resume else {}
    DealerDown.objects.filter(ends_at__gt=start).update(ends_at=start)
    pushes = math.ceil(SCHEDULE_HOURS * 60 / plan.down_minutes)
    rows = rotation.downs(
        rotation.schedule(
            dealers=list(shifts),
            tables=[t.pk for t in tables],
            plan=plan,
            start=start,
            pushes=pushes,
            since=since,
        ),
        plan,
    )
    return DealerDown.objects.bulk_create(
        DealerDown(
            shift=shifts[int(str(row.dealer))],
            dealer_id=int(str(row.dealer)),
            table_id=None if row.table is None else int(str(row.table)),
            starts_at=row.starts_at,
            ends_at=row.ends_at,
        )
        for row in rows
    )


def _since(start: datetime, plan: rotation.Plan) -> dict[Hashable, rotation.Since]:
    """Where each dealer stands at `start`: the table of their last down, the downs dealt since
    their last break, and what is left of a break still running."""
    history: dict[int, list[DealerDown]] = {}
    for down in DealerDown.objects.filter(starts_at__lt=start).order_by("-starts_at", "-pk"):
        history.setdefault(down.dealer_id, []).append(down)
    since: dict[Hashable, rotation.Since] = {}
    for dealer_id, downs in history.items():
        last = downs[0]
        if last.table_id is None:
            left = max(timedelta(0), last.ends_at - start)
            since[dealer_id] = rotation.Since(away=math.ceil(left / plan.down))
            continue
        worked = 0
        for down in downs:
            if down.table_id is None:
                break
            worked += 1
        since[dealer_id] = rotation.Since(table=last.table_id, worked=worked)
    return since


def down_sign_in(*, table: Table, actor: Actor, pin: str, at: datetime) -> DealerDown:
    """The push, on the tablet: the incoming dealer of the down due at `table` proves it is
    them with their PIN (`dealer.rotation.pins`: 403 `wrong_pin`, 409 `pin_locked`, `no_pin`)
    and the table is theirs (`table_assign_dealer`), and no longer the dealer's at any other
    table. Refused while a hand is being dealt: the outgoing dealer finishes it first. The
    caller (the tablet's page or the API) then makes the tablet the incoming dealer's."""
    due = _due_down(table, at, lock=False)
    _check_handover(table, due, actor)
    # Checked before the handover's transaction, in one of its own: a wrong PIN is counted
    # even though the handover is refused.
    dealer_pin_verify(dealer=due.dealer, pin=pin, at=at)
    return _hand_over(table=table, down_id=due.pk, actor=actor, at=at)


def _due_down(table: Table, at: datetime, *, lock: bool) -> DealerDown:
    downs = DealerDown.objects.select_for_update() if lock else DealerDown.objects
    down = (
        downs.filter(table=table, starts_at__lte=at, ends_at__gt=at, signed_in_at=None)
        .select_related("dealer")
        .order_by("-starts_at", "-pk")
        .first()
    )
    if down is None:
        raise FloorConflict("no_push_due", f"No dealer is due at {table} now.")
    return down


def _check_handover(table: Table, down: DealerDown, actor: Actor) -> None:
    if actor is not None and not (
        is_director(actor) or actor.pk in (down.dealer_id, table.dealer_id)
    ):
        raise FloorForbidden(
            "not_your_push", f"Only {dealer_name(down.dealer)}, the floor or {table}'s dealer may."
        )
    dealing = Hand.objects.filter(table=table, status=Hand.Status.IN_PROGRESS).first()
    if dealing is not None:
        raise FloorConflict(
            "hand_in_progress",
            f"Hand {dealing.number} is still being dealt: finish it, then hand the table over "
            f"to {dealer_name(down.dealer)}.",
        )


@transaction.atomic
def _hand_over(*, table: Table, down_id: int, actor: Actor, at: datetime) -> DealerDown:
    table = Table.objects.select_for_update().get(pk=table.pk)
    down = _due_down(table, at, lock=True)
    if down.pk != down_id:  # the schedule was written again meanwhile: sign in to the new push
        raise FloorConflict("no_push_due", f"The push at {table} changed: try again.")
    _check_handover(table, down, actor)
    for other in Table.objects.filter(dealer_id=down.dealer_id).exclude(pk=table.pk).order_by("pk"):
        table_assign_dealer(table=other, dealer_id=None, actor=actor)
    table_assign_dealer(table=table, dealer_id=down.dealer_id, actor=actor)
    down.signed_in_at = at
    down.save(update_fields=["signed_in_at"])
    rotation_extend(at=at)  # a push is a good moment to look ahead (the embedded mode has no beat)
    return down
