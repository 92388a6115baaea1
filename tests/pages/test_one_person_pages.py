"""One person, one player on the desk (issue 26): registration asks before creating a second
player of a folded name (two buttons), and the director merges two players on the player
page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NOW, freeze_pages, once, staff_client, tournament
from tournaments.models import Entry, Player
from tournaments.services.players import player_get_or_create, player_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


@pytest.fixture
def jose() -> Player:
    return player_update(player=player_get_or_create(name="José Núñez"), number="1042")


def test_a_folded_name_asks_with_two_buttons(director: Client, jose: Player) -> None:
    event = tournament()

    response = director.post(reverse("entry-list", args=[event.pk]), once(name="Jose Nunez"))

    body = response.content.decode()
    assert "José Núñez #1042 is already a player: register them, or create a new player." in body
    assert f'name="player" value="{jose.pk}"' in body
    assert "Register José Núñez #1042</button>" in body
    assert 'name="new_player" value="on"' in body
    assert "Create a new player Jose Nunez</button>" in body
    assert Player.objects.count() == 1
    assert not Entry.objects.filter(tournament=event).exists()


def test_the_first_button_registers_the_known_player(director: Client, jose: Player) -> None:
    event = tournament()

    response = director.post(reverse("entry-list", args=[event.pk]), once(player=jose.pk))

    assert response.status_code == 302
    assert Entry.objects.get(tournament=event).player == jose


def test_the_second_button_creates_a_new_player(director: Client, jose: Player) -> None:
    event = tournament()

    response = director.post(
        reverse("entry-list", args=[event.pk]), once(name="Jose Nunez", new_player="on")
    )

    assert response.status_code == 302
    assert Entry.objects.get(tournament=event).player.name == "Jose Nunez"
    assert Player.objects.count() == 2
