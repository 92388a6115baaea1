"""Public pages (no login; names are the only personal data shown): standings with seat lookup
and payouts, and the big-screen clock.

Phones poll the standings part with an ETag named by the tournament's version, and get "304
Not Modified" while nothing has changed: deciding costs the read of the tournament's row, and a
changed part is rendered once per version and kept in the cache for every phone after the first
(the whole answer, served by `config.conditional`'s middleware before any view runs).
The big clock polls the API's clock feed (`api-clock`), the one every display uses.
"""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string

from config import request_time
from config.conditional import Keep, conditional
from tournaments.forms import SearchForm
from tournaments.models import Tournament
from tournaments.selectors import (
    cached,
    seat_lookup,
    tournament_full,
    tournament_head,
    tournament_payouts,
    tournament_standings,
    version_tag,
)
from tournaments.selectors.standings import PayoutPlace
from tournaments.selectors.structure import late_registration, structure_sheet
from tournaments.selectors.versions import version_mark
from tournaments.views.access import public_tournament_get
from tournaments.views.clock_display import clock_context
from tournaments.views.form_tokens import page_read
from tournaments.views.screens import countdown_text, screen_render

STANDING_ROWS = 100
PAYOUT_ROWS = 10
POLL_SECONDS = 10


def _state(tournament: Tournament, *, all_places: bool = True) -> dict[str, object]:
    """What the polled part of the standings page shows (with `all_places` False, the top
    places and the ones being decided now, not the whole table of a big field)."""
    # A payout table that cannot be used yet (its refusal is the desk's to show) is no places.
    places = page_read(lambda: tournament_payouts(tournament))[0] or []
    standings = tournament_standings(tournament, limit=STANDING_ROWS)
    return {
        "tournament": tournament,
        "standings": standings,
        "places": places if all_places else payout_rows(places, standings.players_left),
        "places_paid": len(places),
        "shown": STANDING_ROWS,
    }


def payout_rows(places: list[PayoutPlace], players_left: int) -> list[PayoutPlace | None]:
    """The payout rows a phone polls at a big event: the top `PAYOUT_ROWS` places, then the
    places around the next one to be paid (the next player out finishes `players_left`th), a
    None where rows are left out. A field with few paid places shows them all."""
    if len(places) <= 3 * PAYOUT_ROWS:
        return list(places)
    near = [p for p in places if players_left - PAYOUT_ROWS < p["place"] <= players_left + 5]
    shown = {p["place"] for p in places[:PAYOUT_ROWS]} | {p["place"] for p in near}
    rows: list[PayoutPlace | None] = []
    for place in places:
        if place["place"] in shown:
            rows.append(place)
        elif rows and rows[-1] is not None:
            rows.append(None)
    return rows


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Standings, seat lookup and payouts; the standings part polls `public-state`."""
    tournament = public_tournament_get(pk)
    query, refusal = SearchForm.query(request.GET)
    if refusal:
        messages.error(request, refusal)
    context = {
        **_state(tournament, all_places=False),
        "query": query,
        "seats": seat_lookup(tournament, query) if query else None,
        "poll_seconds": POLL_SECONDS,
        **_phone_facts(tournament),
    }
    return render(request, "public/standings.html", context, status=400 if refusal else 200)


def _phone_facts(tournament: Tournament) -> dict[str, object]:
    """What the top of a phone page shows: the clock (level, blinds and ante apart, time left,
    the next level, the time to the break: the one clock feed) and the event's facts (late
    registration, buy-in, start)."""
    now = request_time.now()
    context = clock_context(tournament, now)
    blinds, _, ante = context["clock"]["blinds"].partition(", ")
    return {
        **context,
        "blinds": blinds,
        "ante": ante,
        "break_in": countdown_text(context["clock"]["seconds_to_next_break"]),
        "late_registration": late_registration(tournament, now),
    }


def structure(request: HttpRequest, pk: int) -> HttpResponse:
    """The structure sheet on a phone: every level and break, when each starts by the clock as
    it runs, the one in play, and the last level to register."""
    tournament = public_tournament_get(pk)
    context = {
        "tournament": tournament,
        "rows": structure_sheet(tournament, request_time.now()),
        "late_registration": late_registration(tournament, request_time.now()),
    }
    return render(request, "public/structure.html", context)


def state(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The polled part of the standings page, with an ETag (304 when nothing changed)."""
    tournament = tournament_head(pk)
    if tournament is None:
        raise Http404("There is no such tournament.")

    def build() -> HttpResponse:
        body = cached(
            tournament,
            "public-state",
            lambda: render_to_string(
                "public/_state.html", _state(tournament_full(tournament), all_places=False)
            ),
        )
        return HttpResponse(body)

    etag = f'"{version_tag(tournament, "public-state")}"'
    # Kept for the next phones: the one URL the page polls (a query string would be a new key).
    keep = None if request.GET else Keep()
    return conditional(request, etag, build, version=version_mark(tournament), keep=keep)


def seat(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Seat lookup by name (htmx partial): table and seat of the players whose name matches, or
    their finish and prize. The result polls itself (`_seats.html`) with an ETag named by the
    tournament's version and the query, so a move, a balance or a broken table is on the phone
    at the next poll. A refused query answers 200 with the sentence, which htmx swaps in as it
    would not a 400."""
    tournament = tournament_head(pk)
    if tournament is None:
        raise Http404("There is no such tournament.")
    query, refusal = SearchForm.query(request.GET)

    def build() -> HttpResponse:
        seats = seat_lookup(tournament, query) if not refusal else []
        context = {
            "tournament": tournament,
            "query": query,
            "seats": seats,
            "refusal": refusal,
            "poll_seconds": POLL_SECONDS,
        }
        return render(request, "public/_seats.html", context)

    digest = hashlib.blake2b(query.encode(), digest_size=8).hexdigest()
    etag = f'"{version_tag(tournament, "seat", digest, POLL_SECONDS)}"'
    return conditional(request, etag, build, version=version_mark(tournament))


def payouts(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = public_tournament_get(pk)
    return render(request, "public/payouts.html", _state(tournament))


def clock(request: HttpRequest, pk: int) -> HttpResponse:
    """The big-screen clock: the browser counts down and polls the clock feed (`api-clock`).
    `?layout=sidebar` or `payouts` shows another of the screens' layouts, `?sound=1` chimes."""
    tournament = public_tournament_get(pk)
    layout = request.GET.get("layout", "")
    return screen_render(
        request,
        tournament,
        layout=layout,
        sound=request.GET.get("sound") == "1",
        back=request.GET.get("back") == "1",
    )
