"""Cash tables: the floor's list (open a table), each table's seats page (seat a player, sit out,
back, top up, leave, the waiting list, the button draw) and the next hand's plan on the tablet.

Directors (staff) open tables and may change every table; the dealer assigned to a table may
change its seats too. Every change is one service call; a refusal is shown in the service's words.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from dealer import cash
from dealer.engine.cash import CashPlan
from dealer.forms import CashSeatActionForm, CashSeatForm, CashTableForm, WaitlistForm
from dealer.models import Hand
from dealer.services import can_write
from dealer.views.access import dealer_required, require_write, table_get
from tournaments import selectors
from tournaments.models import CashSeat, Table, WaitingListEntry
from tournaments.services.errors import FloorError
from tournaments.views.access import report_refusal


@dataclass(frozen=True, slots=True)
class PostView:
    seat: int
    name: str
    live: int
    dead: int
    why: str


@dataclass(frozen=True, slots=True)
class WaitView:
    seat: int
    name: str
    reason: str


def plan_view(plan: CashPlan, names: dict[int, str]) -> dict[str, Any]:
    """The plan as the tablet and the seats page show it: positions, posts, waits, straddle."""
    return {
        "button": plan.button,
        "small_blind": plan.positions.small_blind,
        "big_blind": plan.big_blind,
        "heads_up": plan.heads_up,
        "restart": plan.restart,
        "dealt": len(plan.dealt),
        "posts": [
            PostView(p.seat, names.get(p.seat, ""), p.live, p.dead, p.why)
            for p in plan.posts
            if p.live or p.dead
        ],
        "waiting": [WaitView(w.seat, names.get(w.seat, ""), w.reason) for w in plan.waiting],
        "straddle_seat": plan.straddle_seat,
        "straddle_name": names.get(plan.straddle_seat or 0, ""),
    }


def next_hand_context(table: Table) -> dict[str, Any]:
    """The next hand's plan for the tablet (or why no hand can start), with its signature."""
    seats = cash.engine_seats(table)
    names = {seat.seat: seat.name for seat in seats}
    try:
        plan = cash.cash_table_plan(table, seats)
    except FloorError as error:
        return {"cash_plan": None, "cash_plan_error": error.detail, "cash": True}
    return {
        "cash": True,
        "cash_plan": plan_view(plan, names),
        "cash_plan_signature": cash.plan_signature(plan),
        "straddle_amount": cash.cash_stakes(table).straddle_amount,
    }


def _cash_table(pk: int) -> Table:
    table = table_get(pk)
    if not table.is_cash:
        raise PermissionDenied(f"{table} is a tournament table: see its tournament.")
    return table


# --- the floor's list ---------------------------------------------------------------------------


@dealer_required
@require_http_methods(["GET", "POST"])
def cash_table_list(request: HttpRequest) -> HttpResponse:
    """Every open cash table with its game and players; directors open new ones here."""
    form = CashTableForm(request.POST or None, initial={"seat_count": 9})
    if request.method == "POST":
        if not request.user.is_staff:
            raise PermissionDenied("Only the floor opens cash tables.")
        if form.is_valid():
            try:
                table = cash.cash_table_create(actor=request.user, **form.values())
            except FloorError as error:
                form.add_error(None, error.detail)
            else:
                messages.success(request, f"{table} is open: seat the players.")
                return redirect("cash-table", pk=table.pk)
    tables = (
        Table.objects.filter(tournament=None)
        .select_related("dealer")
        .annotate(
            players=Count("cash_seats", distinct=True),
            waiting=Count(
                "waiting_list",
                filter=Q(waiting_list__status=WaitingListEntry.Status.WAITING),
                distinct=True,
            ),
        )
        .order_by("number")
    )
    return render(request, "dealer/cash_tables.html", {"tables": tables, "form": form})


# --- one table's seats --------------------------------------------------------------------------


@dealer_required
def cash_table_page(request: HttpRequest, pk: int) -> HttpResponse:
    table = _cash_table(pk)
    rules, stakes = cash.cash_table_rules(table), cash.cash_stakes(table)
    rows = list(CashSeat.objects.filter(table=table).select_related("player").order_by("seat"))
    seats = []
    by_seat = {row.seat: row for row in rows}
    for number in range(1, table.seat_count + 1):
        row = by_seat.get(number)
        state, owed = cash.cash_seat_status(rules, stakes, row) if row else ("Open", "")
        seats.append({"seat": number, "row": row, "state": state, "owed": owed})
    hand = (
        Hand.objects.filter(table=table, status=Hand.Status.IN_PROGRESS)
        .defer("engine_state")
        .first()
    )
    context = {
        "table": table,
        "rules": rules,
        "stakes": stakes,
        "seats": seats,
        "open_seats": [s["seat"] for s in seats if s["row"] is None],
        "hand": hand,
        "writable": can_write(request.user, table),
        "waiting": WaitingListEntry.objects.filter(
            table=table, status=WaitingListEntry.Status.WAITING
        ).select_related("player"),
        "seat_form": CashSeatForm(
            initial={"buy_in": table.max_buy_in, "player_name": request.GET.get("name", "")}
        ),
        "first_hand": not Hand.objects.filter(table=table).exists(),
        "dealers": selectors.dealer_choices() if request.user.is_staff else [],
        **next_hand_context(table),
    }
    return render(request, "dealer/cash_table.html", context)


