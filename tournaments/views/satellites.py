"""A satellite on the desk: its seats, the cash remainder and the seat winners (a card on the
payouts page, `{% satellite_card tournament %}`), and the one click that registers the winners
in the target event (`satellite_register_winners`, the API's
`POST /api/tournaments/{id}/satellite/register-winners/` twin)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import URLPattern, path
from django.views.decorators.http import require_POST

from common.errors import FloorError
from config import request_time
from tournaments.services.satellites import WinnersRegistered, satellite_register_winners
from tournaments.views.access import director_required, tournament_get
from tournaments.views.form_tokens import page_write


@director_required
@require_POST
def register_winners(request: HttpRequest, pk: int) -> HttpResponse:
    """Register the seat winners in the target; the payouts page says who was and who not."""
    done = page_write(
        request,
        lambda: satellite_register_winners(
            tournament=tournament_get(pk), now=request_time.now(), actor=request.user
        ),
        None,  # said by _report: who was registered, who not and why
    )
    if not isinstance(done, FloorError):
        _report(request, done)
    return redirect("payout-list", pk=pk)


def _report(request: HttpRequest, done: WinnersRegistered) -> None:
    target = done.satellite.target_name
    if done.registered:
        names = ", ".join(e.player.name for e in done.registered)
        messages.success(request, f"Registered in {target}: {names}.")
    for skipped in done.skipped:
        messages.warning(request, skipped.detail)
    if not done.registered and not done.skipped:
        messages.info(request, f"Every seat winner is registered in {target} already.")


urls: list[URLPattern] = [
    path(
        "desk/t/<int:pk>/satellite/register-winners/",
        register_winners,
        name="satellite-register-winners",
    ),
]
