"""`manage.py load_demo` (run by `make run`): a running demo event, loaded once."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tournaments.models import Entry, Knockout, Tournament

pytestmark = pytest.mark.django_db


def test_demo_is_a_running_tournament_of_45_on_5_tables_with_busts_and_logins() -> None:
    out = StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=out)  # idempotent
    tournament = Tournament.objects.get(name="FloorDesk Demo Deepstack")
    assert tournament.status == "running"
    entries = Entry.objects.filter(tournament=tournament)
    assert entries.count() == 45
    assert entries.filter(status="busted").count() == 3
    assert tournament.tables.count() == 5
    assert User.objects.get(username="director").is_staff
    assert User.objects.get(username="dealer").groups.filter(name="dealer").exists()
    assert out.getvalue().count("user 'director', password 'director'") == 2


def test_demo_shows_the_series_a_pko_with_screens_a_main_event_in_flights_and_a_satellite() -> None:
    call_command("load_demo", stdout=StringIO())
    call_command("load_demo", stdout=StringIO())  # idempotent: nothing made twice

    deepstack = Tournament.objects.get(name="FloorDesk Demo Deepstack")
    assert deepstack.bounty_kind == "progressive"
    assert Knockout.objects.filter(tournament=deepstack).count() == 3  # who busted each of the 3
    assert deepstack.screens.count() == 2
    assert deepstack.floor_message
    event = Tournament.objects.get(name="Demo Main Event", kind="event")
    assert sorted(event.phases.values_list("kind", "day", "flight")) == [
        ("day", 2, ""),
        ("flight", 1, "A"),
        ("flight", 1, "B"),
    ]
    day_1a = event.phases.get(flight="A")
    assert day_1a.status == "registering"
    satellite = Tournament.objects.get(satellite_target=day_1a)
    assert satellite.status == "registering"
    assert {t.series.name for t in (deepstack, event, satellite) if t.series} == {
        "FloorDesk Demo Series"
    }


def test_demo_has_a_cash_floor_with_rake_seated_players_a_list_and_a_dealt_hand_ready() -> None:
    from dealer.cash.game_selectors import cash_game_list
    from dealer.cash.plan import cash_table_rules
    from dealer.services import hand_start
    from tournaments.models import Table

    call_command("load_demo", stdout=StringIO())
    call_command("load_demo", stdout=StringIO())  # idempotent
    (game,) = cash_game_list(open_only=True)
    assert (game.name, game.waiting, game.open_seats) == ("1/2 NL", 3, 7)
    tables = Table.objects.filter(tournament=None).order_by("number")
    assert [(t.number, t.cash_seats.count()) for t in tables] == [(11, 7), (12, 4)]
    rules = cash_table_rules(tables[0])
    assert (rules.rake_percent, rules.rake_cap, rules.rake_no_flop_no_drop) == (5, 5, True)
    assert tables[0].dealer == User.objects.get(username="dealer")
    # The button is drawn: the dealer's tablet can start a hand at once.
    hand = hand_start(table=tables[0])
    assert hand.state["status"] == "in_progress"
