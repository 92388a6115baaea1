"""The tablet of one table: the page, the polled state partial, and the writes.

Every write is an htmx POST carrying the tap's client id, the hand and the version shown. A tap
within a hand is answered with what it changed (`dealer/_tap.html`: the table, the pots, the
entry's line of the log and the dock, each swapped in by its id, and the tablet's new ETag and
version in an event): the CPU of a tap stays near the same write through the API. A new hand,
the hand's end, a resent write and every refusal answer the whole tablet (`dealer/_tablet.html`).
A write against an older version shows "The hand changed on another device" with the current
state, and a tap of the action bar that finds another player to act (its `expected_seat`) says
so; nothing is recorded either way, and the tablet's script ignores taps for a moment after the
redraw (`TABLET_TAP_GUARD_MS`). A resent write (same client id) shows the answer first given.
The page polls `deal-state` with the tablet's ETag and gets 304 while nothing has changed.
The tablet's templates are Jinja2's (`templates/jinja2/dealer/`, `config/jinja.py`).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Mapping
from functools import cache, partial, wraps
from typing import Concatenate, ParamSpec, Protocol, TypedDict, TypeVar

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db import connection
from django.db.models import Case, When
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseForbidden,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET, require_POST

from common.actors import Actor
from common.errors import FloorError
from common.roles import may_see_tables
from config import request_time
from config.conditional import conditional
from config.exceptions import status_of
from dealer.card_gate import card_sight
from dealer.cash.models import CashSeat
from dealer.cash.seats import views as cash_views
from dealer.cash.seats.plan import OWED_FIELDS
from dealer.codec import HandSnapshot
from dealer.engine.errors import DomainError, EngineError
from dealer.forms import ActionForm, ReasonedWriteForm, ReopenForm, StartForm, UndoForm
from dealer.models import Hand
from dealer.rotation.selectors import PushDue, push_due, push_refusal
from dealer.selectors import can_write, reopen_refusal, start_refusal
from dealer.services import (
    HandNotAtTableError,
    Result,
    StaleTapError,
    StaleVersionError,
    hand_record_action,
    hand_reopen,
    hand_start,
    hand_undo,
)
from dealer.views import present
from dealer.views.access import dealer_required, refused_for_role, require_write, table_get
from dealer.views.present import (
    ActionBar,
    AwardRow,
    CardView,
    LedgerView,
    LogLine,
    LogView,
    PotRow,
    PushRow,
    Seated,
    SeatName,
    SeatView,
    ShowdownView,
)
from tournaments.models import Entry, Table, Tournament
from tournaments.selectors.tables import moves_after_hand, seats_waiting
from tournaments.views.clock_display import clock_context

POLL_SECONDS = 3
STALE = (
    "The hand changed on another device: here is the current state. "
    "Enter the action again if it is still needed."
)
UNDO_REASONS = ("Wrong amount", "Wrong player", "Wrong action", "Entered twice", "Wrong cards")
NO_ROLE = "Only dealers and tournament staff may write to a table's hands."
REOPEN_REASONS = ("Wrong player", "Wrong action", "Wrong winner", "Wrong amount")


# --- reading ---------------------------------------------------------------------------------


def latest_hand(table: Table) -> Hand | None:
    """The hand the tablet shows: the one in progress (a reopened hand may have a misdeal after
    it), else the table's latest."""
    first = Case(When(status=Hand.Status.IN_PROGRESS, then=0), default=1)
    # Not the engine's stored state: only writes use it.
    hands = Hand.objects.filter(table=table).defer("engine_state")
    return hands.order_by(first, "-number").first()


CASH_SEAT_FIELDS = ("pk", "seat", "chips", "away", *OWED_FIELDS)


def seated(table: Table) -> list[Seated]:
    if table.is_cash:
        return list(CashSeat.objects.filter(table=table).select_related("player").order_by("seat"))
    return list(
        Entry.objects.filter(table=table, status=Entry.Status.ACTIVE, seat__isnull=False)
        .select_related("player")
        .order_by("seat")
    )


def _seats_signature(table: Table) -> str:
    if table.is_cash:
        rows = list(CashSeat.objects.filter(table=table).values_list(*CASH_SEAT_FIELDS))
    else:
        rows = list(
            Entry.objects.filter(table=table, status=Entry.Status.ACTIVE).values_list(
                "pk", "seat", "chips"
            )
        )
    return hashlib.sha256(repr(sorted(rows)).encode()).hexdigest()[:12]


