"""Games and stakes on the cash floor: create a game ("1/2 NL"), open and close it, deal it at a
table, change its stakes (or one table's) between hands, mark a must-move table, break a game,
and seat a called player from the list.

A table that deals a game takes the game's game, structure and blinds; its list is the game's
(`dealer.cash.games.waitlist`). Stakes change between hands only: a hand in progress at any table
concerned refuses the change (409 `hand_in_progress`). Every change is recorded in the audit log.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import NamedTuple

from django.db import transaction
from django.db.models import Min
from django.utils import timezone

from common.actors import Actor
from common.errors import FloorConflict, FloorInvalid
from dealer.cash.games import waitlist
from dealer.cash.games.selectors import open_seats
from dealer.cash.locks import lock_cash_table, lock_game, lock_game_tables
from dealer.cash.models import CashGame, CashSeat, WaitingListEntry
from dealer.cash.seats import services as cash_services
from dealer.cash.seats.plan import cash_table_rules
from dealer.engine.errors import ConfigError
from dealer.engine.rules import OptionValue
from dealer.models import Hand
from tournaments.models import Table
from tournaments.services.audit import audit_record

Status = WaitingListEntry.Status
MAX_HOLD_SECONDS = 3600


def _check_stakes(small_blind: int, big_blind: int) -> None:
    if big_blind < 1 or not 0 <= small_blind <= big_blind:
        raise FloorInvalid(
            "bad_stakes",
            "The big blind must be at least 1 and the small blind at most the big blind.",
        )


def _check_hold(hold_seconds: int) -> None:
    if not 30 <= hold_seconds <= MAX_HOLD_SECONDS:
        raise FloorInvalid("bad_hold", "Hold a called player's seat for 30 seconds to an hour.")


@transaction.atomic
def cash_game_create(
    *,
    name: str,
    game: str = "holdem",
    structure: str = "no_limit",
    small_blind: int,
    big_blind: int,
    hold_seconds: int = 180,
    rule_profile: str = "casino_cash",
    rule_overrides: Mapping[str, OptionValue] | None = None,
    actor: Actor = None,
) -> CashGame:
    """A game and stakes the room spreads, with the rules and rake its tables deal by, open for
    its list (409 `game_name_taken`; 400 when the rules are not the engine's)."""
    name = name.strip()
    if not name:
        raise FloorInvalid("name_required", 'Name the game, e.g. "1/2 NL".')
    _check_stakes(small_blind, big_blind)
    _check_hold(hold_seconds)
    if CashGame.objects.filter(name__iexact=name).exists():
        raise FloorConflict("game_name_taken", f"There is a game called {name} already.")
    created = CashGame(
        name=name,
        game=game,
        structure=structure,
        small_blind=small_blind,
        big_blind=big_blind,
        hold_seconds=hold_seconds,
        rule_profile=rule_profile,
        rule_overrides=dict(rule_overrides or {}),
    )
    _check_game_rules(created)
    created.save()
    audit_record(tournament=None, actor=actor, action="cash_game_create", game=name)
    return created


def _check_game_rules(game: CashGame) -> None:
    """The game's rules as the engine reads them at a table of its stakes (400 otherwise)."""
    probe = Table(
        tournament=None,
        number=0,
        game=game.game,
        structure=game.structure,
        rule_profile=game.rule_profile,
        rule_overrides=game.rule_overrides,
        small_blind=game.small_blind,
        big_blind=game.big_blind,
        min_buy_in=game.big_blind,
        max_buy_in=game.big_blind,
    )
    try:
        rules = cash_table_rules(probe)
    except ConfigError as error:
        raise FloorInvalid(error.code, error.detail) from error
    if rules.is_tournament:
        raise FloorInvalid("not_cash", "A cash game plays cash rules (mode=cash).")


def _refuse_during_hands(tables: list[Table]) -> None:
    busy = Hand.objects.filter(table__in=tables, status=Hand.Status.IN_PROGRESS)
    numbers = sorted(busy.values_list("table__number", flat=True))
    if numbers:
        where = ", ".join(str(n) for n in numbers)
        raise FloorConflict(
            "hand_in_progress", f"A hand is in progress at table {where}: change it between hands."
        )


@transaction.atomic
def cash_game_open(*, game: CashGame, actor: Actor = None) -> CashGame:
    """Open the game's list to players (its tables open as the floor deals it at them)."""
    game = lock_game(game)
    if not game.is_open:
        game.is_open = True
        game.save(update_fields=["is_open"])
        audit_record(tournament=None, actor=actor, action="cash_game_open", game=game.name)
    return game


@transaction.atomic
def cash_game_close(
    *, game: CashGame, actor: Actor = None, now: datetime | None = None
) -> CashGame:
    """Close the game: its empty tables close and its list is cleared. Refused while players
    still sit at its tables (409 `game_has_players`: break the game first)."""
    game = lock_game(game)
    tables = lock_game_tables(game)
    if CashSeat.objects.filter(table__in=tables).exists():
        raise FloorConflict(
            "game_has_players", f"Players still play {game.name}: break the game first."
        )
    carrying = WaitingListEntry.objects.filter(
        game=game, status__in=waitlist.ACTIVE, carried_chips__gt=0
    ).count()
    if carrying:
        raise FloorConflict(
            "list_holds_stacks",
            f"{carrying} player{'s' if carrying != 1 else ''} on the {game.name} list hold the "
            "stack of a closed table: seat them, or take them off the list (their stack is "
            "cashed out) first.",
        )
    Table.objects.filter(pk__in=[t.pk for t in tables]).update(is_open=False)
    cleared = WaitingListEntry.objects.filter(game=game, status__in=waitlist.ACTIVE).update(
        status=Status.REMOVED, closed_at=now or timezone.now()
    )
    game.is_open = False
    game.save(update_fields=["is_open"])
    audit_record(
        tournament=None, actor=actor, action="cash_game_close", game=game.name, cleared=cleared
    )
    return game


def _apply_stakes(
    table: Table, *, small_blind: int, big_blind: int, **more: int | str | None
) -> None:
    """Set a table's blinds (and buy-ins, game, structure if given), checked as the engine and
    the table's buy-in range need them."""
    table.small_blind, table.big_blind = small_blind, big_blind
    for field, value in more.items():
        if value is not None:
            setattr(table, field, value)
    if not table.big_blind <= table.min_buy_in <= table.max_buy_in:
        raise FloorInvalid(
            "bad_buy_in",
            f"At {table} the minimum buy-in ({table.min_buy_in}) must be at least the big blind "
            f"({table.big_blind}) and at most the maximum ({table.max_buy_in}).",
        )
    try:
        cash_table_rules(table)
    except ConfigError as error:
        raise FloorInvalid(error.code, error.detail) from error
    table.save()


def _restake(tables: list[Table], small_blind: int, big_blind: int, **buy_in: int | None) -> None:
    """New stakes at each table, all or none: refused while any of them deals a hand."""
    _refuse_during_hands(tables)
    for table in tables:
        _apply_stakes(table, small_blind=small_blind, big_blind=big_blind, **buy_in)


@transaction.atomic
def cash_game_stakes_change(
    *,
    game: CashGame,
    small_blind: int,
    big_blind: int,
    min_buy_in: int | None = None,
    max_buy_in: int | None = None,
    actor: Actor = None,
) -> CashGame:
    """New blinds for the game and every table dealing it, between hands (409
    `hand_in_progress`); the buy-in range, if given, for every table too."""
    game = lock_game(game)
    _check_stakes(small_blind, big_blind)
    tables = lock_game_tables(game)
    _restake(tables, small_blind, big_blind, min_buy_in=min_buy_in, max_buy_in=max_buy_in)
    before = f"{game.small_blind}/{game.big_blind}"
    game.small_blind, game.big_blind = small_blind, big_blind
    game.save(update_fields=["small_blind", "big_blind"])
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_game_stakes",
        game=game.name,
        before=before,
        after=f"{small_blind}/{big_blind}",
        tables=[t.number for t in tables],
    )
    return game


