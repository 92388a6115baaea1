"""Dealer services: hands as an event log, idempotent writes, undo, hand end into the tournament."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from common.errors import FloorError
from config.exceptions import status_of
from dealer.engine.errors import RuleViolation
from dealer.hand_log import hand_replay, hand_snapshot
from dealer.models import Hand, HandEvent
from dealer.services import StaleVersionError, hand_record_action, hand_start, hand_undo
from tournaments.models import Entry, Table, Tournament
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register, entry_set_chips
from tournaments.services.events import (
    schedule_create,
    tournament_create,
    tournament_open_registration,
)
from tournaments.services.tables import tournament_draw_seats

pytestmark = pytest.mark.django_db

NOW = datetime.now(UTC)


def event(players: int, stacks: list[int] | None = None, **settings: Any) -> Table:
    schedule = schedule_create(
        name=f"S {random.random()}",
        levels=[{"small_blind": 50, "big_blind": 100, "ante": 0, "duration": 3600}],
    )
    tournament = tournament_create(
        schedule=schedule, name="Dealer test", starting_stack=1000, seats_per_table=9, **settings
    )
    tournament_open_registration(tournament=tournament)
    for i in range(players):
        entry_register(tournament=tournament, player_name=f"Player {i + 1}", now=NOW)
    tournament_draw_seats(tournament=tournament, rng=random.Random(4))
    clock_start(tournament=tournament, now=NOW)
    table = Table.objects.get(tournament=tournament, number=1)
    if stacks:
        for entry, chips in zip(
            Entry.objects.filter(table=table).order_by("seat"), stacks, strict=False
        ):
            entry_set_chips(entry=entry, chips=chips, note="set up")
    return table


class Tablet:
    """A dealer's device: every write carries a fresh client id and the version it saw."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.state = hand.state

    def act(self, **action: Any) -> dict[str, Any]:
        result = hand_record_action(
            hand=self.hand, action=action, client_id=uuid.uuid4().hex, version=self.state["version"]
        )
        self.hand, self.state = result.hand, result.answer
        return self.state

    def seat_index(self, seat: int) -> int:
        return [p["seat"] for p in self.state["players"]].index(seat)


def test_hand_start_posts_blinds_from_the_drawn_button_and_the_clock_level() -> None:
    table = event(4)
    hand = hand_start(table=table)
    state = hand.state
    assert (hand.number, state["version"], state["phase"]) == (1, 0, "betting")
    assert hand.button_seat == table.button_seat
    by_seat = {p["seat"]: p for p in state["players"]}
    assert by_seat[hand.small_blind_seat]["bet"] == 50
    assert by_seat[hand.big_blind_seat]["bet"] == 100
    assert state["legal"]["call"] == 100
    assert state["legal"]["min_raise_to"] == 200
    with pytest.raises(FloorError) as second:
        hand_start(table=table)
    assert second.value.code == "hand_in_progress"


def test_whole_no_limit_hand_with_all_in_side_pots_and_showdown_updates_the_tournament() -> None:
    table = event(3, stacks=[300, 1000, 1000])
    tablet = Tablet(hand_start(table=table))
    short = min(Entry.objects.filter(table=table), key=lambda e: e.chips).seat
    holes = {0: ["As", "Ad"], 1: ["Ks", "Kd"], 2: ["Qs", "Qd"]}
    boards = iter([["2c", "7d", "9h"], ["Js"], ["3s"]])
    while tablet.state["phase"] != "complete":
        phase, legal = tablet.state["phase"], tablet.state["legal"]
        if phase == "dealing":
            tablet.act(kind="deal_board", cards=next(boards))
        elif phase == "showdown":
            index = tablet.seat_index(tablet.state["next_to_show"])
            tablet.act(kind="show", player=index, cards=holes[index])
        elif legal["actor"] == short:
            tablet.act(kind="all_in")
        elif tablet.state["street"] == "flop" and legal["is_bet"]:
            tablet.act(kind="bet", amount=200)  # the two deep stacks make a side pot
        else:
            tablet.act(kind="check" if legal["can_check"] else "call")
    state = tablet.state
    assert state["phase"] == "complete"
    assert [(a["pot"], len(a["winners"]) > 0) for a in state["awards"]] == [(1, True), (0, True)]
    assert sum(a["amount"] for a in state["awards"]) == sum(
        p["contributed"] for p in state["players"]
    )
    entries = {e.seat: e for e in Entry.objects.filter(table=table)}
    for seat, stack in state["finishing_stacks"].items():
        entry = entries[int(seat)]
        if stack:
            assert entry.chips == stack
            assert entry.status == "active"
        else:
            assert entry.status == "busted"
            assert entry.finishing_place is not None
    assert Table.objects.get(pk=table.pk).big_blind_seat == tablet.hand.big_blind_seat


