"""The room's screens: the desk's Screens tab (add, change, remove a screen), the floor's message
to the room (a form on the Clock tab), and the screen pages a TV opens.

A screen page embeds the one clock feed and polls it (`api-clock`), like every clock display,
and the board beside it (`api-screen-board`: chip leaders, payouts, the final result), both
with ETags: while nothing changes a TV's poll is a 304. `/t/<id>/clock/` is the same page with
the layout in the query (`?layout=sidebar`).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_POST

from common.errors import FloorError
from config import request_time
from tournaments.forms import FloorMessageForm, ScreenForm, first_error
from tournaments.models import Screen, Tournament
from tournaments.selectors.screens import screen_board, screen_get, screen_list
from tournaments.services.screens import (
    screen_create,
    screen_delete,
    screen_update,
    tournament_set_floor_message,
)
from tournaments.views.access import (
    director_required,
    public_tournament_get,
    tournament_get,
)
from tournaments.views.clock_display import clock_context
from tournaments.views.form_tokens import page_write

CLOCK_POLL_SECONDS = 5
PAGE_SECONDS = 8  # how long a screen shows a page of the payouts before the next
# Pages of the payouts side by side: the payouts board shows 30 places at a time.
PAYOUT_PAGES_SHOWN = {Screen.Layout.PAYOUTS.value: 3, Screen.Layout.SIDEBAR.value: 1}
# The sidebar's rows are 3.6% of the screen's height, read from 5 metres: six places to a page
# and the six biggest stacks fit its half-height panels (the board sends pages of ten).
SIDEBAR_ROWS = 6
ROWS_SHOWN = {Screen.Layout.SIDEBAR.value: SIDEBAR_ROWS}
# A screen whose polls have failed this long says so, with the time of its last update.
OFFLINE_SECONDS = 15


def screen_render(
    request: HttpRequest,
    tournament: Tournament,
    *,
    layout: str,
    sound: bool,
    name: str = "",
    back: bool = False,
) -> HttpResponse:
    """A screen's page in one of the layouts (an unknown layout is the big clock); with `back`
    (opened from a phone) a link back to the standings."""
    if layout not in Screen.Layout.values:
        layout = Screen.Layout.CLASSIC
    clock = clock_context(tournament, request_time.now())
    board = screen_board(tournament)
    shown = PAYOUT_PAGES_SHOWN.get(layout, 1)
    rows = ROWS_SHOWN.get(layout, 0)
    pages = board["payout_pages"]
    if rows:
        lines = [line for page in pages for line in page]
        pages = [lines[start : start + rows] for start in range(0, len(lines), rows)]
    blinds, _, ante = clock["clock"]["blinds"].partition(", ")
    context = {
        "tournament": tournament,
        **clock,
        "poll_seconds": CLOCK_POLL_SECONDS,
        "offline_seconds": OFFLINE_SECONDS,
        "break_in": countdown_text(clock["clock"]["seconds_to_next_break"]),
        "blinds": blinds,
        "ante": ante,
        "board": board,
        "first_pages": pages[:shown],
        "pages_shown": shown,
        "page_rows": rows,
        "leaders": board["leaders"][:rows] if rows else board["leaders"],
        "board_url": reverse("api-screen-board", args=[tournament.pk]),
        "layout": layout,
        "sound": sound,
        "screen_name": name,
        "page_seconds": PAGE_SECONDS,
        "back": back,
    }
    return render(request, "public/screen.html", context)


def countdown_text(seconds: int | None) -> str:
    """ "1:05:00", "9:30"; "" for none (the page's script keeps it counting)."""
    if seconds is None:
        return ""
    minutes, secs = divmod(max(seconds, 0), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def screen_show(request: HttpRequest, pk: int, screen_pk: int) -> HttpResponse:
    """A screen of the room, in the layout and with the sound the floor chose for it."""
    tournament = public_tournament_get(pk)
    screen = screen_get(tournament, screen_pk)
    if screen is None:
        raise Http404("There is no such screen.")
    return screen_render(
        request, tournament, layout=screen.layout, sound=screen.sound, name=screen.name
    )


def _row_form(screen: Screen) -> ScreenForm:
    """A screen's row on the Screens tab: the same field names (one view saves them), ids of
    its own, and each field tied to the row's form (`form="screen-<id>"`) across the cells."""
    form = ScreenForm(
        initial={"name": screen.name, "layout": screen.layout, "sound": screen.sound},
        auto_id=f"id_screen{screen.pk}_%s",
    )
    for field in form.fields.values():
        field.widget.attrs["form"] = f"screen-{screen.pk}"
    return form


def _screens_page(
    request: HttpRequest, tournament: Tournament, form: ScreenForm, status: int = 200
) -> HttpResponse:
    screens = [(screen, _row_form(screen)) for screen in screen_list(tournament)]
    context = {
        "tournament": tournament,
        "tab": "screens",
        "screens": screens,
        "form": form,
        "layouts": Screen.Layout.choices,
    }
    return render(request, "desk/screens.html", context, status=status)


@director_required
def screens_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The Screens tab: each screen with its public address, and a form to add one."""
    tournament = tournament_get(pk)
    if request.method != "POST":
        return _screens_page(request, tournament, ScreenForm())
    form = ScreenForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return _screens_page(request, tournament, form, status=400)
    screen = page_write(
        request,
        lambda: screen_create(tournament=tournament, actor=request.user, **form.cleaned_data),
        lambda screen: f"Screen \u201c{screen.name}\u201d added: open its address on the TV.",
    )
    if isinstance(screen, FloorError):  # the refusal at the top of the form, drawn again
        return _screens_page(request, tournament, form, status=400)
    return redirect("screen-list", pk=pk)


@director_required
@require_POST
def screen_save(request: HttpRequest, pk: int, screen_pk: int) -> HttpResponse:
    tournament = tournament_get(pk)
    screen = screen_get(tournament, screen_pk)
    form = ScreenForm(request.POST)
    if screen is None:
        messages.error(request, "There is no such screen: it may have been removed.")
    elif not form.is_valid():
        messages.error(request, first_error(form))
    else:
        page_write(
            request,
            lambda: screen_update(screen=screen, actor=request.user, **form.cleaned_data),
            "Screen saved: reload it on the TV to see a new layout.",
        )
    return redirect("screen-list", pk=pk)


@director_required
@require_POST
def screen_remove(request: HttpRequest, pk: int, screen_pk: int) -> HttpResponse:
    tournament = tournament_get(pk)
    screen = screen_get(tournament, screen_pk)
    if screen is None:
        messages.error(request, "There is no such screen: it may have been removed.")
        return redirect("screen-list", pk=pk)
    screen_delete(screen=screen, actor=request.user)
    messages.success(request, f"Screen \u201c{screen.name}\u201d removed.")
    return redirect("screen-list", pk=pk)


@director_required
@require_POST
def floor_message(request: HttpRequest, pk: int) -> HttpResponse:
    """The Clock tab's message to the room: every screen and phone shows it at its next poll."""
    form = FloorMessageForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("clock-control", pk=pk)
    page_write(
        request,
        lambda: tournament_set_floor_message(
            tournament=tournament_get(pk), actor=request.user, **form.cleaned_data
        ),
        lambda tournament: (
            "Message shown on the screens." if tournament.floor_message else "Message taken down."
        ),
    )
    return redirect("clock-control", pk=pk)


urls: list[URLPattern] = [
    path("desk/t/<int:pk>/screens/", screens_page, name="screen-list"),
    path("desk/t/<int:pk>/screens/<int:screen_pk>/", screen_save, name="screen-save"),
    path("desk/t/<int:pk>/screens/<int:screen_pk>/delete/", screen_remove, name="screen-delete"),
    path("desk/t/<int:pk>/clock/message/", floor_message, name="floor-message"),
    path("t/<int:pk>/screens/<int:screen_pk>/", screen_show, name="public-screen"),
]
