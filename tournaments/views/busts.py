"""Eliminations: pick the players out on one hand with the stacks they started it with, submit;
undo the last hand's busts.

The player out is found by typing (a name's part, a player number or a table and seat: the
picker offers at most 20 players, so a field of 1,000 is no 1,000-line dropdown); without
JavaScript, the "Find" button reloads the page with the players found. A player dealt in a hand
in progress cannot be picked (the tablet busts them when the hand ends); a picked player's row
is prefilled with their last known stack, the most they can have started the hand with, and
offers who knocked them out (the players at their table; in a small field everyone, table mates
first; several share the knockout equally). Both forms carry a one-time token: sent twice, they
record once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict, Unpack

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from config import request_time
from tournaments import selectors
from tournaments.forms import BustsForm, SearchForm, record_id
from tournaments.models import Entry, Tournament
from tournaments.selectors.bounties import tournament_bounties
from tournaments.services.busts import Bust, entries_bust, entries_unbust
from tournaments.services.knockouts import eliminators_equal
from tournaments.views.access import director_required, tournament_get
from tournaments.views.form_tokens import form_write, page_write, refusal_on_top, refused_on_form


@director_required
def busts_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The form (one row per player out on the hand) and the latest players out. `?q=` fills
    the first row's picker with the players found (the search without JavaScript)."""
    tournament = tournament_get(pk)
    form = BustsForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        named = form.cleaned_data["eliminators"]
        busts = [
            Bust(entry_id=e, starting_stack=s, eliminated_by=eliminators_equal(named[e]))
            for e, s in form.cleaned_data["rows"]
        ]
        out = form_write(
            request,
            form,
            lambda: entries_bust(
                tournament=tournament, busts=busts, now=request_time.now(), actor=request.user
            ),
            _busted,
            once=True,
            attach=refusal_on_top,
        )
        if not refused_on_form(out):
            return redirect("bust-list", pk=pk)
    query, refusal = SearchForm.query(request.GET)
    if refusal:
        messages.error(request, refusal)
    if request.method == "POST":
        rows = _posted_rows(request, tournament)
    else:
        rows = [BustRow(choices=list(selectors.bust_choices(tournament, query)), query=query)]
    recent = list(selectors.recent_busts(tournament))
    eliminated_by = tournament_bounties(tournament).eliminated_by if recent else {}
    context = {
        "tournament": tournament,
        "tab": "busts",
        "form": form,
        "any_seated": selectors.seated_entries(tournament).exists(),
        "rows": rows,
        "recent": [(entry, eliminated_by.get(entry.pk, ())) for entry in recent],
    }
    return render(request, "desk/busts.html", context, status=400 if refusal else 200)


def _busted(out: list[Entry]) -> str:
    parts = []
    for entry in sorted(out, key=lambda e: e.finishing_place or 0):
        prize = f", wins {entry.prize:,}" if entry.prize else ""
        parts.append(f"{entry.player.name} out in place {entry.finishing_place}{prize}")
    return "; ".join(parts) + "."


@dataclass(frozen=True, slots=True, kw_only=True)
class BustRow:
    """A row of the form: the entry picked (if one is), the stack typed, who knocked them out
    (the ids picked), whom the row offers for it, and the picker's players for the search
    typed (`selectors.bust_choices`, the entry picked among them)."""

    chosen: Entry | None = None
    stack: int | str = ""
    eliminators: list[int] = field(default_factory=list)
    rivals: list[Entry] = field(default_factory=list)
    choices: list[Entry] = field(default_factory=list)
    query: str = ""


class _Typed(TypedDict, total=False):
    """What the director typed in a row: the stack and the eliminators picked."""

    stack: int | str
    eliminators: list[int]


def _row(
    tournament: Tournament, chosen: Entry | None, query: str, **typed: Unpack[_Typed]
) -> BustRow:
    choices = list(selectors.bust_choices(tournament, query))
    if chosen is None:
        return BustRow(choices=choices, query=query, **typed)
    if all(e.pk != chosen.pk for e in choices):
        choices.insert(0, chosen)
    rivals = selectors.bust_rivals(tournament, chosen)
    return BustRow(chosen=chosen, choices=choices, query=query, rivals=rivals, **typed)


def _posted_rows(request: HttpRequest, tournament: Tournament) -> list[BustRow]:
    """The rows as typed (player, stack, the eliminators picked), to show them again with the
    error; only the players posted are read."""
    entries, stacks = request.POST.getlist("entry"), request.POST.getlist("stack")
    ids = [pk for pk in map(_picked_id, entries) if pk is not None]
    known = {str(e.pk): e for e in selectors.seated_entries(tournament).filter(pk__in=ids)}
    rows: list[BustRow] = []
    for entry, stack in zip(entries, stacks, strict=False):
        chosen = known.get(entry.strip())
        if chosen is None:
            rows.append(_row(tournament, None, "", stack=stack))
            continue
        picked = request.POST.getlist(f"eliminated_by_{chosen.pk}")
        named = [pk for pk in map(_picked_id, picked) if pk is not None]
        rows.append(_row(tournament, chosen, "", stack=stack, eliminators=named))
    return rows or [_row(tournament, None, "")]


def _picked_id(text: str) -> int | None:
    """A player's id as a picker sent it, None for anything else ("²", a number too big)."""
    try:
        picked: int | None = record_id(required=False).clean(text)
    except ValidationError:
        return None
    return picked


@director_required
def bust_row(request: HttpRequest, pk: int) -> HttpResponse:
    """One row of the form (htmx): the player picked, with the stack prefilled with their chips,
    and the picker still showing the search typed."""
    tournament = tournament_get(pk)
    picked = _picked_id(request.GET.get("entry", ""))
    query, _ = SearchForm.query(request.GET)
    chosen = None
    if picked is not None:
        chosen = (
            selectors.seated_entries(tournament).filter(pk=picked, live_hand__isnull=True).first()
        )
    row = _row(tournament, chosen, query, stack=chosen.chips if chosen else "")
    return render(request, "desk/_bust_row.html", {"tournament": tournament, "row": row})


@director_required
def bust_search(request: HttpRequest, pk: int) -> HttpResponse:
    """The bust row's picker for what is typed (htmx, as the director types): at most 20
    seated players (`selectors.bust_choices`); a query too long is refused next to it."""
    tournament = tournament_get(pk)
    query, refusal = SearchForm.query(request.GET)
    row = BustRow(choices=list(selectors.bust_choices(tournament, query)), query=query)
    context = {"tournament": tournament, "row": row, "refusal": refusal}
    return render(request, "desk/_bust_picker.html", context, status=400 if refusal else 200)


@director_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_get(pk)
    page_write(
        request,
        lambda: entries_unbust(tournament=tournament, now=request_time.now(), actor=request.user),
        lambda back: f"Bust undone: {', '.join(e.player.name for e in back)} back in play.",
        once=True,
    )
    return redirect("bust-list", pk=pk)