def tablet_etag(
    table: Table,
    hand_pk: int | None,
    version: int,
    status: str,
    writable: bool,
    *,
    audience: str,
) -> str:
    """What the tablet shows, in one tag: the hand and its version, who sits where with what
    (between hands), the table's dealer and button (a cash table's draw), whether it is open,
    its rules, whether the viewer may write, and which cards the viewer may see (the log's
    hole cards: `dealer.card_gate`), so that no viewer is answered 304 to another audience's
    tablet. While a tournament hand is in progress the tablet draws the seats from the hand
    alone, so who sits where is not read for the tag then."""
    in_progress = status == Hand.Status.IN_PROGRESS
    seats = "hand" if in_progress and not table.is_cash else _seats_signature(table)
    # Why no hand may start now (a hand-for-hand wait, a paused clock): it changes with the
    # tournament, not the table, and the start button and its sentence follow it. The button is
    # not shown while a hand is in progress: a tap's answer then reads no tournament for the tag.
    blocked = None if in_progress else start_refusal(table, in_progress=False)
    # A cash table's rules change between its hands (the rules editor), and the next hand's
    # plan (who posts, who may straddle) with them; a tournament's are locked while it runs.
    rules = json.dumps([table.rule_profile, table.rule_overrides], sort_keys=True)
    # The rotation's push due here (shown between hands only: the handover waits for the hand).
    due = None if in_progress else push_due(table, request_time.now())
    raw = (
        f"{table.pk}:{hand_pk or 0}:{version}:{status}:{seats}:{audience}:"
        f"{table.dealer_id or 0}:{table.is_broken}:{int(writable)}:"
        f"{table.button_seat}:{table.is_open}:{blocked.detail if blocked else ''}:{rules}:"
        f"{due.down_id if due else 0}:{int(due.late) if due else 0}"
    )
    return '"' + hashlib.sha256(raw.encode()).hexdigest()[:24] + '"'


def make_notice(kind: str, text: str) -> dict[str, str]:
    return {"kind": kind, "text": text}


class Regions(TypedDict):
    """What `hand_regions` gives the tablet's templates (`dealer/_felt.html`, ...)."""

    table: Table
    hand: Hand | None
    state: HandSnapshot | None
    phase: str | None
    in_progress: bool
    writable: bool
    version: int
    client_id: str
    seats: list[SeatView]
    board: list[CardView]
    board_slots: range
    board2: list[CardView]
    board2_slots: range
    runs: int
    board_unknown: bool
    board_unknown_count: int
    pots: list[PotRow]
    ledger: LedgerView | None
    pot_total: int
    bar: ActionBar | None
    deal_bar: ActionBar | None
    due: int
    next_street: str
    picker: partial[list[list[SafeString]]]
    showdown: ShowdownView | None
    push_pots: list[PushRow]
    push_best: list[SeatName]
    push_open: bool
    awards: list[AwardRow]
    promo_drop: int
    structure: str
    claim_allowed: bool
    reopened: bool


class Tablet(Regions):
    """The whole tablet (`dealer/_tablet.html`): the regions and the side column."""

    tournament: Tournament | None
    etag: str
    notice: dict[str, str] | None
    waiting: list[SeatView]
    log: LogView
    can_start: bool
    start_refusal: str
    structure_label: str
    undo_reasons: tuple[str, ...]
    reopen_reasons: tuple[str, ...]
    reopen_offered: bool
    tablet_url: str
    push: PushDue | None


