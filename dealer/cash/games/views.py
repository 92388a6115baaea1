"""Games and waiting lists: the floor's pages (the games, one game with its tables and list) and
the public ones (the live games, joining a list from a phone, the player's place by their code).

The floor's pages are for directors. Each write is one service call whose success sentence, or
refusal, shows on the game's page. The public pages need no account and show no names but the
player's own; the place polls `list-place-state`, which answers 304 while nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict, TypeVar

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from common.errors import FloorError
from config.authentication import ListJoinThrottle, client_wait
from config.conditional import conditional
from config.exceptions import status_of
from dealer.cash.games import forms as f
from dealer.cash.games import lookups, waitlist
from dealer.cash.games import services as games
from dealer.cash.games.selectors import (
    PlaceView,
    cash_game_get,
    cash_game_list,
    cash_game_view,
    free_cash_tables,
    game_entry_get,
    list_join_rate_refusal,
    list_lookup_rate_refusal,
    seat_change_list,
)
from dealer.cash.models import CashGame
from dealer.cash.seats.selectors import cash_table_get
from tournaments.models import Table
from tournaments.views.access import director_required
from tournaments.views.form_tokens import attempt, form_write, page_write, refusal_on_top

POLL_SECONDS = 10
CODE_MAX = lookups.CODE_MAX

FormT = TypeVar("FormT", bound=forms.Form)


# --- the floor's pages ---------------------------------------------------------------------------


@director_required
@require_http_methods(["GET", "POST"])
def game_list(request: HttpRequest) -> HttpResponse:
    """Every game with its tables and list; a new game is created here."""
    form = f.GameForm(request.POST or None, initial={"hold_seconds": 180})
    if request.method == "POST" and form.is_valid():
        game = form_write(
            request,
            form,
            lambda: games.cash_game_create(actor=request.user, **form.cleaned_data),
            lambda game: f"{game.name} is open: deal it at a table.",
            attach=refusal_on_top,
        )
        if not isinstance(game, FloorError):
            return redirect("cash-game", pk=game.pk)
    waitlist.waitlist_expire_on_read()
    context = {"games": cash_game_list(), "form": form}
    return render(request, "dealer/cash_games.html", context)


@director_required
def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    """One game: its tables (stakes, must-move), its list (call next, seated, no-show)."""
    waitlist.waitlist_expire_on_read()
    game = cash_game_get(pk)
    context = {
        "game": cash_game_view(game),
        "seat_changes": seat_change_list(game),
        "free_tables": free_cash_tables(),
        "other_games": [g for g in cash_game_list(open_only=True) if g.id != game.pk],
        "entry_choices": f.EntryForm.base_fields["choice"].choices,  # type: ignore[attr-defined]
    }
    return render(request, "dealer/cash_game.html", context)


def _carry_out(request: HttpRequest, pk: int, run: Callable[[], str]) -> HttpResponse:
    # A form sent twice changes nothing the second time.
    page_write(request, run, lambda done: done, once=True)
    return redirect("cash-game", pk=pk)


def _form(request: HttpRequest, form_class: type[FormT]) -> FormT | None:
    """The form, valid; else None, its first error shown as a message."""
    form = form_class(request.POST)
    if form.is_valid():
        return form
    errors = next(iter(form.errors.values()))
    messages.error(request, str(errors[0]))
    return None


def _game_write(
    request: HttpRequest, pk: int, form_class: type[FormT], write: Callable[[CashGame, FormT], str]
) -> HttpResponse:
    """A write to a game from its page, which the answer goes back to."""
    game, form = cash_game_get(pk), _form(request, form_class)
    if form is None:
        return redirect("cash-game", pk=pk)
    return _carry_out(request, pk, lambda: write(game, form))


@director_required
@require_POST
def game_change(request: HttpRequest, pk: int) -> HttpResponse:
    def write(game: CashGame, form: f.ChangeForm) -> str:
        if form.cleaned_data["action"] == "open":
            games.cash_game_open(game=game, actor=request.user)
            return f"{game.name} is open."
        games.cash_game_close(game=game, actor=request.user)
        return f"{game.name} is closed."

    return _game_write(request, pk, f.ChangeForm, write)


@director_required
@require_POST
def game_stakes(request: HttpRequest, pk: int) -> HttpResponse:
    def write(game: CashGame, form: f.StakesForm) -> str:
        done = games.cash_game_stakes_change(game=game, actor=request.user, **form.cleaned_data)
        return f"{done.name} plays {done.small_blind}/{done.big_blind} now, at every table."

    return _game_write(request, pk, f.StakesForm, write)


@director_required
@require_POST
def game_break(request: HttpRequest, pk: int) -> HttpResponse:
    game, form = cash_game_get(pk), _form(request, f.BreakForm)
    if form is None:
        return redirect("cash-game", pk=pk)
    values = form.cleaned_data
    target = cash_game_get(values["to_game"]) if values.get("to_game") else None

    def run() -> str:
        moved = games.cash_game_break(game=game, to_game=target, actor=request.user)
        where = (target or game).name
        return f"{game.name} is broken: {len(moved)} players at the top of the {where} list."

    return _carry_out(request, target.pk if target else pk, run)


@director_required
@require_POST
def game_table_attach(request: HttpRequest, pk: int) -> HttpResponse:
    def write(game: CashGame, form: f.AttachForm) -> str:
        values = form.cleaned_data
        table = cash_table_get(values["table"])
        games.cash_game_table_attach(
            game=game, table=table, confirm=values.get("confirm", False), actor=request.user
        )
        return f"{table} deals {game.name}."

    return _game_write(request, pk, f.AttachForm, write)


@director_required
@require_POST
def game_list_add(request: HttpRequest, pk: int) -> HttpResponse:
    def write(game: CashGame, form: f.NameForm) -> str:
        name = form.cleaned_data["player_name"]
        entry = waitlist.game_waitlist_join(game=game, player_name=name, actor=request.user)
        return f"{entry.player.name} is on the list (code {entry.code})."

    return _game_write(request, pk, f.NameForm, write)


@director_required
@require_POST
def game_call_next(request: HttpRequest, pk: int) -> HttpResponse:
    game = cash_game_get(pk)

    def run() -> str:
        waitlist.waitlist_expire_calls()
        entry = waitlist.game_waitlist_call_next(game=game, actor=request.user)
        table = entry.call_table.number if entry.call_table else "?"
        return f"{entry.player.name}: table {table}, seat {entry.call_seat}."

    return _carry_out(request, pk, run)


@director_required
@require_POST
def game_entry_change(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    entry = game_entry_get(cash_game_get(pk), entry_pk)
    form = _form(request, f.EntryForm)
    if form is None:
        return redirect("cash-game", pk=pk)
    values = form.cleaned_data
    name, user = entry.player.name, request.user

    def run() -> str:
        if values["action"] == "seat":
            buy_in, choice = values.get("buy_in"), values["choice"]
            seat = games.game_waitlist_seat(entry=entry, buy_in=buy_in, choice=choice, actor=user)
            return f"{name} sits at {seat.table}, seat {seat.seat}."
        if values["action"] == "no_show":
            waitlist.game_waitlist_no_show(entry=entry, actor=user)
            return f"{name} is a no-show: the seat goes to the next player."
        waitlist.game_waitlist_remove(entry=entry, actor=user)
        return f"{name} is off the list."

    return _carry_out(request, pk, run)


def _table_write(
    request: HttpRequest, pk: int, form_class: type[FormT], write: Callable[[Table, FormT], str]
) -> HttpResponse:
    """A write to one of a game's tables from the game page, which the answer goes back to."""
    table, form = cash_table_get(pk), _form(request, form_class)
    back = table.cash_game_id
    if form is None or back is None:
        return redirect("cash-game", pk=back) if back else redirect("cash-table", pk=pk)
    return _carry_out(request, back, lambda: write(table, form))


