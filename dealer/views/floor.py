"""The floor's view of the dealer-error procedures: per table and per dealer, with export."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from dealer.models import ProcedureLog
from tournaments.models import Table, Tournament
from tournaments.views.access import director_required

LIMIT = 200


def _number(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


@director_required
def procedure_log(request: HttpRequest, pk: int) -> HttpResponse:
    """Every procedure of a tournament, newest first, filtered by table and dealer."""
    tournament = get_object_or_404(Tournament, pk=pk)
    logs = (
        ProcedureLog.objects.filter(table__tournament=tournament)
        .select_related("table", "hand", "dealer")
        .order_by("-pk")
    )
    filters: dict[str, int] = {"tournament": tournament.pk}
    table_number = _number(request.GET.get("table"))
    if table_number is not None:
        table = Table.objects.filter(tournament=tournament, number=table_number).first()
        logs = logs.filter(table=table)
        if table is not None:
            filters["table"] = table.pk
    dealer_id = _number(request.GET.get("dealer"))
    if dealer_id is not None:
        logs = logs.filter(dealer_id=dealer_id)
        filters["dealer"] = dealer_id
    dealers = get_user_model().objects.filter(
        pk__in=ProcedureLog.objects.filter(table__tournament=tournament).values("dealer")
    )
    context = {
        "tournament": tournament,
        "tab": "procedures",
        "rows": [(log, log.effect.replace("_", " ").capitalize()) for log in logs[:LIMIT]],
        "tables": tournament.tables.order_by("number"),
        "dealers": dealers.order_by("username"),
        "table_number": table_number,
        "dealer_id": dealer_id,
        "csv_url": f"{reverse('api-procedures-csv')}?{urlencode(filters)}",
    }
    return render(request, "dealer/procedure_log.html", context)
