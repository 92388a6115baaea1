"""Dealer-error procedures on stored hands: the remedy's effect is applied and logged."""

from __future__ import annotations

import pytest

from dealer import services
from dealer.models import HandEvent, ProcedureLog
from dealer.services import hand_record_action, hand_run_procedure, hand_start, procedure_preview
from tests.dealer.test_services import event
from tournaments.models import Entry
from tournaments.services.errors import FloorError

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
    lock = services._locked

    def counting(which: object) -> object:
        locks.append(which)
        return lock(which)  # type: ignore[arg-type]

    monkeypatch.setattr(services, "_locked", counting)
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
