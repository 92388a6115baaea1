"""Run it twice (docs/rules.md 6.6, RIT) through the hands API and the tablet: the `run_twice`
action goes through the same action endpoint as every other entry, the state says when it is
legal (`can_run_twice`) and carries the second run's cards, and each run's half of a pot is its
own award."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from dealer.models import Hand
from dealer.services import hand_start
from tests.dealer.test_cash_services import seated
from tests.dealer.test_pages import HTMX
from tests.factories import assign_dealer
from tournaments.models import Table

pytestmark = pytest.mark.django_db

RIT = {"run_it_twice_allowed": True}


def post(client: APIClient, state: dict[str, Any], **action: Any) -> Any:
    return client.post(
        f"/api/hands/{state['hand']}/actions/",
        {"client_id": uuid.uuid4().hex, "version": state["version"], "action": action},
        format="json",
    )


def ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.json()
    body: dict[str, Any] = response.json()
    return body


def all_in_heads_up(overrides: dict[str, Any]) -> tuple[Table, APIClient, dict[str, Any]]:
    """Two players with 200 each, both all in preflop; the flop is dealt."""
    table = seated("1 2", button=1, rule_overrides=overrides)
    client = APIClient()
    client.force_login(assign_dealer(table))
    state = hand_start(table=table).state
    state = ok(post(client, state, kind="all_in", seat=state["actor_seat"]))
    state = ok(post(client, state, kind="call", seat=state["actor_seat"]))
    state = ok(post(client, state, kind="deal_board", cards=["7c", "8d", "2h"]))
    assert state["phase"] == "dealing"
    return table, client, state


def test_rit_through_the_api_two_boards_and_an_award_per_run():
    _, client, state = all_in_heads_up(RIT)
    assert state["can_run_twice"] is True
    state = ok(post(client, state, kind="run_twice"))
    assert (state["runs"], state["can_run_twice"]) == (2, False)
    for card in ("3s", "4c", "Kh", "9s"):  # run 1's turn and river, then run 2's
        state = ok(post(client, state, kind="deal_board", cards=[card]))
    assert state["board"] == ["7c", "8d", "2h", "3s", "4c"]
    assert state["board2"] == ["Kh", "9s"]
    assert state["phase"] == "showdown"
    first, second = state["showdown_order"]
    state = ok(post(client, state, kind="show", seat=first, cards=["As", "Ad"]))
    state = ok(post(client, state, kind="show", seat=second, cards=["Kc", "Kd"]))
    assert state["status"] == "complete"
    # Run 1: the aces hold; run 2: the kings make a set. 400 in the pot, 200 a run.
    by_run = {a["run"]: (a["amount"], a["winners"]) for a in state["awards"]}
    assert by_run == {1: (200, [first]), 2: (200, [second])}
    assert state["finishing_stacks"] == {str(first): 200, str(second): 200}


def test_rit_refused_by_the_api_with_a_code():
    _, client, state = all_in_heads_up({})
    assert state["can_run_twice"] is False
    answer = post(client, state, kind="run_twice")
    assert answer.status_code == 409
    assert answer.json()["code"] == "run_twice_not_allowed"


def test_rit_button_on_the_tablet_only_when_legal_and_the_tap_runs_it_twice():
    table, _, state = all_in_heads_up(RIT)
    browser = Client()
    browser.force_login(table.dealer)
    page = browser.get(reverse("deal-table", args=[table.pk]))
    assert 'value="run_twice"' in page.content.decode()
    hand = Hand.objects.get(pk=state["hand"])
    answer = browser.post(
        reverse("deal-action", args=[table.pk]),
        {
            "client_id": uuid.uuid4().hex,
            "hand": hand.pk,
            "version": hand.version,
            "action": "run_twice",
        },
        headers=HTMX,
    )
    assert answer.status_code == 200
    hand.refresh_from_db()
    assert hand.state["runs"] == 2
    page = browser.get(reverse("deal-table", args=[table.pk]))
    html = page.content.decode()
    assert 'value="run_twice"' not in html
    assert 'data-testid="board2"' in html


def test_rit_button_absent_where_the_rules_do_not_allow_it():
    table, _, _ = all_in_heads_up({})
    browser = Client()
    browser.force_login(table.dealer)
    page = browser.get(reverse("deal-table", args=[table.pk]))
    assert 'value="run_twice"' not in page.content.decode()
