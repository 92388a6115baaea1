"""`manage.py load_cash_demo` (run by `make run`): a demo cash table with a returning player, and
a game with rake dealt at two tables with its list."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from dealer.cash.models import CashSeat, WaitingListEntry
from dealer.cash.seats.plan import cash_table_plan
from dealer.models import Hand
from tournaments.models import ButtonDraw, Table

pytestmark = pytest.mark.django_db


def test_cash_demo_has_hands_a_player_owing_blinds_and_a_waiting_list() -> None:
    call_command("load_demo", stdout=StringIO())
    call_command("load_cash_demo", stdout=StringIO())
    call_command("load_cash_demo", stdout=StringIO())  # idempotent
    table = Table.objects.get(tournament=None, number=20)
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


def test_cash_demo_deals_a_game_at_two_tables_with_rake_a_list_and_a_hand_ready() -> None:
    from django.contrib.auth.models import User

    from dealer.cash.games.selectors import cash_game_list
    from dealer.cash.seats.plan import cash_table_rules
    from dealer.services import hand_start

    call_command("load_demo", stdout=StringIO())
    call_command("load_cash_demo", stdout=StringIO())
    call_command("load_cash_demo", stdout=StringIO())  # idempotent
    (game,) = cash_game_list(open_only=True)
    assert (game.name, game.waiting, game.open_seats) == ("1/2 NL", 3, 7)
    tables = Table.objects.filter(cash_game__name="1/2 NL").order_by("number")
    assert [(t.number, t.cash_seats.count()) for t in tables] == [(11, 7), (12, 4)]
    rules = cash_table_rules(tables[0])
    assert (rules.rake_percent, rules.rake_cap, rules.rake_no_flop_no_drop) == (5, 5, True)
    assert tables[0].dealer == User.objects.get(username="dealer")
    # The button is drawn: the dealer's tablet can start a hand at once.
    hand = hand_start(table=tables[0])
    assert hand.state["status"] == "in_progress"
