"""Issue 26 on the desk: the event page, the flight's dashboard and the API say the same chips in
play; the count sheet refuses a count above them and records a colour-up's new smallest chip;
ending a day over a table never counted asks the director to confirm, naming the table."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NOW, freeze_pages, once, schedule, staff_client, tournament
from tournaments.models import ChipMove, Entry, Table, Tournament
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_open_registration
from tournaments.services.flights import event_create
from tournaments.services.tables import tournament_draw_seats

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


def flight_a(names: list[str]) -> tuple[Tournament, Tournament]:
    event = event_create(
        schedule=schedule(), flights=["A", "B"], name="Spring Main", starting_stack=20000
    )
    flight = event.phases.get(flight="A")
    tournament_open_registration(tournament=flight)
    for name in names:
        entry_register(tournament=flight, player_name=name, now=NOW)
    tournament_draw_seats(tournament=flight, rng=random.Random(2))
    clock_start(tournament=flight, now=NOW)
    return event, flight


def seated(table: Table) -> list[Entry]:
    return list(Entry.objects.filter(table=table, status=Entry.Status.ACTIVE).order_by("seat"))


def test_bug_the_event_page_the_flight_page_and_the_api_agree_on_chips_in_play(
    director: Client,
) -> None:
    event, flight = flight_a(["Ann", "Bob", "Cy"])
    cy = Entry.objects.get(tournament=flight, player__name="Cy")
    # A desk bust takes Cy's 20,000 off the counts; the chips are still at the table.
    entries_bust(tournament=flight, busts=[Bust(entry_id=cy.pk, starting_stack=cy.chips)], now=NOW)

    event_page = director.get(reverse("event-page", args=[event.pk])).content.decode()
    flight_page = director.get(reverse("tournament-dashboard", args=[flight.pk])).content.decode()
    phases = director.get(f"/api/events/{event.pk}/").json()["phases"]
    standings = director.get(f"/api/tournaments/{flight.pk}/standings/").json()

    row = next(p for p in phases if p["id"] == flight.pk)
    assert row["chips_in_play"] == standings["total_chips"] == 60000
    assert "60,000" in event_page
    assert "40,000" not in event_page  # the counts' sum is not the chips in play
    assert "<dt>Chips in play</dt><dd>60,000" in flight_page


def test_bug_the_count_sheet_refuses_a_count_above_the_chips_in_play(director: Client) -> None:
    event = tournament(players=["Ann", "Bob", "Cy"], start=True, starting_stack=10000)
    table = Table.objects.get(tournament=event, number=1)
    first = seated(table)[0]
    url = reverse("table-counts", args=[event.pk, table.pk])

    page = director.post(url, once(kind="count", note="", **{f"chips_{first.pk}": "3100000"}))

    body = page.content.decode()
    assert page.status_code == 200
    assert "3,100,000" in body
    assert "30,000 chips in play" in body
    assert not ChipMove.objects.filter(tournament=event, kind="count").exists()


def test_a_colour_up_on_the_count_sheet_raises_the_smallest_chip(director: Client) -> None:
    event = tournament(players=["Ann", "Bob", "Cy"], start=True, starting_stack=10000)
    table = Table.objects.get(tournament=event, number=1)
    first = seated(table)[0]
    url = reverse("table-counts", args=[event.pk, table.pk])

    director.post(
        url,
        once(kind="colour_up", note="25s", smallest_chip="100", **{f"chips_{first.pk}": "10000"}),
    )

    chips = list(event.levels.order_by("order").values_list("smallest_chip", flat=True))
    assert chips == [100, 100, 100, 100]


def test_bug_ending_a_day_over_a_table_never_counted_asks_to_confirm(director: Client) -> None:
    _, flight = flight_a(["Ann", "Bob", "Cy"])
    url = reverse("phase-bag", args=[flight.pk])

    refused = director.post(url, once(), follow=True).content.decode()  # the event page's button

    sentence = (
        "Table 1 has not been counted: record its count sheet, or confirm to bag with the "
        "chips the ledger has."
    )
    assert sentence in refused
    assert 'name="confirm"' in refused  # the confirm step
    assert "Bag without counting table 1" in refused
    assert Tournament.objects.get(pk=flight.pk).status == Tournament.Status.RUNNING

    bagged = director.post(url, once(confirm="on"), follow=True).content.decode()

    assert "Day 1A is over: its bags are recorded." in bagged
    assert Tournament.objects.get(pk=flight.pk).status == Tournament.Status.FINISHED
