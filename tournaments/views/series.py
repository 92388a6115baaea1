"""Series for the director: the list, with how many events each holds, and the form that
creates one (`series_create`, the twin of `POST /api/series/`). A tournament joins a series in
its settings."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path

from common.errors import FloorError
from tournaments.player_forms import SeriesForm, attach_player_refusal
from tournaments.selectors.players import series_list
from tournaments.services.series import series_create
from tournaments.views.access import director_required
from tournaments.views.form_tokens import form_write


@director_required
def series_page(request: HttpRequest) -> HttpResponse:
    form = SeriesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        created = form_write(
            request,
            form,
            lambda: series_create(name=form.cleaned_data["name"], actor=request.user),
            lambda created: f"Series '{created.name}' created.",
            attach=attach_player_refusal,
        )
        if not isinstance(created, FloorError):
            return redirect("series-list")
    context = {"form": form, "series": series_list()}
    return render(request, "desk/series.html", context, status=400 if form.errors else 200)


urls: list[URLPattern] = [path("desk/series/", series_page, name="series-list")]
