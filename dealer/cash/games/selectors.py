"""The cash floor's games read once: the games with their tables and lists (the desk), the live
games (the public page), one game, and a player's place on a list by their code (the phone).

Pages and the API render these values only, so they cannot disagree. Names are the only
personal data here; the live games page shows no names at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.http import Http404

from dealer.cash.models import CashGame, CashSeat, SeatChangeRequest, WaitingListEntry
from tournaments.models import Table

Status = WaitingListEntry.Status
ACTIVE = (Status.WAITING, Status.CALLED)


@dataclass(frozen=True, slots=True, kw_only=True)
class GameTableView:
    id: int
    number: int
    seat_count: int
    players: int
    open_seats: tuple[int, ...]
    small_blind: int
    big_blind: int
    min_buy_in: int
    max_buy_in: int
    must_move_to: int | None  # the main table's number


@dataclass(frozen=True, slots=True, kw_only=True)
class ListEntryView:
    id: int
    player: str
    place: int | None  # on the list (None once called)
    status: str
    code: str
    since: datetime
    call_table: int | None
    call_seat: int | None
    hold_until: datetime | None
    # For the desk: a phone's join is taken whoever the name is (`game_waitlist_join`), so the
    # floor sees here that the player sits at one of the game's tables (its number) or is on
    # this list more than once.
    seated_at: int | None
    also_waiting: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class GameView:
    id: int
    name: str
    game: str
    game_label: str
    structure: str
    structure_label: str
    small_blind: int
    big_blind: int
    hold_seconds: int
    is_open: bool
    tables: tuple[GameTableView, ...]
    waiting: int
    open_seats: int
    entries: tuple[ListEntryView, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceView:
    """A player's own entry as their phone shows it."""

    code: str
    game_id: int
    game: str
    player: str
    status: str
    place: int | None
    waiting: int
    call_table: int | None
    call_seat: int | None
    hold_until: datetime | None

    @property
    def tag(self) -> str:
        """What the phone's poll compares: the place and the call, nothing else."""
        held = self.hold_until.isoformat() if self.hold_until else ""
        call = f"{self.call_table}-{self.call_seat}-{held}"
        return f"{self.status}-{self.place}-{self.waiting}-{call}"


def game_tables(game: CashGame) -> list[Table]:
    """The game's dealing tables, main tables (fed by must-move tables) first, then by number."""
    tables = list(
        Table.objects.filter(cash_game=game, is_open=True, is_broken=False, tournament=None)
        .prefetch_related("must_move_tables")
        .order_by("number")
    )
    return sorted(tables, key=lambda t: (0 if feeders(t) else 1, t.number))


def feeders(table: Table) -> list[Table]:
    """The open must-move tables that feed `table`."""
    return [t for t in table.must_move_tables.all() if t.is_open and not t.is_broken]


def seat_holders(table: Table) -> dict[int, WaitingListEntry]:
    """The seats of `table` held for a called player, with the call: held from the call until
    the player sits, is marked a no-show or leaves the list (a hold that ran out calls the next
    player to the same seat, `waitlist_expire_calls`). The one answer to "is this seat held"."""
    calls = WaitingListEntry.objects.filter(call_table=table, status=Status.CALLED)
    return {entry.call_seat: entry for entry in calls.select_related("player") if entry.call_seat}


def open_seats(table: Table) -> list[int]:
    """Seats nobody sits in, the floor keeps free for nobody, and no called player holds."""
    taken = set(CashSeat.objects.filter(table=table).values_list("seat", flat=True))
    held = set(seat_holders(table))
    locked = set(table.locked_seats or [])
    return [s for s in range(1, table.seat_count + 1) if s not in taken | held | locked]


def table_waiting_list(table: Table) -> list[WaitingListEntry]:
    """Who waits for a seat at `table`, in order: its game's one list when it deals a game
    (every page and the API read the same list), else the table's own."""
    if table.cash_game_id is not None:
        entries = WaitingListEntry.objects.filter(game_id=table.cash_game_id, status__in=ACTIVE)
    else:
        entries = WaitingListEntry.objects.filter(table=table, status=Status.WAITING)
    return list(entries.select_related("player").order_by("queued_at", "pk"))


def move_targets(table: Table) -> list[tuple[Table, list[int]]]:
    """Where a player at `table` may change to with their stack: the open seats of the other
    open tables of its game, and of the main table a must-move table feeds."""
    others = Table.objects.filter(tournament=None, is_open=True, is_broken=False).exclude(
        pk=table.pk
    )
    if table.cash_game_id is not None and table.must_move_to_id is not None:
        others = others.filter(Q(cash_game_id=table.cash_game_id) | Q(pk=table.must_move_to_id))
    elif table.cash_game_id is not None:
        others = others.filter(cash_game_id=table.cash_game_id)
    elif table.must_move_to_id is not None:
        others = others.filter(pk=table.must_move_to_id)
    else:
        return []
    targets = [(other, open_seats(other)) for other in others.order_by("number")]
    return [(other, seats) for other, seats in targets if seats]


def cash_game_get(pk: int) -> CashGame:
    game = CashGame.objects.filter(pk=pk).first()
    if game is None:
        raise Http404("There is no such game.")
    return game


def game_entry_get(game: CashGame, pk: int) -> WaitingListEntry:
    entry = WaitingListEntry.objects.select_related("player").filter(pk=pk, game=game).first()
    if entry is None:
        raise Http404(f"There is no such entry on the {game.name} list.")
    return entry


def _table_view(table: Table) -> GameTableView:
    return GameTableView(
        id=table.pk,
        number=table.number,
        seat_count=table.seat_count,
        players=CashSeat.objects.filter(table=table).count(),
        open_seats=tuple(open_seats(table)),
        small_blind=table.small_blind,
        big_blind=table.big_blind,
        min_buy_in=table.min_buy_in,
        max_buy_in=table.max_buy_in,
        must_move_to=table.must_move_to.number if table.must_move_to else None,
    )


