"""A table's count sheet (at a break, at the end of a day, after a colour-up): every seated
player with their latest count, where it came from and when, and a box for the new count.

Submitting records every count typed (blank: unchanged) in one transaction through
`table_record_counts`, the same service as the API's `POST /api/tables/{table}/counts/`; if any
row is refused (a player in a hand in progress, a count below one chip) each refused row says
why and nothing is written. The form carries a one-time token: sent twice, it records once.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from common.errors import FloorError
from config import request_time
from tournaments import selectors
from tournaments.forms import CountSheetForm
from tournaments.models import Table
from tournaments.services.counts import CountsRefusedError, table_record_counts
from tournaments.views.access import director_required, tournament_get
from tournaments.views.form_tokens import form_write, refused_on_form


@director_required
def count_sheet(request: HttpRequest, pk: int, table_pk: int) -> HttpResponse:
    tournament = tournament_get(pk)
    table = get_object_or_404(Table, pk=table_pk, tournament=tournament)
    entries = selectors.count_sheet(table)
    form = CountSheetForm(request.POST or None, entries=entries)
    if request.method == "POST" and form.is_valid():
        recorded = form_write(
            request,
            form,
            lambda: table_record_counts(
                table=table,
                counts=form.counts(),
                kind=form.cleaned_data["kind"],
                note=form.cleaned_data["note"],
                smallest_chip=form.cleaned_data["smallest_chip"],
                now=request_time.now(),
                actor=request.user,
            ),
            lambda recorded: f"Counts recorded at {table}: {_players(len(recorded))}.",
            once=True,
            attach=_counts_refusal,
        )
        if not refused_on_form(recorded):
            return redirect("table-list", pk=pk)
    context = {
        "tournament": tournament,
        "tab": "tables",
        "table": table,
        "form": form,
        "rows": [(entry, form[form.field_name(entry.pk)]) for entry in entries],
    }
    return render(request, "desk/count_sheet.html", context)


def _players(count: int) -> str:
    return f"{count} player{'s' if count != 1 else ''}"


def _counts_refusal(form: CountSheetForm, error: FloorError) -> None:
    """Each refused row says why next to its box; any other refusal goes at the top."""
    if not isinstance(error, CountsRefusedError):
        form.add_error(None, error.detail)
        return
    for entry_id, refusal in error.rows.items():
        field = form.field_name(entry_id)
        form.add_error(field if field in form.fields else None, refusal.detail)