def hand_regions(
    table: Table,
    hand: Hand | None,
    snapshot: HandSnapshot | None,
    *,
    writable: bool,
    seated_now: list[Seated],
) -> Regions:
    """What the table, the pots and the dock show of the hand (`dealer/_felt.html`,
    `_pots.html`, `_dock.html`): the whole tablet and a tap's answer are built by this one
    function. `seated_now`: who sits at the table now, for the seats the hand does not show."""
    status = snapshot.get("status", "") if snapshot else ""
    in_progress = hand is not None and status == Hand.Status.IN_PROGRESS
    rules = hand.rules if hand is not None else {}
    # A hand's rules name its game and structure: the tournament is read only without a hand
    # (a tap's answer has the table its write locked, without the tournament).
    structure = rules.get("structure") or (table.tournament or table).structure
    board = present.card_views(snapshot.get("board")) if snapshot else []
    # Run it twice (RIT): the second run's board, the common cards then its own.
    board2 = present.card_views(snapshot.get("board2")) if snapshot else []
    common = board[: snapshot.get("common", 0)] if snapshot else []
    cards = snapshot.get("cards") if snapshot else None
    phase = snapshot.get("phase") if snapshot else None
    seats = present.seat_views(table, snapshot, seated_now)
    if table.tournament_id is not None and in_progress and hand is not None:
        moving = moves_after_hand(hand.pk)
        for view in seats:
            view.moves = moving.get(view.seat, "")
    return {
        "table": table,
        "hand": hand,
        "state": snapshot,
        "phase": phase,
        "in_progress": in_progress,
        "writable": writable,
        "version": snapshot.get("version", 0) if snapshot else 0,
        "client_id": uuid.uuid4().hex,
        "seats": seats,
        "board": board,
        "board_slots": range(max(0, 5 - len(board))),
        "board2": [*common, *board2],
        "board2_slots": range(max(0, 5 - len(common) - len(board2))),
        "runs": snapshot.get("runs", 1) if snapshot else 1,
        "board_unknown": any(not card.known for card in board),
        "board_unknown_count": sum(1 for card in board if not card.known),
        "pots": present.pot_views(snapshot) if snapshot else [],
        "ledger": present.ledger_view(cards),
        "pot_total": snapshot.get("pot_total", 0) if snapshot else 0,
        "bar": present.action_bar(snapshot) if snapshot and in_progress else None,
        "deal_bar": present.deal_bar(snapshot) if snapshot and in_progress else None,
        "due": snapshot.get("board_cards_due", 0) if snapshot and in_progress else 0,
        "next_street": present.NEXT_STREET.get(snapshot.get("street", ""), "second board")
        if snapshot
        else "",
        # Built when a template shows the picker (the board entry, the showdown), not before;
        # which cards it offers is the engine's card ledger's answer, nothing of its own.
        "picker": partial(present.deck_rows, cards),
        "showdown": present.showdown_view(snapshot) if snapshot and in_progress else None,
        "push_pots": (pushes := present.push_views(snapshot) if snapshot and in_progress else []),
        "push_best": present.best_hand_seats(pushes),
        # Open while no board card is entered; folded for a dealer who enters the cards.
        "push_open": not any(card.known for card in board),
        "awards": present.award_views(snapshot) if snapshot else [],
        "promo_drop": snapshot.get("drop", 0) if snapshot else 0,
        "structure": structure,
        "claim_allowed": bool(snapshot.get("claim_allowed")) if snapshot else False,
        # A hand reopened to correct it, until its wrong entry is undone.
        "reopened": in_progress and phase in ("complete", "void"),
    }


def tablet_context(
    request: HttpRequest,
    table: Table,
    *,
    hand: Hand | None = None,
    snapshot: HandSnapshot | None = None,
    notice: dict[str, str] | None = None,
) -> dict[str, object]:
    """Everything `dealer/_tablet.html` shows, from the hand's snapshot (or the latest hand):
    the tablet, and a cash table's next hand between hands."""
    tablet = tablet_view(request, table, hand=hand, snapshot=snapshot, notice=notice)
    return tablet_context_of(tablet, table)


def tablet_context_of(tablet: Tablet, table: Table) -> dict[str, object]:
    """The template's context for `tablet`: with a cash table's next hand between hands."""
    if table.is_cash and not tablet["in_progress"]:
        return {**tablet, **cash_views.next_hand_context(table)}
    return {**tablet}


