"""The tablet of one table: the page, the polled state partial, and the writes.

Every write is an htmx POST carrying the tap's client id, the hand and the version shown; the
answer is the re-rendered tablet partial (`dealer/_tablet.html`). A write against an older
version shows "The hand changed on another device" with the current state; a resent write (same
client id) shows the answer first given. The page polls `deal-state` with the tablet's ETag and
gets 304 while nothing has changed.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from django.contrib import messages
from django.db.models import Case, When
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseNotModified,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags
from django.views.decorators.http import require_GET, require_POST

from dealer import cash
from dealer.engine.errors import EngineError
from dealer.forms import ActionForm, ReasonedWriteForm, ReopenForm, StartForm, UndoForm
from dealer.models import Hand
from dealer.services import (
    Result,
    StaleVersionError,
    can_write,
    hand_record_action,
    hand_reopen,
    hand_start,
    hand_undo,
    reopen_refusal,
    start_refusal,
)
from dealer.views import cash as cash_views
from dealer.views import present
from dealer.views.access import dealer_required, require_write, table_get
from tournaments.models import CashSeat, Entry, Table, Tournament
from tournaments.services.errors import FloorError
from tournaments.services.tables import moves_after_hand, seats_waiting
from tournaments.views import wallclock
from tournaments.views.clockface import clock_context

POLL_SECONDS = 3
STALE = (
    "The hand changed on another device: here is the current state. "
    "Enter the action again if it is still needed."
)
UNDO_REASONS = ("Wrong amount", "Wrong player", "Wrong action", "Entered twice", "Wrong cards")
REOPEN_REASONS = ("Wrong player", "Wrong action", "Wrong winner", "Wrong amount")


# --- reading ---------------------------------------------------------------------------------


def latest_hand(table: Table) -> Hand | None:
    """The hand the tablet shows: the one in progress (a reopened hand may have a misdeal after
    it), else the table's latest."""
    first = Case(When(status=Hand.Status.IN_PROGRESS, then=0), default=1)
    # Not the engine's stored state: only writes use it.
    hands = Hand.objects.filter(table=table).defer("engine_state")
    return hands.order_by(first, "-number").first()


CASH_SEAT_FIELDS = ("pk", "seat", "chips", "away", *cash.OWED_FIELDS)


def seated(table: Table) -> list[Any]:
    if table.is_cash:
        return list(CashSeat.objects.filter(table=table).select_related("player").order_by("seat"))
    return list(
        Entry.objects.filter(table=table, status=Entry.Status.ACTIVE, seat__isnull=False)
        .select_related("player")
        .order_by("seat")
    )


def _seats_signature(table: Table) -> str:
    if table.is_cash:
        rows: Any = CashSeat.objects.filter(table=table).values_list(*CASH_SEAT_FIELDS)
    else:
        rows = Entry.objects.filter(table=table, status=Entry.Status.ACTIVE).values_list(
            "pk", "seat", "chips"
        )
    return hashlib.sha256(repr(sorted(rows)).encode()).hexdigest()[:12]


def tablet_etag(
    table: Table, hand_pk: int | None, version: int, status: str, writable: bool
) -> str:
    """What the tablet shows, in one tag: the hand and its version, who sits where with what
    (between hands), the table's dealer and button (a cash table's draw), whether it is open,
    and whether the viewer may write. While a tournament hand is in progress the tablet draws the
    seats from the hand alone, so who sits where is not read for the tag then."""
    in_hand = status == Hand.Status.IN_PROGRESS and not table.is_cash
    seats = "hand" if in_hand else _seats_signature(table)
    # Why no hand may start now (a hand-for-hand wait, a paused clock): it changes with the
    # tournament, not the table, and the start button and its sentence follow it.
    blocked = start_refusal(table, in_progress=status == Hand.Status.IN_PROGRESS)
    raw = (
        f"{table.pk}:{hand_pk or 0}:{version}:{status}:{seats}:"
        f"{table.dealer_id or 0}:{table.is_broken}:{int(writable)}:"
        f"{table.button_seat}:{table.is_open}:{blocked.detail if blocked else ''}"
    )
    return '"' + hashlib.sha256(raw.encode()).hexdigest()[:24] + '"'


