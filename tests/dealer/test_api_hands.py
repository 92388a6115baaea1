"""Whole hands through the dealer API: no limit with an all-in and side pots to the awards, pot
limit with the POT button, fixed limit with its cap, Texas 6+; the hand's end reaches the
tournament (stacks, busts with places) and every stored hand replays (`check_hands`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from config import request_time
from dealer.models import Hand, HandEvent
from tests.factories import HandClient, assign_dealer, seated_tournament
from tournaments.models import Entry, Table
from tournaments.services.entries import entry_set_chips

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
Decide = Callable[[dict[str, Any]], dict[str, Any] | None]


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


def dealer_table(players: int, stacks: dict[int, int] | None = None, **fields: Any):
    """Table 1 of a running tournament with `players` seated, its dealer signed in on a client;
    `stacks` sets chips by position in seat order (0 = lowest seat)."""
    tournament = seated_tournament(players=players, **fields)
    table = Table.objects.get(tournament=tournament, number=1)
    entries = list(Entry.objects.filter(table=table).order_by("seat"))
    for index, chips in (stacks or {}).items():
        entry_set_chips(entry=entries[index], chips=chips, note="set up")
    client = APIClient()
    client.force_login(assign_dealer(table))
    return table, client


def start(client: APIClient, table: Table) -> HandClient:
    response = client.post(f"/api/tables/{table.pk}/hands/", {"client_id": "start"}, format="json")
    assert response.status_code == 201, response.json()
    return HandClient(client, response.json())


def by_seat(state: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {p["seat"]: p for p in state["players"]}


def play_out(
    tablet: HandClient, boards: list[list[str]], holes: dict[int, list[str]], decide: Decide
):
    """Play to the end: board cards when due, hands shown in showdown order (by seat), and the
    betting decided by `decide` (None: check, else call)."""
    deals = iter(boards)
    for _ in range(200):
        state = tablet.state
        if state["phase"] in ("complete", "void"):
            return state
        if state["phase"] == "dealing":
            tablet.ok(kind="deal_board", cards=next(deals))
        elif state["phase"] == "showdown":
            seat = state["next_to_show"]
            tablet.ok(kind="show", seat=seat, cards=holes[seat])
        else:
            action = decide(state) or {"kind": "check" if state["legal"]["can_check"] else "call"}
            tablet.ok(seat=state["legal"]["actor"], **action)
    raise AssertionError("the hand did not end")


def test_no_limit_all_in_with_side_pots_to_showdown_awards_and_busts():
    table, client = dealer_table(3, stacks={0: 1500})
    seats = sorted(Entry.objects.filter(table=table).values_list("seat", flat=True))
    short, deep = seats[0], seats[1:]
    tablet = start(client, table)
    holes = {short: ["4c", "5d"], deep[0]: ["As", "Ad"], deep[1]: ["Ks", "Kd"]}

    def decide(state: dict[str, Any]) -> dict[str, Any] | None:
        legal = state["legal"]
        if legal["actor"] == short and not by_seat(state)[short]["all_in"]:
            return {"kind": "all_in"}
        if state["street"] == "flop" and legal["is_bet"]:
            return {"kind": "bet", "amount": 2000}  # the deep stacks make a side pot
        return None

    final = play_out(tablet, [["2c", "7d", "9h"], ["Js"], ["3s"]], holes, decide)
    assert final["phase"] == "complete"
    assert final["status"] == "complete"
    main, side = sorted(final["pots"], key=lambda pot: pot["amount"], reverse=True)[:2]
    assert set(main["eligible_seats"]) == set(seats)
    assert set(side["eligible_seats"]) == set(deep)
    assert {a["pot"] for a in final["awards"]} == {0, 1}
    assert all(a["winners"] == [deep[0]] for a in final["awards"])  # aces win both pots
    assert sum(a["amount"] for a in final["awards"]) == sum(
        p["contributed"] for p in final["players"]
    )
    assert final["finishing_stacks"][str(short)] == 0
    entries = {e.seat: e for e in Entry.objects.filter(tournament=table.tournament)}
    assert entries[short].status == Entry.Status.BUSTED
    assert entries[short].finishing_place == 3
    for seat in deep:
        assert entries[seat].chips == final["finishing_stacks"][str(seat)]
    assert entries[deep[0]].chips == 10000 + 1500 + 2000 + 1500  # both pots
    history = client.get(f"/api/tables/{table.pk}/hands/").json()["results"]
    assert history[0]["winners"] == [
        {"seat": deep[0], "name": entries[deep[0]].player.name, "amount": final["pot_total"]}
    ]


def test_pot_limit_raises_to_the_pot_and_no_more():
    table, client = dealer_table(3, structure="pot_limit")
    tablet = start(client, table)
    legal = tablet.state["legal"]
    # Three-handed the button acts first: call 200, then raise the pot of 100 + 200 + 200.
    assert legal["pot_raise_to"] == legal["max_raise_to"] == 200 + (100 + 200 + 200)
    over = tablet.act(kind="raise", amount=legal["pot_raise_to"] + 100)
    assert over.status_code == 409
    assert over.json()["code"] == "above_maximum"
    assert tablet.ok(kind="raise", amount=legal["pot_raise_to"])["high"] == 700
    # Small blind: 600 to call, the pot is then 1000 + 600: raise to 700 + 1600 = 2300.
    assert tablet.state["legal"]["pot_raise_to"] == 2300
    tablet.ok(kind="raise", amount=2300)
    tablet.ok(kind="fold")
    final = tablet.ok(kind="fold")
    assert final["phase"] == "complete"
    # The uncalled 1600 goes back to the small blind, who wins 700 + 700 + 200.
    assert final["awards"][0]["amount"] == 1600


def test_fixed_limit_bets_in_fixed_steps_and_caps_the_raises():
    table, client = dealer_table(3, structure="fixed_limit")
    tablet = start(client, table)
    for raise_to in (400, 600, 800):
        legal = tablet.state["legal"]
        assert legal["min_raise_to"] == legal["max_raise_to"] == raise_to
        tablet.ok(kind="raise", amount=raise_to)
    capped = tablet.state["legal"]
    assert capped["min_raise_to"] is None  # four bets: the cap
    refused = tablet.act(kind="raise", amount=1000)
    assert refused.status_code == 409
    assert refused.json()["code"] == "betting_capped"

    def decide(state: dict[str, Any]) -> dict[str, Any] | None:
        legal = state["legal"]
        if legal["is_bet"] and state["street"] in ("flop", "turn"):
            # The small bet on the flop, the big bet from the turn (S3).
            assert legal["min_raise_to"] == legal["max_raise_to"]
            expected = 200 if state["street"] == "flop" else 400
            assert legal["min_raise_to"] == expected
            return {"kind": "bet", "amount": expected}
        return None

    seats = [p["seat"] for p in tablet.state["players"]]
    holes = dict(zip(seats, [["As", "Ad"], ["Ks", "Kd"], ["Qs", "Qd"]], strict=True))
    final = play_out(tablet, [["2c", "7d", "9h"], ["Js"], ["3s"]], holes, decide)
    assert final["phase"] == "complete"
    assert final["pot_total"] == 3 * (800 + 200 + 400 + 0)


def test_texas_six_plus_hand_uses_the_36_card_deck():
    table, client = dealer_table(3, game="sixplus")
    tablet = start(client, table)
    tablet.ok(kind="call")
    tablet.ok(kind="call")
    tablet.ok(kind="check")
    low = tablet.act(kind="deal_board", cards=["2c", "7d", "9h"])
    assert low.status_code == 409
    assert low.json()["code"] == "card_not_in_deck"
    seats = [p["seat"] for p in tablet.state["players"]]
    # A-6-7-8-9: the ace plays low in 6+, a straight beats the pair of kings.
    holes = dict(zip(seats, [["Ah", "8d"], ["Ks", "Qd"], ["Qs", "Qc"]], strict=True))
    final = play_out(tablet, [["6c", "7d", "9h"], ["Kc"], ["Js"]], holes, lambda state: None)
    assert final["phase"] == "complete"
    assert final["awards"][0]["winners"] == [seats[0]]


def test_check_hands_passes_after_api_hands_and_fails_on_a_tampered_cache():
    table, client = dealer_table(3)
    tablet = start(client, table)
    tablet.ok(kind="fold")
    tablet.ok(kind="fold")
    second = start(client, table)
    second.ok(kind="call")
    second.undo()
    assert HandEvent.objects.filter(hand__table=table).count() == 4
    call_command("check_hands")
    hand = Hand.objects.get(pk=second.state["hand"])
    Hand.objects.filter(pk=hand.pk).update(state={**hand.state, "pot_total": 1})
    with pytest.raises(CommandError):
        call_command("check_hands")