@transaction.atomic
def cash_table_stakes_change(
    *,
    table: Table,
    small_blind: int,
    big_blind: int,
    min_buy_in: int | None = None,
    max_buy_in: int | None = None,
    actor: Actor = None,
) -> Table:
    """New blinds (and buy-in range) at one cash table, between hands (409
    `hand_in_progress`)."""
    table = lock_cash_table(table)
    _check_stakes(small_blind, big_blind)
    before = f"{table.small_blind}/{table.big_blind}"
    _restake([table], small_blind, big_blind, min_buy_in=min_buy_in, max_buy_in=max_buy_in)
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_table_stakes",
        table=table.number,
        before=before,
        after=f"{small_blind}/{big_blind}",
    )
    return table


@transaction.atomic
def cash_game_table_attach(
    *,
    game: CashGame,
    table: Table,
    min_buy_in: int | None = None,
    max_buy_in: int | None = None,
    confirm: bool = False,
    actor: Actor = None,
) -> Table:
    """Deal the game at a cash table: the table takes the game's name, game, structure, blinds,
    rules and rake, opens if it was closed, and its seats are filled from the game's list.
    Between hands only (409 `hand_in_progress`); a closed game deals nowhere (409
    `game_closed`). A table where players sit for another game changes only when the floor
    confirms it (409 `table_in_use` otherwise): their game changes under them."""
    game = lock_game(game)
    if not game.is_open:
        raise FloorConflict("game_closed", f"{game.name} is closed: open it first.")
    table = lock_cash_table(table, with_game=True)
    _refuse_during_hands([table])
    seated = CashSeat.objects.filter(table=table).count()
    if seated and table.cash_game_id != game.pk and not confirm:
        playing = table.cash_game.name if table.cash_game else table.name or "its own game"
        raise FloorConflict(
            "table_in_use",
            f"{seated} player{'s' if seated != 1 else ''} sit at {table}, playing {playing}: "
            f"empty it first, or confirm that it becomes a {game.name} table (its name, rules "
            "and rake become the game's).",
        )
    twice = sorted(
        CashSeat.objects.filter(
            table__cash_game=game,
            player_id__in=CashSeat.objects.filter(table=table).values("player_id"),
        )
        .exclude(table=table)
        .values_list("player__name", flat=True)
    )
    if twice:
        raise FloorConflict(
            "already_seated",
            f"{', '.join(twice)} already sit{'s' if len(twice) == 1 else ''} at another "
            f"{game.name} table: one seat a game (they change tables or leave first).",
        )
    previous = table.name
    table.cash_game, table.is_open, table.is_broken = game, True, False
    table.name = game.name
    table.rule_profile, table.rule_overrides = game.rule_profile, dict(game.rule_overrides)
    _apply_stakes(
        table,
        small_blind=game.small_blind,
        big_blind=game.big_blind,
        game=game.game,
        structure=game.structure,
        min_buy_in=min_buy_in,
        max_buy_in=max_buy_in,
    )
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_game_table",
        game=game.name,
        table=table.number,
        was=previous,
        seated=seated,
    )
    return table


