"""Director pages for tournaments: the list with the creation form, the dashboard overview,
settings, opening registration and finishing."""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from common.errors import FloorError
from config import request_time
from config.exceptions import status_of
from tournaments import selectors
from tournaments.forms import (
    LEVELS_PREFIX,
    TournamentForm,
    filled_levels,
    formset_tampered,
    levels_with_new_row,
    tournament_level_formset,
)
from tournaments.models import BlindSchedule, Tournament
from tournaments.price_forms import RepriceForm
from tournaments.selectors import tournament_list, tournament_standings
from tournaments.selectors.satellites import players_at_end
from tournaments.services.events import (
    levels_fixed,
    tournament_create,
    tournament_finish,
    tournament_open_registration,
    tournament_update,
)
from tournaments.services.frozen import locked_settings
from tournaments.services.prices import money_locked, paid_entries, tournament_reprice
from tournaments.views.access import director_required, tournament_get
from tournaments.views.clock_display import clock_context
from tournaments.views.form_tokens import form_write, page_write
from tournaments.views.schedules import level_labels


@director_required
def tournaments_page(request: HttpRequest) -> HttpResponse:
    """Every tournament, and the form that creates one from a blind schedule."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = form_write(
            request,
            form,
            lambda: tournament_create(
                schedule=form.cleaned_data["schedule"], actor=request.user, **form.settings()
            ),
            lambda tournament: f"Tournament '{tournament.name}' created.",
        )
        if not isinstance(tournament, FloorError):
            return redirect("tournament-dashboard", pk=tournament.pk)
    archived = request.GET.get("archived") == "1"  # "show archived"
    context = {
        "form": form,
        "tournaments": tournament_list(archived=archived),
        "show_archived": archived,
        "has_schedules": BlindSchedule.objects.exists(),
    }
    return render(request, "desk/tournament_list.html", context)


@director_required
def dashboard(request: HttpRequest, pk: int) -> HttpResponse:
    """One tournament at a glance: status, the clock, the field and the prize pool. A
    multi-flight event's glance is its page of flights and days."""
    tournament = tournament_get(pk)
    if tournament.kind == Tournament.Kind.EVENT:
        return redirect("event-page", pk=pk)
    now = request_time.now()
    standings = tournament_standings(tournament, limit=10)
    context = {
        "tournament": tournament,
        "tab": "overview",
        "standings": standings,
        **clock_context(tournament, now),
        "has_tables": tournament.tables.exists(),
        "players_at_end": players_at_end(tournament),
        "hand_for_hand": selectors.hand_for_hand_board(tournament),
    }
    return render(request, "desk/dashboard.html", context)


# The settings page's refusals that answer with their own status (issue 26: a price entries
# paid is 409, a window past the schedule 400), as the API does; the others keep 200.
REFUSED_WITH_STATUS = frozenset(
    {
        "money_locked",
        "bad_late_registration_level",
        "bad_rebuy_until_level",
        "bad_addon_level",
    }
)


@director_required
def settings_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The settings and the tournament's own levels. Once play has started, the settings the
    hands are dealt with and the levels played or in play are shown locked; "Add level" and
    "Add break" post the form and get it back with one more row, as the schedule editor does."""
    tournament = tournament_get(pk)
    now = request_time.now()
    data: Mapping[str, str] | None = request.POST if request.method == "POST" else None
    adding = data.get("add") if data else None
    form = TournamentForm(
        data,
        initial=TournamentForm.initial_from(tournament),
        with_schedule=False,
        locked=locked_settings(tournament),
    )
    # A post without the levels (an older page, a script) leaves them as they are.
    with_levels = data is None or f"{LEVELS_PREFIX}-TOTAL_FORMS" in data
    if adding in ("level", "break") and data:
        data = levels_with_new_row(data, is_break=adding == "break")
    formset = tournament_level_formset(
        data if with_levels else None,
        levels=list(tournament.levels.all()),
        fixed=levels_fixed(tournament, now),
    )
    refused: FloorError | None = None
    if data and not adding and form.is_valid() and (not with_levels or formset.is_valid()):
        saved = form_write(
            request,
            form,
            lambda: tournament_update(
                tournament=tournament,
                actor=request.user,
                now=now,
                levels=filled_levels(formset) if with_levels else None,
                **form.settings(),
            ),
            "Settings saved.",
        )
        if not isinstance(saved, FloorError):
            return redirect("tournament-settings", pk=pk)
        refused = saved
    context = {
        "tournament": tournament,
        "tab": "settings",
        "form": form,
        "formset": formset,
        "level_rows": list(zip(level_labels(formset), formset.forms, strict=True)),
        "show_level_errors": (bool(data) and not adding) or formset_tampered(formset),
        "money_locked": money_locked(tournament),
    }
    status = 400 if formset_tampered(formset) else 200
    if refused is not None and refused.code in REFUSED_WITH_STATUS:
        status = status_of(refused)
    return render(request, "desk/settings.html", context, status=status)


@director_required
@require_POST
def open_registration(request: HttpRequest, pk: int) -> HttpResponse:
    page_write(
        request,
        lambda: tournament_open_registration(tournament=tournament_get(pk), actor=request.user),
        "Registration is open.",
    )
    return redirect("entry-list", pk=pk)


@director_required
@require_POST
def finish(request: HttpRequest, pk: int) -> HttpResponse:
    page_write(
        request,
        lambda: tournament_finish(tournament=tournament_get(pk), actor=request.user),
        "The tournament is finished.",
    )
    return redirect("tournament-dashboard", pk=pk)


@director_required
def reprice_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a price the entries have paid: the settings page refuses it (`money_locked`);
    here the director says why, and the audit log names each entry's change."""
    tournament = tournament_get(pk)
    form = RepriceForm(request.POST or None, initial=RepriceForm.initial_from(tournament))
    status = 200
    if request.method == "POST" and form.is_valid():
        answer = form_write(
            request,
            form,
            lambda: tournament_reprice(
                tournament=tournament,
                reason=form.cleaned_data["reason"],
                actor=request.user,
                **form.prices(),
            ),
            lambda answer: (
                f"Prices corrected: {len(answer.entries)} entries repriced, prize "
                f"pool {answer.pool_before:,.2f} -> {answer.pool_after:,.2f} (see the audit log)."
            ),
        )
        if not isinstance(answer, FloorError):
            return redirect("tournament-settings", pk=pk)
        status = status_of(answer)
    context = {
        "tournament": tournament,
        "tab": "settings",
        "form": form,
        "paid": paid_entries(tournament).count(),
    }
    return render(request, "desk/reprice.html", context, status=status)
