"""Payouts for the director: places and prizes, the ICM deal calculator, the results as CSV."""

from __future__ import annotations

import csv

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify

from tournaments.selectors import tournament_icm, tournament_payouts, tournament_standings
from tournaments.services.errors import FloorError
from tournaments.spreadsheet import safe_cell
from tournaments.views import reads
from tournaments.views.access import director_required, tournament_get


@director_required
def payouts_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_get(pk)
    refusal = None
    try:
        places = tournament_payouts(tournament)
    except FloorError as error:
        places, refusal = [], error.detail
    context = {
        "tournament": tournament,
        "tab": "payouts",
        "places": places,
        "payout_refusal": refusal,
        "standings": tournament_standings(tournament, limit=0) if not refusal else None,
    }
    return render(request, "desk/payouts.html", context)


@director_required
def icm_deal(request: HttpRequest, pk: int) -> HttpResponse:
    """The ICM deal (and the chip chop) for the players left: an htmx partial."""
    tournament = tournament_get(pk)
    try:
        deal, refusal = tournament_icm(tournament), None
    except FloorError as error:
        deal, refusal = [], error.detail
    return render(request, "desk/_icm.html", {"deal": deal, "refusal": refusal})


@director_required
def results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """Every entry that played: place, name, entry number, prize (see `reads.results`)."""
    tournament = tournament_get(pk)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = slugify(tournament.name) or f"tournament-{tournament.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}-results.csv"'
    writer = csv.writer(response)
    writer.writerow(["place", "name", "entry", "prize"])
    for place, player, number, prize in reads.results(tournament):
        writer.writerow([safe_cell(value) for value in (place, player, number, prize)])
    return response
