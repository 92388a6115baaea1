"""The cage's report (issue 15, "recorded per hand and summed per table, dealer and day for the
cage"): the rake and drop of finished cash hands and the time collected, between two days, with a
check that every hand reconciles (what the players started with = what they finished with + the
house's take, and the ledger says the same); the chips bought in and cashed out over the same
days; and the float: every chip that came in over the rail is at a seat now, or went out again,
in the rake, the drop or in time, or was set right by a recorded correction.

Everything is read from the one chip ledger (`CashChips`, written by `dealer.cash.ledger`), the
same rows `check_chips` proves. A read model: nothing here writes. Days are the room's local
days.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import F, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from common.errors import FloorInvalid
from dealer.cash.models import CashChips, CashSeat
from dealer.models import Hand
from tournaments.models import Table

Kind = CashChips.Kind


@dataclass(slots=True, kw_only=True)
class CageLine:
    """One table, dealer or day: its hands, rake and time, in chips."""

    key: str
    label: str
    hands: int = 0
    rake: int = 0
    time: int = 0
    drop: int = 0

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
    """Every chip of the ledger's books: what came in over the rail (the opening balances,
    buy-ins, top-ups) and the floor's corrections, less what went out (cash-outs), the rake, the
    drop and the time, against the chips at the seats now. `difference` is 0 when they agree.
    Moves between tables cancel out across the floor."""

    came_in: int
    went_out: int
    rake: int
    time: int
    at_tables: int
    drop: int = 0
    corrections: int = 0
    # Chips on their way between tables: moved off a table, not yet onto another (a player of a
    # closed table waiting on a list with their stack); for one table, its net move out.
    between_tables: int = 0

    @property
    def expected(self) -> int:
        return (
            self.came_in
            + self.corrections
            - self.went_out
            - self.between_tables
            - self.rake
            - self.drop
            - self.time
        )

    @property
    def difference(self) -> int:
        return self.at_tables - self.expected

    @property
    def gap(self) -> int:
        return abs(self.difference)

    @property
    def balanced(self) -> bool:
        return self.difference == 0


# The ledger's kinds, as the books group them.
CAME_IN = (Kind.OPENING, Kind.BUY_IN, Kind.TOP_UP)
RAKE = (Kind.RAKE, Kind.RAKE_REVERSED)
DROP = (Kind.DROP, Kind.DROP_REVERSED)
BOOKS = Q(before_ledger=False)


def _sums(rows: QuerySet[CashChips]) -> dict[str, int]:
    """The ledger's `rows` summed by kind (deltas as written)."""
    return dict(rows.values("kind").annotate(total=Sum("delta")).values_list("kind", "total"))


