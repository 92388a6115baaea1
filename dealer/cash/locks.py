"""The row locks of the cash floor's writes, and their order (issue 28: one module).

A write locks, in this order: a game, then its tables (in id order when it takes several, so that
two moves in opposite directions queue up instead of deadlocking), then the hand at a table
(`dealer.services`), then a waiting-list entry. A seat's own row is read after its table's lock,
which covers it: every write to a seat locks its table first. The waiting-list scans that lock
the rows they find (the next players to call, the calls that ran out) take them in the list's
order, in `games.waitlist`, after the game's lock.
"""

from __future__ import annotations

from common.errors import FloorInvalid
from dealer.cash.models import CashGame, WaitingListEntry
from tournaments.models import Table


def lock_cash_table(table: Table, *, why: str = "", with_game: bool = False) -> Table:
    """One cash table, locked; a tournament table is 400 `not_cash` (`why`: what the write
    said it is for). `with_game`: its game read in the same statement."""
    tables = Table.objects.select_for_update(of=("self",))
    if with_game:
        tables = tables.select_related("cash_game")
    locked = tables.get(pk=table.pk)
    if not locked.is_cash:
        raise FloorInvalid("not_cash", f"{locked} is a tournament table{why}.")
    return locked


def lock_cash_tables(*tables: Table) -> dict[int, Table]:
    """Cash tables locked in the order of their ids, by id."""
    ids = sorted({table.pk for table in tables})
    locked = {t.pk: t for t in Table.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    for table in locked.values():
        if not table.is_cash:
            raise FloorInvalid("not_cash", f"{table} is a tournament table.")
    return locked


def lock_game(game: CashGame) -> CashGame:
    return CashGame.objects.select_for_update().get(pk=game.pk)


def lock_game_tables(game: CashGame, *, dealing: bool = False) -> list[Table]:
    """The game's open tables, locked in number order; `dealing`: not broken either."""
    tables = Table.objects.select_for_update().filter(cash_game=game, is_open=True, tournament=None)
    if dealing:
        tables = tables.filter(is_broken=False)
    return list(tables.order_by("number"))


def lock_list_entry(entry: WaitingListEntry) -> WaitingListEntry:
    """A waiting-list entry, locked, with its player, game and the table it was called to."""
    return (
        WaitingListEntry.objects.select_for_update(of=("self",))
        .select_related("player", "game", "call_table")
        .get(pk=entry.pk)
    )