def test_a_resent_write_returns_its_original_answer_and_is_stored_once() -> None:
    hand = hand_start(table=event(3))
    client_id = uuid.uuid4().hex
    first = hand_record_action(hand=hand, action={"kind": "call"}, client_id=client_id, version=0)
    again = hand_record_action(hand=hand, action={"kind": "call"}, client_id=client_id, version=0)
    assert again.answer == first.answer
    assert HandEvent.objects.filter(hand=hand).count() == 1


def test_a_write_against_a_stale_version_is_refused_with_the_current_state() -> None:
    hand = hand_start(table=event(3))
    hand_record_action(hand=hand, action={"kind": "call"}, client_id="a", version=0)
    with pytest.raises(StaleVersionError) as stale:
        hand_record_action(hand=hand, action={"kind": "call"}, client_id="b", version=0)
    assert status_of(stale.value) == 409
    assert stale.value.hand.version == 1
    assert stale.value.hand.state["version"] == 1


def test_illegal_action_is_refused_with_the_engine_sentence_and_nothing_stored() -> None:
    hand = hand_start(table=event(3))
    with pytest.raises(RuleViolation) as refused:
        hand_record_action(
            hand=hand, action={"kind": "raise", "amount": 150}, client_id="x", version=0
        )
    assert refused.value.detail == "Raise to 150 is below the minimum raise to 200."
    assert HandEvent.objects.filter(hand=hand).count() == 0


def test_undo_appends_a_correction_and_the_replay_drops_the_undone_entry() -> None:
    tablet = Tablet(hand_start(table=event(3)))
    tablet.act(kind="raise", amount=300)
    before = tablet.state["legal"]
    tablet.act(kind="fold")
    result = hand_undo(
        hand=tablet.hand,
        reason="entered fold, player called",
        client_id="u",
        version=tablet.state["version"],
    )
    assert result.answer["legal"] == {**before} | {"actor": before["actor"]}
    kinds = list(HandEvent.objects.filter(hand=tablet.hand).values_list("kind", flat=True))
    assert kinds == ["action", "action", "undo"]
    hand = Hand.objects.get(pk=tablet.hand.pk)
    assert hand_snapshot(hand, hand_replay(hand)) == hand.state
    with pytest.raises(FloorError) as reason:
        hand_undo(hand=hand, reason=" ", client_id="v", version=hand.version)
    assert reason.value.code == "reason_required"


def test_misdeal_voids_the_hand_and_the_redeal_keeps_the_button() -> None:
    table = event(4)
    tablet = Tablet(hand_start(table=table))
    button = tablet.hand.button_seat
    tablet.act(kind="misdeal", reason="two cards exposed on the deal")
    assert tablet.state["phase"] == "void"
    assert tablet.hand.status == "void"
    assert set(Entry.objects.filter(table=table).values_list("chips", flat=True)) == {1000}
    redeal = hand_start(table=table)
    assert redeal.number == 2
    assert redeal.button_seat == button


def test_t32_the_button_and_blinds_move_one_seat_each_hand() -> None:
    table = event(4)
    first = Tablet(hand_start(table=table))
    first.act(kind="fold")
    first.act(kind="fold")
    first.act(kind="fold")
    second = hand_start(table=table)
    assert second.small_blind_seat == first.hand.big_blind_seat
    assert second.button_seat == first.hand.small_blind_seat


def test_fixed_limit_and_sixplus_tournament_hands_follow_their_rules() -> None:
    fixed = Tablet(hand_start(table=event(3, structure="fixed_limit")))
    assert fixed.state["legal"]["min_raise_to"] == fixed.state["legal"]["max_raise_to"] == 200
    sixplus = Tablet(hand_start(table=event(2, game="sixplus")))
    sixplus.act(kind="call")
    sixplus.act(kind="check")
    with pytest.raises(RuleViolation) as refused:
        sixplus.act(kind="deal_board", cards=["2c", "7d", "9h"])
    assert refused.value.code == "card_not_in_deck"


def test_check_hands_replays_every_hand_and_catches_a_tampered_cache() -> None:
    tablet = Tablet(hand_start(table=event(3)))
    tablet.act(kind="call")
    call_command("check_hands")
    Hand.objects.filter(pk=tablet.hand.pk).update(state={"tampered": True})
    with pytest.raises(CommandError):
        call_command("check_hands")


def test_hands_are_dealt_only_while_the_tournament_runs() -> None:
    table = event(3)
    assert table.tournament is not None
    Tournament.objects.filter(pk=table.tournament.pk).update(status="paused")
    with pytest.raises(FloorError) as refused:
        hand_start(table=table)
    assert refused.value.code == "not_running"
