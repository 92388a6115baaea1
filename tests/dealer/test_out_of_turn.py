"""T 53 on stored hands: "a player acted out of turn" through the tablet page and the API alike,
logged for the floor, and the log (replay, undo) keeping the action waiting for its turn."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from dealer.models import Hand, ProcedureLog
from dealer.services import (
    hand_record_action,
    hand_reopen,
    hand_run_procedure,
    hand_start,
    hand_undo,
)
from tests.dealer.test_pages import hand_of, post, setup_table, signed_in, text
from tests.dealer.test_procedures import _api_write, _page_and_api_tables, _what_it_did

pytestmark = pytest.mark.django_db

TRIGGER = "acted_out_of_turn"


def _seats(hand: Hand) -> list[int]:
    return [p["seat"] for p in hand.state["players"]]


def _oot_seat(hand: Hand) -> int:
    """The player two places after the one to act (preflop: the one to act is the first after
    the big blind), so that one player is skipped."""
    seats = _seats(hand)
    actor = seats.index(hand.state["actor_seat"])
    return seats[(actor + 1) % len(seats)]


def test_t53_an_oot_raise_through_the_page_and_the_api_is_logged_and_recorded_alike() -> None:
    page_table, api_table, page, api = _page_and_api_tables()
    seat = _oot_seat(hand_of(page_table))
    assert _oot_seat(hand_of(api_table)) == seat
    response = post(
        page,
        "deal-procedure-run",
        page_table,
        trigger=TRIGGER,
        seat=seat,
        action="bet_raise",
        amount="600",
    )
    assert response.status_code == 200, text(response)
    done = _api_write(
        api, api_table, TRIGGER, seat=seat, details={"action": "bet_raise", "amount": 600}
    )
    assert done["procedure"]["effect"] == "back_up"
    on_page, on_api = _what_it_did(page_table), _what_it_did(api_table)
    assert on_page == on_api
    [(trigger, title, _, effect, player_seat, rule)] = on_page["logs"]
    assert (trigger, title, effect, player_seat, rule) == (
        TRIGGER,
        f"Action out of turn: seat {seat}",
        "back_up",
        seat,
        "T 53",
    )
    [(_, payload)] = on_page["events"]
    assert payload["actions"][0]["declared"] == "raise"
    # Nothing of the raise is in the pot yet: it waits for its player's turn.
    player = next(p for p in on_page["state"]["players"] if p["seat"] == seat)
    assert player["bet"] == 0


def _hand_with_waiting_raise(amount: int = 600) -> tuple[Hand, int]:
    table, _ = setup_table(players=4)
    hand = hand_start(table=table)
    seat = _oot_seat(hand)
    result, _ = hand_run_procedure(
        hand=hand,
        trigger=TRIGGER,
        player_seat=seat,
        details={"action": "bet_raise", "amount": amount},
        client_id="oot",
        version=hand.version,
    )
    return result.hand, seat


def _bet_of(answer: Mapping[str, Any], seat: int) -> int:
    return next(p["bet"] for p in answer["players"] if p["seat"] == seat)


def test_t53a_the_waiting_raise_stands_when_the_skipped_player_calls() -> None:
    hand, seat = _hand_with_waiting_raise()
    result = hand_record_action(
        hand=hand, action={"kind": "call"}, client_id="skipped", version=hand.version
    )
    assert _bet_of(result.answer, seat) == 600
    assert result.answer["high"] == 600
    assert result.answer["actor_seat"] != seat


def test_t53a_the_waiting_raise_is_released_when_the_skipped_player_raises() -> None:
    hand, seat = _hand_with_waiting_raise()
    result = hand_record_action(
        hand=hand,
        action={"kind": "raise", "amount": 400},
        client_id="skipped",
        version=hand.version,
    )
    answer = result.answer
    assert answer["actor_seat"] == seat
    assert _bet_of(answer, seat) == 0
    legal = answer["legal"]
    assert legal is not None
    assert legal["call"] == 400


def test_t53a_undo_brings_the_waiting_action_back_and_then_takes_it_away() -> None:
    hand, seat = _hand_with_waiting_raise()
    hand = hand_record_action(
        hand=hand, action={"kind": "call"}, client_id="skipped", version=hand.version
    ).hand
    assert _bet_of(hand.state, seat) == 600
    # Undo the skipped player's call: the raise is waiting again, nothing of it in the pot.
    hand = hand_undo(hand=hand, reason="wrong", client_id="u1", version=hand.version).hand
    assert _bet_of(hand.state, seat) == 0
    # The skipped player folds instead: nothing changed, the raise stands.
    hand = hand_record_action(
        hand=hand, action={"kind": "fold"}, client_id="fold", version=hand.version
    ).hand
    assert _bet_of(hand.state, seat) == 600
    # Undo the fold, then the procedure itself: no action out of turn is left.
    hand = hand_undo(hand=hand, reason="wrong", client_id="u2", version=hand.version).hand
    hand = hand_undo(hand=hand, reason="no oot", client_id="u3", version=hand.version).hand
    result = hand_record_action(
        hand=hand, action={"kind": "call"}, client_id="c", version=hand.version
    )
    # The skipped player called; the seat that had acted out of turn is simply next to act.
    assert result.answer["actor_seat"] == seat
    assert _bet_of(result.answer, seat) == 0


def test_t53_the_api_preview_and_refusals_say_what_is_wrong() -> None:
    table, dealer = setup_table(players=4)
    hand = hand_start(table=table)
    api = APIClient()
    api.force_login(dealer)
    url = f"/api/hands/{hand.pk}/procedures/preview/"

    def preview(seat: int, details: dict[str, Any]) -> Any:
        query = {"trigger": TRIGGER, "seat": str(seat), "details": json.dumps(details)}
        return api.get(url, query)

    seat = _oot_seat(hand)
    ok = preview(seat, {"action": "check_call"})
    assert ok.status_code == 200, ok.json()
    assert ok.json()["effect"] == "back_up"
    assert "call of 200" in ok.json()["steps"][1]
    no_amount = preview(seat, {"action": "bet_raise"})
    assert (no_amount.status_code, no_amount.json()["code"]) == (409, "amount_required")
    small = preview(seat, {"action": "bet_raise", "amount": 300})
    assert (small.status_code, small.json()["code"]) == (409, "below_minimum")
    in_turn = preview(hand.state["actor_seat"], {"action": "fold"})
    assert in_turn.json()["code"] == "in_turn"
    assert in_turn.status_code == 409
    assert hand_of(table).version == hand.version  # a preview changes nothing


def test_t53_the_tablet_sheet_asks_for_the_player_the_action_and_the_amount() -> None:
    table, dealer = setup_table(players=4)
    hand = hand_start(table=table)
    client: Client = signed_in(dealer)
    url = reverse("deal-procedures", args=[table.pk])
    sheet = client.get(url, {"trigger": TRIGGER})
    body = text(sheet)
    assert "What did the player do out of turn?" in body
    assert 'name="amount"' in sheet.content.decode()
    seat = _oot_seat(hand)
    asked = client.get(
        url, {"trigger": TRIGGER, "seat": str(seat), "action": "bet_raise", "amount": "600"}
    )
    assert "raise to 600" in text(asked)
    assert "Confirm: back the action up" in text(asked)
    # The confirm form carries the answers: the amount goes with it.
    assert 'name="amount" value="600"' in asked.content.decode()


def test_t53_the_floor_log_lists_the_procedure() -> None:
    hand, seat = _hand_with_waiting_raise()
    log = ProcedureLog.objects.get(hand=hand)
    assert log.trigger == TRIGGER
    assert log.player_seat == seat
    assert log.rule == "T 53"


def test_t53a_the_tablet_and_the_state_show_the_waiting_action_until_its_turn() -> None:
    table, dealer = setup_table(players=4)
    hand = hand_start(table=table)
    seat = _oot_seat(hand)
    client = signed_in(dealer)
    page = post(
        client,
        "deal-procedure-run",
        table,
        trigger=TRIGGER,
        seat=seat,
        action="bet_raise",
        amount="600",
    )
    assert page.status_code == 200, text(page)
    assert "Out of turn: raise to 600" in text(page)
    hand = hand_of(table)
    assert hand.state["out_of_turn"] == [{"seat": seat, "action": "raise", "amount": 600}]
    api = APIClient()
    api.force_login(dealer)
    assert api.get(f"/api/hands/{hand.pk}/").json()["out_of_turn"] == hand.state["out_of_turn"]
    called = hand_record_action(
        hand=hand, action={"kind": "call"}, client_id="skipped", version=hand.version
    )
    assert called.answer["out_of_turn"] == []


def test_t53a_a_reopened_hand_replays_the_fold_out_of_turn() -> None:
    table, dealer = setup_table(players=4)
    hand = hand_start(table=table)
    seat = _oot_seat(hand)
    result, _ = hand_run_procedure(
        hand=hand,
        trigger=TRIGGER,
        player_seat=seat,
        details={"action": "fold"},
        client_id="oot-fold",
        version=hand.version,
    )
    hand = result.hand
    for n in range(2):  # the skipped player and the small blind fold: the big blind wins
        hand = hand_record_action(
            hand=hand, action={"kind": "fold"}, client_id=f"f{n}", version=hand.version
        ).hand
    assert hand.status == Hand.Status.COMPLETE
    hand = hand_reopen(
        hand=hand, reason="small blind", client_id="r", version=hand.version, actor=dealer
    ).hand
    hand = hand_undo(hand=hand, reason="wrong", client_id="u", version=hand.version).hand
    # In progress again, the small blind to act; the fold out of turn still stands.
    assert hand.status == Hand.Status.IN_PROGRESS
    assert next(p for p in hand.state["players"] if p["seat"] == seat)["folded"]
    assert hand.state["actor_seat"] == hand.small_blind_seat
