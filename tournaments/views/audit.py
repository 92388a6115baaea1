"""The audit log: the latest 200 director actions, when, who and what."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import selectors
from tournaments.views.access import director_required, tournament_get

LATEST = 200


@director_required
def audit_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_get(pk)
    events = [
        {
            "when": event.created_at,
            "who": event.actor.get_username() if event.actor else "system",
            "what": event.action.replace("_", " "),
            "detail": selectors.audit_detail(event.detail),
        }
        for event in selectors.audit_log(tournament, LATEST)
    ]
    context = {"tournament": tournament, "tab": "audit", "events": events, "latest": LATEST}
    return render(request, "desk/audit.html", context)
