"""A multi-flight event in Chromium (issue 14) at 1366 x 900: a director opens the event page,
ends Day 1B's day (its bags recorded), draws Day 2 from both flights' survivors, and reads the
bag list and the results. The event page goes into docs/screenshots/director-flights.png."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.browser.conftest import screenshot, sign_in_director
from tournaments.models import Entry, Tournament
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register
from tournaments.services.events import schedule_create, tournament_open_registration
from tournaments.services.flights import event_create, phase_bag
from tournaments.services.tables import tournament_draw_seats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOW = datetime.now(UTC)
NAMES_A = [
    "Ana Souza",
    "Ben Okafor",
    "Chloé Martin",
    "Dev Patel",
    "Elif Kaya",
    "Finn Walsh",
    "Gia Rossi",
    "Hugo Berg",
    "Ines Duarte",
    "Jon Park",
    "Kai Müller",
    "Lea Novak",
]
NAMES_B = [
    "Ana Souza",
    "Mia Chen",
    "Noah Levi",
    "Omar Haddad",
    "Pia Lund",
    "Quinn Hale",
    "Rosa Vidal",
    "Sam Ortiz",
    "Tara Singh",
    "Uma Rao",
    "Vic Dumas",
]


@pytest.fixture
def desk(browser: Any) -> Iterator[Any]:
    """A laptop at the desk: 1366 x 900."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def flight_played(flight: Tournament, names: list[str], out: int, seed: int) -> None:
    """Registration, seats, the clock, and the first `out` players busted."""
    tournament_open_registration(tournament=flight)
    entries = [entry_register(tournament=flight, player_name=n, now=NOW) for n in names]
    tournament_draw_seats(tournament=flight, rng=random.Random(seed))
    clock_start(tournament=flight, now=NOW)
    for entry in entries[-out:]:
        entry.refresh_from_db()
        entries_bust(
            tournament=flight,
            busts=[Bust(entry_id=entry.pk, starting_stack=entry.chips)],
            now=NOW,
        )


def test_a_director_ends_a_flight_and_draws_day_2(desk: Any, live_server: Any) -> None:
    schedule = schedule_create(
        name="Main", levels=[{"small_blind": 100, "big_blind": 200, "duration": 3600}]
    )
    event = event_create(
        schedule=schedule,
        flights=["A", "B"],
        name="Spring Main Event",
        buy_in=500,
        fee=50,
        starting_stack=30000,
        payout_percentages=[40, 25, 15, 12, 8],
    )
    day1a = event.phases.get(flight="A")
    day1b = event.phases.get(flight="B")
    flight_played(day1a, NAMES_A, out=4, seed=1)
    phase_bag(phase=day1a, now=NOW, confirm=True)
    flight_played(day1b, NAMES_B, out=3, seed=2)  # Ana Souza survived 1A and plays 1B too

    sign_in_director(desk, live_server)
    desk.get_by_role("link", name="Spring Main Event", exact=True).click()
    desk.wait_for_url(re.compile(rf"/desk/events/{event.pk}/$"))
    row_1b = desk.locator('[data-phase="Day 1B"]')
    assert row_1b.get_by_role("button", name="End the day (bag)").is_visible()

    row_1b.get_by_role("button", name="End the day (bag)").click()
    # Nobody counted 1B's tables (issue 26): the bag list names them and asks to confirm.
    desk.wait_for_selector("[data-not-counted]")
    desk.get_by_role("checkbox", name=re.compile("Bag without counting")).check()
    desk.get_by_role("button", name="End the day (bag)").click()
    desk.wait_for_selector("text=Day 1B is over: its bags are recorded.")
    assert desk.locator(".bag-table tbody tr").count() == 8  # the bag list, ready to print
    desk.get_by_role("link", name="Back to the event").click()
    desk.wait_for_url(re.compile(rf"/desk/events/{event.pk}/$"))
    assert "Bagged" in desk.locator('[data-phase="Day 1B"]').inner_text()

    desk.get_by_role("button", name="Draw Day 2").click()
    desk.wait_for_selector("text=Day 2 drawn: 15 players at 2 tables.")
    day2_row = desk.locator('[data-phase="Day 2"]').inner_text()
    assert "Registering" in day2_row
    # Ana Souza survived both flights: one bag of hers goes on.
    assert Entry.objects.filter(tournament__parent=event, tournament__day=2).count() == 15
    assert desk.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(desk, "director-flights")

    desk.goto(f"{live_server.url}/desk/t/{day1a.pk}/bag/")
    ana = desk.locator("tr", has_text="Ana Souza").inner_text()
    assert re.search(r"Forfeited|Carried", ana)
    desk.goto(f"{live_server.url}/desk/events/{event.pk}/results/")
    assert desk.locator("tbody tr").count() == 22  # 23 entries, Ana Souza's two in one row
