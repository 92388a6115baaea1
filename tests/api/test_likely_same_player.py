"""The API's registration asks before creating a second player (issue 26): 409
`likely_same_player` with the candidates, unless `new_player: true` or a `player` id."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, make
from tournaments.models import Player, Tournament
from tournaments.services.players import player_get_or_create, player_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def jose() -> Player:
    return player_update(player=player_get_or_create(name="José Núñez"), number="1042")


@pytest.fixture
def url() -> str:
    tournament = make(TournamentFactory, status=Tournament.Status.REGISTERING)
    return f"/api/tournaments/{tournament.pk}/entries/"


def test_a_folded_name_answers_409_with_the_candidates(
    director: APIClient, jose: Player, url: str
) -> None:
    response = director.post(url, {"player_name": "Jose Nunez"}, format="json")

    assert response.status_code == 409
    assert response.json() == {
        "code": "likely_same_player",
        "detail": "José Núñez #1042 is already a player: register them, or create a new player.",
        "candidates": [{"id": jose.pk, "name": "José Núñez", "number": "1042"}],
    }
    assert Player.objects.count() == 1


def test_the_candidate_is_registered_by_id(director: APIClient, jose: Player, url: str) -> None:
    response = director.post(url, {"player": jose.pk}, format="json")

    assert response.status_code == 201
    assert response.json()["player_id"] == jose.pk


def test_a_new_player_when_told(director: APIClient, jose: Player, url: str) -> None:
    response = director.post(url, {"player_name": "Jose Nunez", "new_player": True}, format="json")

    assert response.status_code == 201
    assert Player.objects.count() == 2


@pytest.mark.parametrize("body", [{}, {"player_name": "\u200b"}, {"player_name": " \u0301 "}])
def test_no_name_and_no_player_is_400_with_a_sentence(
    director: APIClient, url: str, body: dict[str, str]
) -> None:
    response = director.post(url, body, format="json")

    assert response.status_code == 400
    assert response.json()["detail"]


def test_the_api_merges_two_players(director: APIClient, jose: Player) -> None:
    twin = player_get_or_create(name="Jose Nunez")

    response = director.post(f"/api/players/{jose.pk}/merge/", {"from": twin.pk}, format="json")

    assert response.status_code == 200
    assert response.json()["id"] == jose.pk
    assert not Player.objects.filter(pk=twin.pk).exists()


@pytest.mark.parametrize(
    ("body", "status", "code"), [({}, 400, "invalid"), ({"from": 999999}, 404, "not_found")]
)
def test_a_refused_merge_answers_a_code(
    director: APIClient, jose: Player, body: dict[str, int], status: int, code: str
) -> None:
    response = director.post(f"/api/players/{jose.pk}/merge/", body, format="json")

    assert (response.status_code, response.json()["code"]) == (status, code)
    assert response.json()["detail"]


def test_only_a_director_merges(jose: Player) -> None:
    twin = player_get_or_create(name="Jose Nunez")

    response = APIClient().post(f"/api/players/{jose.pk}/merge/", {"from": twin.pk}, format="json")

    assert response.status_code in (401, 403)
    assert Player.objects.filter(pk=twin.pk).exists()
