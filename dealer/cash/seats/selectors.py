"""Cash tables, read once: the list of tables, one table as the floor and the dealer see it
(game, stakes, seats with what each owes, the waiting list, the last button draw, the next
hand's plan with its signature), and the lookups the writes start from.

The seats page, the tablet and the REST API all take their answers from here and only render or
serialize them, so a page and the API cannot disagree about a table. Everything returned is
plain data (frozen dataclasses of numbers and text); nothing here writes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from django.db.models import Case, Count, Q, When
from django.http import Http404

from common.errors import FloorError, FloorInvalid
from dealer.cash.games.selectors import ACTIVE, move_targets, seat_holders, table_waiting_list
from dealer.cash.models import CashSeat, WaitingListEntry
from dealer.cash.seats import plan as cash_plan
from dealer.engine import cash as engine_cash
from dealer.engine.rules import OptionValue, Rules
from dealer.engine.setup import Stakes
from dealer.models import Hand
from tournaments.models import ButtonDraw, Table

# A seat's state, as a code for programs and in the floor's words.
STATES = {
    "open": "Open",
    "playing": "Playing",
    "new": "New",
    "returning": "Returning",
    "sitting_out": "Sitting out",
    "no_chips": "No chips",
    "held": "Held for a called player",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class PostView:
    """One player dealt in next hand and what they post (zero for most)."""

    seat: int
    name: str
    live: int
    dead: int
    ante: int
    why: str


@dataclass(frozen=True, slots=True, kw_only=True)
class WaitView:
    """A seated player who is not dealt in next hand, and why."""

    seat: int
    name: str
    code: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NextHandView:
    """The next hand at a cash table as the dealer is shown it before the deal. `signature`
    tags exactly this plan: a start that sends it is refused if the seats changed since."""

    signature: str
    button_seat: int
    small_blind_seat: int | None
    big_blind_seat: int
    heads_up: bool
    restart: bool
    posts: tuple[PostView, ...]
    waiting: tuple[WaitView, ...]
    straddle_seat: int | None
    straddle_name: str
    straddle_amount: int

    @property
    def dealt(self) -> int:
        return len(self.posts)

    @property
    def chip_posts(self) -> tuple[PostView, ...]:
        """The posts that put chips in (live or dead): what the dealer collects before the
        deal."""
        return tuple(post for post in self.posts if post.live or post.dead)


@dataclass(frozen=True, slots=True, kw_only=True)
class Refusal:
    """Why something cannot happen now, as a code and a sentence."""

    code: str
    detail: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    """One seat from 1 to the table's seat count; an open seat has no `id` and no player."""

    seat: int
    id: int | None = None
    player: str | None = None
    chips: int | None = None
    bought_in: int | None = None
    away: bool = False
    status: str = "open"
    owes: str = ""
    owes_live: int = 0
    owes_dead: int = 0
    new: bool = False
    missed_small: bool = False
    missed_big: bool = False
    wait_button: bool = False
    wait_big_blind: bool = False
    held_for: str | None = None  # an open seat held for a player called from the list
    seat_change: bool = False  # the player asked for another seat or table of the game

    @property
    def state(self) -> str:
        if self.held_for:
            return f"Held for {self.held_for}"
        return STATES[self.status]


@dataclass(frozen=True, slots=True, kw_only=True)
class WaitingEntryView:
    id: int
    player: str
    since: datetime
    called: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonDrawView:
    seats: tuple[int, ...]
    cards: str
    tiebreak: str
    winner_seat: int
    created_at: datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class CashTableSummary:
    """A line of the floor's list of cash tables."""

    id: int
    number: int
    name: str
    game: str
    game_label: str
    structure: str
    structure_label: str
    rule_profile: str
    rule_overrides: dict[str, OptionValue]
    small_blind: int
    big_blind: int
    ante: int
    min_buy_in: int
    max_buy_in: int
    seat_count: int
    players: int
    waiting: int
    dealer: str | None
    is_open: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CashTableView(CashTableSummary):
    """One cash table, everything the seats page, the tablet and the API show of it."""

    dealer_id: int | None
    rules: dict[str, OptionValue]  # every option (`Rules.as_dict`)
    button_seat: int | None
    seats: tuple[SeatView, ...]
    waiting_list: tuple[WaitingEntryView, ...]
    button_draw: ButtonDrawView | None
    first_hand: bool
    hand_in_progress: int | None
    next_hand: NextHandView | None
    next_hand_refusal: Refusal | None
    open_seats: tuple[int, ...]
    # The list the table's seats come from: its game's (named here), else its own.
    list_game: str | None = None
    list_game_id: int | None = None
    # Where a player may change to with their stack: ((table id, number), open seats).
    move_targets: tuple[tuple[int, int, tuple[int, ...]], ...] = ()


