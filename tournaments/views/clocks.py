"""Clock control: start, pause, resume, add or take off a minute, jump to a level; hand-for-hand
with where each table stands in the hand-for-hand hand."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from config import request_time
from tournaments import selectors
from tournaments.forms import AddTimeForm, HandForHandHandForm, SetLevelForm
from tournaments.models import Tournament
from tournaments.selectors import hand_for_hand_due
from tournaments.services.clocks import (
    HAND_FOR_HAND_SECONDS,
    clock_add_time,
    clock_hand_for_hand_hand,
    clock_pause,
    clock_resume,
    clock_set_level,
    clock_start,
    tournament_set_hand_for_hand,
)
from tournaments.views.access import director_required, tournament_get
from tournaments.views.clock_display import clock_context
from tournaments.views.form_tokens import page_write

ClockOperation = Callable[[Tournament, datetime], Tournament]


@director_required
def clock_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_get(pk)
    context = {
        "tournament": tournament,
        "tab": "clock",
        **clock_context(tournament, request_time.now()),
        "levels": selectors.level_list(tournament),
        "hand_for_hand_due": hand_for_hand_due(tournament),
        "hand_for_hand_seconds": HAND_FOR_HAND_SECONDS,
        "hand_for_hand": selectors.hand_for_hand_board(tournament),
    }
    return render(request, "desk/clock.html", context)


def _operate(request: HttpRequest, pk: int, operation: ClockOperation, done: str) -> HttpResponse:
    page_write(request, lambda: operation(tournament_get(pk), request_time.now()), done)
    return redirect("clock-control", pk=pk)


@director_required
@require_POST
def start(request: HttpRequest, pk: int) -> HttpResponse:
    return _operate(
        request,
        pk,
        lambda t, now: clock_start(tournament=t, now=now, actor=request.user),
        "The clock is running: shuffle up and deal.",
    )


@director_required
@require_POST
def pause(request: HttpRequest, pk: int) -> HttpResponse:
    return _operate(
        request,
        pk,
        lambda t, now: clock_pause(tournament=t, now=now, actor=request.user),
        "The clock is paused.",
    )


@director_required
@require_POST
def resume(request: HttpRequest, pk: int) -> HttpResponse:
    return _operate(
        request,
        pk,
        lambda t, now: clock_resume(tournament=t, now=now, actor=request.user),
        "The clock is running again.",
    )


@director_required
@require_POST
def add_time(request: HttpRequest, pk: int) -> HttpResponse:
    form = AddTimeForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Add or take off between 1 and 60 minutes.")
        return redirect("clock-control", pk=pk)
    seconds = form.cleaned_data["seconds"]
    amount = f"{seconds // 60:+d} min" if seconds % 60 == 0 else f"{seconds:+d} s"
    return _operate(
        request,
        pk,
        lambda t, now: clock_add_time(tournament=t, seconds=seconds, now=now, actor=request.user),
        f"Clock adjusted: {amount}.",
    )


@director_required
@require_POST
def set_level(request: HttpRequest, pk: int) -> HttpResponse:
    form = SetLevelForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Pick a level from the list.")
        return redirect("clock-control", pk=pk)
    index = form.cleaned_data["index"]
    return _operate(
        request,
        pk,
        lambda t, now: clock_set_level(tournament=t, index=index, now=now, actor=request.user),
        "The clock is on the chosen level, with its full time.",
    )


@director_required
@require_POST
def hand_for_hand(request: HttpRequest, pk: int) -> HttpResponse:
    on = request.POST.get("on") == "1"
    return _operate(
        request,
        pk,
        lambda t, now: tournament_set_hand_for_hand(
            tournament=t, on=on, now=now, actor=request.user
        ),
        "Hand-for-hand: the clock is stopped; deal one hand at every table."
        if on
        else "Hand-for-hand is over: the clock runs again.",
    )


@director_required
@require_POST
def hand_for_hand_hand(request: HttpRequest, pk: int) -> HttpResponse:
    """The hand-for-hand hand is over at every table (tables without a tablet): a one-time form,
    since a second press would end the next hand-for-hand hand as well."""
    tournament = tournament_get(pk)
    form = HandForHandHandForm(request.POST)
    expected = form.cleaned_data["hand"] if form.is_valid() else None
    page_write(
        request,
        lambda: clock_hand_for_hand_hand(
            tournament=tournament,
            now=request_time.now(),
            actor=request.user,
            expected_hand=expected,
        ),
        f"Hand complete at every table: the clock loses {HAND_FOR_HAND_SECONDS} seconds.",
        once=True,
    )
    return redirect("clock-control", pk=pk)