@transaction.atomic
def cash_table_must_move_set(*, table: Table, main: Table | None, actor: Actor = None) -> Table:
    """Make `table` a must-move table feeding `main` (None: an ordinary table again). Both deal
    the same game (400 `not_same_game`)."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    main = Table.objects.get(pk=main.pk) if main is not None else None
    game_id = table.cash_game_id
    if main is not None and (main.pk == table.pk or not game_id or main.cash_game_id != game_id):
        raise FloorInvalid(
            "not_same_game", "A must-move table feeds another table of the same game."
        )
    if main is not None and main.must_move_to_id is not None:
        raise FloorInvalid("main_is_must_move", f"{main} is itself a must-move table.")
    table.must_move_to = main
    table.save(update_fields=["must_move_to"])
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_must_move",
        table=table.number,
        main=main.number if main else None,
    )
    return table


@transaction.atomic
def cash_game_break(
    *,
    game: CashGame,
    to_game: CashGame | None = None,
    actor: Actor = None,
    now: datetime | None = None,
) -> list[WaitingListEntry]:
    """Break the game: its tables close and their players go to the top of the game's list (or
    `to_game`'s), table by table in seat order, ahead of everyone already waiting. Players
    called to a seat at a breaking table wait again in their place. Between hands only (409
    `hand_in_progress`). Answers the new entries, in their order."""
    now = now or timezone.now()
    game = lock_game(game)
    target = lock_game(to_game) if to_game is not None else game
    if not target.is_open:
        raise FloorConflict("game_closed", f"{target.name} is closed: its list takes nobody.")
    tables = lock_game_tables(game)
    _refuse_during_hands(tables)
    WaitingListEntry.objects.filter(call_table__in=tables, status=Status.CALLED).update(
        status=Status.WAITING, called_at=None, call_table=None, call_seat=None, hold_until=None
    )
    Table.objects.filter(pk__in=[t.pk for t in tables]).update(is_open=False)
    seats = list(
        CashSeat.objects.filter(table__in=tables)
        .select_related("player", "table")
        .order_by("table__number", "seat")
    )
    moved = [(f"{s.table.number}-{s.seat} {s.player.name}", s.chips) for s in seats]
    relocated = relocate(seats, target, leaving={t.pk for t in tables}, now=now, actor=actor)
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_game_break",
        game=game.name,
        to=target.name,
        tables=[t.number for t in tables],
        players=[f"{where} ({chips})" for where, chips in moved],
    )
    return relocated.listed


class Relocation(NamedTuple):
    """Where the players of a closing table or a broken game went: seats with their stacks,
    and the top of the list, with their stacks, for those no seat was open for."""

    seated: list[CashSeat]
    listed: list[WaitingListEntry]


def relocate(
    seats: list[CashSeat],
    game: CashGame,
    *,
    leaving: set[int],
    now: datetime,
    actor: Actor = None,
) -> Relocation:
    """Each player, in the order given, to the first open seat of `game`'s open tables (but the
    ones `leaving`), with the whole stack; the rest to the top of `game`'s list, ahead of
    everyone waiting, carrying their stacks. Nobody is cashed out. Between hands; the caller
    holds the leaving tables' locks."""
    targets = [t for t in lock_game_tables(game, dealing=True) if t.pk not in leaving]
    free = [(table, seat) for table in targets for seat in open_seats(table)]
    seated: list[CashSeat] = []
    rest: list[CashSeat] = []
    for seat in seats:
        placed = _join_own_seat(seat, game, leaving, actor)
        for index, (table, number) in enumerate(free if placed is None else []):
            try:
                with transaction.atomic():
                    placed = cash_services.stack_move(
                        seat=seat, source=seat.table, target=table, to_seat=number, actor=actor
                    )
            except FloorConflict:  # this seat is not for this player: it stays free
                continue
            del free[index]
            break
        if placed is None:
            rest.append(seat)
        else:
            seated.append(placed)
    first = WaitingListEntry.objects.filter(game=game, status__in=waitlist.ACTIVE).aggregate(
        first=Min("queued_at")
    )["first"]
    start = min(first, now) if first else now
    listed = [
        cash_services.stack_to_list(
            seat=seat,
            game=game,
            queued_at=start - timedelta(seconds=len(rest) - index),
            actor=actor,
        )
        for index, seat in enumerate(rest)
    ]
    return Relocation(seated, listed)


