"""Rake and time on the pages (issue 15): the seats page's "Time" button for each seat, and the
cage's report on the desk. One service or selector call each, shared with the API
(`dealer.cash.takings.api`)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from common.errors import FloorError, FloorInvalid
from common.limits import MAX_INT
from dealer.cash.models import TimeCharge
from dealer.cash.seats.selectors import cash_seat_get, cash_table_get
from dealer.cash.takings.cage import cage_report, parse_day
from dealer.cash.takings.services import TableTime, time_charge_collect, time_collect_table
from dealer.views.access import dealer_required, require_write
from tournaments.views.access import director_required
from tournaments.views.form_tokens import page_read, page_write, submit_once


@dealer_required
@require_POST
def cash_seat_time(request: HttpRequest, pk: int, seat_pk: int) -> HttpResponse:
    """Collect the half hour's time from one seat; the answer shows on the seats page."""
    table = cash_table_get(pk)
    require_write(request, table)

    def collect() -> TimeCharge:
        # The seat and the amount are read before the form's token, as a bad one is refused
        # for itself even in a form sent twice.
        seat = cash_seat_get(table, seat_pk)
        amount = _amount(request.POST.get("amount", ""))
        return submit_once(
            request, lambda: time_charge_collect(cash_seat=seat, amount=amount, actor=request.user)
        )

    page_write(request, collect, _charged)
    return redirect("cash-table", pk=pk)


def _charged(charge: TimeCharge) -> str:
    when = timezone.localtime(charge.period_start)
    return f"Seat {charge.seat} paid {charge.amount} of time for {when:%H:%M}."


@dealer_required
@require_POST
def cash_table_time(request: HttpRequest, pk: int) -> HttpResponse:
    """Collect the half hour's time from every seat in one step; who was passed over and why
    shows on the seats page."""
    table = cash_table_get(pk)
    require_write(request, table)
    amount = 0

    def collect() -> TableTime:
        nonlocal amount
        amount = _amount(request.POST.get("amount", ""))  # before the token, as for one seat
        return submit_once(
            request, lambda: time_collect_table(table=table, amount=amount, actor=request.user)
        )

    def paid(done: TableTime) -> str:
        seats = ", ".join(str(charge.seat) for charge in done.charged) or "nobody"
        return f"Time of {amount} paid by seat{'s' if len(done.charged) != 1 else ''} {seats}."

    done = page_write(request, collect, paid)
    if not isinstance(done, FloorError):
        for seat, why in done.passed:
            messages.warning(request, f"Seat {seat} passed over: {why}")
    return redirect("cash-table", pk=pk)


def _amount(text: str) -> int:
    """Whole chips typed in ASCII digits ("²" is a digit to Python, not a number of chips),
    within what a chip count can hold."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 10 or int(text) > MAX_INT:
        raise FloorInvalid("bad_amount", "Enter the time charge in whole chips.")
    return int(text)


@director_required
@require_GET
def cage_page(request: HttpRequest) -> HttpResponse:
    """The cage's report for one day (today unless `?day=` says which)."""
    day, refusal = page_read(lambda: parse_day(request.GET.get("day"), "day"))
    if refusal:
        messages.error(request, refusal)
    day = day or timezone.localdate()
    report = cage_report(start=day)
    return render(request, "cash/cage.html", {"report": report, "day": day})
