"""The multi-flight event pages (issue 14): creating an event with its flights from the desk,
the event page with its buttons, the printable bag list, ending a day and drawing Day 2 (each
safe to send twice), the event's results, and the tournaments list grouping flights under their
event."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.pages import NOW, freeze_pages, once, schedule, staff_client
from tournaments.models import AuditEvent, Entry, Tournament
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_open_registration
from tournaments.services.flights import event_create, phase_bag
from tournaments.services.tables import tournament_draw_seats

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


def event_with_flights(players: dict[str, list[str]] | None = None) -> Tournament:
    event = event_create(
        schedule=schedule(),
        flights=["A", "B"],
        name="Spring Main",
        buy_in=200,
        starting_stack=20000,
    )
    for label, names in (players or {}).items():
        flight = event.phases.get(flight=label)
        tournament_open_registration(tournament=flight)
        for name in names:
            entry_register(tournament=flight, player_name=name, now=NOW)
        tournament_draw_seats(tournament=flight, rng=random.Random(2))
        clock_start(tournament=flight, now=NOW)
    return event


def test_a_director_creates_an_event_with_three_flights_from_the_desk(director: Client) -> None:
    form = {
        "name": "Spring Main",
        "schedule": schedule().pk,
        "flights": "A, B, C",
        "reentry_across_flights": "on",
        "game": "holdem",
        "structure": "no_limit",
        "buy_in": "200",
        "fee": "20",
        "starting_stack": "20000",
        "seats_per_table": "9",
        "late_registration_level": "2",
        "max_entries_per_player": "2",
        "rebuy_price": "0",
        "rebuy_chips": "0",
        "rebuy_until_level": "0",
        "addon_price": "0",
        "addon_chips": "0",
        "payout_percentages": "50, 30, 20",
        "payout_unit": "1",
        "guarantee": "0",
        "bounty_kind": "none",
        "bounty": "0",
    }

    response = director.post(reverse("event-create"), form)

    event = Tournament.objects.get(kind=Tournament.Kind.EVENT)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert response["Location"] == reverse("event-page", args=[event.pk])
    assert list(event.phases.order_by("day", "flight").values_list("name", flat=True)) == [
        "Spring Main Day 1A",
        "Spring Main Day 1B",
        "Spring Main Day 1C",
        "Spring Main Day 2",
    ]
    assert event.reentry_across_flights
    listing = director.get(reverse("tournament-list")).content.decode()
    assert listing.index("Spring Main</a>") < listing.index("Spring Main Day 1A")
    assert listing.index("Spring Main Day 1A") < listing.index("Spring Main Day 1C")


def test_the_event_form_says_which_flight_letters_are_wrong(director: Client) -> None:
    response = director.post(
        reverse("event-create"),
        {"name": "X", "schedule": schedule().pk, "flights": "A, a", "starting_stack": "1"},
    )

    assert response.status_code == 200
    assert not Tournament.objects.filter(kind=Tournament.Kind.EVENT).exists()


def test_the_event_page_lists_each_phase_with_its_buttons(director: Client) -> None:
    event = event_with_flights({"A": ["Ann", "Bob", "Cy"]})

    page = director.get(reverse("event-page", args=[event.pk])).content.decode()

    for label in ("Day 1A", "Day 1B", "Day 2"):
        assert f'data-phase="{label}"' in page
    assert page.count("End the day (bag)") == 1  # only the flight under way
    assert "Draw Day 2" in page
    assert "60,000" in page  # Day 1A's chips in play


def test_ending_a_day_from_the_bag_list_bags_once_even_sent_twice(director: Client) -> None:
    event = event_with_flights({"A": ["Ann", "Bob", "Cy"]})
    flight = event.phases.get(flight="A")
    url = reverse("phase-bag", args=[flight.pk])
    before = director.get(url).content.decode()
    form = once(confirm="on")  # table 1 was never counted (issue 26)

    first = director.post(url, form, follow=True).content.decode()
    second = director.post(url, form, follow=True).content.decode()

    flight.refresh_from_db()
    assert "To bag" in before
    assert "count sheets" in before
    assert flight.status == Tournament.Status.FINISHED
    assert "Day 1A is over: its bags are recorded." in first
    assert "Already recorded: that form was sent twice." in second
    assert AuditEvent.objects.filter(tournament=flight, action="phase_bag").count() == 1


def test_drawing_day_2_from_the_event_page_seats_the_survivors(director: Client) -> None:
    event = event_with_flights({"A": ["Ann", "Bob", "Cy"], "B": ["Dee", "Eve"]})
    day2 = event.phases.get(day=2)
    phase_bag(phase=event.phases.get(flight="A"), now=NOW, confirm=True)
    url = reverse("day-draw", args=[day2.pk])

    early = director.post(url, once(), follow=True).content.decode()
    phase_bag(phase=event.phases.get(flight="B"), now=NOW, confirm=True)
    drawn = director.post(url, once(), follow=True).content.decode()

    assert "Day 1B has not ended: bag it before the Day 2 draw." in early
    assert "Day 2 drawn: 5 players at 1 table." in drawn
    assert Entry.objects.filter(tournament=day2, table__isnull=False).count() == 5
    results = director.get(reverse("event-results", args=[event.pk])).content.decode()
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve"):
        assert f'<td class="strong">{name}</td>' in results


def test_event_pages_are_for_directors(client: Client) -> None:
    event = event_with_flights()
    client.force_login(get_user_model().objects.create_user("someone", password="pw"))

    for name in ("event-page", "event-results"):
        assert client.get(reverse(name, args=[event.pk])).status_code == 403
    assert client.get(reverse("event-create")).status_code == 403


def test_an_event_shows_no_tabs_for_dealing_only_its_flights_do(director: Client) -> None:
    """The event row deals no cards: its tabs lead to the flights and days, payouts, rules and
    settings, never to a registration desk or tables of its own; a flight keeps them all."""
    event = event_with_flights({"A": ["Ann", "Bob"]})
    flight = event.phases.get(flight="A")

    event_tabs = director.get(reverse("event-page", args=[event.pk])).content.decode()
    flight_tabs = director.get(reverse("entry-list", args=[flight.pk])).content.decode()

    for hidden in ("entry-list", "table-list", "clock-control", "bust-list"):
        assert reverse(hidden, args=[event.pk]) not in event_tabs
        assert reverse(hidden, args=[flight.pk]) in flight_tabs
    assert reverse("payout-list", args=[event.pk]) in event_tabs
    assert director.get(reverse("payout-list", args=[event.pk])).status_code == 200
    overview = director.get(reverse("tournament-dashboard", args=[event.pk]))
    assert overview["Location"] == reverse("event-page", args=[event.pk])  # its glance: phases
