"""The rotation's reads: the plan in force, the tables dealers rotate through, the push due at a
table, and the desk's board (who deals where, who is next, who is on a break and until when);
and the Staff page's list of dealer and floor accounts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from common.actors import Actor
from common.errors import FloorConflict
from common.roles import DEALER_GROUP, is_director
from dealer.models import DealerPin
from tournaments.models import DealerDown, DealerShift, RotationPlan, Table, Tournament

# A dealer not signed in this long after the push is shown late on the board and the tablet.
LATE_AFTER = timedelta(minutes=5)
DEALING = (Tournament.Status.RUNNING, Tournament.Status.PAUSED)


def rotation_plan_get() -> RotationPlan:
    """The plan in force: the latest saved, else the model's defaults (not saved)."""
    return RotationPlan.objects.order_by("-created_at", "-pk").first() or RotationPlan()


def rotation_tables() -> list[Table]:
    """The tables dealers rotate through, in the order a dealer moves: the open cash tables by
    number, then the tables of running tournaments by tournament and number."""
    tables = Table.objects.select_related("tournament", "dealer")
    cash = tables.filter(tournament__isnull=True, is_open=True, is_broken=False)
    played = tables.filter(tournament__status__in=DEALING, is_broken=False)
    return [
        *cash.order_by("number", "pk"),
        *played.order_by("tournament_id", "number", "pk"),
    ]


def table_label(table: Table | None) -> str:
    if table is None:
        return "Break"
    if table.tournament_id is None:
        return f"Table {table.number}" + (f" ({table.name})" if table.name else "")
    return f"{table.tournament.name}, table {table.number}"  # type: ignore[union-attr]


def dealer_name(user: User | None) -> str:
    if user is None:
        return ""
    return str(user.get_full_name() or user.get_username())


def open_shifts() -> list[DealerShift]:
    """The dealers on shift, in the order they signed on (the order of the rotation)."""
    shifts = DealerShift.objects.filter(ends_at__isnull=True).select_related("dealer")
    return list(shifts.order_by("starts_at", "pk"))


def dealers_off_shift() -> list[User]:
    """Active dealers not on the shift list: those the floor may add."""
    users = get_user_model().objects.filter(is_active=True, groups__name=DEALER_GROUP)
    on = DealerShift.objects.filter(ends_at__isnull=True).values("dealer_id")
    return list(users.exclude(pk__in=on).order_by("username").distinct())


def down_now(table: Table, at: datetime) -> DealerDown | None:
    """The down of `table` in progress at `at` (the latest to have started)."""
    downs = DealerDown.objects.filter(table=table, starts_at__lte=at, ends_at__gt=at)
    return downs.select_related("dealer").order_by("-starts_at", "-pk").first()


@dataclass(frozen=True, slots=True, kw_only=True)
class PushDue:
    """A push the tablet shows: the incoming dealer to sign in, and whether they are late."""

    down_id: int
    dealer_id: int
    dealer: str
    starts_at: datetime
    late: bool


def push_due(table: Table, at: datetime) -> PushDue | None:
    """The incoming dealer the tablet asks to sign in, if a push is due and not signed yet."""
    down = down_now(table, at)
    if down is None or down.signed_in_at is not None or down.dealer_id == table.dealer_id:
        return None
    return PushDue(
        down_id=down.pk,
        dealer_id=down.dealer_id,
        dealer=dealer_name(down.dealer),
        starts_at=down.starts_at,
        late=at >= down.starts_at + LATE_AFTER,
    )


