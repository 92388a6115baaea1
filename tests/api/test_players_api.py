"""The players' API (issue 14): the director's search and a player's record with contact, the
public results without it, series, and a tournament put in a series."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import EntryFactory, TournamentFactory, make
from tournaments.models import Player, Tournament
from tournaments.services.players import player_get_or_create, player_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def jose() -> Player:
    player = player_get_or_create(name="José Núñez")
    return player_update(
        player=player, number="1042", email="jose@example.org", phone="+34 600 111 222"
    )


def code(response: Any) -> tuple[int, str]:
    return response.status_code, response.json().get("code", "")


def test_the_director_searches_by_folded_name_and_by_number(
    director: APIClient, jose: Player
) -> None:
    player_get_or_create(name="Ann Lee")

    by_name = director.get("/api/players/", {"q": "jose"}).json()
    by_part = director.get("/api/players/", {"q": "NUNEZ"}).json()
    by_number = director.get("/api/players/", {"q": "#1042"}).json()
    everyone = director.get("/api/players/").json()

    assert [p["name"] for p in by_name["results"]] == ["José Núñez"]
    assert by_name["results"][0] == {
        "id": jose.pk,
        "name": "José Núñez",
        "number": "1042",
        "entries": 0,
        "is_archived": False,  # issue 26
    }
    assert [p["id"] for p in by_part["results"]] == [jose.pk]
    assert [p["id"] for p in by_number["results"]] == [jose.pk]
    assert (everyone["count"], everyone["page"], everyone["pages"]) == (2, 1, 1)


def test_the_search_refuses_a_bad_page(director: APIClient) -> None:
    assert code(director.get("/api/players/", {"page": "0"})) == (400, "invalid")
    assert director.get("/api/players/", {"q": "x" * 81}).status_code == 400


def test_the_director_reads_and_changes_a_player_with_contact(
    director: APIClient, jose: Player
) -> None:
    read = director.get(f"/api/players/{jose.pk}/").json()
    changed = director.patch(
        f"/api/players/{jose.pk}/", {"number": "#2001", "phone": ""}, format="json"
    )

    assert (read["email"], read["phone"]) == ("jose@example.org", "+34 600 111 222")
    assert changed.status_code == 200
    assert (changed.json()["number"], changed.json()["phone"]) == ("2001", "")
    assert changed.json()["email"] == "jose@example.org"  # left as it was


def test_player_refusals_answer_with_their_codes(director: APIClient, jose: Player) -> None:
    ann = player_get_or_create(name="Ann Lee")
    url = f"/api/players/{ann.pk}/"

    assert code(director.patch(url, {"number": "1042"}, format="json")) == (409, "number_taken")
    assert code(director.patch(url, {"name": "josé núñez"}, format="json")) == (409, "name_taken")
    assert code(director.patch(url, {"email": "nope"}, format="json")) == (400, "bad_email")
    assert code(director.patch(url, {"number": "10!"}, format="json")) == (400, "bad_number")
    assert code(director.get("/api/players/999999/")) == (404, "not_found")
    assert code(director.patch("/api/players/999999/", {}, format="json")) == (404, "not_found")


def test_only_a_director_sees_players_and_contact(jose: Player) -> None:
    public = APIClient()

    assert public.get("/api/players/").status_code == 403
    assert public.get(f"/api/players/{jose.pk}/").status_code == 403
    assert public.patch(f"/api/players/{jose.pk}/", {"name": "X"}, format="json").status_code == 403
    assert public.get("/api/series/").status_code == 403


def test_the_public_results_never_carry_contact(jose: Player) -> None:
    event = make(TournamentFactory, name="Side Event", status=Tournament.Status.FINISHED)
    make(EntryFactory, tournament=event, player=jose, finishing_place=1, prize=Decimal("900"))

    response = APIClient().get(f"/api/players/{jose.pk}/results/")

    assert response.status_code == 200
    body = response.json()
    assert (body["name"], body["cashes"], body["winnings"]) == ("José Núñez", 1, "900.00")
    assert body["rows"][0]["tournament"] == "Side Event"
    text = response.content.decode()
    for private in ("jose@example.org", "600 111 222", "email", "phone", "1042"):
        assert private not in text
    assert APIClient().get("/api/players/999999/results/").status_code == 404


def test_series_are_created_listed_and_given_to_a_tournament(director: APIClient) -> None:
    created = director.post("/api/series/", {"name": "Spring Festival"}, format="json")
    again = director.post("/api/series/", {"name": "spring festival"}, format="json")
    event = make(TournamentFactory)
    joined = director.patch(
        f"/api/tournaments/{event.pk}/", {"series": created.json()["id"]}, format="json"
    )
    listed = director.get("/api/series/").json()

    assert created.status_code == 201
    assert code(again) == (409, "series_taken")
    assert joined.status_code == 200
    assert joined.json()["series"] == created.json()["id"]
    assert [(s["name"], s["events"]) for s in listed] == [("Spring Festival", 1)]
    assert code(director.post("/api/series/", {"name": ""}, format="json"))[0] == 400
