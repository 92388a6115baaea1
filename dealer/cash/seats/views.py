"""Cash tables: the floor's list (open a table), each table's seats page (seat a player, sit out,
back, top up, leave, the waiting list, the button draw) and the next hand's plan on the tablet.

Directors (staff) open tables and may change every table; the dealer assigned to a table may
change its seats too. Every change is one service call; a refusal is shown in the service's words.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from common.errors import FloorError
from dealer.cash.games import waitlist
from dealer.cash.seats import selectors as cash_selectors
from dealer.cash.seats import services as cash_services
from dealer.cash.seats.forms import (
    CashSeatActionForm,
    CashSeatCorrectForm,
    CashSeatForm,
    CashSeatMoveForm,
    CashTableForm,
    WaitlistForm,
)
from dealer.engine.rule_text import profile_words
from dealer.selectors import can_write
from dealer.views.access import dealer_required, require_write
from tournaments import selectors
from tournaments.models import Table
from tournaments.selectors.rules import rules_lines, rules_summary
from tournaments.views.access import director_required
from tournaments.views.form_tokens import form_write, page_read, page_write, refusal_on_top
from tournaments.views.rules import Page, rules_editor


def next_hand_context(table: Table) -> dict[str, object]:
    """The next hand's plan for the tablet (or why no hand can start), with its signature."""
    plan, refusal = page_read(lambda: cash_selectors.cash_next_hand(table))
    if plan is None:
        return {"cash_plan": None, "cash_plan_error": refusal, "cash": True}
    return {
        "cash": True,
        "cash_plan": plan,
        "cash_plan_signature": plan.signature,
        "straddle_amount": plan.straddle_amount,
    }


def _cash_table(pk: int) -> Table:
    """The cash table; a tournament's table is refused here (its tournament's pages run it)."""
    try:
        return cash_selectors.cash_table_get(pk)
    except FloorError as error:
        raise PermissionDenied(error.detail) from error


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
            table = form_write(
                request,
                form,
                lambda: cash_services.cash_table_create(actor=request.user, **form.values()),
                lambda table: f"{table} is open: seat the players.",
                attach=refusal_on_top,
            )
            if not isinstance(table, FloorError):
                return redirect("cash-table", pk=table.pk)
    tables = cash_selectors.cash_table_list()
    rows = [(t, *rules_summary(t.rule_profile, t.rule_overrides)) for t in tables]
    return render(request, "dealer/cash_tables.html", {"rows": rows, "form": form})


# --- one table's seats --------------------------------------------------------------------------


