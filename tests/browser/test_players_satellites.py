"""Satellites and players across the series in Chromium (issue 14), at the desk's 1366 x 900: a
satellite's payouts page shows its seats and the cash remainder, and one click registers the
seat winners in the target; then the director searches "jose", finds "José Núñez" and opens
the player's page with the seat won and the entry it paid. Both screens go into
docs/screenshots/ for the README."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest

from tests.browser.conftest import screenshot, sign_in_director
from tests.factories import TournamentFactory
from tournaments.models import Entry, Series, Tournament
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register
from tournaments.services.players import player_update
from tournaments.services.tables import tournament_draw_seats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
QUALIFIERS = [
    "José Núñez",
    "Ann Lee",
    "Bruno Costa",
    "Chen Wei",
    "Dana Kowalski",
    "Eli Cohen",
    "Fatima Zahra",
    "Gus Olsen",
    "Hana Sato",
    "Ivan Petrov",
    "Jade Brown",
    "Kofi Mensah",
    "Lena Fischer",
    "Mia Rossi",
    "Noah Smith",
    "Olga Ivanova",
    "Pablo Ruiz",
    "Quinn Taylor",
    "Rosa Díaz",
    "Sam Park",
    "Tariq Aziz",
    "Uma Patel",
    "Victor Hugo",
]


@pytest.fixture
def desk(browser: Any) -> Iterator[Any]:
    """A laptop at the desk: 1366 x 900."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def satellite_at_its_end() -> Tournament:
    """The worked example: 23 entries at 110 for seats worth 440 (5 seats, 330 to 6th),
    played down to its five seat winners, José Núñez among them."""
    series = Series.objects.create(name="Spring Festival")
    main = TournamentFactory.create(name="Main Event", buy_in=400, fee=40, series=series)
    sat = TournamentFactory.create(
        name="Mega Satellite",
        buy_in=110,
        fee=15,
        series=series,
        satellite_target=main,
        seat_value=Decimal("440"),
    )
    for name in QUALIFIERS:
        entry_register(tournament=sat, player_name=name, now=T0)
    tournament_draw_seats(tournament=sat, rng=random.Random(3))
    clock_start(tournament=sat, now=T0)
    stacks = iter(range(9000, 1000, -400))
    while (
        left := Entry.objects.filter(tournament=sat, status="active").order_by("-pk")
    ).count() > 5:
        out = left.first()
        assert out is not None
        entries_bust(
            tournament=sat, busts=[Bust(entry_id=out.pk, starting_stack=next(stacks))], now=T0
        )
    jose = Entry.objects.get(tournament=sat, player__name="José Núñez").player
    player_update(player=jose, number="1042", email="jose@example.org", phone="+34 600 111 222")
    side = TournamentFactory.create(
        name="Opening Deepstack", series=series, status=Tournament.Status.FINISHED
    )
    Entry.objects.create(
        tournament=side, player=jose, status="busted", finishing_place=3, prize=Decimal("250")
    )
    return sat


def test_a_satellites_seats_are_registered_and_the_player_is_found(
    desk: Any, live_server: Any
) -> None:
    sat = satellite_at_its_end()
    sign_in_director(desk, live_server)

    # The satellite's payouts: five seats in the Main Event, 330 to 6th, one click.
    desk.goto(f"{live_server.url}/desk/t/{sat.pk}/payouts/")
    card = desk.locator("#satellite")
    assert card.get_by_text("Satellite for Main Event").is_visible()
    assert desk.locator(".payout-table").get_by_text("Seat in Main Event").count() == 5
    assert "330" in card.locator(".stats").inner_text()
    desk.get_by_role("button", name="Register the winners in Main Event").click()
    desk.wait_for_selector("text=Registered in Main Event:")
    assert card.locator(".badge", has_text="registered").count() == 5
    screenshot(desk, "director-satellite")
    main = Tournament.objects.get(name="Main Event")
    assert Entry.objects.filter(tournament=main, ticket_from__tournament=sat).count() == 5

    # The player search, from the desk's top navigation: "jose" finds José Núñez.
    desk.get_by_role("link", name="Players", exact=True).click()
    desk.wait_for_url(re.compile(r"/desk/players/$"))
    desk.fill("#player-q", "jose")
    desk.press("#player-q", "Enter")
    desk.wait_for_url(re.compile(r"q=jose"))
    desk.get_by_role("link", name="José Núñez").click()
    desk.wait_for_url(re.compile(r"/desk/players/\d+/$"))
    results = desk.locator(".player-results")
    assert results.get_by_text("Seat in Main Event").is_visible()
    assert results.get_by_text("ticket from Mega Satellite").is_visible()
    assert desk.locator(".stats").get_by_text("250").is_visible()  # the Opening Deepstack cash
    assert desk.input_value("#id_email") == "jose@example.org"
    assert desk.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(desk, "director-players")

    # Its public twin shows the results and no contact.
    public = desk.get_by_role("link", name="Public results page").get_attribute("href")
    desk.goto(f"{live_server.url}{public}")
    body = desk.locator("main").inner_text()
    assert "Seat in Main Event" in body
    assert "jose@example.org" not in body
    assert "600 111 222" not in body