def make_notice(kind: str, text: str) -> dict[str, str]:
    return {"kind": kind, "text": text}


def tablet_context(
    request: HttpRequest,
    table: Table,
    *,
    hand: Hand | None = None,
    snapshot: dict[str, Any] | None = None,
    notice: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Everything `dealer/_tablet.html` shows, from the hand's snapshot (or the latest hand)."""
    if hand is None:
        hand = latest_hand(table)
    if snapshot is None and hand is not None:
        snapshot = hand.state
    tournament = table.tournament
    writable = can_write(request.user, table)
    status = snapshot.get("status", "") if snapshot else ""
    in_progress = hand is not None and status == Hand.Status.IN_PROGRESS
    rules = hand.rules if hand is not None else {}
    structure = rules.get("structure") or (tournament or table).structure
    game = rules.get("game") or (tournament or table).game
    board = present.card_views(snapshot.get("board")) if snapshot else []
    due = snapshot.get("board_cards_due", 0) if snapshot and in_progress else 0
    used = [c.code for c in board if c.known]
    for player in snapshot.get("players", ()) if snapshot else ():
        used += [c for c in player.get("shown") or () if c != "??"]
    phase = snapshot.get("phase") if snapshot else None
    blocked = start_refusal(table, in_progress=in_progress)
    version = snapshot.get("version", 0) if snapshot else 0
    seated_now = seated(table) if table.is_cash or not in_progress else []
    seats = present.seat_views(table, snapshot, seated_now)
    waiting: dict[int, str] = {}
    if tournament is not None and not in_progress:
        waiting = seats_waiting(table, {e.seat: e.pk for e in seated_now})
        for view in seats:
            view.waits = waiting.get(view.seat, "")
    elif tournament is not None and hand is not None:
        moving = moves_after_hand(hand.pk)
        for view in seats:
            view.moves = moving.get(view.seat, "")
    context = {
        "table": table,
        "tournament": tournament,
        "hand": hand,
        "state": snapshot,
        "phase": phase,
        "in_progress": in_progress,
        "writable": writable,
        "version": version,
        "client_id": uuid.uuid4().hex,
        "etag": tablet_etag(table, hand.pk if hand else None, version, status, writable),
        "notice": notice,
        "seats": seats,
        "waiting": [view for view in seats if view.waits],
        "board": board,
        "board_slots": range(max(0, 5 - len(board))),
        "board_unknown": any(not card.known for card in board),
        "board_unknown_count": sum(1 for card in board if not card.known),
        "pots": present.pot_views(snapshot) if snapshot else [],
        "pot_total": snapshot.get("pot_total", 0) if snapshot else 0,
        "bar": present.action_bar(snapshot, structure) if snapshot and in_progress else None,
        "due": due,
        "next_street": present.NEXT_STREET.get(snapshot.get("street", ""), "board")
        if snapshot
        else "",
        "picker": present.deck_rows(game, used),
        "showdown": present.showdown_view(snapshot) if snapshot and in_progress else None,
        "awards": present.award_views(snapshot) if snapshot else [],
        "log": present.log_view(hand),
        "can_start": blocked is None,
        "start_refusal": blocked.detail if blocked else "",
        "structure": structure,
        "structure_label": dict(Tournament.Structure.choices).get(structure, structure),
        "claim_allowed": rules.get("play_board_claim", "table_both") != "table_both",
        "undo_reasons": UNDO_REASONS,
        "reopen_reasons": REOPEN_REASONS,
        # A hand reopened to correct it, until its wrong entry is undone.
        "reopened": in_progress and phase in ("complete", "void"),
        "reopen_offered": writable
        and hand is not None
        and status == Hand.Status.COMPLETE
        and tournament is not None
        and reopen_refusal(hand, request.user) is None,
        "tablet_url": reverse("deal-table", args=[table.pk]),
    }
    if table.is_cash and not in_progress:
        context.update(cash_views.next_hand_context(table))
    return context


def render_tablet(
    request: HttpRequest,
    table: Table,
    *,
    hand: Hand | None = None,
    snapshot: dict[str, Any] | None = None,
    notice: dict[str, str] | None = None,
    status: int = 200,
    partial: bool | None = None,
) -> HttpResponse:
    """The tablet partial (htmx), or back to the page with the notice (a plain form post)."""
    if partial is None:
        partial = bool(getattr(request, "htmx", False))
    if not partial:
        if notice:
            level = messages.ERROR if notice["kind"] == "error" else messages.WARNING
            messages.add_message(request, level, notice["text"])
        return redirect("deal-table", pk=table.pk)
    context = tablet_context(request, table, hand=hand, snapshot=snapshot, notice=notice)
    response = render(request, "dealer/_tablet.html", context, status=status)
    response["ETag"] = context["etag"]
    patch_cache_control(response, no_cache=True, private=True)
    return response


def hand_of(table: Table, pk: int) -> Hand:
    return get_object_or_404(Hand, pk=pk, table=table)


def hand_ref(table: Table, pk: int) -> Hand:
    """The table's hand `pk` for a write: its id and table only, since the service reads and
    locks the hand itself (another field, such as the state, is read when first used)."""
    return get_object_or_404(Hand.objects.only("pk", "table_id"), pk=pk, table=table)


# --- pages -----------------------------------------------------------------------------------


@dealer_required
@require_GET
def tablet_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The tablet: the table as seats around an oval, the action bar, pots, showdown, tools."""
    table = table_get(pk)
    context = tablet_context(request, table)
    for message in messages.get_messages(request):
        kind = "error" if message.level >= messages.WARNING else "info"
        context["notice"] = make_notice(kind, str(message))
    if table.tournament is not None:
        context.update(clock_context(table.tournament, wallclock.now()))
        context["clock_url"] = reverse("public-clock-json", args=[table.tournament.pk])
    context["poll_seconds"] = POLL_SECONDS
    context["state_url"] = reverse("deal-state", args=[table.pk])
    return render(request, "dealer/tablet.html", context)


@dealer_required
@require_GET
def tablet_state(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The polled partial: 304 while the ETag the tablet holds is still right."""
    table = table_get(pk)
    hand = latest_hand(table)
    writable = can_write(request.user, table)
    etag = tablet_etag(
        table,
        hand.pk if hand else None,
        hand.version if hand else 0,
        hand.status if hand else "",
        writable,
    )
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        response: HttpResponseBase = HttpResponseNotModified()
        response["ETag"] = etag
        patch_cache_control(response, no_cache=True, private=True)
        return response
    return render_tablet(request, table, hand=hand, partial=True)


# --- writes ----------------------------------------------------------------------------------


def _stale(request: HttpRequest, table: Table) -> HttpResponse:
    return render_tablet(request, table, notice=make_notice("stale", STALE), status=409)


def refused(request: HttpRequest, table: Table, error: Exception) -> HttpResponse:
    if isinstance(error, StaleVersionError):
        return _stale(request, table)
    if isinstance(error, FloorError):
        return render_tablet(
            request, table, notice=make_notice("error", error.detail), status=error.status
        )
    detail = getattr(error, "detail", str(error))
    return render_tablet(request, table, notice=make_notice("error", detail), status=409)


def engine_action(hand: Hand, data: dict[str, Any]) -> dict[str, Any]:
    """The engine's action (as JSON) for the button tapped; the engine checks everything."""
    kind = data["kind"]
    action: dict[str, Any] = {"kind": kind}
    if kind == "deal_board_unknown":
        due = (hand.state or {}).get("board_cards_due") or 1
        return {"kind": "deal_board", "cards": ["??"] * due}
    if kind == "deal_board":
        action["cards"] = list(data.get("cards") or [])
        return action
    if kind == "reveal_board":
        # The cards picked fill the board's unknown places in order; known cards stay.
        picked = iter(data.get("cards") or [])
        board = (hand.state or {}).get("board") or []
        return {"kind": kind, "cards": [c if c != "??" else next(picked, "??") for c in board]}
    if data.get("seat") is not None:
        action["seat"] = data["seat"]  # the service names the player, or refuses the seat
    if data.get("amount") is not None:
        action["amount"] = data["amount"]
    if kind == "show" and data.get("cards"):
        action["cards"] = list(data["cards"])
    return action


def _write(request: HttpRequest, table: Table, run: Any) -> HttpResponse:
    try:
        result: Result = run()
    except (FloorError, EngineError) as error:
        return refused(request, table, error)
    return render_tablet(request, table, hand=result.hand, snapshot=result.answer)


@dealer_required
@require_POST
def record_action(request: HttpRequest, pk: int) -> HttpResponse:
    """A betting action, the board, a show or muck: one tap, one entry in the hand's log."""
    table = table_get(pk)
    require_write(request, table)
    form = ActionForm(request.POST)
    if not form.is_valid():
        return render_tablet(
            request, table, notice=make_notice("error", form.first_error()), status=400
        )
    data = form.cleaned_data
    hand = hand_ref(table, data["hand"])
    return _write(
        request,
        table,
        lambda: hand_record_action(
            hand=hand,
            action=engine_action(hand, data),
            client_id=data["client_id"],
            version=data["version"],
            actor=request.user,
        ),
    )


@dealer_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Cancel the latest entry still in force, with the reason (nothing is deleted)."""
    return _reasoned_write(request, pk, UndoForm, hand_undo)


def _reasoned_write(
    request: HttpRequest, pk: int, form_class: type[ReasonedWriteForm], service: Any
) -> HttpResponse:
    """A hand write with a reason (undo, reopen): the form, then one service call."""
    table = table_get(pk)
    require_write(request, table)
    form = form_class(request.POST)
    if not form.is_valid():
        return render_tablet(
            request, table, notice=make_notice("error", form.first_error()), status=400
        )
    data = form.cleaned_data
    hand = hand_ref(table, data["hand"])
    return _write(
        request,
        table,
        lambda: service(
            hand=hand,
            reason=data["reason"],
            client_id=data["client_id"],
            version=data["version"],
            actor=request.user,
        ),
    )


@dealer_required
@require_POST
def start_hand(request: HttpRequest, pk: int) -> HttpResponse:
    """Start the next hand, if the hand the dealer saw last is still the table's latest."""
    table = table_get(pk)
    require_write(request, table)
    form = StartForm(request.POST)
    if not form.is_valid():
        return render_tablet(
            request, table, notice=make_notice("error", "Reload the page."), status=400
        )
    latest = latest_hand(table)
    if (latest.pk if latest else 0) != form.cleaned_data["last_hand"]:
        return _stale(request, table)
    try:
        hand = hand_start(
            table=table,
            actor=request.user,
            now=wallclock.now(),
            straddle=form.cleaned_data["straddle"],
            expected_plan=form.cleaned_data["plan"],
        )
    except FloorError as error:
        return refused(request, table, error)
    return render_tablet(request, table, hand=hand, snapshot=hand.state)


@dealer_required
@require_POST
def reopen(request: HttpRequest, pk: int) -> HttpResponse:
    """Reopen the table's last hand to correct it (its result is reversed), with the reason;
    the tablet then shows the hand with Undo."""
    return _reasoned_write(request, pk, ReopenForm, hand_reopen)


# --- sheets: undo, history -------------------------------------------------------------------


@dealer_required
@require_GET
def undo_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    table = table_get(pk)
    hand = latest_hand(table)
    context = {
        "table": table,
        "hand": hand,
        "version": hand.version if hand else 0,
        "in_progress": hand is not None and hand.status == Hand.Status.IN_PROGRESS,
        "writable": can_write(request.user, table),
        "log": present.log_view(hand),
        "undo_reasons": UNDO_REASONS,
        "client_id": uuid.uuid4().hex,
    }
    return render(request, "dealer/_undo_sheet.html", context)


@dealer_required
@require_GET
def history_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's hands, the latest first, with their winners."""
    table = table_get(pk)
    hands = Hand.objects.filter(table=table).defer("engine_state").order_by("-number")[:50]
    context = {"table": table, "hands": [present.hand_summary(h) for h in hands]}
    return render(request, "dealer/_history_sheet.html", context)