@dealer_required
def cash_table_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A table's seats page: its read model (`cash_selectors.cash_table_view`), and the forms of
    whoever may change it."""
    table = _cash_table(pk)
    view = cash_selectors.cash_table_view(table)
    context = {
        "table": view,
        "writable": can_write(request.user, table),
        "seat_form": CashSeatForm(
            initial={"buy_in": view.max_buy_in, "player_name": request.GET.get("name", "")}
        ),
        "dealers": selectors.dealer_choices() if request.user.is_staff else [],
        "cash": True,
        "cash_plan": view.next_hand,
        "cash_plan_error": view.next_hand_refusal.detail if view.next_hand_refusal else "",
        "rule_words": rules_lines(table),
        "rules_profile": profile_words(table.rule_profile).label,
        "house_rules": len(table.rule_overrides or {}),
    }
    return render(request, "dealer/cash_table.html", context)


def _writable(request: HttpRequest, pk: int) -> Table:
    """The cash table, if this user may change it (a director, or the table's dealer)."""
    table = _cash_table(pk)
    require_write(request, table)
    return table


def _carry_out(request: HttpRequest, pk: int, run: Callable[[], str]) -> HttpResponse:
    """Run one service call; its success sentence, or its refusal, shows on the seats page."""
    # A form sent twice changes nothing the second time.
    page_write(request, run, lambda done: done, once=True)
    return redirect("cash-table", pk=pk)


def _checked(request: HttpRequest, form: forms.Form) -> bool:
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
        taken = cash_services.cash_seat_take(table=table, actor=request.user, **form.cleaned_data)
        return f"{taken.player.name} sits in seat {taken.seat}."

    return _carry_out(request, pk, run)


@dealer_required
@require_POST
def cash_seat_change(request: HttpRequest, pk: int, seat_pk: int) -> HttpResponse:
    table = _writable(request, pk)
    seat = cash_selectors.cash_seat_get(table, seat_pk)
    form = CashSeatActionForm(request.POST)
    if not _checked(request, form):
        return redirect("cash-table", pk=pk)
    action, name, user = form.cleaned_data["action"], seat.player.name, request.user

    def run() -> str:
        if action == "sit_out":
            cash_services.cash_seat_sit_out(cash_seat=seat, actor=user)
            return f"{name} sits out."
        if action in ("back_post", "back_wait"):
            choice = "post" if action == "back_post" else "wait_bb"
            cash_services.cash_seat_return(cash_seat=seat, choice=choice, actor=user)
            return f"{name} is back."
        if action == "seat_change":
            waitlist.seat_change_ask(cash_seat=seat, actor=user)
            return f"{name} is on the seat-change list: offered the next seat that opens."
        if action == "seat_change_cancel":
            waitlist.seat_change_cancel(cash_seat=seat, actor=user)
            return f"{name} is off the seat-change list."
        if action == "top_up":
            amount = form.cleaned_data.get("amount") or 0
            done = cash_services.cash_seat_top_up(cash_seat=seat, amount=amount, actor=user)
            return f"{name} has {done.chips} now."
        left = cash_services.cash_seat_leave(cash_seat=seat, actor=user)
        if left.called is None:
            return f"{name} left with {left.chips}."
        caller = left.called.player.name
        return f"{name} left with {left.chips}. {caller} is called to seat {seat.seat}."

    return _carry_out(request, pk, run)


@dealer_required
@require_POST
def cash_seat_move(request: HttpRequest, pk: int, seat_pk: int) -> HttpResponse:
    """A table change or must-move with the whole stack (no buy-in check)."""
    table = _writable(request, pk)
    seat = cash_selectors.cash_seat_get(table, seat_pk)
    form = CashSeatMoveForm(request.POST)
    if not _checked(request, form):
        return redirect("cash-table", pk=pk)
    to_table, to_seat = form.target()

    def run() -> str:
        target = cash_selectors.cash_table_get(to_table)
        require_write(request, target)  # a move changes both tables
        moved = cash_services.cash_seat_move(
            cash_seat=seat, to_table=target, to_seat=to_seat, actor=request.user
        )
        return f"{seat.player.name} moved to {target}, seat {to_seat}, with {moved.chips}."

    return _carry_out(request, pk, run)


@dealer_required
@require_POST
def cash_seat_correct(request: HttpRequest, pk: int, seat_pk: int) -> HttpResponse:
    """The floor sets a stack to the chips on the table, with a reason (the ledger's
    correction: who and why)."""
    table = _writable(request, pk)
    seat = cash_selectors.cash_seat_get(table, seat_pk)
    form = CashSeatCorrectForm(request.POST)
    if not _checked(request, form):
        return redirect("cash-table", pk=pk)

    def run() -> str:
        done = cash_services.cash_seat_correct(
            cash_seat=seat,
            chips=form.cleaned_data["chips"],
            reason=form.cleaned_data["reason"],
            actor=request.user,
        )
        why = form.cleaned_data["reason"]
        return f"{seat.player.name} has {done.chips} now (corrected: {why})."

    return _carry_out(request, pk, run)


@dealer_required
@require_POST
def cash_button_draw(request: HttpRequest, pk: int) -> HttpResponse:
    table = _writable(request, pk)

    def run() -> str:
        draw = cash_services.cash_table_draw_button(
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
        entry = cash_services.cash_waitlist_add(table=table, player_name=name, actor=request.user)
        return f"{entry.player.name} is on the list."

    return _carry_out(request, pk, run)


@dealer_required
@require_POST
def cash_waitlist_remove(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    table = _writable(request, pk)
    entry = cash_selectors.cash_waitlist_entry_get(table, entry_pk)

    def run() -> str:
        cash_services.cash_waitlist_remove(entry=entry, actor=request.user)
        return f"{entry.player.name} is off the list."

    return _carry_out(request, pk, run)


@director_required
@require_http_methods(["GET", "POST"])
def cash_table_rules_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A cash table's rules (a tournament's table is refused: its tournament's page has them)."""
    table = _cash_table(pk)
    page = Page(
        template="desk/cash_rules.html",
        url=reverse("cash-table-rules", args=[pk]),
        context={"table": table},
    )
    return rules_editor(request, table, page)