def push_refusal(table: Table, user: Actor, at: datetime) -> FloorConflict | None:
    """Why `user` may not start a hand at `table` now because of the rotation: after the push
    (the incoming dealer's down has begun, not signed in yet) the outgoing dealer hands the
    table over first. None for a director, and for the system (no user)."""
    if user is None or is_director(user):
        return None
    due = push_due(table, at)
    if due is None:
        return None
    return FloorConflict(
        "push_due",
        f"{due.dealer} deals this table from {timezone.localtime(due.starts_at):%H:%M}: "
        "hand the table over first.",
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRow:
    table_id: int
    table: str
    dealing: str  # Table.dealer: who may deal there now
    due: str  # the scheduled dealer of this down when not signed in yet
    late: bool
    next_dealer: str  # at the next push ("" when the table waits)


@dataclass(frozen=True, slots=True, kw_only=True)
class ShiftRow:
    dealer_id: int
    dealer: str
    since: datetime
    now: str  # the table of the current down, "Break", or "" (not scheduled)
    until: datetime | None  # the end of the current down or break


@dataclass(frozen=True, slots=True, kw_only=True)
class Board:
    plan: RotationPlan
    next_push_at: datetime | None
    tables: list[TableRow]
    breaks: list[ShiftRow]
    shift: list[ShiftRow]
    off_shift: list[tuple[int, str]]


def rotation_board(*, at: datetime) -> Board:
    """The desk's board at `at`: each table's dealer now and next, the next push, the breaks."""
    current = list(
        DealerDown.objects.filter(starts_at__lte=at, ends_at__gt=at)
        .select_related("dealer", "table__tournament")
        .order_by("starts_at", "pk")
    )
    by_dealer = {d.dealer_id: d for d in current}
    by_table = {d.table_id: d for d in current if d.table_id is not None}
    first = DealerDown.objects.filter(starts_at__gt=at).order_by("starts_at", "pk").first()
    next_at = first.starts_at if first else None
    following = {}
    if next_at is not None:
        pushed = DealerDown.objects.filter(starts_at=next_at, table__isnull=False)
        following = {d.table_id: d for d in pushed.select_related("dealer").order_by("pk")}
    tables = [_table_row(t, by_table.get(t.pk), following.get(t.pk), at) for t in rotation_tables()]
    shift = [_shift_row(s, by_dealer.get(s.dealer_id)) for s in open_shifts()]
    return Board(
        plan=rotation_plan_get(),
        next_push_at=next_at,
        tables=tables,
        breaks=[row for row in shift if row.now == "Break"],
        shift=shift,
        off_shift=[(u.pk, dealer_name(u)) for u in dealers_off_shift()],
    )


def _table_row(
    table: Table, down: DealerDown | None, after: DealerDown | None, at: datetime
) -> TableRow:
    due = down if down and down.signed_in_at is None and down.dealer_id != table.dealer_id else None
    return TableRow(
        table_id=table.pk,
        table=table_label(table),
        dealing=dealer_name(table.dealer),
        due=dealer_name(due.dealer) if due else "",
        late=bool(due and at >= due.starts_at + LATE_AFTER),
        next_dealer=dealer_name(after.dealer) if after else "",
    )


def _shift_row(shift: DealerShift, down: DealerDown | None) -> ShiftRow:
    return ShiftRow(
        dealer_id=shift.dealer_id,
        dealer=dealer_name(shift.dealer),
        since=shift.starts_at,
        now=table_label(down.table) if down else "",
        until=down.ends_at if down else None,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class StaffRow:
    """A dealer or floor account on the Staff page: never its PIN or password."""

    user_id: int
    username: str
    name: str
    role: str  # "dealer" or "floor" (a staff account: a director)
    is_active: bool
    has_pin: bool


def staff_list(*, user_id: int | None = None) -> list[StaffRow]:
    """The dealer and floor accounts, active first, then by username (one query); `user_id`:
    that account's row alone (none when it is neither)."""
    users = get_user_model().objects.filter(Q(is_staff=True) | Q(groups__name=DEALER_GROUP))
    if user_id is not None:
        users = users.filter(pk=user_id)
    users = (
        users.annotate(
            dealer=Exists(Group.objects.filter(user=OuterRef("pk"), name=DEALER_GROUP)),
            pin=Exists(DealerPin.objects.filter(user=OuterRef("pk"))),
        )
        .distinct()
        .order_by("-is_active", "username")
    )
    return [
        StaffRow(
            user_id=user.pk,
            username=user.get_username(),
            name=dealer_name(user),
            role="dealer" if user.dealer and not user.is_staff else "floor",
            is_active=user.is_active,
            has_pin=user.pin,
        )
        for user in users
    ]