@director_required
@require_POST
def table_stakes(request: HttpRequest, pk: int) -> HttpResponse:
    def write(table: Table, form: f.StakesForm) -> str:
        done = games.cash_table_stakes_change(table=table, actor=request.user, **form.cleaned_data)
        return f"{done} plays {done.small_blind}/{done.big_blind} from the next hand."

    return _table_write(request, pk, f.StakesForm, write)


@director_required
@require_POST
def table_must_move(request: HttpRequest, pk: int) -> HttpResponse:
    def write(table: Table, form: f.MustMoveForm) -> str:
        values = form.cleaned_data
        main = cash_table_get(values["main"]) if values.get("main") else None
        games.cash_table_must_move_set(table=table, main=main, actor=request.user)
        return f"{table} feeds {main}." if main else f"{table} is no longer a must-move table."

    return _table_write(request, pk, f.MustMoveForm, write)


@director_required
@require_POST
def table_close(request: HttpRequest, pk: int) -> HttpResponse:
    """Close one of the game's tables: its players move with their stacks (`games.relocate`)."""

    def write(table: Table, form: f.CloseForm) -> str:
        moved = games.cash_table_close(table=table, actor=request.user)
        seated = ", ".join(f"{s.player.name} to {s.table} seat {s.seat}" for s in moved.seated)
        listed = ", ".join(e.player.name for e in moved.listed)
        said = [f"{table} is closed."]
        if seated:
            said.append(f"Moved with their stacks: {seated}.")
        if listed:
            said.append(f"At the top of the list with their stacks: {listed}.")
        return " ".join(said)

    return _table_write(request, pk, f.CloseForm, write)


# --- the public ----------------------------------------------------------------------------------


def live_games(request: HttpRequest) -> HttpResponse:
    """The games running, their tables and open seats, how many wait, and a link to join."""
    waitlist.waitlist_expire_on_read()
    return render(request, "public/live_games.html", {"games": cash_game_list(open_only=True)})


