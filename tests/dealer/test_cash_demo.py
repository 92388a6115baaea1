"""`manage.py load_cash_demo` (run by `make run`): a demo cash table with a returning player."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from dealer.cash.plan import cash_table_plan
from dealer.models import Hand
from tournaments.models import ButtonDraw, CashSeat, Table, WaitingListEntry

pytestmark = pytest.mark.django_db


def test_cash_demo_has_hands_a_player_owing_blinds_and_a_waiting_list() -> None:
    call_command("load_demo", stdout=StringIO())
    call_command("load_cash_demo", stdout=StringIO())
    call_command("load_cash_demo", stdout=StringIO())  # idempotent
    (table,) = Table.objects.filter(tournament=None)
    assert table.dealer is not None
    assert table.dealer.username == "dealer"
    assert ButtonDraw.objects.filter(table=table).count() == 1
    assert Hand.objects.filter(table=table, status="complete").count() == 4
    dmitri = CashSeat.objects.get(table=table, seat=4)
    assert dmitri.away
    assert dmitri.missed_big
    assert sum(CashSeat.objects.filter(table=table).values_list("chips", flat=True)) == 1200
    assert WaitingListEntry.objects.filter(table=table, status="waiting").count() == 2
    assert cash_table_plan(table).dealt  # the next hand can be dealt