def _join_own_seat(
    seat: CashSeat, game: CashGame, leaving: set[int], actor: Actor
) -> CashSeat | None:
    """A player who already sits at a table of `game`: their stack joins that seat (one seat a
    game), unless that seat is in a hand (then they wait on the list, carrying the stack)."""
    own = (
        CashSeat.objects.select_related("player", "table")
        .filter(player_id=seat.player_id, table__cash_game=game)
        .exclude(table_id__in=leaving)
        .first()
    )
    if own is None:
        return None
    try:
        with transaction.atomic():
            return cash_services.stack_join(seat=seat, into=own, actor=actor)
    except FloorConflict:
        return None


@transaction.atomic
def cash_table_close(
    *,
    table: Table,
    order: list[int] | None = None,
    actor: Actor = None,
    now: datetime | None = None,
) -> Relocation:
    """Close one table of a game: its players move with their stacks to the open seats of the
    game's other tables, in the order the floor chooses (`order`: seat ids, the rest in seat
    order), and those with no seat to the top of the game's list with their stacks; nobody is
    cashed out. Between hands (409 `hand_in_progress`); a table dealing no game, with players
    seated, is refused (409 `no_game`: they leave or move first)."""
    now = now or timezone.now()
    table = lock_cash_table(table, with_game=True)
    _refuse_during_hands([table])
    rows = {
        row.pk: row
        for row in CashSeat.objects.filter(table=table).select_related("player", "table")
    }
    if rows and table.cash_game is None:
        raise FloorConflict(
            "no_game", f"{table} deals no game: its players leave or change tables first."
        )
    chosen = [rows.pop(pk) for pk in order or [] if pk in rows]
    ordered = chosen + sorted(rows.values(), key=lambda row: row.seat)
    WaitingListEntry.objects.filter(call_table=table, status=Status.CALLED).update(
        status=Status.WAITING, called_at=None, call_table=None, call_seat=None, hold_until=None
    )
    Table.objects.filter(pk=table.pk).update(is_open=False)
    relocated = (
        relocate(ordered, table.cash_game, leaving={table.pk}, now=now, actor=actor)
        if table.cash_game is not None
        else Relocation([], [])
    )
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_table_close",
        table=table.number,
        seated=[f"{s.table_id}-{s.seat} {s.player.name}" for s in relocated.seated],
        listed=[e.player.name for e in relocated.listed],
    )
    return relocated


