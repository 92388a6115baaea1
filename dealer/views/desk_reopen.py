"""The director's Reopen on the desk's tables page: a table's last completed hand reopened to
correct it, through the same service as the tablet's and the API's (`dealer.services.hand_reopen`).
The page is the floor's; the write is the dealer app's, so the view lives here and the floor app
imports nothing of the dealer app but its engine."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from dealer.models import Hand
from dealer.services import hand_reopen
from tournaments.forms import HandReopenForm, first_error
from tournaments.views.access import director_required, tournament_get
from tournaments.views.form_tokens import FIELD, page_write


@director_required
@require_POST
def reopen_hand(request: HttpRequest, pk: int, hand_pk: int) -> HttpResponse:
    """Reopen a table's last completed hand to correct it (the same service as the tablet's
    and the API's): its result is reversed, and the table's tablet shows it with Undo."""
    tournament = tournament_get(pk)
    hand = get_object_or_404(
        Hand.objects.only("pk", "number", "table_id"), pk=hand_pk, table__tournament=tournament
    )
    form = HandReopenForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("table-list", pk=pk)
    reason, version = form.cleaned_data["reason"], form.cleaned_data["version"]
    page_write(
        request,
        lambda: hand_reopen(
            hand=hand.pk,
            reason=reason,
            # The form's one-time token names the write: sent twice, it is one reopening.
            client_id="desk-" + request.POST.get(FIELD, "")[:59],
            version=version,
            actor=request.user,
        ),
        f"Hand {hand.number} is reopened: its result is taken back. On the table's tablet, "
        "undo the wrong entry and enter the right one.",
        once=True,
    )
    return redirect("table-list", pk=pk)
