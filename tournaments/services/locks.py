"""The row locks of the floor's writes, and the order they are taken in (issue 28: one module).

A write locks, in this order and never the other way round: the tournament, then its tables (by
number, or the one table it writes), then its entries (by id: the chip ledger locks the rows it
changes), then a player (by id, two of them in id order). The dealer app's hand writes lock the
tournament first too, then the table and the hand (`dealer.services`); the cash floor has its own
order (`dealer/cash`). Two writes that take their locks in one order wait for each other and go
on; two that took them in opposite orders could deadlock, which PostgreSQL ends by failing one.

Each function loads its row with `SELECT ... FOR UPDATE` for the rest of the transaction, and a
row that is not there is 404 with a sentence for the desk.
"""

from __future__ import annotations

from django.db import models

from common.errors import FloorNotFound
from tournaments.models import Player, Screen, Table, Tournament


def _pk(row: models.Model | int) -> int:
    return row if isinstance(row, int) else int(row.pk)


def lock_tournament(tournament: Tournament | int) -> Tournament:
    """The tournament row, locked for this transaction: floor writes are serialized on it."""
    try:
        return Tournament.objects.select_for_update().get(pk=_pk(tournament))
    except Tournament.DoesNotExist as error:
        raise FloorNotFound("not_found", "There is no such tournament.") from error


def lock_table(table: Table | int) -> Table:
    """One table, locked (after its tournament, when the write changes the tournament too)."""
    found = Table.objects.select_for_update().filter(pk=_pk(table)).first()
    if found is None:
        raise FloorNotFound("not_found", "There is no such table.")
    return found


def lock_tables(tournament: Tournament) -> dict[int, Table]:
    """Every table of a locked tournament, locked in table-number order, by number."""
    return {t.number: t for t in tournament.tables.select_for_update().order_by("number")}


def lock_player(player: Player | int) -> Player:
    found = Player.objects.select_for_update().filter(pk=_pk(player)).first()
    if found is None:
        raise FloorNotFound("not_found", "There is no such player.")
    return found


def lock_players(*players: Player | int) -> dict[int, Player]:
    """Players locked in id order (a merge locks both), by id; a missing one is 404."""
    pks = sorted({_pk(p) for p in players})
    found = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=pks).order_by("pk")}
    if len(found) < len(pks):
        raise FloorNotFound("not_found", "There is no such player.")
    return found


def lock_screen(screen: Screen | int) -> Screen:
    found = (
        Screen.objects.select_for_update()
        .select_related("tournament")
        .filter(pk=_pk(screen))
        .first()
    )
    if found is None:
        raise FloorNotFound("no_screen", "There is no such screen: it may have been removed.")
    return found
