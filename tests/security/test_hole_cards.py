"""Hole cards are seen only by the table's dealer and directors until shown (issue 12).

A dealer entering hole cards at table 1 through the API: the dealer of table 2 reads the hand's
log with "??" in their place (API and tablet page), and may not download its history; a show is
public. Before the fix, any dealer read every hand's hole cards.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from dealer.card_gate import hide_hole_cards
from tests.dealer.test_api_hands import start
from tests.factories import DirectorFactory, assign_dealer, seated_tournament
from tournaments.models import Table

pytestmark = pytest.mark.django_db

HOLE = ["Qs", "Jc"]


def signed_in(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def two_tables() -> dict[str, Any]:
    tournament = seated_tournament(players=12)
    first, second = Table.objects.filter(tournament=tournament).order_by("number")[:2]
    dealer = signed_in(assign_dealer(first))
    tablet = start(dealer, first)
    seat = tablet.state["legal"]["actor"]
    tablet.ok(kind="deal_hole", seat=seat, cards=HOLE)
    return {
        "table": first,
        "hand": tablet.state["hand"],
        "tablet": tablet,
        "seat": seat,
        "own_dealer": dealer,
        "other_dealer": signed_in(assign_dealer(second)),
        "director": signed_in(DirectorFactory()),
    }


def dealt_cards(client: APIClient, hand: int) -> list[list[str]]:
    response = client.get(f"/api/hands/{hand}/events/")
    assert response.status_code == 200, response.content
    return [
        action["cards"]
        for event in response.json()
        for action in event["payload"].get("actions") or []
        if action.get("kind") == "deal_hole"
    ]


def test_hole_cards_in_the_api_log_are_hidden_from_another_tables_dealer(two_tables) -> None:
    assert dealt_cards(two_tables["other_dealer"], two_tables["hand"]) == [["??", "??"]]


def test_the_tables_dealer_and_directors_read_the_hole_cards(two_tables) -> None:
    assert dealt_cards(two_tables["own_dealer"], two_tables["hand"]) == [HOLE]
    assert dealt_cards(two_tables["director"], two_tables["hand"]) == [HOLE]


def test_hole_cards_on_the_tablet_page_are_hidden_from_another_tables_dealer(two_tables) -> None:
    url = f"/deal/table/{two_tables['table'].pk}/"
    other = two_tables["other_dealer"].get(url)
    own = two_tables["own_dealer"].get(url)
    assert other.status_code == own.status_code == 200
    # The tablet's log writes a card as rank and suit symbol: Q♠ J♣.
    assert "Q♠" in own.content.decode()
    assert "Q♠" not in other.content.decode()
    assert "J♣" not in other.content.decode()


def test_a_show_is_public_and_hidden_cards_keep_their_number() -> None:
    payload: dict[str, Any] = {
        "actions": [
            {"kind": "deal_hole", "player": 0, "cards": ["Qs", "Jc"]},
            {"kind": "muck", "player": 1, "cards": ["2c", "7d"]},
            {"kind": "show", "player": 2, "cards": ["As", "Ad"]},
            {"kind": "deal_board", "cards": ["2h", "3h", "4h"]},
        ]
    }
    hidden = hide_hole_cards(payload)
    assert [a["cards"] for a in hidden["actions"]] == [
        ["??", "??"],
        ["??", "??"],
        ["As", "Ad"],
        ["2h", "3h", "4h"],
    ]
    assert payload["actions"][0]["cards"] == ["Qs", "Jc"]  # the stored payload is untouched


def test_hand_histories_are_refused_to_another_tables_dealer(two_tables) -> None:
    table, hand = two_tables["table"], two_tables["hand"]
    other = two_tables["other_dealer"]
    for url in (
        f"/api/hands/{hand}/phh/",
        f"/api/tables/{table.pk}/phh/",
        f"/api/tournaments/{table.tournament_id}/phh/",
    ):
        response = other.get(url)
        assert response.status_code == 403, url
        assert response.json()["code"] == "permission_denied"
        assert "hole cards" in response.json()["detail"]
    # The table's own dealer still downloads the table's session.
    assert two_tables["own_dealer"].get(f"/api/tables/{table.pk}/phh/").status_code == 200