def _entries(game: CashGame) -> tuple[ListEntryView, ...]:
    """Called players first (by when their hold runs out), then the list in order."""
    rows = (
        WaitingListEntry.objects.filter(game=game, status__in=ACTIVE)
        .select_related("player", "call_table")
        .order_by("queued_at", "pk")
    )
    called, waiting = [], []
    for row in rows:
        if row.status == Status.CALLED:
            called.append(row)
        else:
            waiting.append(row)
    called.sort(key=lambda r: (r.hold_until or r.queued_at, r.pk))
    marks = _marks(game, [*called, *waiting])
    views = [_entry_view(row, None, marks) for row in called]
    views += [_entry_view(row, place, marks) for place, row in enumerate(waiting, start=1)]
    return tuple(views)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Marks:
    seated_at: dict[int, int]  # player id: the number of the game's table they sit at
    twice: set[int]  # player ids on the list more than once


def _marks(game: CashGame, rows: list[WaitingListEntry]) -> _Marks:
    players = [row.player_id for row in rows]
    seats = CashSeat.objects.filter(
        table__cash_game=game, table__is_open=True, player_id__in=players
    ).values_list("player_id", "table__number")
    return _Marks(
        seated_at=dict(seats),
        twice={player for player in players if players.count(player) > 1},
    )


def _entry_view(row: WaitingListEntry, place: int | None, marks: _Marks) -> ListEntryView:
    return ListEntryView(
        id=row.pk,
        player=row.player.name,
        place=place,
        status=row.status,
        code=row.code,
        since=row.created_at,
        call_table=row.call_table.number if row.call_table else None,
        call_seat=row.call_seat,
        hold_until=row.hold_until,
        seated_at=marks.seated_at.get(row.player_id),
        also_waiting=row.player_id in marks.twice,
    )


def cash_game_view(game: CashGame) -> GameView:
    tables = tuple(_table_view(t) for t in sorted(game_tables(game), key=lambda t: t.number))
    entries = _entries(game)
    return GameView(
        id=game.pk,
        name=game.name,
        game=game.game,
        game_label=game.get_game_display(),
        structure=game.structure,
        structure_label=game.get_structure_display(),
        small_blind=game.small_blind,
        big_blind=game.big_blind,
        hold_seconds=game.hold_seconds,
        is_open=game.is_open,
        tables=tables,
        waiting=sum(1 for e in entries if e.status == Status.WAITING),
        open_seats=sum(len(t.open_seats) for t in tables),
        entries=entries,
    )


def cash_game_list(*, open_only: bool = False) -> list[GameView]:
    """Every game (or the open ones), by stakes."""
    games = CashGame.objects.order_by("big_blind", "name")
    if open_only:
        games = games.filter(is_open=True)
    return [cash_game_view(game) for game in games]


def free_cash_tables() -> list[Table]:
    """Cash tables a game could be dealt at: not dealing an open game now."""
    return list(
        Table.objects.filter(tournament=None)
        .exclude(cash_game__is_open=True, is_open=True)
        .order_by("number")
    )


def waitlist_place(code: str) -> PlaceView:
    """A player's place on a list, or their call, by the code they were given (404 for an
    unknown code)."""
    code = code.strip().upper()
    entry = (
        WaitingListEntry.objects.filter(code=code, game__isnull=False)
        .select_related("player", "game", "call_table")
        .order_by("-pk")
        .first()
    )
    if not code or entry is None or entry.game is None:
        raise Http404("No list entry has that code.")
    ahead = WaitingListEntry.objects.filter(game=entry.game, status=Status.WAITING)
    waiting = ahead.count()
    place = None
    if entry.status == Status.WAITING:
        earlier = ahead.filter(queued_at__lt=entry.queued_at).count()
        ties = ahead.filter(queued_at=entry.queued_at, pk__lt=entry.pk).count()
        place = earlier + ties + 1
    return PlaceView(
        code=entry.code,
        game_id=entry.game.pk,
        game=entry.game.name,
        player=entry.name_typed or entry.player.name,  # a phone's: as it typed it
        status=entry.status,
        place=place,
        waiting=waiting,
        call_table=entry.call_table.number if entry.call_table else None,
        call_seat=entry.call_seat,
        hold_until=entry.hold_until,
    )


def list_join_rate_refusal(wait: float) -> str:
    """The one sentence a phone over the list-joining rate answers (`ListJoinThrottle`), on the
    join page and the API; `wait`: the seconds until it may join again."""
    minutes = max(1, round(wait / 60))
    plural = "s" if minutes > 1 else ""
    return (
        f"Too many names joined the lists from this device. Try again in {minutes} "
        f"minute{plural}, or ask the floor to add you."
    )


def list_lookup_rate_refusal(wait: float) -> str:
    """The one sentence a phone over the list-code lookup rates answers
    (`dealer.cash.games.lookups`), on the code form, the place page, its poll and the API;
    `wait`: the seconds until it may look up again."""
    minutes = max(1, round(wait / 60))
    plural = "s" if minutes > 1 else ""
    return (
        f"Too many list codes looked up from this device. Try again in {minutes} "
        f"minute{plural}, or ask the floor for your place."
    )


def seat_change_list(game: CashGame) -> list[tuple[str, int, int]]:
    """The game's seat-change list in order: (player, table number, seat)."""
    asked = (
        SeatChangeRequest.objects.filter(game=game)
        .select_related("seat__player", "seat__table")
        .order_by("created_at", "pk")
    )
    return [(row.seat.player.name, row.seat.table.number, row.seat.seat) for row in asked]
