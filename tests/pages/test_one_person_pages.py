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


def test_the_player_page_offers_to_merge_a_likely_same_player(
    director: Client, jose: Player
) -> None:
    twin = player_get_or_create(name="Jose Nunez")

    body = director.get(reverse("player-detail", args=[jose.pk])).content.decode()

    assert "Merge Jose Nunez into José Núñez</button>" in body
    assert f'name="merge" value="{twin.pk}"' in body


def test_the_director_merges_a_player_on_the_page(director: Client, jose: Player) -> None:
    twin = player_get_or_create(name="Jose Nunez")
    event = tournament(status="finished")
    Entry.objects.create(tournament=event, player=twin, status="busted", finishing_place=4)

    response = director.post(reverse("player-merge", args=[jose.pk]), once(merge=twin.pk))

    assert response.status_code == 302
    assert not Player.objects.filter(pk=twin.pk).exists()
    assert Entry.objects.get(tournament=event).player == jose
    after = director.get(reverse("player-detail", args=[jose.pk])).content.decode()
    assert "Jose Nunez merged into José Núñez." in after


def test_a_refused_merge_is_shown_next_to_the_merge_field(director: Client, jose: Player) -> None:
    twin = player_get_or_create(name="Jose Nunez")
    event = tournament(players=["José Núñez"])
    Entry.objects.create(tournament=event, player=twin, number=1)

    response = director.post(reverse("player-merge", args=[jose.pk]), once(merge=twin.pk))

    assert response.status_code == 400
    body = response.content.decode()
    assert "both play Friday Deepstack" in body
    assert response.context["merge_form"].errors["merge"]
    assert Player.objects.filter(pk=twin.pk).exists()
