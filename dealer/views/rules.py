"""The tablet's "Table rules" sheet: the rules the table plays in words, for the dealer. While a
hand is in progress they are the hand's own (it keeps the rules it started with); between hands,
the next hand's. Read through `tournaments.selectors.rules.table_rules_sheet`; this module only
renders.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from dealer.engine.errors import DomainError
from dealer.views.access import dealer_required, table_get
from dealer.views.tablet import tried
from tournaments.selectors.rules import table_rules_sheet


@dealer_required
@require_GET
def rules_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    table = table_get(pk)
    # Rules stored by hand (the admin) that the engine refuses: the sheet says why instead.
    sheet = tried(lambda: table_rules_sheet(table))
    if isinstance(sheet, DomainError):
        context = {"table": table, "sheet": None, "refusal": sheet.detail}
        return render(request, "dealer/_rules_sheet.html", context)
    return render(request, "dealer/_rules_sheet.html", {"table": table, "sheet": sheet})
