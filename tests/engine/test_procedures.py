"""RULES.md section 8: the dealer-error procedures and the engine actions that carry them out."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.engine import (
    HandState,
    Phase,
    RuleViolation,
    Stakes,
    apply,
    deal_hole,
    deal_setup,
    kill,
    make_rules,
    show,
    start_hand,
    take_back_board,
)
from dealer.engine.cards import parse_cards
from tests.engine.scripted import play


def hand(
    stacks: list[int] | None = None, *, profile: str = "casino_cash", **options: Any
) -> HandState:
    rules = make_rules(profile, options)
    return start_hand(deal_setup(rules, Stakes(small_blind=5, big_blind=10), stacks or [100] * 4))


def replayed(state: HandState) -> HandState:
    again = start_hand(state.setup)
    for action in state.log:
        again = apply(again, action)
    return again


# --- TAKE_BACK_BOARD: the engine side of a board redeal -----------------------------------------


def test_s2_take_back_flop_before_any_action_returns_to_dealing_the_flop() -> None:
    dealt = play(hand(), "c c c x | /As Kd 7c")
    back = apply(dealt, take_back_board("four cards on the flop"))
    assert (back.phase, back.street, back.board) == (Phase.DEALING, 0, ())
    assert back.board_cards_due() == 3
    assert back.stacks == dealt.stacks
    assert back.pot_total == dealt.pot_total == 40
    # The same cards may be entered again (the redeal can bring them back), then play goes on.
    again = play(back, "/As Kd 7c | x")
    assert again.board == parse_cards("As Kd 7c")
    assert again.actor == 1


def test_take_back_turn_keeps_the_flop_and_its_betting() -> None:
    dealt = play(hand(), "c c c x | /As Kd 7c | b20 c c c | /2h")
    back = apply(dealt, take_back_board())
    assert (back.phase, back.street) == (Phase.DEALING, 1)
    assert back.board == parse_cards("As Kd 7c")
    assert back.pot_total == 120
    assert play(back, "/3d").board[-1] == parse_cards("3d")[0]


def test_take_back_refused_once_betting_on_that_street_has_started() -> None:
    state = play(hand(), "c c c x | /As Kd 7c | x")
    with pytest.raises(RuleViolation) as refused:
        apply(state, take_back_board())
    assert refused.value.code == "board_action_started"
    assert "flop" in refused.value.detail


def test_take_back_refused_before_any_board_card() -> None:
    with pytest.raises(RuleViolation) as refused:
        apply(hand(), take_back_board())
    assert refused.value.code == "no_board"


def test_take_back_twice_removes_turn_then_flop_in_an_all_in_run_out() -> None:
    state = play(hand([100, 100]), "a c | /As Kd 7c | /2h")
    assert state.phase == Phase.DEALING
    state = apply(apply(state, take_back_board()), take_back_board())
    assert (state.phase, state.street, state.board) == (Phase.DEALING, 0, ())


def test_take_back_refused_after_a_hand_is_shown() -> None:
    state = play(hand([100, 100]), "a c | /As Kd 7c")
    state = apply(state, show(0, parse_cards("Qs Qd")))
    with pytest.raises(RuleViolation) as refused:
        apply(state, take_back_board())
    assert refused.value.code == "board_action_started"


def test_take_back_keeps_hole_cards_and_dead_hands_entered_since_the_deal() -> None:
    state = play(hand(), "c c c x | /As Kd 7c")
    state = apply(state, deal_hole(2, parse_cards("Qs Qd")))
    state = apply(state, kill(3, "four cards"))
    back = apply(state, take_back_board())
    assert back.holes[2] == parse_cards("Qs Qd")
    assert back.folded[3]


def test_a_log_with_take_backs_replays_to_the_same_state() -> None:
    state = play(hand(), "c c c x | /As Kd 7c")
    state = play(apply(state, take_back_board()), "/2c 3c 4c | x x x b20 c f f")
    state = play(state, "/5d")  # a redealt flop, then the turn: replay gives the same hand
    assert replayed(state).__dict__ == state.__dict__
