"""The pages of issue 14's players and satellites: the director's player search and a player's
page (contact editable), the public results page (no contact), series, the satellite's card on
the payouts page with its one-click registration, and "ticket from" on the target's entries."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NAMES, NOW, entry_of, freeze_pages, staff_client, tournament
from tournaments.models import Entry, Player, Series, Tournament
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.players import player_get_or_create, player_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


@pytest.fixture
def jose() -> Player:
    player = player_get_or_create(name="José Núñez")
    return player_update(player=player, number="1042", email="jose@example.org", phone="+34 600")


def test_the_desk_has_a_players_link(director: Client) -> None:
    body = director.get(reverse("tournament-list")).content.decode()

    assert f'href="{reverse("player-list")}"' in body


def test_the_search_finds_jose_without_the_accent(director: Client, jose: Player) -> None:
    player_get_or_create(name="Ann Lee")

    response = director.get(reverse("player-list"), {"q": "jose"})

    body = response.content.decode()
    assert response.status_code == 200
    assert "José Núñez" in body
    assert "Ann Lee" not in body
    assert reverse("player-detail", args=[jose.pk]) in body


def test_a_search_too_long_is_refused_with_a_sentence(director: Client) -> None:
    response = director.get(reverse("player-list"), {"q": "x" * 81})

    assert response.status_code == 400
    assert "Type at most 80 characters" in response.content.decode()


def test_the_players_pages_are_for_directors(client: Client, jose: Player) -> None:
    assert client.get(reverse("player-list")).status_code == 302  # to the login page
    assert client.get(reverse("player-detail", args=[jose.pk])).status_code == 302
    assert client.get(reverse("series-list")).status_code == 302


def test_the_director_edits_a_players_number_and_contact(director: Client, jose: Player) -> None:
    url = reverse("player-detail", args=[jose.pk])
    shown = director.get(url).content.decode()

    saved = director.post(
        url, {"name": "José Núñez", "number": "2001", "email": "", "phone": "+34 700"}
    )

    assert "jose@example.org" in shown  # the director sees the contact
    assert saved.status_code == 302
    jose.refresh_from_db()
    assert (jose.number, jose.email, jose.phone) == ("2001", "", "+34 700")


def test_a_taken_number_is_shown_next_to_its_field(director: Client, jose: Player) -> None:
    ann = player_get_or_create(name="Ann Lee")

    response = director.post(
        reverse("player-detail", args=[ann.pk]), {"name": "Ann Lee", "number": "1042"}
    )

    assert response.status_code == 400
    assert "Number 1042 is already José Núñez&#x27;s." in response.content.decode()
    assert response.context["form"].errors["number"]


def test_the_players_page_lists_every_entry_across_the_series(
    director: Client, jose: Player
) -> None:
    series = Series.objects.create(name="Spring Festival")
    event = tournament(players=["José Núñez", *NAMES[:2]], start=True, series=series)
    entries_bust(
        tournament=event,
        busts=[Bust(entry_id=entry_of(event, "José Núñez").pk, starting_stack=10000)],
        now=NOW,
    )

    body = director.get(reverse("player-detail", args=[jose.pk])).content.decode()

    assert "Friday Deepstack" in body
    assert "Spring Festival" in body
    assert "#1042" in body


def test_the_public_results_page_shows_no_contact(client: Client, jose: Player) -> None:
    event = tournament(players=["José Núñez"], name="Side Event")
    Entry.objects.filter(tournament=event).update(finishing_place=1, prize=Decimal("500"))

    response = client.get(reverse("public-player", args=[jose.pk]))

    body = response.content.decode()
    assert response.status_code == 200
    assert "José Núñez" in body
    assert "Side Event" in body
    for private in ("jose@example.org", "+34 600", "1042"):
        assert private not in body
    assert client.get(reverse("public-player", args=[999999])).status_code == 404


def test_series_are_created_on_their_page(director: Client) -> None:
    created = director.post(reverse("series-list"), {"name": "Spring Festival"})
    again = director.post(reverse("series-list"), {"name": "SPRING festival"})

    assert created.status_code == 302
    assert again.status_code == 400
    assert "already a series called" in again.content.decode()
    assert Series.objects.count() == 1


def test_a_tournament_is_put_in_a_series_and_made_a_satellite_in_its_settings(
    director: Client,
) -> None:
    series = Series.objects.create(name="Spring Festival")
    main = tournament(name="Main Event")
    sat = tournament(name="Mega Satellite")
    url = reverse("tournament-settings", args=[sat.pk])
    form = director.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data |= {"series": series.pk, "satellite_target": main.pk, "seat_value": "440"}
    data.pop("payout_percentages", None)

    response = director.post(url, data)

    assert response.status_code == 302, response.context["form"].errors
    sat.refresh_from_db()
    assert (sat.series_id, sat.satellite_target_id, sat.seat_value) == (series.pk, main.pk, 440)


def test_a_satellite_cannot_target_itself_on_the_settings_page(director: Client) -> None:
    sat = tournament(name="Mega Satellite")
    url = reverse("tournament-settings", args=[sat.pk])
    data = {k: v for k, v in director.get(url).context["form"].initial.items() if v is not None}
    data |= {"satellite_target": sat.pk, "payout_percentages": ""}

    response = director.post(url, data)

    assert response.status_code == 200
    assert response.context["form"].errors["satellite_target"] == [
        "A satellite wins seats in another event, not in itself."
    ]


def test_the_satellites_payouts_page_registers_its_winners_in_one_click(
    director: Client,
) -> None:
    main = tournament(name="Main Event")
    sat = tournament(
        name="Mega Satellite",
        players=NAMES[:4],
        start=True,
        buy_in=110,
        satellite_target=main,
        seat_value=Decimal("200"),
    )  # 440: two seats of 200, 40 to third
    for name in NAMES[:2]:
        entries_bust(
            tournament=sat,
            busts=[Bust(entry_id=entry_of(sat, name).pk, starting_stack=10000)],
            now=NOW,
        )
    payouts = reverse("payout-list", args=[sat.pk])

    before = director.get(payouts).content.decode()
    clicked = director.post(reverse("satellite-register-winners", args=[sat.pk]), follow=True)
    entries = director.get(reverse("entry-list", args=[main.pk])).content.decode()

    assert "Seat in Main Event" in before
    assert "Register the winners in Main Event" in before
    assert "Remainder" in before
    assert "Registered in Main Event: " in clicked.content.decode()
    assert "Every seat winner is registered" in clicked.content.decode()
    assert entries.count("ticket from Mega Satellite") == 2
    assert Entry.objects.filter(tournament=main, ticket_from__tournament=sat).count() == 2


def test_a_refused_registration_says_why_on_the_payouts_page(director: Client) -> None:
    main = tournament(name="Main Event", status="planned")
    sat = tournament(
        name="Mega Satellite",
        players=NAMES[:3],
        start=True,
        buy_in=100,
        satellite_target=main,
        seat_value=Decimal("150"),
    )
    entries_bust(
        tournament=sat,
        busts=[Bust(entry_id=entry_of(sat, NAMES[0]).pk, starting_stack=10000)],
        now=NOW,
    )

    response = director.post(reverse("satellite-register-winners", args=[sat.pk]), follow=True)

    assert "Registration for Main Event is closed" in response.content.decode()
    assert Tournament.objects.get(pk=main.pk).entries.count() == 0


def test_a_satellite_whose_seats_are_won_is_finished_from_its_overview(director: Client) -> None:
    """Two seats, two players left: the overview says each has won a seat and offers "Finish
    tournament" (it waited for one player left, so a satellite could not be finished there)."""
    main = tournament(name="Main Event")
    sat = tournament(
        name="Mega Satellite",
        players=NAMES[:4],
        start=True,
        buy_in=110,
        satellite_target=main,
        seat_value=Decimal("200"),
    )  # 440: two seats of 200, 40 to third
    overview = reverse("tournament-dashboard", args=[sat.pk])
    during = director.get(overview).content.decode()
    for name in NAMES[:2]:
        entries_bust(
            tournament=sat,
            busts=[Bust(entry_id=entry_of(sat, name).pk, starting_stack=10000)],
            now=NOW,
        )

    after = director.get(overview).content.decode()
    finished = director.post(reverse("tournament-finish", args=[sat.pk]), follow=True)

    assert "The satellite is over when 2 players are left" in during
    assert "Finish tournament" not in during
    assert "The 2 players left have each won a seat" in after
    assert "Finish tournament" in after
    assert finished.status_code == 200
    sat.refresh_from_db()
    assert sat.status == "finished"