@require_http_methods(["GET", "POST"])
def join_list(request: HttpRequest, pk: int) -> HttpResponse:
    """A player joins a game's list from their phone with a name; their place page follows."""
    game = cash_game_view(cash_game_get(pk))
    form = f.NameForm(request.POST or None)
    wait = client_wait(request, ListJoinThrottle()) if request.method == "POST" else None
    if wait is not None:
        form = f.NameForm(initial={"player_name": request.POST.get("player_name", "")})
        context = {"game": game, "form": form, "refusal": list_join_rate_refusal(wait)}
        response = render(request, "public/join_list.html", context, status=429)
        response["Retry-After"] = str(max(1, round(wait)))
        return response
    if request.method == "POST" and form.is_valid():
        entry = form_write(
            request,
            form,
            lambda: waitlist.game_waitlist_join(
                game=cash_game_get(pk), player_name=form.cleaned_data["player_name"], public=True
            ),
            None,  # the place page says it
            attach=refusal_on_top,
        )
        if not isinstance(entry, FloorError):
            lookups.code_remember(request, entry.code)
            return redirect("list-place", code=entry.code)
    status = 400 if form.errors else 200
    return render(request, "public/join_list.html", {"game": game, "form": form}, status=status)


class PlaceContext(TypedDict):
    place: PlaceView
    poll_seconds: int


def _place_context(request: HttpRequest, code: str) -> PlaceContext:
    """The place, looked up for this client (`lookups.place_lookup`: rate-limited)."""
    waitlist.waitlist_expire_on_read()
    return {"place": lookups.place_lookup(request, code), "poll_seconds": POLL_SECONDS}


def _lookup_refused(request: HttpRequest, code: str, wait: float, *, poll: bool) -> HttpResponse:
    """429 with the sentence and Retry-After: the code form again, or for the poll the sentence
    alone (the place page's polled part)."""
    refusal = list_lookup_rate_refusal(wait)
    if poll:
        response = HttpResponse(render_to_string("public/_list_refusal.html", {"refusal": refusal}))
        response.status_code = 429
    else:
        context = {"code": code.strip().upper()[:CODE_MAX], "refusal": refusal}
        response = render(request, "public/list_lookup.html", context, status=429)
    response["Retry-After"] = str(max(1, round(wait)))
    return response


@require_GET
def list_lookup(request: HttpRequest) -> HttpResponse:
    """A player types the code they were given (`?code=`) and goes to their place (refused at
    once, 429, for a client past the lookup rates: `dealer.cash.games.lookups`)."""
    code = request.GET.get("code", "").strip().upper()
    clean = lookups.code_clean(code)
    if "code" in request.GET:
        try:
            lookups.lookup_check(request, clean)
        except lookups.LookupRefusedError as refused:
            return _lookup_refused(request, code, refused.wait, poll=False)
    if clean is not None:
        return redirect("list-place", code=clean)
    status = 400 if "code" in request.GET else 200
    return render(request, "public/list_lookup.html", {"code": code[:CODE_MAX]}, status=status)


def list_place(request: HttpRequest, code: str) -> HttpResponse:
    """The player's place on the list, or their call, by the code they were given; an unknown
    code gets the code form again, with the reason (404); a client past the lookup rates 429."""
    try:
        context = _place_context(request, code)
    except lookups.LookupRefusedError as refused:
        return _lookup_refused(request, code, refused.wait, poll=False)
    except Http404:
        missing = {"code": code.strip().upper()[:CODE_MAX], "missing": True}
        return render(request, "public/list_lookup.html", missing, status=404)
    return render(request, "public/list_place.html", context)


@require_POST
def list_leave(request: HttpRequest, code: str) -> HttpResponse:
    """The player leaves the list from their place page (`waitlist.game_waitlist_leave`, with
    the code the page has); the place page follows, saying they are off the list. A refusal
    shows the page again with its sentence (the code form for 400 `bad_code`, the place page
    for 409); a client past the lookup rates gets 429, an unknown code the code form (404)."""
    shown = code.strip().upper()[:CODE_MAX]
    if lookups.code_clean(code) is not None:
        try:
            lookups.place_lookup(request, code)  # the lookup rates: a leave cannot guess codes
        except lookups.LookupRefusedError as refused:
            return _lookup_refused(request, code, refused.wait, poll=False)
        except Http404:
            context = {"code": shown, "missing": True}
            return render(request, "public/list_lookup.html", context, status=404)
    left = attempt(lambda: waitlist.game_waitlist_leave(code=code))
    if isinstance(left, FloorError):  # the page drawn again with the refusal's sentence
        if lookups.code_clean(code) is None:
            context = {"code": shown, "refusal": left.detail}
            return render(request, "public/list_lookup.html", context, status=status_of(left))
        context = {**_place_context(request, code), "refusal": left.detail}
        return render(request, "public/list_place.html", context, status=status_of(left))
    return redirect("list-place", code=code.strip().upper())


def list_place_state(request: HttpRequest, code: str) -> HttpResponseBase:
    """The polled part of the place page, with an ETag of the place and the call (304 while
    they have not changed); 429 with the sentence past the lookup rates."""
    try:
        context = _place_context(request, code)
    except lookups.LookupRefusedError as refused:
        return _lookup_refused(request, code, refused.wait, poll=True)
    etag = f'"{context["place"].tag}"'
    return conditional(
        request,
        etag,
        lambda: HttpResponse(render_to_string("public/_list_place.html", context, request)),
    )
