"""The floor's view of the dealer-error procedures: per table and per dealer, with export.

The rows come from `dealer.selectors.procedure_log`, as for the API's log and its CSV export,
so the page, the JSON and the CSV show the same procedures for the same filters.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from dealer.forms import ProcedureLogFilterForm
from dealer.selectors import procedure_log as procedure_log_rows
from dealer.selectors import procedure_log_dealers
from tournaments.forms import first_error
from tournaments.models import Tournament
from tournaments.views.access import director_required

LIMIT = 200


def _effect_label(effect: str) -> str:
    return effect.replace("_", " ").capitalize()


@director_required
def procedure_log(request: HttpRequest, pk: int) -> HttpResponse:
    """Every procedure of a tournament, newest first, filtered by table (number) and dealer."""
    tournament = get_object_or_404(Tournament, pk=pk)
    tables = list(tournament.tables.order_by("number"))
    filters: dict[str, int] = {"tournament": tournament.pk}
    form = ProcedureLogFilterForm(request.GET)
    refused = not form.is_valid()
    if refused:
        messages.error(request, first_error(form))
    table_number = form.cleaned_data.get("table")
    table = next((t for t in tables if t.number == table_number), None)
    if table is not None:
        filters["table"] = table.pk
    dealer_id = form.cleaned_data.get("dealer")
    if dealer_id is not None:
        filters["dealer"] = dealer_id
    # A table number that is not the tournament's matches no procedure (and has no export).
    unknown_table = table_number is not None and table is None
    rows = [] if unknown_table else procedure_log_rows(**filters, limit=LIMIT)
    csv_url = None if unknown_table else f"{reverse('api-procedures-csv')}?{urlencode(filters)}"
    context = {
        "tournament": tournament,
        "tab": "procedures",
        "rows": [(row, _effect_label(row.effect)) for row in rows],
        "tables": tables,
        "dealers": procedure_log_dealers(tournament=tournament.pk),
        "table_number": table_number,
        "dealer_id": dealer_id,
        "csv_url": csv_url,
    }
    return render(request, "dealer/procedure_log.html", context, status=400 if refused else 200)