# --- lookups for the writes ---------------------------------------------------------------------


def cash_table_get(pk: int) -> Table:
    """The cash table `pk` (404 when there is none; 400 `not_cash` for a tournament's table)."""
    table = Table.objects.select_related("dealer", "cash_game").filter(pk=pk).first()
    if table is None:
        raise Http404("There is no such table.")
    if not table.is_cash:
        raise FloorInvalid("not_cash", f"{table} is a tournament table: see its tournament.")
    return table


def cash_seat_get(table: Table, pk: int) -> CashSeat:
    """A seat taken at `table`, by its id (404 once its player has left)."""
    seat = CashSeat.objects.select_related("player", "table").filter(pk=pk, table=table).first()
    if seat is None:
        raise Http404(f"Nobody sits there at {table}: the player may have left.")
    return seat


def cash_waitlist_entry_get(table: Table, pk: int) -> WaitingListEntry:
    """An entry of the list `table`'s seats come from (its game's, or its own)."""
    on_the_list = Q(table=table)
    if table.cash_game_id is not None:
        on_the_list |= Q(game_id=table.cash_game_id)
    entry = (
        WaitingListEntry.objects.select_related("player", "table", "game")
        .filter(on_the_list, pk=pk)
        .first()
    )
    if entry is None:
        raise Http404(f"There is no such entry on the waiting list of {table}.")
    return entry


# --- the list ------------------------------------------------------------------------------------


def cash_table_list() -> list[CashTableSummary]:
    """Every cash table, by number, with its players and how many wait for it (a game's
    table: on the game's one list)."""
    tables = (
        Table.objects.filter(tournament=None)
        .select_related("dealer")
        .annotate(
            seated=Count("cash_seats", distinct=True),
            queued=Count(
                "waiting_list",
                filter=Q(waiting_list__status=WaitingListEntry.Status.WAITING),
                distinct=True,
            ),
        )
        .order_by("number")
    )
    by_game = dict(
        WaitingListEntry.objects.filter(game__isnull=False, status__in=ACTIVE)
        .order_by()
        .values("game_id")
        .annotate(n=Count("pk"))
        .values_list("game_id", "n")
    )
    return [
        CashTableSummary(
            **_summary(
                table,
                table.seated,
                by_game.get(table.cash_game_id, 0) if table.cash_game_id else table.queued,
            )
        )
        for table in tables
    ]


def _summary(table: Table, players: int, waiting: int) -> dict[str, Any]:
    return {
        "id": table.pk,
        "number": table.number,
        "name": table.name,
        "game": table.game,
        "game_label": table.get_game_display(),
        "structure": table.structure,
        "structure_label": table.get_structure_display(),
        "rule_profile": table.rule_profile,
        "rule_overrides": dict(table.rule_overrides),
        "small_blind": table.small_blind,
        "big_blind": table.big_blind,
        "ante": table.ante,
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
        "seat_count": table.seat_count,
        "players": players,
        "waiting": waiting,
        "dealer": table.dealer.get_username() if table.dealer else None,
        "is_open": table.is_open,
    }


# --- one table -----------------------------------------------------------------------------------


