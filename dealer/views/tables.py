"""The dealer's start page: the tables they deal (directors: every table of the running
tournaments and every open cash table), each with the hand in progress and a big button to its
tablet."""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from common.roles import is_director
from dealer.models import Hand
from dealer.views.access import dealer_required
from tournaments.models import Entry, Table, Tournament

LIVE = (Tournament.Status.RUNNING, Tournament.Status.PAUSED)


@dealer_required
@require_GET
def table_list(request: HttpRequest) -> HttpResponse:
    tables = Table.objects.filter(is_broken=False).select_related("tournament", "dealer")
    if is_director(request.user):
        tables = tables.filter(Q(tournament__status__in=LIVE) | Q(tournament=None, is_open=True))
    else:
        tables = tables.filter(dealer_id=request.user.pk).exclude(
            tournament__status=Tournament.Status.FINISHED
        )
    tables = tables.annotate(
        players=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE), distinct=True)
        + Count("cash_seats", distinct=True)
    ).order_by("tournament__name", "number")
    in_progress = {
        h.table_id: h
        for h in Hand.objects.filter(table__in=tables, status=Hand.Status.IN_PROGRESS).defer(
            "engine_state"
        )
    }
    rows: list[dict[str, object]] = [
        {"table": t, "hand": in_progress.get(t.pk), "mine": t.dealer_id == request.user.pk}
        for t in tables
    ]
    return render(request, "dealer/tables.html", {"rows": rows})
