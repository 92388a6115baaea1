"""Tables: the seat draw, printable seat cards, every table with its seats, and the balancing plan
with its "Confirm moves" button.

A player in a hand in progress moves when that hand ends (TDA: a player moves after the hand):
while such moves wait, the page lists them ("moves after this hand") instead of offering to
confirm again, and each table says which hand it is playing. Confirming carries a one-time
token: sent twice, the plan is carried out once."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from common.errors import FloorError
from tournaments import selectors
from tournaments.balancing import Plan
from tournaments.floor_forms import TableSearchForm
from tournaments.forms import SeatCardsForm, TableDealerForm, first_error
from tournaments.models import Entry, Table, Tournament
from tournaments.selectors.floor import table_search, tables_overview
from tournaments.services.tables import (
    pending_moves,
    table_assign_dealer,
    tournament_balance_plan,
    tournament_confirm_moves,
    tournament_draw_seats,
)
from tournaments.views.access import (
    director_required,
    safe_next,
    tournament_get,
)
from tournaments.views.form_tokens import page_read, page_write


@director_required
def tables_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Every table in play (seats, names, chips, the button) and what the floor must do now,
    with an overview of every table and a search: `?q=57` or `?q=jose` finds the table or the
    player, and when the answer is one table the page opens at it (`#table-57`)."""
    tournament = tournament_get(pk)
    search = TableSearchForm(request.GET)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    if query and search.cleaned_data["at"] is None:
        found = {match.table for match in table_search(tournament, query)}
        if len(found) == 1:
            number = found.pop()
            where = urlencode({"q": query, "at": number})
            return redirect(f"{reverse('table-list', args=[pk])}?{where}#table-{number}")
    plan, refusal = page_read(lambda: tournament_balance_plan(tournament))
    overview = tables_overview(tournament, halted=plan.halted_tables if plan else (), query=query)
    context = {
        "tournament": tournament,
        "tab": "tables",
        "overview": overview,
        "tables": overview.tables,
        "plan": plan,
        "plan_lines": _plan_lines(plan) if plan else [],
        "plan_refusal": refusal,
        "pending": pending_moves(tournament),
        "dealers": selectors.dealer_choices(),
    }
    return render(request, "desk/tables.html", context)


@director_required
@require_POST
def assign_dealer(request: HttpRequest, table_pk: int) -> HttpResponse:
    """Give a table (tournament or cash) its dealer; back to the page the form was on (else the
    table's own page)."""
    table = get_object_or_404(Table, pk=table_pk)
    form = TableDealerForm(request.POST)
    form.is_valid()
    if "dealer" in form.errors:
        messages.error(request, str(form.errors["dealer"][0]))
    else:
        dealer_id = form.cleaned_data["dealer"]
        page_write(
            request,
            lambda: table_assign_dealer(table=table, dealer_id=dealer_id, actor=request.user),
            f"{table}: dealer {'assigned' if dealer_id else 'removed'}.",
        )
    if table.tournament_id is not None:
        default = reverse("table-list", args=[table.tournament_id])
    else:
        default = reverse("cash-table", args=[table.pk])
    return HttpResponseRedirect(safe_next(request, form.cleaned_data.get("next"), default=default))


def _plan_lines(plan: Plan) -> list[dict[str, object]]:
    """The plan's lines for the floor (`describe()`: halts first, then broken tables, then the
    moves in order), with the name of the player each move concerns and the halts marked."""
    lines = list(plan.describe())
    names = dict(
        Entry.objects.filter(pk__in=[m.entry_id for m in plan.moves]).values_list(
            "pk", "player__name"
        )
    )
    halts = 0 if plan.redraw_final_table else len(plan.halted_tables)
    first_move = len(lines) - len(plan.moves)
    return [
        {
            "text": line,
            "halt": i < halts,
            "name": names.get(plan.moves[i - first_move].entry_id, "") if i >= first_move else "",
        }
        for i, line in enumerate(lines)
    ]


@director_required
@require_POST
def draw_seats(request: HttpRequest, pk: int) -> HttpResponse:
    page_write(
        request,
        lambda: tournament_draw_seats(tournament=tournament_get(pk), actor=request.user),
        lambda tables: f"Seats drawn at {len(tables)} tables. Print the seat cards.",
    )
    return redirect("table-list", pk=pk)


@director_required
@require_POST
def confirm_moves(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_get(pk)
    plan = page_write(
        request,
        lambda: tournament_confirm_moves(tournament=tournament, actor=request.user),
        None,  # said below: nothing to move is no success
        once=True,
    )
    if not isinstance(plan, FloorError):
        _report_confirmed(request, tournament, plan)
    return redirect("table-list", pk=pk)


def _report_confirmed(request: HttpRequest, tournament: Tournament, plan: Plan) -> None:
    waiting = len(pending_moves(tournament))
    if plan.redraw_final_table:
        messages.success(request, "Final table drawn: print the new seat cards.")
    elif plan.moves or plan.broken_tables:
        later = f"; {waiting} after the hand they are playing" if waiting else ""
        moves = len(plan.moves)
        said = f"{moves} move{'' if moves == 1 else 's'} confirmed{later}."
        messages.success(request, said)
    else:
        messages.info(request, "Nothing to move: the tables are balanced.")


@director_required
def seat_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """One card per seated player (name, table, seat in big type), ready to print; `?entry=`
    prints one player's card (a late entry)."""
    tournament = tournament_get(pk)
    form = SeatCardsForm(request.GET)
    if not form.is_valid():
        messages.error(request, first_error(form))
        context = {"tournament": tournament, "cards": []}
        return render(request, "desk/seat_cards.html", context, status=400)
    cards = selectors.seat_cards(tournament, form.cleaned_data["entry"])
    return render(request, "desk/seat_cards.html", {"tournament": tournament, "cards": cards})