@transaction.atomic
def game_waitlist_seat(
    *,
    entry: WaitingListEntry,
    buy_in: int | None = None,
    choice: str = "wait_bb",
    actor: Actor = None,
    now: datetime | None = None,
) -> CashSeat:
    """A called player takes the held seat, through the seats service (buy-in and entry choice
    as there). A must-move player moves with their chips from the feeding table, whose seat
    then goes to the next on the list. 409 `not_called` unless the player was called."""
    # The entry and its player locked together (no OF: the player row too).
    entry = WaitingListEntry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status != Status.CALLED or entry.call_table_id is None or entry.call_seat is None:
        raise FloorConflict("not_called", f"{entry.player.name} has not been called to a seat.")
    table = Table.objects.get(pk=entry.call_table_id)
    # The seat is theirs: release the hold first, so the seat counts as open while they move.
    entry.status, entry.closed_at = Status.SEATED, now or timezone.now()
    entry.save(update_fields=["status", "closed_at"])
    # A must-move player, or one who asked for a seat change, or who sits in the game already:
    # they move with their stack (and the stack they carry on the list joins it).
    mover = (
        CashSeat.objects.filter(table__must_move_to=table, player=entry.player).first()
        or CashSeat.objects.filter(
            table__cash_game_id=table.cash_game_id, player=entry.player
        ).first()
        if table.cash_game_id is not None
        else None
    )
    if mover is not None:
        moved = cash_services.cash_seat_move(
            cash_seat=mover, to_table=table, to_seat=entry.call_seat, choice=choice, actor=actor
        )
        return cash_services.carried_join(entry=entry, seat=moved, actor=actor)
    if entry.carried_chips:
        return cash_services.cash_seat_from_list(
            entry=entry, table=table, seat=entry.call_seat, choice=choice, actor=actor
        )
    if buy_in is None:
        raise FloorInvalid("buy_in_required", f"Type {entry.player.name}'s buy-in.")
    return cash_services.cash_seat_take(
        table=table,
        seat=entry.call_seat,
        player_name=entry.player.name,
        buy_in=buy_in,
        choice=choice,
        actor=actor,
    )
