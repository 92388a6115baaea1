"""The cage's report (issue 15, "recorded per hand and summed per table, dealer and day for the
cage"): the rake of finished cash hands and the time collected, between two days, with a check
that every hand reconciles (what the players started with = what they finished with + the rake);
the chips bought in and cashed out over the same days; and the float, over everything recorded:
every chip that crossed the rail in is at a seat now, or went out again, in the rake or in time.

A read model: nothing here writes. Days are the room's local days.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import F, Min, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from dealer.models import Hand
from tournaments.errors import FloorInvalid
from tournaments.models import CashMovement, CashSeat, TimeCharge


@dataclass(slots=True, kw_only=True)
class CageLine:
    """One table, dealer or day: its hands, rake and time, in chips."""

    key: str
    label: str
    hands: int = 0
    rake: int = 0
    time: int = 0

    @property
    def total(self) -> int:
        return self.rake + self.time


@dataclass(frozen=True, slots=True, kw_only=True)
class Mismatch:
    """A hand whose chips do not add up: the cage looks at it before counting the drop box."""

    hand: int
    table: int
    number: int
    started: int
    finished: int
    rake: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CashFloat:
    """Every chip since the record began (`CashMovement`): what came in over the rail (the
    opening, buy-ins, top-ups) less what went out (cash-outs), the rake and the time, against
    the chips at the seats now. `difference` is 0 when they agree."""

    came_in: int
    went_out: int
    rake: int
    time: int
    at_tables: int

    @property
    def expected(self) -> int:
        return self.came_in - self.went_out - self.rake - self.time

    @property
    def difference(self) -> int:
        return self.at_tables - self.expected

    @property
    def gap(self) -> int:
        return abs(self.difference)

    @property
    def balanced(self) -> bool:
        return self.difference == 0


def cash_float() -> CashFloat:
    """The float now (a hand in progress changes no seat until it ends, so it counts as not
    begun). Rake and time count from the record's first movement."""
    out = Q(kind=CashMovement.Kind.CASH_OUT)
    rail = CashMovement.objects.aggregate(
        first=Min("at"),
        came_in=Coalesce(Sum("amount", filter=~out), 0),
        went_out=Coalesce(Sum("amount", filter=out), 0),
    )
    first = rail["first"]
    if first is None:
        return CashFloat(came_in=0, went_out=0, rake=0, time=0, at_tables=0)
    hands = Hand.objects.filter(
        table__tournament__isnull=True, status=Hand.Status.COMPLETE, ended_at__gte=first
    )
    charges = TimeCharge.objects.filter(created_at__gte=first)
    return CashFloat(
        came_in=rail["came_in"],
        went_out=rail["went_out"],
        rake=hands.aggregate(total=Coalesce(Sum("rake"), 0))["total"],
        time=charges.aggregate(total=Coalesce(Sum("amount"), 0))["total"],
        at_tables=CashSeat.objects.aggregate(total=Coalesce(Sum("chips"), 0))["total"],
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class CageReport:
    start: dt.date
    end: dt.date
    tables: list[CageLine]
    dealers: list[CageLine]
    days: list[CageLine]
    hands: int
    rake: int
    time: int
    bought_in: int = 0
    cashed_out: int = 0
    float_now: CashFloat | None = None
    mismatches: list[Mismatch] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.rake + self.time

    @property
    def reconciled(self) -> bool:
        return not self.mismatches


def parse_day(value: Any, name: str) -> dt.date | None:
    """A `YYYY-MM-DD` day from a query string; None when not given (400 `bad_date` if bad)."""
    if value in (None, ""):
        return None
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError as error:
        raise FloorInvalid("bad_date", f"{name} must be a day written YYYY-MM-DD.") from error


def _bounds(start: dt.date, end: dt.date) -> tuple[dt.datetime, dt.datetime]:
    zone = timezone.get_current_timezone()
    first = dt.datetime.combine(start, dt.time.min, tzinfo=zone)
    after = dt.datetime.combine(end + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
    return first, after


def _line(lines: dict[str, CageLine], key: str, label: str) -> CageLine:
    if key not in lines:
        lines[key] = CageLine(key=key, label=label)
    return lines[key]


def cage_report(*, start: dt.date, end: dt.date | None = None) -> CageReport:
    """Rake and time per table, per dealer and per day from `start` to `end` (both included,
    one day when `end` is left out), and the hands whose chips do not reconcile."""
    end = end or start
    first, after = _bounds(start, end)
    tables: dict[str, CageLine] = {}
    dealers: dict[str, CageLine] = {}
    days: dict[str, CageLine] = {}
    mismatches: list[Mismatch] = []
    hands = (
        Hand.objects.filter(
            table__tournament__isnull=True,
            status=Hand.Status.COMPLETE,
            ended_at__gte=first,
            ended_at__lt=after,
        )
        .order_by("ended_at", "pk")
        .values("pk", "number", "rake", "dealt_by_id", "ended_at", "seats", "table__number")
        .annotate(finishing=F("state__finishing_stacks"))
    )
    charges = TimeCharge.objects.filter(created_at__gte=first, created_at__lt=after).values(
        "amount", "dealer_id", "created_at", table_number=F("table__number")
    )
    rows, charged = list(hands), list(charges.order_by("created_at", "pk"))
    ids = {row["dealt_by_id"] for row in rows} | {charge["dealer_id"] for charge in charged}
    users = get_user_model().objects.filter(pk__in=ids - {None}).order_by("pk")
    names = {user.pk: user.get_username() for user in users}
    count = 0
    for row in rows:
        count += 1
        for line in _lines_of(row, row["ended_at"], tables, dealers, days, names):
            line.hands += 1
            line.rake += row["rake"]
        mismatch = _mismatch(row)
        if mismatch is not None:
            mismatches.append(mismatch)
    for charge in charged:
        row = {"table__number": charge["table_number"], "dealt_by_id": charge["dealer_id"]}
        for line in _lines_of(row, charge["created_at"], tables, dealers, days, names):
            line.time += charge["amount"]
    rail = (
        CashMovement.objects.filter(at__gte=first, at__lt=after, moved=False)
        .exclude(kind=CashMovement.Kind.OPENING)
        .values_list("kind", "amount")
    )
    bought_in = sum(amount for kind, amount in rail if kind != CashMovement.Kind.CASH_OUT)
    cashed_out = sum(amount for kind, amount in rail if kind == CashMovement.Kind.CASH_OUT)
    return CageReport(
        start=start,
        end=end,
        bought_in=bought_in,
        cashed_out=cashed_out,
        float_now=cash_float(),
        tables=sorted(tables.values(), key=lambda line: int(line.key)),
        dealers=sorted(dealers.values(), key=lambda line: line.label.lower()),
        days=sorted(days.values(), key=lambda line: line.key),
        hands=count,
        rake=sum(line.rake for line in tables.values()),
        time=sum(line.time for line in tables.values()),
        mismatches=mismatches,
    )


def _lines_of(
    row: dict[str, Any],
    moment: dt.datetime,
    tables: dict[str, CageLine],
    dealers: dict[str, CageLine],
    days: dict[str, CageLine],
    names: dict[int, str],
) -> tuple[CageLine, CageLine, CageLine]:
    number = row["table__number"]
    dealer = row["dealt_by_id"]
    day = timezone.localtime(moment).date()
    return (
        _line(tables, str(number), f"Table {number}"),
        _line(dealers, str(dealer or 0), names.get(dealer, "No dealer recorded")),
        _line(days, day.isoformat(), f"{day:%a %d %b %Y}"),
    )


def _mismatch(row: dict[str, Any]) -> Mismatch | None:
    started = sum(seat["stack"] for seat in row["seats"])
    finishing = row["finishing"]
    finished = sum(finishing.values()) if isinstance(finishing, dict) else 0
    if started == finished + row["rake"]:
        return None
    return Mismatch(
        hand=row["pk"],
        table=row["table__number"],
        number=row["number"],
        started=started,
        finished=finished,
        rake=row["rake"],
    )