def tablet_view(
    request: HttpRequest,
    table: Table,
    *,
    hand: Hand | None = None,
    snapshot: HandSnapshot | None = None,
    notice: dict[str, str] | None = None,
) -> Tablet:
    """The tablet but a cash table's next hand (`tablet_context`)."""
    if hand is None:
        hand = latest_hand(table)
    if snapshot is None and hand is not None:
        snapshot = hand.state
    tournament = table.tournament
    writable = can_write(request.user, table)
    sight = card_sight(request.user, table)
    status = snapshot.get("status", "") if snapshot else ""
    in_progress = hand is not None and status == Hand.Status.IN_PROGRESS
    blocked = start_refusal(table, in_progress=in_progress)
    if blocked is None and not in_progress:  # after the push: the handover first
        blocked = push_refusal(table, request.user, request_time.now())
    seated_now = seated(table) if table.is_cash or not in_progress else []
    regions = hand_regions(table, hand, snapshot, writable=writable, seated_now=seated_now)
    if tournament is not None and not in_progress:
        waiting = seats_waiting(table, {e.seat: e.pk for e in seated_now if e.seat is not None})
        for view in regions["seats"]:
            view.waits = waiting.get(view.seat, "")
    structure = regions["structure"]
    return {
        **regions,
        "tournament": tournament,
        "etag": tablet_etag(
            table,
            hand.pk if hand else None,
            regions["version"],
            status,
            writable,
            audience=sight.audience,
        ),
        "notice": notice,
        "waiting": [view for view in regions["seats"] if view.waits],
        "log": present.log_view(hand, sight=sight),
        "can_start": blocked is None,
        "start_refusal": blocked.detail if blocked else "",
        "structure_label": dict(Tournament.Structure.choices).get(structure, structure),
        "undo_reasons": UNDO_REASONS,
        "reopen_reasons": REOPEN_REASONS,
        "reopen_offered": writable
        and hand is not None
        and status == Hand.Status.COMPLETE
        and reopen_refusal(hand, request.user) is None,
        "tablet_url": reverse("deal-table", args=[table.pk]),
        "push": None if in_progress else push_due(table, request_time.now()),
    }


