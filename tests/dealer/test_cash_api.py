"""Cash tables over the REST API: the next hand's plan, and a start that takes exactly it."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from dealer import cash
from dealer.models import Hand
from dealer.services import hand_start
from tests.dealer.test_cash_services import play_out, seat_of, seated
from tests.factories import DealerFactory, assign_dealer, seated_tournament
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def dealer_client(table: Table) -> APIClient:
    client = APIClient()
    client.force_login(assign_dealer(table))
    return client


def returner_table() -> Table:
    """Six players, button 1; seat 4 sat out while both blinds passed and is back."""
    table = seated("1 2 3 4 5 6", button=1)
    play_out(Hand.objects.get(pk=_start(table)))
    cash.cash_seat_sit_out(cash_seat=seat_of(table, 4))
    for _ in range(4):
        play_out(Hand.objects.get(pk=_start(table)))
    cash.cash_seat_return(cash_seat=seat_of(table, 4))
    table.refresh_from_db()
    return table


def _start(table: Table) -> int:
    return hand_start(table=table).pk


def test_next_hand_lists_the_posts_live_and_dead_and_the_start_takes_them() -> None:
    table = returner_table()
    client = dealer_client(table)
    plan = client.get(f"/api/tables/{table.pk}/next-hand/")
    assert plan.status_code == 200
    body = plan.json()
    assert (body["button_seat"], body["small_blind_seat"], body["big_blind_seat"]) == (1, 2, 3)
    posts = {p["seat"]: (p["live"], p["dead"], p["why"]) for p in body["posts"] if p["live"]}
    assert posts == {
        2: (1, 0, "small blind"),
        3: (2, 0, "big blind"),
        4: (2, 1, "missed blinds: 2 live + 1 dead"),
    }
    started = client.post(
        f"/api/tables/{table.pk}/hands/",
        {"client_id": "start-cash-1", "plan": body["signature"]},
        format="json",
    )
    assert started.status_code == 201
    state = started.json()
    bets = {p["seat"]: p["bet"] for p in state["players"]}
    assert (bets[2], bets[3], bets[4]) == (1, 2, 2)
    assert state["pot_total"] == 6


def test_start_with_a_stale_plan_or_an_unoffered_straddle_is_refused() -> None:
    table = seated("1 2 3", button=1, rule_overrides={"straddle_allowed": False})
    client = dealer_client(table)
    signature = client.get(f"/api/tables/{table.pk}/next-hand/").json()["signature"]
    cash.cash_seat_take(table=table, seat=5, player_name="Late", buy_in=100, choice="post_now")
    refused = client.post(
        f"/api/tables/{table.pk}/hands/",
        {"client_id": "start-cash-2", "plan": signature},
        format="json",
    )
    assert refused.status_code == 409
    assert refused.json()["code"] == "plan_changed"
    refused = client.post(
        f"/api/tables/{table.pk}/hands/",
        {"client_id": "start-cash-3", "straddle": True},
        format="json",
    )
    assert (refused.status_code, refused.json()["code"]) == (409, "straddle_not_offered")
    assert not Hand.objects.filter(table=table).exists()


def test_straddle_through_the_api() -> None:
    table = seated("1 2 3 4 5", button=1)
    client = dealer_client(table)
    body = client.get(f"/api/tables/{table.pk}/next-hand/").json()
    assert (body["straddle_seat"], body["straddle_amount"]) == (4, 4)
    started = client.post(
        f"/api/tables/{table.pk}/hands/",
        {"client_id": "start-cash-4", "plan": body["signature"], "straddle": True},
        format="json",
    )
    assert started.status_code == 201
    assert started.json()["actor_seat"] == 5


def test_next_hand_refusals_have_a_code_and_a_sentence() -> None:
    tournament = seated_tournament(players=3)
    tournament_table = Table.objects.get(tournament=tournament, number=1)
    client = dealer_client(tournament_table)
    response = client.get(f"/api/tables/{tournament_table.pk}/next-hand/")
    assert (response.status_code, response.json()["code"]) == (400, "not_cash")
    lonely = seated("1", button=1)
    response = dealer_client(lonely).get(f"/api/tables/{lonely.pk}/next-hand/")
    assert (response.status_code, response.json()["code"]) == (409, "not_enough_players")
    assert "at least two players" in response.json()["detail"]


def test_only_the_assigned_dealer_starts_a_cash_hand() -> None:
    table = seated("1 2 3", button=1)
    assign_dealer(table)
    other = APIClient()
    other.force_login(DealerFactory.create())
    response = other.post(
        f"/api/tables/{table.pk}/hands/", {"client_id": "start-x1"}, format="json"
    )
    assert response.status_code == 403
    assert other.get(f"/api/tables/{table.pk}/next-hand/").status_code == 200