def cash_float(table: Table | None = None) -> CashFloat:
    """The float now, for the whole floor or one table (a hand in progress changes no seat
    until it ends, so it counts as not begun). Rows kept from before the ledger are history, not
    books."""
    rows = CashChips.objects.filter(BOOKS)
    seats = CashSeat.objects.all()
    if table is not None:
        rows, seats = rows.filter(table=table), seats.filter(table=table)
    sums = _sums(rows.order_by())
    moved = sums.get(Kind.MOVE_IN, 0) + sums.get(Kind.MOVE_OUT, 0)
    return CashFloat(
        came_in=sum(sums.get(kind, 0) for kind in CAME_IN),
        went_out=-sums.get(Kind.CASH_OUT, 0),
        between_tables=-moved,
        rake=sum(sums.get(kind, 0) for kind in RAKE),
        drop=sum(sums.get(kind, 0) for kind in DROP),
        time=-sums.get(Kind.TIME, 0),
        corrections=sums.get(Kind.CORRECTION, 0),
        at_tables=seats.aggregate(total=Coalesce(Sum("chips"), 0))["total"],
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
    drop: int = 0
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


def parse_day(value: object, name: str) -> dt.date | None:
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
    """Rake, drop and time per table, per dealer and per day from `start` to `end` (both
    included, one day when `end` is left out), read from the ledger, and the hands whose chips
    do not reconcile."""
    end = end or start
    first, after = _bounds(start, end)
    tables: dict[str, CageLine] = {}
    dealers: dict[str, CageLine] = {}
    days: dict[str, CageLine] = {}
    hands = list(
        Hand.objects.filter(
            table__tournament__isnull=True,
            status=Hand.Status.COMPLETE,
            ended_at__gte=first,
            ended_at__lt=after,
        )
        .order_by("ended_at", "pk")
        .values("pk", "number", "dealt_by_id", "ended_at", "seats", "table__number")
        .annotate(finishing=F("state__finishing_stacks"))
    )
    in_days = CashChips.objects.filter(created_at__gte=first, created_at__lt=after)
    takes = list(
        in_days.filter(kind__in=(*RAKE, *DROP, Kind.TIME))
        .order_by("created_at", "pk")
        .values("kind", "delta", "created_at", "table__number")
        .annotate(dealer=Coalesce("hand__dealt_by_id", "time_charge__dealer_id"))
    )
    ids = {row["dealt_by_id"] for row in hands} | {row["dealer"] for row in takes}
    users = get_user_model().objects.filter(pk__in=ids - {None}).order_by("pk")
    names = {user.pk: user.get_username() for user in users}
    for row in hands:
        for line in _lines_of(
            row["table__number"], row["dealt_by_id"], row["ended_at"], tables, dealers, days, names
        ):
            line.hands += 1
    for take in takes:
        lines = _lines_of(
            take["table__number"], take["dealer"], take["created_at"], tables, dealers, days, names
        )
        for line in lines:
            if take["kind"] in RAKE:
                line.rake += take["delta"]
            elif take["kind"] in DROP:
                line.drop += take["delta"]
            else:
                line.time -= take["delta"]
    rail = _sums(in_days.filter(kind__in=(Kind.BUY_IN, Kind.TOP_UP, Kind.CASH_OUT)).order_by())
    return CageReport(
        start=start,
        end=end,
        bought_in=rail.get(Kind.BUY_IN, 0) + rail.get(Kind.TOP_UP, 0),
        cashed_out=-rail.get(Kind.CASH_OUT, 0),
        float_now=cash_float(),
        tables=sorted(tables.values(), key=lambda line: int(line.key)),
        dealers=sorted(dealers.values(), key=lambda line: line.label.lower()),
        days=sorted(days.values(), key=lambda line: line.key),
        hands=len(hands),
        rake=sum(line.rake for line in tables.values()),
        drop=sum(line.drop for line in tables.values()),
        time=sum(line.time for line in tables.values()),
        mismatches=_mismatches(hands),
    )


def _mismatches(hands: list[dict[str, Any]]) -> list[Mismatch]:
    """The hands whose chips do not add up: by the engine's record (started = finished + what
    the house took), or in the ledger (the seats' rows and the house's rows of a hand sum to 0,
    and the house took what the engine says)."""
    ids = [row["pk"] for row in hands]
    booked: dict[int, list[int]] = {}
    for hand_id, sitting, delta in CashChips.objects.filter(hand_id__in=ids).values_list(
        "hand_id", "sitting", "delta"
    ):
        sums = booked.setdefault(hand_id, [0, 0])
        sums[0 if sitting is not None else 1] += delta
    found = []
    for row in hands:
        started = sum(seat["stack"] for seat in row["seats"])
        finishing = row["finishing"]
        finished = sum(finishing.values()) if isinstance(finishing, dict) else 0
        seats, house = booked.get(row["pk"], [0, 0])
        if started == finished + house and seats + house == 0:
            continue
        found.append(
            Mismatch(
                hand=row["pk"],
                table=row["table__number"],
                number=row["number"],
                started=started,
                finished=finished,
                rake=house,
            )
        )
    return found


def _lines_of(
    number: int,
    dealer: int | None,
    moment: dt.datetime,
    tables: dict[str, CageLine],
    dealers: dict[str, CageLine],
    days: dict[str, CageLine],
    names: dict[int, str],
) -> tuple[CageLine, CageLine, CageLine]:
    day = timezone.localtime(moment).date()
    return (
        _line(tables, str(number), f"Table {number}"),
        _line(dealers, str(dealer or 0), names.get(dealer or 0, "No dealer recorded")),
        _line(days, day.isoformat(), f"{day:%a %d %b %Y}"),
    )