def render_tablet(
    request: HttpRequest,
    table: Table,
    *,
    hand: Hand | None = None,
    snapshot: HandSnapshot | None = None,
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
    tablet = tablet_view(request, table, hand=hand, snapshot=snapshot, notice=notice)
    context = tablet_context_of(tablet, table)
    response = render(request, "dealer/_tablet.html", context, status=status, using="jinja2")
    response["ETag"] = tablet["etag"]
    patch_cache_control(response, no_cache=True, private=True)
    return response


# The phases a tap's answer draws region by region. A hand over, or reopened, changes the side
# column and the next-hand dock too: the whole tablet then.
TAP_PHASES = ("betting", "dealing", "showdown")


def render_tap(request: HttpRequest, table: Table, result: Result) -> HttpResponse:
    """What a tap within a hand changed (`dealer/_tap.html`), from the write's own answer: the
    table, the pots, the dock with its forms, and the entry's line of the log (from the event
    written: the log is not read again). The request itself swaps nothing (`HX-Reswap: none`);
    the tablet's new ETag and version come in the `tablet:state` event, which static/js/tablet.js
    copies onto `#tablet` after the regions are in (the poll then sends that ETag, and gets 304).

    The whole tablet instead when the hand is over or reopened, for a resent write (its first
    answer, which may be older than what the tablet shows), and without htmx."""
    snapshot, hand, event = write_answer(result), result.hand, result.event
    if (
        event is None
        or snapshot.get("status") != Hand.Status.IN_PROGRESS
        or snapshot.get("phase") not in TAP_PHASES
        or not getattr(request, "htmx", False)
    ):
        return render_tablet(request, table, hand=hand, snapshot=snapshot)
    writable = True  # the service took this user's write (`check_writer`): no second check
    seated_now = seated(table) if table.is_cash else []
    regions = hand_regions(table, hand, snapshot, writable=writable, seated_now=seated_now)
    line = present.log_line(event, hand)
    version = regions["version"]
    # The hand's first entry: the log and Undo appear (before it there were neither).
    log: dict[str, list[LogLine]] = {"entries": [line]}
    context = {**regions, "line": line, "first_entry": version == 1, "log": log, "oob": True}
    response = render(request, "dealer/_tap.html", context, using="jinja2")
    audience = card_sight(request.user, table).audience
    etag = tablet_etag(table, hand.pk, version, snapshot["status"], writable, audience=audience)
    response["ETag"] = etag
    response["HX-Reswap"] = "none"
    state = {"etag": etag, "hand": hand.pk, "version": version, "phase": regions["phase"]}
    response["HX-Trigger-After-Swap"] = json.dumps({"tablet:state": state})
    patch_cache_control(response, no_cache=True, private=True)
    return response


def hand_of(table: Table, pk: int) -> Hand:
    return get_object_or_404(Hand, pk=pk, table=table)


def hand_ref(table: Table | int, pk: int) -> Hand:
    """The table's hand `pk` for a write: its id and table only, since the service reads and
    locks the hand itself (another field, such as the state, is read when first used)."""
    return get_object_or_404(Hand.objects.only("pk", "table_id"), pk=pk, table=table)


@cache
def _tap_hand_sql() -> str:
    quote = connection.ops.quote_name
    return (
        f"SELECT {quote('id')}, {quote('table_id')} FROM {quote(Hand._meta.db_table)} "
        f"WHERE {quote('id')} = %s AND {quote('table_id')} = %s"
    )


def tap_hand(table_pk: int, pk: int) -> Hand:
    """`hand_ref` for a tap whose action is made from the hand's board (`READS_BOARD`), in plain
    SQL: building the ORM's query for this lookup cost more than the database's work. Every
    other tap reads no hand before its write (the service's lock finds it at the table)."""
    found = next(iter(Hand.objects.raw(_tap_hand_sql(), [pk, table_pk])), None)
    if found is None:
        raise Http404("There is no such hand at this table.")
    return found


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
        context.update(clock_context(table.tournament, request_time.now()))
    context["poll_seconds"] = POLL_SECONDS
    context["tap_guard_ms"] = settings.TABLET_TAP_GUARD_MS
    context["state_url"] = reverse("deal-state", args=[table.pk])
    return render(request, "dealer/tablet.html", context)


@dealer_required
@require_GET
def tablet_state(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The polled partial: 304 while the ETag the tablet holds is still right
    (`config.conditional`)."""
    table = table_get(pk)
    hand = latest_hand(table)
    writable = can_write(request.user, table)
    etag = tablet_etag(
        table,
        hand.pk if hand else None,
        hand.version if hand else 0,
        hand.status if hand else "",
        writable,
        audience=card_sight(request.user, table).audience,
    )
    return conditional(
        request, etag, lambda: render_tablet(request, table, hand=hand, partial=True)
    )


# --- writes ----------------------------------------------------------------------------------


def _stale(request: HttpRequest, table: Table, text: str = STALE) -> HttpResponse:
    return render_tablet(request, table, notice=make_notice("stale", text), status=409)


def refused(request: HttpRequest, table: Table, error: Exception) -> HttpResponse:
    if (bare := refused_for_role(error)) is not None:
        return bare
    if isinstance(error, StaleTapError):
        return _stale(request, table, error.detail)
    if isinstance(error, StaleVersionError):
        return _stale(request, table)
    if isinstance(error, FloorError):
        return render_tablet(
            request, table, notice=make_notice("error", error.detail), status=status_of(error)
        )
    detail = getattr(error, "detail", str(error))
    return render_tablet(request, table, notice=make_notice("error", detail), status=409)


# The buttons whose action is made from the hand's board as stored (`engine_action`).
READS_BOARD = ("deal_board_unknown", "reveal_board")


def _codes(value: object) -> list[str]:
    """The cards an `ActionForm` picked (`CardsField`: a list of codes), or none."""
    return [str(code) for code in value] if isinstance(value, list | tuple) else []


def engine_action(hand: Hand | None, data: Mapping[str, object]) -> dict[str, object]:
    """The engine's action (as JSON) for the button tapped (an `ActionForm`'s cleaned data);
    the engine checks everything. `hand` (its state) is read for the buttons of `READS_BOARD`
    only."""
    kind = data["kind"]
    if kind in READS_BOARD:
        if hand is None:
            raise ValueError(f"{kind}: the hand is needed")
        state: HandSnapshot | None = hand.state or None  # None: no state written yet
        if kind == "deal_board_unknown":
            due = state.get("board_cards_due") if state else None
            return {"kind": "deal_board", "cards": ["??"] * (due or 1)}
        # The cards picked fill the board's unknown places in order; known cards stay.
        picked = iter(_codes(data.get("cards")))
        board = (state.get("board") or []) if state else []
        return {"kind": kind, "cards": [c if c != "??" else next(picked, "??") for c in board]}
    action: dict[str, object] = {"kind": kind}
    if kind == "deal_board":
        action["cards"] = _codes(data.get("cards"))
        return action
    if kind == "award":
        pot = {} if data.get("pot") is None else {"pot": data["pot"]}
        return {"kind": kind, **pot, "seats": data["winners"]}
    if data.get("seat") is not None:
        action["seat"] = data["seat"]  # the service names the player, or refuses the seat
    if data.get("amount") is not None:
        action["amount"] = data["amount"]
    if kind == "show" and data.get("cards"):
        action["cards"] = _codes(data["cards"])
    return action


def write_answer(result: Result) -> HandSnapshot:
    """A hand write's answer as the tablet reads it: `hand_snapshot`'s value, or the first
    answer to a resent write (the same shape, stored)."""
    return result.answer


T = TypeVar("T")


def tried(run: Callable[[], T]) -> T | DomainError:
    """The tablet's one catch: the write's result, or the refusal it met (a floor service's or
    the engine's). A refusal is drawn on the tablet itself (`refused`: the hand as it is now
    with the service's sentence), not as a message on the next page as the desk's are."""
    try:
        return run()
    except (FloorError, EngineError) as error:
        return error


def _write(request: HttpRequest, table: Table, run: Callable[[], Result]) -> HttpResponse:
    result = tried(run)
    if isinstance(result, DomainError):
        return refused(request, table, result)
    return render_tablet(request, table, hand=result.hand, snapshot=write_answer(result))


P = ParamSpec("P")
View = Callable[Concatenate[HttpRequest, P], HttpResponseBase]


def signed_in(view: View[P]) -> View[P]:
    """A tap: anonymous users go to the sign-in page. The session's user is read with the dealer
    role in one query on every request (`config.authentication.FloorBackend`), as an API
    token's is: a dealer taken out of the group, or a user with no role, is refused at once
    with a bare 403, before anything of the table is read (the role came with the user: no
    query). Who may write to this table's hands is then checked by the service, on the table
    it locks with the hand (`tournaments.roles.may_deal`)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not may_see_tables(request.user):
            return HttpResponseForbidden(NO_ROLE, content_type="text/plain; charset=utf-8")
        return view(request, *args, **kwargs)

    return wrapped


@signed_in
@require_POST
def record_action(request: HttpRequest, pk: int) -> HttpResponse:
    """A betting action, the board, a show or muck: one tap, one entry in the hand's log. The
    answer shows what it changed (`render_tap`), from the table and hand its write locked: the
    table is read here only for a refusal."""
    form = ActionForm(request.POST)
    if not form.is_valid():
        table = table_get(pk)
        require_write(request, table)
        return render_tablet(
            request, table, notice=make_notice("error", form.first_error()), status=400
        )
    data = form.cleaned_data
    # Only the buttons built from the hand's board read the hand before the write; the others
    # name it by id, and the service finds it at this table in the statement that locks it.
    hand = tap_hand(pk, data["hand"]) if data["kind"] in READS_BOARD else None
    result = tried(
        lambda: hand_record_action(
            hand=data["hand"] if hand is None else hand,
            action=engine_action(hand, data),
            client_id=data["client_id"],
            version=data["version"],
            actor=request.user,
            expected_seat=data["expected_seat"],
            deal_unentered=bool(data.get("deal_unentered")),
            at_table=pk,
        )
    )
    if isinstance(result, HandNotAtTableError):
        raise Http404(result.detail)
    if isinstance(result, DomainError):
        # A refusal for the user's role is answered before the table is read.
        return refused_for_role(result) or refused(request, table_get(pk), result)
    return render_tap(request, result.hand.table, result)


@dealer_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Cancel the latest entry still in force, with the reason (nothing is deleted)."""
    return _reasoned_write(request, pk, UndoForm, hand_undo)


class ReasonedWrite(Protocol):
    """A hand write with a reason: `hand_undo`, `hand_reopen`."""

    def __call__(
        self, *, hand: Hand | int, reason: str, client_id: str, version: int, actor: Actor = None
    ) -> Result: ...


def _reasoned_write(
    request: HttpRequest, pk: int, form_class: type[ReasonedWriteForm], service: ReasonedWrite
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
    hand = tried(
        lambda: hand_start(
            table=table,
            actor=request.user,
            now=request_time.now(),
            straddle=form.cleaned_data["straddle"],
            expected_plan=form.cleaned_data["plan"],
        )
    )
    if isinstance(hand, DomainError):
        return refused(request, table, hand)
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
        "log": present.log_view(hand, sight=card_sight(request.user, table)),
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
