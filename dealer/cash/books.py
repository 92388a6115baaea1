"""The cash floor's books, proved from the ledger (issue 25; `manage.py check_chips`).

For every cash table and for the whole floor: the chips bought in (the opening balances,
buy-ins, top-ups), moved in and set right by corrections equal the chips at the seats plus the
chips cashed out, moved out, raked, dropped and taken in time; across the floor the chips moved
off a table and onto none yet are the stacks players of closed tables carry on the lists.
Every seat's chips equal the running total of its rows, every player who left took away exactly
what their rows held, every hand's rows (each end and each reversal) sum to zero, and nobody
sits at two tables of one game.

A read model: nothing here writes. Rows kept from before the ledger (`before_ledger`) are the
cage's history, not the books.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, Sum

from dealer.cash.models import CashChips, CashSeat, WaitingListEntry
from dealer.cash.takings.cage import cash_float
from tournaments.models import Table


def cash_chips_check() -> list[str]:
    """What does not add up on the cash floor (an empty list when the books balance)."""
    problems = _seat_problems() + _hand_problems() + _seated_twice()
    tables = Table.objects.filter(tournament__isnull=True).order_by("number")
    for table in tables:
        books = cash_float(table)
        if not books.balanced:
            problems.append(
                f"{table}: {books.at_tables} chips at the seats, the ledger says {books.expected} "
                f"(difference {books.difference:+d})"
            )
    problems += _carried_problems()
    floor = cash_float()
    if not floor.balanced:
        problems.append(
            f"The cash floor: {floor.at_tables} chips at the seats, the ledger says "
            f"{floor.expected} (difference {floor.difference:+d})"
        )
    return problems


def _seat_problems() -> list[str]:
    problems: list[str] = []
    running: dict[int, int] = defaultdict(int)
    for pk, sitting, delta, balance in (
        CashChips.objects.filter(before_ledger=False, sitting__isnull=False)
        .order_by("pk")
        .values_list("pk", "sitting", "delta", "balance")
        .iterator()
    ):
        if sitting is None or balance is None:  # not a seat's row (the filter above)
            continue
        running[sitting] += delta
        if running[sitting] != balance:
            problems.append(
                f"cash ledger row {pk} says seat {sitting} holds {balance}, its rows add up to "
                f"{running[sitting]}"
            )
            running[sitting] = balance  # report each break once
    seated = dict(CashSeat.objects.values_list("pk", "chips"))
    for pk, chips in seated.items():
        if chips != running.get(pk, 0):
            problems.append(f"cash seat {pk} has {chips} chips, its ledger {running.get(pk, 0)}")
    for sitting, left_with in sorted(running.items()):
        if sitting not in seated and left_with:
            problems.append(f"cash seat {sitting} was left with {left_with} chips on the ledger")
    return problems


def _carried_problems() -> list[str]:
    """The chips moved off tables and not yet onto another are exactly the stacks the players
    of closed tables carry on the lists."""
    moved = (
        CashChips.objects.filter(
            before_ledger=False, kind__in=(CashChips.Kind.MOVE_OUT, CashChips.Kind.MOVE_IN)
        ).aggregate(net=Sum("delta"))["net"]
        or 0
    )
    carried = (
        WaitingListEntry.objects.filter(status__in=("waiting", "called")).aggregate(
            total=Sum("carried_chips")
        )["total"]
        or 0
    )
    if -moved != carried:
        return [f"{-moved} chips are between tables on the ledger, the lists carry {carried}"]
    return []


def _hand_problems() -> list[str]:
    nets = (
        CashChips.objects.filter(before_ledger=False, hand__isnull=False)
        .order_by()
        .values("hand_id")
        .annotate(net=Sum("delta"))
        .values_list("hand_id", "net")
    )
    return [f"cash hand {hand_id} made {-net:+d} chips" for hand_id, net in nets if net]


def _seated_twice() -> list[str]:
    twice = (
        CashSeat.objects.filter(table__cash_game__isnull=False)
        .order_by()
        .values("player_id", "player__name", "table__cash_game__name")
        .annotate(seats=Count("pk"))
        .filter(seats__gt=1)
    )
    return [
        f"{row['player__name']} sits {row['seats']} times in {row['table__cash_game__name']}"
        for row in twice
    ]
