"""The audit log: the latest 200 director actions, when, who and what (a settings change
with its old and new values, the entries concerned by their players' names)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import selectors
from tournaments.views.access import director_required, tournament_get

LATEST = 200


@director_required
def audit_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_get(pk)
    found = list(selectors.audit_log(tournament, LATEST))
    names = selectors.audit_entry_names(found)
    events = [
        {
            "when": event.created_at,
            "who": event.actor.get_username() if event.actor else "system",
            "what": event.action.replace("_", " "),
            "detail": selectors.audit_detail(event.detail, names),
        }
        for event in found
    ]
    context = {"tournament": tournament, "tab": "audit", "events": events, "latest": LATEST}
    return render(request, "desk/audit.html", context)
