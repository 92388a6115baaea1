"""The screens through the API (issue 14, "Screens"): a director's screens and message to the
room, the public board a screen polls (ETag, 304), and the seat lookup's twin of the phone's
accent-insensitive search with the places of players out."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.pages import NAMES, NOW, entry_of, freeze_pages, tournament
from tournaments.models import Screen, Tournament
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.entries import entry_set_chips

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_pages(monkeypatch, NOW)


@pytest.fixture
def event() -> Tournament:
    return tournament(players=NAMES[:6], start=True, payout_percentages=[70, 30])


def _screens(event: Tournament) -> str:
    return f"/api/tournaments/{event.pk}/screens/"


def test_a_director_adds_lists_changes_and_removes_a_screen(
    director: APIClient, event: Tournament
) -> None:
    added = director.post(_screens(event), {"name": "Bar TV", "layout": "sidebar"}, format="json")
    screen = added.json()
    url = f"{_screens(event)}{screen['id']}/"

    listed = director.get(_screens(event))
    changed = director.patch(url, {"sound": True}, format="json")
    removed = director.delete(url)
    gone = director.get(url)

    assert added.status_code == 201
    assert screen == {
        "id": screen["id"],
        "name": "Bar TV",
        "layout": "sidebar",
        "sound": False,
        "url": f"/t/{event.pk}/screens/{screen['id']}/",
    }
    assert [s["name"] for s in listed.json()] == ["Bar TV"]
    assert (changed.status_code, changed.json()["sound"], changed.json()["layout"]) == (
        200,
        True,
        "sidebar",
    )
    assert removed.status_code == 204
    assert (gone.status_code, gone.json()["code"]) == (404, "not_found")


@pytest.mark.parametrize(
    ("body", "field"),
    [({"name": "Bar TV", "layout": "ticker"}, "layout"), ({"name": ""}, "name"), ({}, "name")],
)
def test_a_bad_screen_is_refused_with_its_field(
    director: APIClient, event: Tournament, body: dict[str, Any], field: str
) -> None:
    answer = director.post(_screens(event), body, format="json")

    assert (answer.status_code, answer.json()["code"]) == (400, "invalid")
    assert field in answer.json()["errors"]
    assert not Screen.objects.exists()


def test_another_tournaments_screen_is_not_found(director: APIClient, event: Tournament) -> None:
    other = tournament(players=NAMES[:2], name="Other")
    screen = director.post(_screens(other), {"name": "Lobby"}, format="json").json()

    answer = director.patch(f"{_screens(event)}{screen['id']}/", {"name": "Mine"}, format="json")

    assert answer.status_code == 404
    assert Screen.objects.get(pk=screen["id"]).name == "Lobby"


def test_screens_and_the_message_are_the_directors(event: Tournament) -> None:
    public = APIClient()

    listed = public.get(_screens(event))
    added = public.post(_screens(event), {"name": "Bar TV"}, format="json")
    message = public.put(
        f"/api/tournaments/{event.pk}/floor-message/", {"message": "Hi"}, format="json"
    )

    assert {listed.status_code, added.status_code, message.status_code} == {403}
    assert added.json()["code"] == "not_authenticated"
    assert not Screen.objects.exists()


def test_the_floor_message_is_set_through_the_api_and_shown_in_the_clock_feed(
    director: APIClient, event: Tournament
) -> None:
    url = f"/api/tournaments/{event.pk}/floor-message/"
    clock_url = f"/api/tournaments/{event.pk}/clock/"
    before = APIClient().get(clock_url)

    answer = director.put(url, {"message": "Colour-up at the break"}, format="json")
    after = APIClient().get(clock_url, headers={"If-None-Match": before["ETag"]})
    too_long = director.put(url, {"message": "x" * 201}, format="json")
    down = director.put(url, {"message": ""}, format="json")

    assert (answer.status_code, answer.json()["floor_message"]) == (200, "Colour-up at the break")
    assert (after.status_code, after.json()["floor_message"]) == (200, "Colour-up at the break")
    assert (too_long.status_code, too_long.json()["code"]) == (400, "invalid")
    assert (down.status_code, down.json()["floor_message"]) == (200, "")


def test_the_board_is_public_and_answers_304_until_a_chip_moves(event: Tournament) -> None:
    url = f"/api/tournaments/{event.pk}/board/"
    first = APIClient().get(url)

    again = APIClient().get(url, headers={"If-None-Match": first["ETag"]})
    entry_set_chips(entry=entry_of(event, "Fatima Zahra"), chips=52000, now=NOW)
    moved = APIClient().get(url, headers={"If-None-Match": first["ETag"]})

    assert first.status_code == 200
    assert first.json()["payout_pages"] == [
        [
            {"place": 1, "prize": "420.00", "players": []},
            {"place": 2, "prize": "180.00", "players": []},
        ]
    ]
    assert first.json()["result"] == []
    assert again.status_code == 304
    assert moved.status_code == 200
    assert moved["ETag"] != first["ETag"]
    table = entry_of(event, "Fatima Zahra").table
    assert table is not None
    assert moved.json()["leaders"][0] == {
        "rank": 1,
        "name": "Fatima Zahra",
        "chips": 52000,
        "table": table.number,
    }


def test_a_planned_tournaments_board_is_not_public() -> None:
    planned = tournament(status="planned", name="Not yet")

    assert APIClient().get(f"/api/tournaments/{planned.pk}/board/").status_code == 404


def test_the_seat_lookup_finds_accented_names_and_gives_the_place_of_a_player_out() -> None:
    event = tournament(players=["José Núñez", "Josie Park", "Zoë Martin", "Ann Lee"], start=True)
    entries_bust(
        tournament=event,
        busts=[Bust(entry_id=entry_of(event, "Zoë Martin").pk, starting_stack=10000)],
        now=NOW,
    )
    url = f"/api/tournaments/{event.pk}/seats/"

    jose = APIClient().get(url, {"q": "jose"}).json()
    nunez = APIClient().get(url, {"q": "NUNEZ"}).json()
    zoe = APIClient().get(url, {"q": "zoe"}).json()

    assert [row["name"] for row in jose] == ["José Núñez"]  # not Josie
    assert jose[0]["table"] is not None
    assert jose[0]["seat"] is not None
    assert jose[0]["place"] is None
    assert [row["name"] for row in nunez] == ["José Núñez"]
    assert [(r["name"], r["status"], r["place"]) for r in zoe] == [("Zoë Martin", "busted", 4)]
