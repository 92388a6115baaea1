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
