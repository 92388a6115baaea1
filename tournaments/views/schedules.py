"""Director pages for blind schedules: the list, and the editor (a table of levels and breaks).

"Add level" and "Add break" post the table as typed and get it back with one more row; "Save"
hands the rows to the service, which checks them and names the row at fault ("Level 3: ...").
"""

from __future__ import annotations

from django.forms import BaseFormSet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from common.errors import FloorError
from tournaments.forms import (
    LEVELS_PREFIX,
    LevelForm,
    LevelFormSet,
    ScheduleNameForm,
    filled_levels,
    formset_tampered,
    levels_with_new_row,
)
from tournaments.models import BlindSchedule
from tournaments.services.events import schedule_create, schedule_replace_levels
from tournaments.views.access import director_required
from tournaments.views.form_tokens import form_write

NEW_SCHEDULE_ROWS = 3


@director_required
def schedule_list(request: HttpRequest) -> HttpResponse:
    schedules = BlindSchedule.objects.prefetch_related("levels")
    return render(request, "desk/schedule_list.html", {"schedules": schedules})


@director_required
def schedule_create_page(request: HttpRequest) -> HttpResponse:
    return _editor(request, None)


@director_required
def schedule_edit_page(request: HttpRequest, pk: int) -> HttpResponse:
    return _editor(request, get_object_or_404(BlindSchedule, pk=pk))


def _editor(request: HttpRequest, schedule: BlindSchedule | None) -> HttpResponse:
    adding = request.POST.get("add") if request.method == "POST" else None
    name_form = ScheduleNameForm(
        request.POST or None, initial={"name": schedule.name if schedule else ""}
    )
    if adding in ("level", "break"):
        data = levels_with_new_row(request.POST, is_break=adding == "break")
        formset = LevelFormSet(data, prefix=LEVELS_PREFIX)
        return _render_editor(request, schedule, name_form, formset, validate=False)
    if request.method != "POST":
        formset = LevelFormSet(initial=_initial_rows(schedule), prefix=LEVELS_PREFIX)
        if schedule is None:
            formset.extra = NEW_SCHEDULE_ROWS  # empty rows: untouched ones are left out
        return _render_editor(request, schedule, name_form, formset, validate=False)
    formset = LevelFormSet(request.POST, prefix=LEVELS_PREFIX)
    name_ok = schedule is not None or name_form.is_valid()
    if name_ok and formset.is_valid():
        saved = form_write(
            request,
            name_form,
            lambda: _save(request, schedule, name_form, filled_levels(formset)),
            lambda saved: f"Schedule '{saved.name}' saved.",
        )
        if not isinstance(saved, FloorError):
            return redirect("schedule-edit", pk=saved.pk)
    return _render_editor(request, schedule, name_form, formset, validate=True)


def _save(
    request: HttpRequest,
    schedule: BlindSchedule | None,
    name_form: ScheduleNameForm,
    levels: list[dict[str, int | bool | str]],
) -> BlindSchedule:
    if schedule is None:
        name = name_form.cleaned_data["name"].strip()
        return schedule_create(name=name, levels=levels, actor=request.user)
    return schedule_replace_levels(schedule=schedule, levels=levels, actor=request.user)


def _initial_rows(schedule: BlindSchedule | None) -> list[dict[str, int | bool | str]]:
    if schedule is None:
        return []
    return [LevelForm.initial_from(level) for level in schedule.levels.all()]


def level_labels(formset: BaseFormSet[LevelForm]) -> list[str]:
    """ "Level 1", "Level 2", "Break", ...: playing levels count from 1, as the errors do."""
    labels, number = [], 0
    for form in formset.forms:
        if form.is_break_row():
            labels.append("Break")
        else:
            number += 1
            labels.append(f"Level {number}")
    return labels


def _render_editor(
    request: HttpRequest,
    schedule: BlindSchedule | None,
    name_form: ScheduleNameForm,
    formset: BaseFormSet[LevelForm],
    *,
    validate: bool,
) -> HttpResponse:
    rows = list(zip(level_labels(formset), formset.forms, strict=True))
    context = {
        "schedule": schedule,
        "name_form": name_form,
        "formset": formset,
        "rows": rows,
        "show_errors": validate or formset_tampered(formset),
    }
    status = 400 if formset_tampered(formset) else 200
    return render(request, "desk/schedule_form.html", context, status=status)
