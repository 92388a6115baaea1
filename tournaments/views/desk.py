"""The registration desk: type a name and press Enter to register (a busted player's re-entry is
the same action); the entries with their unregister, rebuy and add-on buttons, and where each
player's chip count comes from.

Every form here changes chips or places, so each carries a one-time token (`form_tokens`): a
second submission of the same form changes nothing. A player dealt in a hand in progress gets no
rebuy or add-on until the hand ends (the service refuses it, 409 `in_hand`, with a sentence the
page shows); the list says who is in a hand.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from config import request_time
from config.exceptions import status_of
from tournaments import selectors
from tournaments.errors import LikelySamePlayerError
from tournaments.forms import RegisterForm, SearchForm
from tournaments.models import Entry, Tournament
from tournaments.selectors.windows import sales_open
from tournaments.services.entries import entry_addon, entry_rebuy, entry_register, entry_unregister
from tournaments.services.form_tokens import FormSentTwiceError
from tournaments.views.access import director_required, entry_get, tournament_get
from tournaments.views.form_tokens import form_write, page_read, page_write

NOT_STARTED = (Tournament.Status.PLANNED, Tournament.Status.REGISTERING)


@director_required
def entries_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The desk. A POST registers the name typed; a refusal is shown under the name field. The
    page's own htmx form (not a boosted one) is answered with what changed: a fresh form, the
    new entry's row (added at the top of the list) and the counts, so that the 1,000th name
    costs what the 10th did; without JavaScript, the page is drawn again."""
    tournament = tournament_get(pk)
    form = RegisterForm(request.POST or None)
    partial = _htmx_form(request)
    likely: list[dict[str, object]] = []  # the known players a new name may be (two buttons)
    status = 400 if request.method == "POST" else 200
    if request.method == "POST" and form.is_valid():
        sent = form_write(
            request,
            form,
            lambda: entry_register(
                tournament=tournament,
                player_name=form.cleaned_data.get("name") or "",
                player=form.cleaned_data["player"],
                new_player=form.cleaned_data["new_player"],
                now=request_time.now(),
                actor=request.user,
            ),
            _registered,
            once=True,
            in_answer=partial,  # the htmx answer says itself who was registered
        )
        if isinstance(sent, Entry):
            if partial:
                return _registered_answer(request, tournament, sent)
            return redirect("entry-list", pk=pk)
        if isinstance(sent, FormSentTwiceError):
            if partial:
                return _register_card(request, tournament, RegisterForm(), warning=sent.detail)
            return redirect("entry-list", pk=pk)
        status = status_of(sent)
        if isinstance(sent, LikelySamePlayerError):
            likely = sent.candidates
    if partial:
        return _register_card(request, tournament, form, likely=likely, status=status)
    query, refusal = SearchForm.query(request.GET)
    if refusal:
        messages.error(request, refusal)
    context = {
        **_list_context(tournament),
        "tab": "entries",
        "form": form,
        "likely": likely,
        "query": query,
        "entries": selectors.entry_list(tournament, query),
    }
    # A refused registration keeps its 200 here: the page is drawn whole, the sentence in it.
    return render(request, "desk/entries.html", context, status=400 if refusal else 200)


def _htmx_form(request: HttpRequest) -> bool:
    """A POST of the desk's htmx form, answered with its parts (a boosted form, a whole page)."""
    return (
        request.method == "POST"
        and request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-Boosted") != "true"
    )


def _list_context(tournament: Tournament) -> dict[str, object]:
    """What the list's rows and the counts draw from (the page's and the htmx answers')."""
    now = request_time.now()
    # None with a payout table that cannot be used: the Payouts tab says why.
    counts, _ = page_read(lambda: selectors.tournament_standings(tournament, limit=0))
    return {
        "tournament": tournament,
        "counts": counts,
        "before_start": tournament.status in NOT_STARTED,
        # The rebuy and add-on buttons only in their windows (issue 26).
        "rebuy_open": sales_open(tournament, now, "rebuy"),
        "addon_open": sales_open(tournament, now, "addon"),
    }


def _register_card(
    request: HttpRequest,
    tournament: Tournament,
    form: RegisterForm,
    *,
    likely: list[dict[str, object]] | None = None,
    warning: str = "",
    status: int = 200,
) -> HttpResponse:
    """The registration form alone (htmx): after a refusal, with its sentence by the name."""
    context = {"tournament": tournament, "form": form, "likely": likely or [], "warning": warning}
    return render(request, "desk/_register_card.html", context, status=status)


def _registered_answer(request: HttpRequest, tournament: Tournament, entry: Entry) -> HttpResponse:
    """A registration's answer to the htmx form: the form again (empty, with a new one-time
    token) saying who was registered where, and out of band the new row at the top of the list
    and the counts; never the other rows."""
    context = {
        **_list_context(tournament),
        "form": RegisterForm(),
        "likely": [],
        "done": _registered(entry),
        "entry": selectors.entry_list(tournament).get(pk=entry.pk),
    }
    return render(request, "desk/_registered.html", context)


def _registered(entry: Entry) -> str:
    what = "Re-entered" if entry.number > 1 else "Registered"
    where = f": table {entry.table.number}, seat {entry.seat}" if entry.table else ""
    return f"{what} {entry.player.name}{where}."


def _entry_action(
    request: HttpRequest, pk: int, entry_pk: int, action: Callable[[Entry], Entry], done: str
) -> HttpResponse:
    found = entry_get(tournament_get(pk), entry_pk)
    page_write(
        request,
        lambda: action(found),
        lambda entry: done.format(name=entry.player.name, chips=entry.chips),
        once=True,
    )
    return redirect("entry-list", pk=pk)


@director_required
@require_POST
def unregister(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    return _entry_action(
        request,
        pk,
        entry_pk,
        lambda e: entry_unregister(entry=e, actor=request.user),
        "{name} is unregistered.",
    )


@director_required
@require_POST
def rebuy(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    return _entry_action(
        request,
        pk,
        entry_pk,
        lambda e: entry_rebuy(entry=e, now=request_time.now(), actor=request.user),
        "Rebuy for {name}: {chips:,} chips now.",
    )


@director_required
@require_POST
def addon(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    return _entry_action(
        request,
        pk,
        entry_pk,
        lambda e: entry_addon(entry=e, now=request_time.now(), actor=request.user),
        "Add-on for {name}: {chips:,} chips now.",
    )
