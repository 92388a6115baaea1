"""Eliminations: pick the players out on one hand with the stacks they started it with, submit;
undo the last hand's busts.

A player dealt in a hand in progress cannot be picked (the tablet busts them when the hand ends);
a picked player's row is prefilled with their last known stack, the most they can have started
the hand with, and offers who knocked them out (the players at their table first; several
share the knockout equally). Both forms carry a one-time token: sent twice, they record once.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from config import request_time
from tournaments import selectors
from tournaments.errors import FloorError
from tournaments.forms import BustsForm
from tournaments.models import Entry
from tournaments.selectors.bounties import tournament_bounties
from tournaments.services.busts import Bust, entries_bust, entries_unbust
from tournaments.services.form_tokens import FormSentTwiceError
from tournaments.services.knockouts import eliminators_equal
from tournaments.views.access import director_required, tournament_get
from tournaments.views.form_tokens import report_form_refusal, submit_once


@director_required
def busts_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The form (one row per player out on the hand) and the latest players out."""
    tournament = tournament_get(pk)
    form = BustsForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        named = form.cleaned_data["eliminators"]
        busts = [
            Bust(entry_id=e, starting_stack=s, eliminated_by=eliminators_equal(named[e]))
            for e, s in form.cleaned_data["rows"]
        ]
        try:
            out = submit_once(
                request,
                lambda: entries_bust(
                    tournament=tournament, busts=busts, now=request_time.now(), actor=request.user
                ),
            )
        except FormSentTwiceError as error:
            report_form_refusal(request, error)
            return redirect("bust-list", pk=pk)
        except FloorError as error:
            form.add_error(None, error.detail)
        else:
            messages.success(request, _busted(out))
            return redirect("bust-list", pk=pk)
    seated = list(selectors.seated_entries(tournament))
    rows = _posted_rows(request, seated) if request.method == "POST" else [_EMPTY_ROW]
    recent = list(selectors.recent_busts(tournament))
    eliminated_by = tournament_bounties(tournament).eliminated_by if recent else {}
    context = {
        "tournament": tournament,
        "tab": "busts",
        "form": form,
        "seated": seated,
        "rows": rows,
        "recent": [(entry, eliminated_by.get(entry.pk, ())) for entry in recent],
    }
    return render(request, "desk/busts.html", context)


def _busted(out: list[Entry]) -> str:
    parts = []
    for entry in sorted(out, key=lambda e: e.finishing_place or 0):
        prize = f", wins {entry.prize:,}" if entry.prize else ""
        parts.append(f"{entry.player.name} out in place {entry.finishing_place}{prize}")
    return "; ".join(parts) + "."


# A row of the form: the entry picked (id and row), the stack typed, who knocked them out (the
# ids picked) and whom the row offers for it.
Row = tuple[int | None, str, Entry | None, list[int], list[Entry]]
_EMPTY_ROW: Row = (None, "", None, [], [])


def _posted_rows(request: HttpRequest, seated: list[Entry]) -> list[Row]:
    """The rows as typed (player, stack, the entry picked, the eliminators picked), to show
    them again with the error."""
    known = {str(e.pk): e for e in seated}
    rows: list[Row] = []
    entries, stacks = request.POST.getlist("entry"), request.POST.getlist("stack")
    for entry, stack in zip(entries, stacks, strict=False):
        chosen = known.get(entry.strip())
        if chosen is None:
            rows.append((None, stack, None, [], []))
            continue
        picked = request.POST.getlist(f"eliminated_by_{chosen.pk}")
        named = [known[p].pk for p in picked if p in known]
        rows.append((chosen.pk, stack, chosen, named, _rivals(seated, chosen)))
    return rows or [_EMPTY_ROW]


def _rivals(seated: list[Entry], chosen: Entry) -> list[Entry]:
    """Whom a busted player's row offers as who knocked them out: everyone else seated, the
    players at their own table first."""
    others = [e for e in seated if e.pk != chosen.pk]
    return sorted(others, key=lambda e: e.table_id != chosen.table_id)


@director_required
def bust_row(request: HttpRequest, pk: int) -> HttpResponse:
    """One row of the form (htmx): the player picked, with the stack prefilled with their chips."""
    tournament = tournament_get(pk)
    seated = list(selectors.seated_entries(tournament))
    picked = request.GET.get("entry", "")
    chosen = next((e for e in seated if str(e.pk) == picked and e.live_hand_id is None), None)
    context = {
        "tournament": tournament,
        "seated": seated,
        "entry_id": chosen.pk if chosen else None,
        "stack": chosen.chips if chosen else "",
        "chosen": chosen,
        "eliminators": [],
        "rivals": _rivals(seated, chosen) if chosen else [],
    }
    return render(request, "desk/_bust_row.html", context)


@director_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_get(pk)
    try:
        back = submit_once(
            request,
            lambda: entries_unbust(
                tournament=tournament, now=request_time.now(), actor=request.user
            ),
        )
    except FloorError as error:
        report_form_refusal(request, error)
    else:
        names = ", ".join(e.player.name for e in back)
        messages.success(request, f"Bust undone: {names} back in play.")
    return redirect("bust-list", pk=pk)
