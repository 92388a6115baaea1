"""Eliminations: pick the players out on one hand with the stacks they started it with, submit;
undo the last hand's busts."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournaments.forms import BustsForm
from tournaments.models import Entry
from tournaments.services.busts import Bust, entries_bust, entries_unbust
from tournaments.services.errors import FloorError
from tournaments.views import reads, wallclock
from tournaments.views.access import director_required, report_refusal, tournament_get


@director_required
def busts_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The form (one row per player out on the hand) and the latest players out."""
    tournament = tournament_get(pk)
    form = BustsForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        busts = [Bust(entry_id=e, starting_stack=s) for e, s in form.cleaned_data["rows"]]
        try:
            out = entries_bust(
                tournament=tournament, busts=busts, now=wallclock.now(), actor=request.user
            )
        except FloorError as error:
            form.add_error(None, error.detail)
        else:
            messages.success(request, _busted(out))
            return redirect("bust-list", pk=pk)
    seated = list(reads.seated_entries(tournament))
    rows = _posted_rows(request, seated) if request.method == "POST" else [(None, "")]
    context = {
        "tournament": tournament,
        "tab": "busts",
        "form": form,
        "seated": seated,
        "rows": rows,
        "recent": reads.recent_busts(tournament),
    }
    return render(request, "desk/busts.html", context)


def _busted(out: list[Entry]) -> str:
    parts = []
    for entry in sorted(out, key=lambda e: e.finishing_place or 0):
        prize = f", wins {entry.prize:,}" if entry.prize else ""
        parts.append(f"{entry.player.name} out in place {entry.finishing_place}{prize}")
    return "; ".join(parts) + "."


def _posted_rows(request: HttpRequest, seated: list[Entry]) -> list[tuple[int | None, str]]:
    """The rows as typed, to show them again with the error."""
    known = {e.pk for e in seated}
    rows = []
    entries, stacks = request.POST.getlist("entry"), request.POST.getlist("stack")
    for entry, stack in zip(entries, stacks, strict=False):
        pk = int(entry) if entry.isdigit() and int(entry) in known else None
        rows.append((pk, stack))
    return rows or [(None, "")]


@director_required
def bust_row(request: HttpRequest, pk: int) -> HttpResponse:
    """One row of the form (htmx): the player picked, with the stack prefilled with their chips."""
    tournament = tournament_get(pk)
    seated = list(reads.seated_entries(tournament))
    picked = request.GET.get("entry", "")
    chosen = next((e for e in seated if str(e.pk) == picked), None)
    context = {
        "tournament": tournament,
        "seated": seated,
        "entry_id": chosen.pk if chosen else None,
        "stack": chosen.chips if chosen else "",
    }
    return render(request, "desk/_bust_row.html", context)


@director_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        back = entries_unbust(tournament=tournament_get(pk), actor=request.user)
    except FloorError as error:
        report_refusal(request, error)
    else:
        names = ", ".join(e.player.name for e in back)
        messages.success(request, f"Bust undone: {names} back in play.")
    return redirect("bust-list", pk=pk)
