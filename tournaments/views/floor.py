"""The desk at scale, the writes: a player moved to a seat the director picks, a seat locked or
unlocked, a table added or closed. Each form posts here and comes back to the tables page at the
table concerned; the API does the same through the same services (`tournaments.api.floor`)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_POST

from common.errors import FloorError, FloorNotFound
from tournaments.balancing import Plan
from tournaments.floor_forms import SeatLockForm, SeatMoveForm, TableAddForm
from tournaments.forms import first_error
from tournaments.models import Entry, Table
from tournaments.services.floor import entry_move_seat, table_add, table_close, table_lock_seat
from tournaments.views.access import director_required, report_refusal, tournament_get
from tournaments.views.form_tokens import attempt, page_write, submit_once


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
    seat = data["seat"]

    def move() -> Entry:
        # Both are checked before the form's token is looked at, as they always were: a form
        # naming nobody or no table is refused for that, even when it was sent twice.
        if table is None:
            raise FloorNotFound("not_found", f"There is no table {data['table']} in this event.")
        if entry is None:
            raise FloorNotFound("not_found", "That player is not in this tournament.")
        return submit_once(
            request,
            lambda: entry_move_seat(entry=entry, table=table, seat=seat, actor=request.user),
        )

    def done(moved: Entry) -> str:
        where = f"table {data['table']} seat {seat}"  # the table found by that number
        if moved.move_to_table_id is not None:
            return f"{moved.player.name} moves to {where} when the hand they are in ends."
        return f"{moved.player.name} moved to {where}."

    moved = page_write(request, move, done)
    if isinstance(moved, FloorError):
        return _back(pk, entry.table.number if entry and entry.table else None)
    return _back(pk, data["table"])


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
    done = "locked: nobody is seated there" if locked else "unlocked"
    table = page_write(
        request,
        lambda: table_lock_seat(
            table=_table(pk, table_pk), seat=seat, locked=locked, actor=request.user
        ),
        lambda table: f"{table} seat {seat} {done}.",
    )
    return _back(pk, None if isinstance(table, FloorError) else table.number)


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
    table = page_write(
        request,
        lambda: table_add(
            tournament=tournament,
            number=data["number"],
            seat_count=data["seat_count"],
            actor=request.user,
        ),
        lambda table: f"{table} is open with {table.seat_count} seats.",
        once=True,
    )
    return _back(pk, None if isinstance(table, FloorError) else table.number)


@director_required
@require_POST
def close_table(request: HttpRequest, pk: int, table_pk: int) -> HttpResponse:
    """Close a table: its players go to open seats at the other tables (T 10-B)."""
    tournament_get(pk)
    table = attempt(lambda: _table(pk, table_pk))
    if isinstance(table, FloorError):
        report_refusal(request, table)
        return _back(pk)
    plan = page_write(
        request,
        lambda: table_close(table=table, actor=request.user),
        lambda plan: f"{table} is closed: {_players(len(plan.moves))} to move.",
        once=True,
    )
    if not isinstance(plan, FloorError):
        _report_moves(request, plan)
    return _back(pk)


def _players(count: int) -> str:
    return f"{count} player{'' if count == 1 else 's'}"


def _report_moves(request: HttpRequest, plan: Plan) -> None:
    """One line per player the closed table sends elsewhere, with their name."""
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


urls: list[URLPattern] = [
    path("desk/t/<int:pk>/tables/move/", seat_move, name="seat-move"),
    path("desk/t/<int:pk>/tables/add/", add_table, name="table-add"),
    path("desk/t/<int:pk>/tables/<int:table_pk>/lock/", seat_lock, name="seat-lock"),
    path("desk/t/<int:pk>/tables/<int:table_pk>/close/", close_table, name="table-close"),
]
