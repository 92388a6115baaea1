"""The desk's set-up pages (issue 26): the schedule generator with its templates, copying a
schedule or a tournament, archiving events and players, deleting a test event. Each calls the
service its API twin calls (`tournaments.api.setup`)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path
from django.views.decorators.http import require_POST

from config.exceptions import status_of
from tournaments.errors import FloorError
from tournaments.models import BlindSchedule
from tournaments.selectors.players import player_get
from tournaments.services.archive import player_archive, tournament_archive, tournament_delete
from tournaments.services.setup import schedule_copy, schedule_generate, tournament_copy
from tournaments.setup_forms import PLAN_FIELDS, ArchiveForm, CopyForm, GenerateForm
from tournaments.structures import TEMPLATES
from tournaments.views.access import director_required, report_refusal, tournament_get
from tournaments.views.form_tokens import report_form_refusal, submit_once


@director_required
def schedule_generate_page(request: HttpRequest) -> HttpResponse:
    """The generator: `?template=` fills it with a built-in template's inputs; a post creates
    the whole schedule and opens it in the editor."""
    template, initial = GenerateForm.initial_from(request.GET.get("template"))
    form = GenerateForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                schedule = schedule_generate(
                    name=form.cleaned_data["name"], plan=form.plan(), actor=request.user
                )
            except FloorError as error:
                field = PLAN_FIELDS.get(error.code)
                form.add_error(field if field in form.fields else None, error.detail)
                status = status_of(error)
            else:
                messages.success(
                    request, f"Schedule '{schedule.name}' generated: check it, then save."
                )
                return redirect("schedule-edit", pk=schedule.pk)
    context = {"form": form, "templates": TEMPLATES, "template": template}
    return render(request, "desk/schedule_generate.html", context, status=status)


def _copy_name(request: HttpRequest, default: str) -> str:
    form = CopyForm(request.POST)
    return form.cleaned_data["name"] if form.is_valid() else default


@director_required
@require_POST
def schedule_copy_page(request: HttpRequest, pk: int) -> HttpResponse:
    schedule = get_object_or_404(BlindSchedule, pk=pk)
    try:
        copy = schedule_copy(
            schedule=schedule,
            name=_copy_name(request, f"{schedule.name} (copy)"),
            actor=request.user,
        )
    except FloorError as error:
        report_refusal(request, error)
        return redirect("schedule-list")
    messages.success(request, f"Schedule copied as '{copy.name}'.")
    return redirect("schedule-edit", pk=copy.pk)


@director_required
@require_POST
def tournament_copy_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A double tap makes one copy: the form carries a one-time token (duplicate tournament
    names are allowed, so the service alone could not tell)."""
    tournament = tournament_get(pk)
    name = _copy_name(request, f"{tournament.name} (copy)")
    try:
        copy = submit_once(
            request,
            lambda: tournament_copy(tournament=tournament, name=name, actor=request.user),
        )
    except FloorError as error:
        report_form_refusal(request, error)
        return redirect("tournament-dashboard", pk=pk)
    messages.success(request, f"Copied as '{copy.name}': check its settings.")
    return redirect("tournament-settings", pk=copy.pk)


def _archived(request: HttpRequest) -> bool:
    form = ArchiveForm(request.POST)
    return bool(form.cleaned_data["archived"]) if form.is_valid() else True


@director_required
@require_POST
def tournament_archive_page(request: HttpRequest, pk: int) -> HttpResponse:
    archived = _archived(request)
    try:
        tournament = tournament_archive(
            tournament=tournament_get(pk), archived=archived, actor=request.user
        )
    except FloorError as error:
        report_refusal(request, error)
        return redirect("tournament-dashboard", pk=pk)
    if archived:
        messages.success(request, f"'{tournament.name}' archived: hidden from the lists.")
        return redirect("tournament-list")
    messages.success(request, f"'{tournament.name}' is back in the lists.")
    return redirect("tournament-dashboard", pk=pk)


@director_required
@require_POST
def tournament_delete_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_get(pk)
    try:
        tournament_delete(tournament=tournament, actor=request.user)
    except FloorError as error:
        report_refusal(request, error)
        return redirect("tournament-dashboard", pk=pk)
    messages.success(request, f"'{tournament.name}' deleted.")
    return redirect("tournament-list")


@director_required
@require_POST
def player_archive_page(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_get(pk)
    if player is None:
        raise Http404("There is no such player.")
    archived = _archived(request)
    try:
        player_archive(player=player, archived=archived, actor=request.user)
    except FloorError as error:
        report_refusal(request, error)
    else:
        messages.success(
            request,
            f"{player.name} archived: hidden from the search."
            if archived
            else f"{player.name} is back in the search.",
        )
    return redirect("player-detail", pk=pk)


urls: list[URLPattern] = [
    path("desk/schedules/generate/", schedule_generate_page, name="schedule-generate"),
    path("desk/schedules/<int:pk>/copy/", schedule_copy_page, name="schedule-copy"),
    path("desk/t/<int:pk>/copy/", tournament_copy_page, name="tournament-copy"),
    path("desk/t/<int:pk>/archive/", tournament_archive_page, name="tournament-archive"),
    path("desk/t/<int:pk>/delete/", tournament_delete_page, name="tournament-delete"),
    path("desk/players/<int:pk>/archive/", player_archive_page, name="player-archive"),
]
