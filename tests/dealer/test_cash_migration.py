"""The cash models' move to their own app and the ledger's opening (issue 25): a floor recorded
before the upgrade keeps every row, each seat's chips open its ledger, and what the cage
reported before is still reported."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from dealer.cash.books import cash_chips_check
from dealer.cash.models import CashChips, CashSeat, TimeCharge, WaitingListEntry
from dealer.cash.takings.cage import cage_report

BEFORE = [("tournaments", "0010_game_list_public_joins"), ("dealer", "0007_cash_floor")]
MOMENT = dt.datetime(2026, 11, 30, 21, 0, tzinfo=dt.UTC)


@pytest.mark.django_db(transaction=True)
def test_the_move_keeps_every_cash_row_and_opens_the_ledger_from_the_seats() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    table = old.get_model("tournaments", "Table").objects.create(
        number=7, name="1/2 NL", big_blind=2, small_blind=1, min_buy_in=40, max_buy_in=200
    )
    player = old.get_model("tournaments", "Player").objects.create(name="Ann")
    waiting = old.get_model("tournaments", "Player").objects.create(name="Bob")
    seat = old.get_model("tournaments", "CashSeat").objects.create(
        table=table, seat=3, player=player, chips=150, bought_in=200
    )
    old.get_model("tournaments", "WaitingListEntry").objects.create(table=table, player=waiting)
    movement = old.get_model("tournaments", "CashMovement")
    movement.objects.create(
        table=table, player=player, seat=3, kind="buy_in", amount=200, at=MOMENT
    )
    old.get_model("tournaments", "TimeCharge").objects.create(
        table=table, player=player, seat=3, amount=50, period_start=MOMENT, created_at=MOMENT
    )

    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    moved = CashSeat.objects.get(pk=seat.pk)
    assert (moved.table_id, moved.seat, moved.player.name, moved.chips) == (table.pk, 3, "Ann", 150)
    assert WaitingListEntry.objects.get().player.name == "Bob"
    opening = CashChips.objects.get(sitting=seat.pk)
    assert (opening.kind, opening.delta, opening.balance) == ("opening", 150, 150)
    kept = CashChips.objects.filter(before_ledger=True).order_by("pk")
    assert [(row.kind, row.delta) for row in kept] == [("buy_in", 200), ("time", -50)]
    assert TimeCharge.objects.get().ledger_row == kept[1]
    report = cage_report(start=timezone.localdate(MOMENT))
    assert (report.bought_in, report.time) == (200, 50)
    assert cash_chips_check() == []