def _writable(request: HttpRequest, pk: int) -> Table:
    """The cash table, if this user may change it (a director, or the table's dealer)."""
    table = _cash_table(pk)
    require_write(request, table)
    return table


def _carry_out(request: HttpRequest, pk: int, run: Callable[[], str]) -> HttpResponse:
    """Run one service call; its success sentence, or its refusal, shows on the seats page."""
    try:
        done = run()
    except FloorError as error:
        report_refusal(request, error)
    else:
        messages.success(request, done)
    return redirect("cash-table", pk=pk)


def _checked(request: HttpRequest, form: Any) -> bool:
    """Whether the form is valid; if not, its first error shows on the seats page."""
    if form.is_valid():
        return True
    errors = next(iter(form.errors.values()))
    messages.error(request, str(errors[0]))
    return False


@dealer_required
@require_POST
def cash_seat_take(request: HttpRequest, pk: int) -> HttpResponse:
    table = _writable(request, pk)
    form = CashSeatForm(request.POST)
    if not _checked(request, form):
        return redirect("cash-table", pk=pk)

    def run() -> str:
        taken = cash.cash_seat_take(table=table, actor=request.user, **form.cleaned_data)
        return f"{taken.player.name} sits in seat {taken.seat}."

    return _carry_out(request, pk, run)


@dealer_required
@require_POST
def cash_seat_change(request: HttpRequest, pk: int, seat_pk: int) -> HttpResponse:
    table = _writable(request, pk)
    seat = get_object_or_404(
        CashSeat.objects.select_related("player", "table"), pk=seat_pk, table=table
    )
    form = CashSeatActionForm(request.POST)
    if not _checked(request, form):
        return redirect("cash-table", pk=pk)
    action, name, user = form.cleaned_data["action"], seat.player.name, request.user

    def run() -> str:
        if action == "sit_out":
            cash.cash_seat_sit_out(cash_seat=seat, actor=user)
            return f"{name} sits out."
        if action in ("back_post", "back_wait"):
            choice = "post" if action == "back_post" else "wait_bb"
            cash.cash_seat_return(cash_seat=seat, choice=choice, actor=user)
            return f"{name} is back."
        if action == "top_up":
            amount = form.cleaned_data.get("amount") or 0
            done = cash.cash_seat_top_up(cash_seat=seat, amount=amount, actor=user)
            return f"{name} has {done.chips} now."
        chips = cash.cash_seat_leave(cash_seat=seat, actor=user)
        return f"{name} left with {chips}."

    return _carry_out(request, pk, run)


@dealer_required
@require_POST
def cash_button_draw(request: HttpRequest, pk: int) -> HttpResponse:
    table = _writable(request, pk)

    def run() -> str:
        draw = cash.cash_table_draw_button(
            table=table, rng=random.SystemRandom(), actor=request.user
        )
        return f"Button draw {draw.cards}: the button goes to seat {draw.winner_seat}."

    return _carry_out(request, pk, run)


@dealer_required
@require_POST
def cash_waitlist_add(request: HttpRequest, pk: int) -> HttpResponse:
    table = _writable(request, pk)
    form = WaitlistForm(request.POST)
    if not _checked(request, form):
        return redirect("cash-table", pk=pk)

    def run() -> str:
        name = form.cleaned_data["player_name"]
        entry = cash.cash_waitlist_add(table=table, player_name=name, actor=request.user)
        return f"{entry.player.name} is on the list."

    return _carry_out(request, pk, run)


@dealer_required
@require_POST
def cash_waitlist_remove(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    table = _writable(request, pk)
    entry = get_object_or_404(
        WaitingListEntry.objects.select_related("player", "table"), pk=entry_pk, table=table
    )

    def run() -> str:
        cash.cash_waitlist_remove(entry=entry, actor=request.user)
        return f"{entry.player.name} is off the list."

    return _carry_out(request, pk, run)
