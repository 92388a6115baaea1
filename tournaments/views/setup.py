"""The desk's set-up pages (issue 26): the schedule generator with its templates, copying a
schedule or a tournament, archiving events and players, deleting a test event. Each calls the
service its API twin calls (`tournaments.api.setup`)."""

from __future__ import annotations

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path
from django.views.decorators.http import require_POST

from common.errors import FloorError
from config.exceptions import status_of
from tournaments.models import BlindSchedule
from tournaments.selectors.players import player_get
from tournaments.services.archive import player_archive, tournament_archive, tournament_delete
from tournaments.services.setup import schedule_copy, schedule_generate, tournament_copy
from tournaments.setup_forms import PLAN_FIELDS, ArchiveForm, CopyForm, GenerateForm
from tournaments.structures import TEMPLATES
from tournaments.views.access import director_required, tournament_get
from tournaments.views.form_tokens import form_write, page_write


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
            schedule = form_write(
                request,
                form,
                lambda: schedule_generate(
                    name=form.cleaned_data["name"], plan=form.plan(), actor=request.user
                ),
                lambda schedule: f"Schedule '{schedule.name}' generated: check it, then save.",
                attach=_plan_refusal,
            )
            if not isinstance(schedule, FloorError):
                return redirect("schedule-edit", pk=schedule.pk)
            status = status_of(schedule)
    context = {"form": form, "templates": TEMPLATES, "template": template}
    return render(request, "desk/schedule_generate.html", context, status=status)


def _plan_refusal(form: forms.BaseForm, error: FloorError) -> None:
    """A refusal of the plan goes next to the input it concerns."""
    field = PLAN_FIELDS.get(error.code)
    form.add_error(field if field in form.fields else None, error.detail)


def _copy_name(request: HttpRequest, default: str) -> str:
    form = CopyForm(request.POST)
    return form.cleaned_data["name"] if form.is_valid() else default


@director_required
@require_POST
def schedule_copy_page(request: HttpRequest, pk: int) -> HttpResponse:
    schedule = get_object_or_404(BlindSchedule, pk=pk)
    copy = page_write(
        request,
        lambda: schedule_copy(
            schedule=schedule,
            name=_copy_name(request, f"{schedule.name} (copy)"),
            actor=request.user,
        ),
        lambda copy: f"Schedule copied as '{copy.name}'.",
    )
    if isinstance(copy, FloorError):
        return redirect("schedule-list")
    return redirect("schedule-edit", pk=copy.pk)


@director_required
@require_POST
def tournament_copy_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A double tap makes one copy: the form carries a one-time token (duplicate tournament
    names are allowed, so the service alone could not tell)."""
    tournament = tournament_get(pk)
    name = _copy_name(request, f"{tournament.name} (copy)")
    copy = page_write(
        request,
        lambda: tournament_copy(tournament=tournament, name=name, actor=request.user),
        lambda copy: f"Copied as '{copy.name}': check its settings.",
        once=True,
    )
    if isinstance(copy, FloorError):
        return redirect("tournament-dashboard", pk=pk)
    return redirect("tournament-settings", pk=copy.pk)


def _archived(request: HttpRequest) -> bool:
    form = ArchiveForm(request.POST)
    return bool(form.cleaned_data["archived"]) if form.is_valid() else True


@director_required
@require_POST
def tournament_archive_page(request: HttpRequest, pk: int) -> HttpResponse:
    archived = _archived(request)
    done = page_write(
        request,
        lambda: tournament_archive(
            tournament=tournament_get(pk), archived=archived, actor=request.user
        ),
        lambda tournament: (
            f"'{tournament.name}' archived: hidden from the lists."
            if archived
            else f"'{tournament.name}' is back in the lists."
        ),
    )
    if archived and not isinstance(done, FloorError):
        return redirect("tournament-list")
    return redirect("tournament-dashboard", pk=pk)


@director_required
@require_POST
def tournament_delete_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_get(pk)
    deleted = page_write(
        request,
        lambda: tournament_delete(tournament=tournament, actor=request.user),
        f"'{tournament.name}' deleted.",
    )
    if isinstance(deleted, FloorError):
        return redirect("tournament-dashboard", pk=pk)
    return redirect("tournament-list")


@director_required
@require_POST
def player_archive_page(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_get(pk)
    if player is None:
        raise Http404("There is no such player.")
    archived = _archived(request)
    page_write(
        request,
        lambda: player_archive(player=player, archived=archived, actor=request.user),
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
