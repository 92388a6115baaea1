"""Public pages (no login; names are the only personal data shown): standings with seat lookup
and payouts, and the big-screen clock.

Phones poll small endpoints with an ETag computed from the content, and get "304 Not Modified"
while nothing has changed, so thousands of them cost little.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import quote_etag

from tournaments.models import Tournament
from tournaments.selectors import seat_lookup, tournament_payouts, tournament_standings
from tournaments.services.errors import FloorError
from tournaments.views import wallclock
from tournaments.views.access import public_tournament_get
from tournaments.views.clockface import clock_context, clock_payload

STANDING_ROWS = 100
POLL_SECONDS = 10
CLOCK_POLL_SECONDS = 5


def with_etag(request: HttpRequest, response: HttpResponse) -> HttpResponseBase:
    """Tag the response with a hash of its content; answer 304 if the client has it already.

    `no-cache` makes browsers ask again every time, with If-None-Match."""
    etag = quote_etag(hashlib.sha256(response.content).hexdigest()[:32])
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, public=True)
    return get_conditional_response(request, etag=etag, response=response) or response


def _state(tournament: Tournament) -> dict[str, Any]:
    """What the polled part of the standings page shows."""
    try:
        places = tournament_payouts(tournament)
    except FloorError:
        places = []
    return {
        "tournament": tournament,
        "standings": tournament_standings(tournament, limit=STANDING_ROWS),
        "places": places,
        "shown": STANDING_ROWS,
    }


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Standings, seat lookup and payouts; the standings part polls `public-state`."""
    tournament = public_tournament_get(pk)
    query = request.GET.get("q", "")
    context = {
        **_state(tournament),
        "query": query,
        "seats": seat_lookup(tournament, query) if query else None,
        "poll_seconds": POLL_SECONDS,
    }
    return render(request, "public/standings.html", context)


def state(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The polled part of the standings page, with an ETag (304 when nothing changed)."""
    tournament = public_tournament_get(pk)
    response = render(request, "public/_state.html", _state(tournament))
    return with_etag(request, response)


def seat(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat lookup by name (htmx partial): table and seat of the players whose name matches."""
    tournament = public_tournament_get(pk)
    query = request.GET.get("q", "")
    context = {"tournament": tournament, "query": query, "seats": seat_lookup(tournament, query)}
    return render(request, "public/_seats.html", context)


def payouts(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = public_tournament_get(pk)
    return render(request, "public/payouts.html", _state(tournament))


def clock(request: HttpRequest, pk: int) -> HttpResponse:
    """The big-screen clock: the browser counts down and polls `public-clock-json`."""
    tournament = public_tournament_get(pk)
    context = {
        "tournament": tournament,
        **clock_context(tournament, wallclock.now()),
        "poll_seconds": CLOCK_POLL_SECONDS,
    }
    return render(request, "public/clock.html", context)


def clock_json(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The clock as JSON, with an ETag that stays the same until the clock really changes."""
    tournament = public_tournament_get(pk)
    return with_etag(request, JsonResponse(clock_payload(tournament, wallclock.now())))