def cash_table_view(table: Table) -> CashTableView:
    """The table as it stands now: four queries (seats, waiting list, last draw, hands)."""
    rules, stakes = cash_plan.cash_table_rules(table), cash_plan.cash_stakes(table)
    rows = list(
        CashSeat.objects.filter(table=table)
        .select_related("player", "seat_change")
        .order_by("seat")
    )
    by_seat = {row.seat: row for row in rows}
    held = seat_holders(table)
    seats = tuple(
        seat_view(rules, stakes, by_seat[number])
        if number in by_seat
        else SeatView(
            seat=number,
            status="held" if number in held else "open",
            held_for=held[number].player.name if number in held else None,
        )
        for number in range(1, table.seat_count + 1)
    )
    waiting = tuple(
        WaitingEntryView(
            id=entry.pk,
            player=entry.player.name,
            since=entry.created_at,
            called=entry.status == WaitingListEntry.Status.CALLED,
        )
        for entry in table_waiting_list(table)
    )
    draw = ButtonDraw.objects.filter(table=table).order_by("-created_at", "-pk").first()
    in_progress_first = Case(When(status=Hand.Status.IN_PROGRESS, then=0), default=1)
    latest = (
        Hand.objects.filter(table=table)
        .order_by(in_progress_first, "-number")
        .values("number", "status")
        .first()
    )
    next_hand, refusal = None, None
    try:
        next_hand = next_hand_view(table, [cash_plan.engine_seats_row(row) for row in rows])
    except FloorError as error:
        refusal = Refusal(code=error.code, detail=error.detail)
    return CashTableView(
        **_summary(table, len(rows), len(waiting)),
        dealer_id=table.dealer_id,
        rules=asdict(rules),
        button_seat=table.button_seat,
        seats=seats,
        open_seats=tuple(seat.seat for seat in seats if seat.id is None and not seat.held_for),
        waiting_list=waiting,
        button_draw=_draw_view(draw) if draw else None,
        first_hand=latest is None,
        hand_in_progress=latest["number"]
        if latest and latest["status"] == Hand.Status.IN_PROGRESS
        else None,
        next_hand=next_hand,
        next_hand_refusal=refusal,
        list_game=table.cash_game.name if table.cash_game else None,
        list_game_id=table.cash_game_id,
        move_targets=tuple(
            (other.pk, other.number, tuple(seats)) for other, seats in move_targets(table)
        ),
    )


def _draw_view(draw: ButtonDraw) -> ButtonDrawView:
    return ButtonDrawView(
        seats=tuple(draw.seats),
        cards=draw.cards,
        tiebreak=draw.tiebreak,
        winner_seat=draw.winner_seat,
        created_at=draw.created_at,
    )


def seat_status(row: CashSeat) -> str:
    """A taken seat's state code: no chips, sitting out, new (owes the entry), returning (owes
    missed blinds) or playing."""
    if row.chips == 0:
        return "no_chips"
    if row.away:
        return "sitting_out"
    if row.new:
        return "new"
    return "returning" if row.owes else "playing"


def seat_view(rules: Rules, stakes: Stakes, row: CashSeat) -> SeatView:
    """A taken seat with what its player owes to come in, from the table's missed-blind policy
    (RULES.md 4), in numbers and in the dealer's words."""
    live, dead = engine_cash.owed_posts(rules, stakes, cash_plan.engine_seats_row(row))
    owes = engine_cash.describe_posts(live, dead)
    if row.new:
        owes += " (entry)"
    if row.wait_big_blind and not row.away:
        owes = f"{owes}, or waits for the big blind" if owes else "waits for the big blind"
    if row.wait_button and not row.away:
        owes += (", " if owes else "") + "waits for the button to pass"
    return SeatView(
        seat=row.seat,
        id=row.pk,
        player=row.player.name,
        chips=row.chips,
        bought_in=row.bought_in,
        away=row.away,
        status=seat_status(row),
        owes=owes,
        owes_live=live,
        owes_dead=dead,
        new=row.new,
        missed_small=row.missed_small,
        missed_big=row.missed_big,
        wait_button=row.wait_button,
        wait_big_blind=row.wait_big_blind,
        seat_change=hasattr(row, "seat_change"),
    )


# --- the next hand -------------------------------------------------------------------------------


def cash_next_hand(table: Table) -> NextHandView:
    """The next hand's plan at a cash table (refused with `not_cash`, `not_enough_players` or
    `no_button` when no hand can start)."""
    if not table.is_cash:
        raise FloorInvalid("not_cash", "Tournament tables deal every seated player: no plan.")
    return next_hand_view(table, cash_plan.engine_seats(table))


def next_hand_view(table: Table, seats: list[engine_cash.CashSeat]) -> NextHandView:
    plan = cash_plan.cash_table_plan(table, seats)
    names = {seat.seat: seat.name for seat in seats}
    return NextHandView(
        signature=cash_plan.plan_signature(plan),
        button_seat=plan.button,
        small_blind_seat=plan.positions.small_blind,
        big_blind_seat=plan.big_blind,
        heads_up=plan.heads_up,
        restart=plan.restart,
        posts=tuple(
            PostView(
                seat=p.seat,
                name=names.get(p.seat, ""),
                live=p.live,
                dead=p.dead,
                ante=p.ante,
                why=p.why,
            )
            for p in plan.posts
        ),
        waiting=tuple(
            WaitView(seat=w.seat, name=names.get(w.seat, ""), code=w.code, reason=w.reason)
            for w in plan.waiting
        ),
        straddle_seat=plan.straddle_seat,
        straddle_name=names.get(plan.straddle_seat or 0, ""),
        straddle_amount=cash_plan.cash_stakes(table).straddle_amount,
    )
