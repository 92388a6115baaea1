"""Director pages for multi-flight events: create one with its flights, the event page (each
flight and day with its field, "End the day (bag)" and "Draw Day 2"), a phase's printable bag
list, and the event's results. Each write calls the service its API twin calls
(`tournaments/api/flights.py`)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path
from django.views.decorators.http import require_POST

from common.errors import FloorError
from config import request_time
from tournaments.event_forms import EventForm, FlightForm
from tournaments.forms import attach_refusal
from tournaments.models import BlindSchedule, Tournament
from tournaments.selectors.flights import (
    bag_list,
    bag_refusal,
    event_of,
    event_results,
    event_summary,
    phase_label,
    tables_not_counted,
    tables_not_counted_sentence,
)
from tournaments.services.flights import (
    day_draw,
    event_add_day,
    event_add_flight,
    event_create,
    phase_bag,
)
from tournaments.views.access import director_required, tournament_get
from tournaments.views.form_tokens import form_write, page_write


def _event_get(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk, kind=Tournament.Kind.EVENT)


def _shown_as(event: Tournament, status: str) -> Tournament:
    """The event for the page's header, with the status its phases give it (an event deals
    nothing: its own row stays as created). A copy in memory, never saved."""
    return Tournament(pk=event.pk, name=event.name, kind=event.kind, status=status)


@director_required
def event_create_page(request: HttpRequest) -> HttpResponse:
    """The form that creates an event with its flights and Day 2 from a blind schedule."""
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        event = form_write(
            request,
            form,
            lambda: event_create(
                schedule=form.cleaned_data["schedule"],
                flights=form.flight_labels(),
                reentry_across_flights=form.cleaned_data["reentry_across_flights"],
                actor=request.user,
                **form.settings(),
            ),
            lambda event: f"Event '{event.name}' created with its flights.",
            attach=_event_refusal,
        )
        if not isinstance(event, FloorError):
            return redirect("event-page", pk=event.pk)
    context = {"form": form, "has_schedules": BlindSchedule.objects.exists()}
    return render(request, "desk/flights_new.html", context)


def _event_refusal(form: forms.BaseForm, error: FloorError) -> None:
    if error.code == "bad_flights":
        form.add_error("flights", error.detail)
    else:
        attach_refusal(form, error)


@director_required
def event_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The event: each flight and day with entries, players left, chips and status, and the
    buttons that end a day and draw the next."""
    event = _event_get(pk)
    summary = event_summary(event)
    context = {
        "tournament": _shown_as(event, summary.status),
        "event": event,
        "tab": "event",
        "summary": summary,
        "flight_form": FlightForm(),
    }
    return render(request, "desk/flights.html", context)


@director_required
@require_POST
def event_flight_add(request: HttpRequest, pk: int) -> HttpResponse:
    form = FlightForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the new flight a letter.")
        return redirect("event-page", pk=pk)
    page_write(
        request,
        lambda: event_add_flight(
            event=_event_get(pk), flight=form.cleaned_data["flight"], actor=request.user
        ),
        lambda phase: f"{phase.name} added.",
    )
    return redirect("event-page", pk=pk)


@director_required
@require_POST
def event_day_add(request: HttpRequest, pk: int) -> HttpResponse:
    page_write(
        request,
        lambda: event_add_day(event=_event_get(pk), actor=request.user),
        lambda phase: f"{phase.name} added.",
    )
    return redirect("event-page", pk=pk)


@director_required
def phase_bag_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A flight's (or a day's) bag list, printable; posting it ends the day. While a table has
    never been counted the form names it and asks the director to confirm (the service's 409
    `tables_not_counted` otherwise: the event page's button lands here with it)."""
    phase = tournament_get(pk)
    event = event_of(phase)
    if event is None or phase.kind == Tournament.Kind.EVENT:
        return redirect("tournament-dashboard", pk=pk)
    if request.method == "POST":
        page_write(
            request,
            lambda: phase_bag(
                phase=phase,
                now=request_time.now(),
                confirm=request.POST.get("confirm") == "on",
                actor=request.user,
            ),
            f"{phase_label(phase)} is over: its bags are recorded.",
            once=True,
        )
        return redirect("phase-bag", pk=pk)
    bags = bag_list(phase)
    not_counted = tables_not_counted(phase) if phase.status != Tournament.Status.FINISHED else []
    context = {
        "tournament": phase,
        "event": event,
        "tab": "event",
        "label": phase_label(phase),
        "can_bag": bag_refusal(phase) is None,
        "bags": bags,
        "total": sum(bag.chips for bag in bags),
        "count_sheets": list(
            phase.tables.filter(is_broken=False).order_by("number").values_list("number", "pk")
        ),
        "not_counted": not_counted,
        "not_counted_sentence": tables_not_counted_sentence(not_counted) if not_counted else "",
    }
    return render(request, "desk/flights_bags.html", context)


@director_required
@require_POST
def day_draw_page(request: HttpRequest, pk: int) -> HttpResponse:
    day = tournament_get(pk)
    event = event_of(day)
    page_write(
        request,
        lambda: day_draw(day=day, now=request_time.now(), actor=request.user),
        _drawn,
        once=True,
    )
    return redirect("event-page", pk=event.pk if event else pk)


def _drawn(drawn: Tournament) -> str:
    players = drawn.entries.count()
    tables = drawn.tables.count()
    return (
        f"{phase_label(drawn)} drawn: {players} players at {tables} "
        f"table{'s' if tables != 1 else ''}."
    )


@director_required
def event_results_page(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_get(pk)
    summary = event_summary(event)
    context = {
        "tournament": _shown_as(event, summary.status),
        "event": event,
        "tab": "event",
        "summary": summary,
        "rows": event_results(event),
    }
    return render(request, "desk/flights_results.html", context)


urls: list[URLPattern] = [
    path("desk/events/new/", event_create_page, name="event-create"),
    path("desk/events/<int:pk>/", event_page, name="event-page"),
    path("desk/events/<int:pk>/flights/", event_flight_add, name="event-flight-add"),
    path("desk/events/<int:pk>/days/", event_day_add, name="event-day-add"),
    path("desk/events/<int:pk>/results/", event_results_page, name="event-results"),
    path("desk/t/<int:pk>/bag/", phase_bag_page, name="phase-bag"),
    path("desk/t/<int:pk>/day-draw/", day_draw_page, name="day-draw"),
]
