"""Payouts for the director: places and prizes, the ICM deal calculator (the results export is
the API's `api-results-csv`, linked from the page)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournaments.forms import DealForm
from tournaments.selectors import deal_offer, tournament_payouts, tournament_standings
from tournaments.services.deals import tournament_accept_deal
from tournaments.views.access import director_required, tournament_get
from tournaments.views.form_tokens import page_read, page_write


@director_required
def payouts_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_get(pk)
    places, refusal = page_read(lambda: tournament_payouts(tournament))
    context = {
        "tournament": tournament,
        "tab": "payouts",
        "places": places or [],
        "payout_refusal": refusal,
        "standings": tournament_standings(tournament, limit=0) if not refusal else None,
    }
    return render(request, "desk/payouts.html", context)


@director_required
def icm_deal(request: HttpRequest, pk: int) -> HttpResponse:
    """The ICM deal (and the chip chop) for the players left: an htmx partial. The deal is
    computed from the players' counts; the totals say when they fall short of the chips in play
    (a bust recorded on the desk), so the floor counts the tables before a deal is agreed."""
    tournament = tournament_get(pk)
    deal, refusal = page_read(lambda: deal_offer(tournament))
    deal = deal or []
    standings = tournament_standings(tournament, limit=0) if deal else None
    context = {"tournament": tournament, "deal": deal, "refusal": refusal, "standings": standings}
    return render(request, "desk/_icm.html", context)


@director_required
@require_POST
def accept_deal(request: HttpRequest, pk: int) -> HttpResponse:
    """The players left accept the ICM or chip-chop deal shown: places, prizes, finished."""
    tournament = tournament_get(pk)
    form = DealForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose the ICM deal or the chip chop shown on this page.")
        return redirect("payout-list", pk=pk)
    page_write(
        request,
        lambda: tournament_accept_deal(
            tournament=tournament,
            method=form.cleaned_data["method"],
            actor=request.user,
            expected_chips=form.expected_chips(),
        ),
        "Deal accepted: places and prizes are recorded.",
        once=True,
    )
    return redirect("payout-list", pk=pk)
