"""The desk at scale, the writes: a player moved to a seat the director picks, a seat locked or
unlocked, a table added or closed. Each form posts here and comes back to the tables page at the
table concerned; the API does the same through the same services (`tournaments.api.floor`)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_POST

from tournaments.errors import FloorError, FloorNotFound
from tournaments.floor_forms import SeatLockForm, SeatMoveForm, TableAddForm
from tournaments.forms import first_error
from tournaments.models import Entry, Table
from tournaments.services.floor import entry_move_seat, table_add, table_close, table_lock_seat
from tournaments.views.access import director_required, report_refusal, tournament_get
from tournaments.views.form_tokens import report_form_refusal, submit_once


def _back(pk: int, table: int | None = None) -> HttpResponse:
    """The tables page, at the table concerned (the browser scrolls to it)."""
    anchor = f"#table-{table}" if table is not None else ""
    return HttpResponseRedirect(reverse("table-list", args=[pk]) + anchor)


def _table(pk: int, table_pk: int) -> Table:
    found = Table.objects.filter(pk=table_pk, tournament_id=pk).first()
    if found is None:
        raise FloorNotFound("not_found", "There is no such table in this tournament.")
    return found


@director_required
@require_POST
def seat_move(request: HttpRequest, pk: int) -> HttpResponse:
    """Move a player to the table and seat typed in (after their hand if they are in one)."""
    tournament = tournament_get(pk)
    form = SeatMoveForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return _back(pk)
    data = form.cleaned_data
    table = Table.objects.filter(tournament=tournament, number=data["table"]).first()
    entry = Entry.objects.filter(pk=data["entry"], tournament=tournament).first()
    try:
        if table is None:
            raise FloorNotFound("not_found", f"There is no table {data['table']} in this event.")
        if entry is None:
            raise FloorNotFound("not_found", "That player is not in this tournament.")
        moved = submit_once(
            request,
            lambda: entry_move_seat(
                entry=entry, table=table, seat=data["seat"], actor=request.user
            ),
        )
    except FloorError as error:
        report_form_refusal(request, error)
        return _back(pk, entry.table.number if entry and entry.table else None)
    if moved.move_to_table_id is not None:
        messages.success(
            request,
            f"{moved.player.name} moves to table {table.number} seat {data['seat']} when the "
            "hand they are in ends.",
        )
    else:
        messages.success(
            request, f"{moved.player.name} moved to table {table.number} seat {data['seat']}."
        )
    return _back(pk, table.number)


@director_required
@require_POST
def seat_lock(request: HttpRequest, pk: int, table_pk: int) -> HttpResponse:
    """Lock or unlock one seat of a table."""
    tournament_get(pk)
    form = SeatLockForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return _back(pk)
    seat, locked = form.cleaned_data["seat"], form.cleaned_data["locked"]
    try:
        table = table_lock_seat(
            table=_table(pk, table_pk), seat=seat, locked=locked, actor=request.user
        )
    except FloorError as error:
        report_refusal(request, error)
        return _back(pk)
    done = "locked: nobody is seated there" if locked else "unlocked"
    messages.success(request, f"{table} seat {seat} {done}.")
    return _back(pk, table.number)


@director_required
@require_POST
def add_table(request: HttpRequest, pk: int) -> HttpResponse:
    """Open a table (the next number and the event's size unless the form says otherwise)."""
    tournament = tournament_get(pk)
    form = TableAddForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return _back(pk)
    data = form.cleaned_data
    try:
        table = submit_once(
            request,
            lambda: table_add(
                tournament=tournament,
                number=data["number"],
                seat_count=data["seat_count"],
                actor=request.user,
            ),
        )
    except FloorError as error:
        report_form_refusal(request, error)
        return _back(pk)
    messages.success(request, f"{table} is open with {table.seat_count} seats.")
    return _back(pk, table.number)


@director_required
@require_POST
def close_table(request: HttpRequest, pk: int, table_pk: int) -> HttpResponse:
    """Close a table: its players go to open seats at the other tables (T 10-B)."""
    tournament_get(pk)
    try:
        table = _table(pk, table_pk)
        plan = submit_once(request, lambda: table_close(table=table, actor=request.user))
    except FloorError as error:
        report_form_refusal(request, error)
        return _back(pk)
    moves = len(plan.moves)
    messages.success(
        request, f"{table} is closed: {moves} player{'' if moves == 1 else 's'} to move."
    )
    names = dict(
        Entry.objects.filter(pk__in=[m.entry_id for m in plan.moves]).values_list(
            "pk", "player__name"
        )
    )
    for move in plan.moves:
        messages.info(
            request,
            f"{names.get(move.entry_id, '')}: table {move.from_table} seat {move.from_seat} "
            f"to table {move.to_table} seat {move.to_seat}.",
        )
    return _back(pk)


urls: list[URLPattern] = [
    path("desk/t/<int:pk>/tables/move/", seat_move, name="seat-move"),
    path("desk/t/<int:pk>/tables/add/", add_table, name="table-add"),
    path("desk/t/<int:pk>/tables/<int:table_pk>/lock/", seat_lock, name="seat-lock"),
    path("desk/t/<int:pk>/tables/<int:table_pk>/close/", close_table, name="table-close"),
]
