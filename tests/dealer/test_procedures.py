"""Dealer-error procedures on stored hands: the remedy's effect is applied and logged."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from common.errors import FloorError
from dealer.engine.errors import RuleViolation
from dealer.engine.triggers import TRIGGERS, Effect, Group, PlayerNeed, Trigger
from dealer.models import Hand, HandEvent, ProcedureLog
from dealer.selectors import procedure_preview
from dealer.services import hand_record_action, hand_run_procedure, hand_start, sql
from tests.dealer.test_pages import hand_of, post, setup_table, signed_in, text
from tests.dealer.test_services import event
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def test_two_exposed_cards_before_the_threshold_void_the_hand_and_are_logged() -> None:
    table = event(4)
    hand = hand_start(table=table)
    preview = procedure_preview(hand=hand, trigger="two_or_more_exposed_on_deal")
    assert preview.effect.value == "void_hand"
    assert preview.steps
    result, log = hand_run_procedure(
        hand=hand, trigger="two_or_more_exposed_on_deal", client_id="p1", version=0
    )
    assert result.answer["phase"] == "void"
    assert log is not None
    assert log.table == table
    assert log.effect == "void_hand"
    assert set(Entry.objects.filter(table=table).values_list("chips", flat=True)) == {1000}
    assert HandEvent.objects.get(hand=hand).kind == "procedure"


def test_a_procedure_locks_and_reads_the_hand_once(monkeypatch: pytest.MonkeyPatch) -> None:
    hand = hand_start(table=event(4))
    locks: list[object] = []
    lock = sql.hand_locked

    def counting(which: object, **named: object) -> object:
        locks.append(which)
        return lock(which, **named)  # type: ignore[arg-type]

    monkeypatch.setattr(sql, "hand_locked", counting)
    result, _ = hand_run_procedure(
        hand=hand.pk, trigger="two_or_more_exposed_on_deal", client_id="p1", version=0
    )
    assert result.answer["phase"] == "void"
    assert locks == [hand.pk]


def test_wrong_card_count_after_the_threshold_kills_that_hand_with_its_chips_in() -> None:
    table = event(4)
    hand = hand_start(table=table)
    state = hand.state
    for n, kind in enumerate(["call", "call"]):
        state = hand_record_action(
            hand=hand, action={"kind": kind}, client_id=f"a{n}", version=n
        ).answer
    seat = state["players"][2]["seat"]
    result, log = hand_run_procedure(
        hand=hand,
        trigger="wrong_hole_card_count",
        player_seat=seat,
        details={"count": "too_many"},
        client_id="p2",
        version=2,
    )
    player = next(p for p in result.answer["players"] if p["seat"] == seat)
    assert player["folded"]
    assert player["contributed"] == 100
    assert log is not None
    assert log.effect == "dead_hand"
    assert log.player_seat == seat
    assert ProcedureLog.objects.filter(hand=hand).count() == 1


def test_a_resent_procedure_is_applied_once_and_an_unknown_one_is_refused() -> None:
    hand = hand_start(table=event(3))
    first, _ = hand_run_procedure(hand=hand, trigger="boxed_card", client_id="p", version=0)
    again, log = hand_run_procedure(hand=hand, trigger="boxed_card", client_id="p", version=0)
    assert again.answer == first.answer
    assert log is None
    assert ProcedureLog.objects.filter(hand=hand).count() == 1
    with pytest.raises(FloorError) as refused:
        procedure_preview(hand=hand, trigger="dealer_sneezed")
    assert refused.value.code == "unknown_trigger"


# --- one procedure, two front doors: the tablet page and the API ----------------------------


def _page_and_api_tables() -> tuple[Any, Any, Client, APIClient]:
    """Two tables dealt alike (same seats, stacks and button), each with a hand started: one
    driven through the tablet page, the other through the API, by their own dealers."""
    page_table, page_dealer = setup_table(players=4)
    api_table, api_dealer = setup_table(players=4)
    for table in (page_table, api_table):
        hand_start(table=table)
    api = APIClient()
    api.force_login(api_dealer)
    return page_table, api_table, signed_in(page_dealer), api


def _page_write(client: Client, table: Any, trigger: str, **fields: Any) -> Any:
    response = post(client, "deal-procedure-run", table, trigger=trigger, **fields)
    assert response.status_code == 200, text(response)
    return response


def _api_write(client: APIClient, table: Any, trigger: str, **body: Any) -> Any:
    hand = hand_of(table)
    sent = {"client_id": "api-1", "version": hand.version, "trigger": trigger, **body}
    response = client.post(f"/api/hands/{hand.pk}/procedures/", sent, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def _what_it_did(table: Any) -> dict[str, Any]:
    """The hand's state, its events' payloads and its procedure log, without the ids that
    differ between two tables."""
    hand = hand_of(table)
    state = {k: v for k, v in hand.state.items() if k != "hand"}
    state["players"] = [{k: v for k, v in p.items() if k != "entry"} for p in state["players"]]
    events = [(e.kind, e.payload) for e in HandEvent.objects.filter(hand=hand).order_by("seq")]
    logs = list(
        ProcedureLog.objects.filter(hand=hand).values_list(
            "trigger", "title", "steps", "effect", "player_seat", "rule"
        )
    )
    return {"status": hand.status, "state": state, "events": events, "logs": logs}


def test_a_floor_misdeal_through_the_page_and_the_api_is_logged_and_voids_the_hand_alike() -> None:
    page_table, api_table, page, api = _page_and_api_tables()
    _page_write(page, page_table, "floor_misdeal", note="Deck dropped")
    done = _api_write(api, api_table, "floor_misdeal", details={"note": "Deck dropped"})
    assert done["procedure"]["effect"] == "void_hand"
    on_page, on_api = _what_it_did(page_table), _what_it_did(api_table)
    assert on_page == on_api
    assert on_page["status"] == Hand.Status.VOID
    (log,) = on_page["logs"]
    assert log[0] == "floor_misdeal"
    assert log[2][0] == "The floor's reason: Deck dropped."
    assert on_page["events"][0][1]["actions"] == [{"kind": "misdeal", "reason": "Deck dropped"}]
    assert set(Entry.objects.filter(table=page_table).values_list("chips", flat=True)) == {10000}


def test_a_floor_dead_hand_through_the_page_and_the_api_is_logged_and_kills_that_hand_alike() -> (
    None
):
    page_table, api_table, page, api = _page_and_api_tables()
    seat = hand_of(page_table).state["players"][1]["seat"]
    assert hand_of(api_table).state["players"][1]["seat"] == seat
    _page_write(page, page_table, "floor_dead_hand", seat=seat, note="Fouled")
    done = _api_write(api, api_table, "floor_dead_hand", seat=seat, details={"note": "Fouled"})
    assert done["procedure"]["player_seat"] == seat
    on_page, on_api = _what_it_did(page_table), _what_it_did(api_table)
    assert on_page == on_api
    player = on_page["state"]["players"][1]
    assert player["folded"]
    assert player["contributed"] > 0  # the big blind stays in the pot
    assert on_page["logs"] == [
        (
            "floor_dead_hand",
            f"Dead hand: seat {seat}",
            list(on_page["logs"][0][2]),
            "dead_hand",
            seat,
            "R",
        )
    ]


def test_a_floor_misdeal_too_late_is_refused_in_the_preview_and_nothing_is_logged() -> None:
    page_table, api_table, page, api = _page_and_api_tables()
    for table in (page_table, api_table):
        hand = hand_of(table)
        for n in range(2):  # two players acted after the blinds: past the threshold
            hand = hand_record_action(
                hand=hand, action={"kind": "call"}, client_id=f"c{n}", version=n
            ).hand
    url = reverse("deal-procedures", args=[page_table.pk])
    sheet = page.get(url, {"trigger": "floor_misdeal"})
    assert sheet.context["refusal"].startswith("Too late for a misdeal")
    assert "Confirm: the hand is void" not in text(sheet)
    hand = hand_of(api_table)
    preview = api.get(f"/api/hands/{hand.pk}/procedures/preview/", {"trigger": "floor_misdeal"})
    assert (preview.status_code, preview.json()["code"]) == (409, "misdeal_too_late")
    assert preview.json()["detail"] == sheet.context["refusal"]
    refused = post(page, "deal-procedure-run", page_table, trigger="floor_misdeal")
    assert refused.status_code == 409
    assert not ProcedureLog.objects.exists()


# --- the sheet renders the engine's data --------------------------------------------------------


def test_the_sheet_lists_every_trigger_under_the_engines_groups_and_none_under_other() -> None:
    table, dealer = setup_table(players=4)
    hand_start(table=table)
    sheet = signed_in(dealer).get(reverse("deal-procedures", args=[table.pk]))
    groups = sheet.context["groups"]
    assert [g["title"] for g in groups] == [str(g) for g in Group]
    listed = [value for g in groups for value, _ in g["items"]]
    assert sorted(listed) == sorted(str(t) for t in Trigger)
    assert "Other" not in text(sheet)


@pytest.mark.parametrize("trigger", list(Trigger))
def test_the_sheet_asks_for_a_player_exactly_when_the_engine_says_so(trigger: Trigger) -> None:
    table, dealer = setup_table(players=4)
    hand_start(table=table)
    info = TRIGGERS[trigger]
    sheet = signed_in(dealer).get(reverse("deal-procedures", args=[table.pk]), {"trigger": trigger})
    shown = text(sheet)
    assert ("Which player?" in shown) == (info.player is not PlayerNeed.NONE)
    assert ("(if one is concerned)" in shown) == (info.player is PlayerNeed.OPTIONAL)
    question = info.question
    assert (question is not None and question.text in shown) or question is None
    if info.player is PlayerNeed.REQUIRED:  # asked, and refused until a player is picked
        assert sheet.context["refusal"].startswith("Say which player this is for")
    else:  # the remedy, with the reason field where the trigger takes one
        assert sheet.context["remedy"] is not None
        assert ('name="note"' in sheet.content.decode()) == info.reason


@pytest.mark.parametrize("trigger", list(Trigger))
def test_the_page_and_the_api_preview_give_the_same_remedy(trigger: Trigger) -> None:
    table, dealer = setup_table(players=4)
    hand = hand_start(table=table)
    info = TRIGGERS[trigger]
    query: dict[str, Any] = {"trigger": str(trigger)}
    if info.player is not PlayerNeed.NONE:
        query["seat"] = hand.state["players"][1]["seat"]
    details = {}
    if info.question is not None:
        choice = info.question.choices[0]
        details[info.question.key] = choice.value
        query[info.question.key] = choice.token
    sheet = signed_in(dealer).get(reverse("deal-procedures", args=[table.pk]), query)
    api = APIClient()
    api.force_login(dealer)
    api_query = {k: v for k, v in query.items() if k in ("trigger", "seat")}
    if details:
        api_query["details"] = json.dumps(details)
    preview = api.get(f"/api/hands/{hand.pk}/procedures/preview/", api_query)
    assert preview.status_code == 200, preview.json()
    remedy = preview.json()
    assert sheet.context["refusal"] is None
    assert sheet.context["remedy"] == {
        "title": remedy["title"],
        "steps": remedy["steps"],
        "effect": remedy["effect"],
        "rule": remedy["rule"],
        "option": remedy["option"] or "",
    }
    assert sheet.context["effect_text"] == Effect(remedy["effect"]).sentence


def test_s2_exposed_card_named_on_the_page_or_api_is_the_burn_and_refused_on_the_flop() -> None:
    """S2: "The exposed card will be used as the first burn card": the tablet and the API name
    the card alike, and a flop that holds it is refused with a sentence."""
    page_table, api_table, page, api = _page_and_api_tables()
    seat = hand_of(page_table).state["players"][2]["seat"]
    sheet = page.get(
        reverse("deal-procedures", args=[page_table.pk]),
        {"trigger": "other_hole_card_exposed", "seat": seat, "cards": "7d"},
    )
    assert sheet.context["ask_cards"] == 1
    assert sheet.context["details"] == {"cards": "7d"}
    _page_write(page, page_table, "other_hole_card_exposed", seat=seat, cards="7d")
    _api_write(api, api_table, "other_hole_card_exposed", seat=seat, details={"cards": "7d"})
    assert _what_it_did(page_table) == _what_it_did(api_table)
    state = hand_of(page_table).state
    assert state["cards"]["next_burn"] == ["7d"]
    hand = hand_of(page_table)
    version = hand.version
    for n in range(4):  # call, call, call, check: the flop is due
        kind = "check" if n == 3 else "call"
        hand_record_action(hand=hand, action={"kind": kind}, client_id=f"c{n}", version=version)
        version += 1
    with pytest.raises(RuleViolation) as refused:
        hand_record_action(
            hand=hand,
            action={"kind": "deal_board", "cards": ["7d", "As", "Kc"]},
            client_id="flop",
            version=version,
        )
    assert refused.value.code == "card_out_of_play"
    answer = hand_record_action(
        hand=hand,
        action={"kind": "deal_board", "cards": ["2d", "As", "Kc"]},
        client_id="flop2",
        version=version,
    ).answer
    assert answer["cards"]["burn_cards"] == ["7d"]
    assert answer["cards"]["burned"] == 1


def test_a_card_that_is_not_a_card_on_the_sheet_is_refused_with_a_sentence() -> None:
    table, dealer = setup_table(players=4)
    hand_start(table=table)
    sheet = signed_in(dealer).get(
        reverse("deal-procedures", args=[table.pk]),
        {"trigger": "boxed_card", "cards": "7x"},
    )
    assert sheet.status_code == 200
    assert "not a card" in sheet.context["refusal"]


def test_the_sheet_names_the_rule_options_in_words_not_codes() -> None:
    """Issue 13: the tablet showed "action_threshold=tda_substantial"; the dealer reads the
    option's title and its value in words (the API keeps the codes for programs)."""
    table, dealer = setup_table(players=4)
    hand_start(table=table)
    sheet = signed_in(dealer).get(
        reverse("deal-procedures", args=[table.pk]), {"trigger": "two_or_more_exposed_on_deal"}
    )
    page = sheet.content.decode()
    source = page.split('data-testid="remedy-source">')[1].split("</p>")[0]
    assert "action_threshold" not in source
    assert "tda_substantial" not in source
    assert "two_acted" not in source
    assert "When a misdeal is ruled out:" in source
