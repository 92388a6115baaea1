"""T 53 (docs/rules.md "Action out of turn"): an action out of turn is backed up to the player
skipped and waits; it stands if the action to its player did not change by their turn, else the
player has every option again; a fold out of turn always stands.

Four players, blinds 5/10, stacks 1000: p1 small blind, p2 big blind, p3 first to act preflop,
p4 the button; after the flop p1 acts first. Players are engine indices 0..3 in the code.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from dealer.engine import HandState, Kind, RuleViolation, Stakes, apply, deal_setup, make_rules
from dealer.engine import start_hand as start
from dealer.engine.actions import Action, bet, call, check, fold, kill, out_of_turn
from dealer.engine.betting import legal_actions
from dealer.engine.hand import threshold_passed
from dealer.engine.phh import PhhError, state_to_phh
from dealer.engine.procedures import Effect, Trigger, remedy
from dealer.engine.snapshot import state_from_json, state_to_json
from dealer.engine.state import Phase
from tests.engine.scripted import play

NL = {"structure": "no_limit"}
FL = {"structure": "fixed_limit"}
BET_40: dict[str, object] = {"action": "bet_raise", "amount": "40"}


def hand(**options: Any) -> HandState:
    rules = make_rules("casino_cash", options)
    return start(deal_setup(rules, Stakes(small_blind=5, big_blind=10), [1000] * 4))


def flop(**options: Any) -> HandState:
    """Everyone called preflop, the flop is out: p1 (index 0) to act, nothing bet."""
    state = play(hand(**options), "c c c x | /As Kd 7c")
    assert state.actor == 0
    assert state.high == 0
    return state


def replayed(state: HandState) -> HandState:
    again = start(state.setup)
    for action in state.log:
        again = apply(again, action)
    return again


# --- binding: the action to the player did not change ---------------------------------------


def test_t53a_oot_check_stands_when_the_skipped_players_check() -> None:
    state = apply(flop(), out_of_turn(2, Kind.CHECK))
    assert state.actor == 0
    assert state.pending_of(2) is not None
    state = play(state, "x x")
    # p3's check was applied at its turn: the button is to act, nothing pending.
    assert state.actor == 3
    assert state.acted[2] == 0
    assert state.pending == ()


def test_t53a_oot_call_stands_when_the_skipped_player_calls() -> None:
    state = play(flop(), "b20")  # p1 bets, p2 to act
    state = apply(state, out_of_turn(2, Kind.CALL))
    assert state.bets[2] == 0  # nothing goes in before its turn
    state = apply(state, call())
    assert state.bets[2] == 20
    assert state.stacks[2] == 970
    assert state.actor == 3


def test_t53a_oot_call_preflop_stands_when_the_skipped_player_folds() -> None:
    # The button calls out of turn while p3 is to act; p3 folds, which changes nothing.
    state = apply(hand(), out_of_turn(3, Kind.CALL))
    state = apply(state, fold())
    assert state.bets[3] == 10
    assert state.actor == 0


def test_t53a_oot_bet_stands_when_every_skipped_player_checks() -> None:
    # Several players skipped: the button bets out of turn while p1 is to act.
    state = apply(flop(), out_of_turn(3, Kind.BET, 40))
    state = play(state, "x x x")
    assert state.bets[3] == 40
    assert state.high == 40
    assert state.actor == 0  # back to p1, facing the button's bet


def test_t53a_oot_raise_stands_when_the_skipped_player_folds() -> None:
    state = play(flop(), "b20")
    state = apply(state, out_of_turn(2, Kind.RAISE, 60))
    state = apply(state, fold())
    assert state.folded[1]
    assert state.bets[2] == 60
    assert state.high == 60
    assert state.actor == 3


# --- not binding: the action changed --------------------------------------------------------


def test_t53a_oot_bet_is_not_binding_when_the_skipped_player_bets() -> None:
    state = apply(flop(), out_of_turn(1, Kind.BET, 30))
    state = apply(state, bet(20))
    # The action to p2 changed (a bet of 20): the 30 is returned, p2 has every option.
    assert state.actor == 1
    assert state.bets[1] == 0
    assert state.stacks[1] == 990
    legal = legal_actions(state)
    assert legal is not None
    assert legal.can_fold
    assert legal.call == 20
    assert legal.min_raise_to == 40
    assert state.pending == ()


def test_t53a_oot_call_is_not_binding_when_a_skipped_player_raises() -> None:
    state = play(flop(), "b20")
    state = apply(state, out_of_turn(3, Kind.CALL))
    state = play(state, "r60")  # p2 raises, p3 still to act before the button
    assert state.actor == 2
    assert state.pending_of(3) is not None
    state = apply(state, call())
    assert state.actor == 3
    assert state.bets[3] == 0
    legal = legal_actions(state)
    assert legal is not None
    assert legal.call == 60
    assert legal.min_raise_to == 100


def test_t53a_one_of_several_skipped_players_bets_and_the_oot_bet_is_released() -> None:
    state = apply(flop(), out_of_turn(3, Kind.BET, 40))
    state = play(state, "x b20")  # p1 checks, p2 bets
    assert state.actor == 2  # p3 still owes a decision before the button
    state = apply(state, call())
    assert state.actor == 3
    assert state.bets[3] == 0
    assert state.high == 20


# --- a fold out of turn ---------------------------------------------------------------------


def test_t53a_oot_fold_is_binding_at_once() -> None:
    state = apply(flop(), out_of_turn(2, Kind.FOLD))
    assert state.folded[2]
    assert state.actor == 0
    state = play(state, "b20 c")
    assert state.actor == 3  # p3 is passed over: out of the hand


def test_t53a_oot_fold_stands_even_when_the_action_changes() -> None:
    state = apply(flop(), out_of_turn(2, Kind.FOLD))
    state = play(state, "x x")  # p3's fold stays a fold whatever comes before its turn
    assert state.folded[2]
    assert state.actor == 3


def test_t53a_oot_fold_leaving_one_player_ends_the_hand() -> None:
    state = play(hand(), "f f")  # p3 and the button fold; p1 (small blind) to act
    state = apply(state, out_of_turn(1, Kind.FOLD))  # the big blind folds out of turn
    assert state.phase == Phase.COMPLETE
    assert state.awards[0].winners == (0,)


# --- the skipped player folds ---------------------------------------------------------------


def test_t53a_skipped_player_folds_and_the_oot_check_stands() -> None:
    state = apply(flop(), out_of_turn(1, Kind.CHECK))
    state = apply(state, fold())
    assert state.folded[0]
    assert state.acted[1] == 0
    assert state.actor == 2


# --- fixed limit and no limit ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "oot_bet", "skipped_bet"),
    [(NL, 50, 20), (FL, 10, 10)],
    ids=["no_limit", "fixed_limit"],
)
def test_t53a_structures_bet_out_of_turn(
    options: dict[str, str], oot_bet: int, skipped_bet: int
) -> None:
    # Stands when the skipped player checks...
    state = play(apply(flop(**options), out_of_turn(1, Kind.BET, oot_bet)), "x")
    assert state.bets[1] == oot_bet
    assert state.actor == 2
    # ...and is released when the skipped player bets.
    state = play(apply(flop(**options), out_of_turn(1, Kind.BET, oot_bet)), f"b{skipped_bet}")
    assert state.bets[1] == 0
    assert state.actor == 1


def test_t53a_fixed_limit_oot_raise_stands_at_the_fixed_size() -> None:
    state = play(flop(**FL), "b10")
    state = apply(state, out_of_turn(2, Kind.RAISE, 20))
    state = apply(state, call())
    assert state.bets[2] == 20
    assert state.raise_count == 2


def test_t53a_fixed_limit_oot_raise_of_the_wrong_size_is_refused() -> None:
    state = play(flop(**FL), "b10")
    with pytest.raises(RuleViolation) as error:
        apply(state, out_of_turn(2, Kind.RAISE, 30))
    assert error.value.code == "above_maximum"


def test_t53a_no_limit_oot_raise_below_the_minimum_is_refused() -> None:
    state = play(flop(), "b20")
    with pytest.raises(RuleViolation) as error:
        apply(state, out_of_turn(2, Kind.RAISE, 30))
    assert error.value.code == "below_minimum"


# --- refusals -------------------------------------------------------------------------------


def test_t53a_the_player_to_act_is_not_out_of_turn() -> None:
    with pytest.raises(RuleViolation) as error:
        apply(flop(), out_of_turn(0, Kind.CHECK))
    assert error.value.code == "in_turn"


def test_t53a_a_player_with_nothing_to_decide_is_refused() -> None:
    state = play(flop(), "x x")  # p1 and p2 checked, p3 to act
    with pytest.raises(RuleViolation) as error:
        apply(state, out_of_turn(0, Kind.BET, 20))
    assert error.value.code == "nothing_to_decide"


def test_t53a_one_waiting_action_per_player() -> None:
    state = apply(flop(), out_of_turn(2, Kind.CHECK))
    with pytest.raises(RuleViolation) as error:
        apply(state, out_of_turn(2, Kind.BET, 20))
    assert error.value.code == "already_pending"


def test_t53a_oot_check_facing_a_bet_is_refused() -> None:
    state = play(flop(), "b20")
    with pytest.raises(RuleViolation) as error:
        apply(state, out_of_turn(2, Kind.CHECK))
    assert error.value.code == "cannot_check"


def test_t53a_oot_needs_a_betting_round() -> None:
    state = play(hand(), "c c c x")  # the flop is due
    with pytest.raises(RuleViolation) as error:
        apply(state, out_of_turn(1, Kind.CHECK))
    assert error.value.code == "not_betting"


# --- the log is the truth: replay, undo, the stored state ------------------------------------


def test_t53a_waiting_action_replays_from_the_log() -> None:
    state = play(apply(flop(), out_of_turn(3, Kind.BET, 40)), "x")
    assert replayed(state) == state
    resolved = play(state, "x x")
    assert replayed(resolved) == resolved
    assert resolved.bets[3] == 40


def test_t53a_undo_of_the_skipped_players_action_brings_the_waiting_action_back() -> None:
    waiting = apply(flop(), out_of_turn(3, Kind.BET, 40))
    resolved = play(waiting, "x x x")
    undone = start(resolved.setup)
    for action in resolved.log[:-1]:  # undo p3's check, the one that let the bet stand
        undone = apply(undone, action)
    assert undone.pending == waiting.pending
    assert undone.actor == 2
    assert undone.bets[3] == 0


def test_t53a_waiting_action_survives_the_stored_state() -> None:
    state = apply(play(flop(), "b20"), out_of_turn(3, Kind.RAISE, 60))
    assert state.pending
    assert state_from_json(state_to_json(state)) == state


def test_t53a_a_killed_hand_drops_its_waiting_action() -> None:
    state = apply(apply(flop(), out_of_turn(3, Kind.BET, 40)), kill(3, "floor"))
    assert state.pending == ()


def test_t53a_waiting_actions_end_with_the_betting_round() -> None:
    # p3 checks out of turn, then the others bet and fold around: nothing is left waiting.
    state = apply(flop(), out_of_turn(2, Kind.CHECK))
    state = play(state, "b20 f")
    assert state.actor == 2
    assert state.pending == ()
    state = play(state, "f f")
    assert state.phase == Phase.COMPLETE
    assert state.pending == ()


def test_t36_an_oot_declaration_is_not_an_action_in_turn() -> None:
    # Only actions in turn count towards the misdeal threshold (RULES.md 5.6).
    state = apply(hand(), out_of_turn(3, Kind.CALL))
    assert state.turn_actions == 0
    assert not threshold_passed(state)


def test_t53a_oot_actions_by_two_players_each_wait_for_their_turn() -> None:
    state = apply(flop(), out_of_turn(2, Kind.CHECK))
    state = apply(state, out_of_turn(3, Kind.BET, 30))
    state = play(state, "x x")
    # p3's check stood, then the button's bet: back to p1 facing 30.
    assert state.acted[2] == 0
    assert state.bets[3] == 30
    assert state.actor == 0


def test_t53a_the_log_keeps_the_declaration_not_a_second_copy_of_the_action() -> None:
    state = play(flop(), "b20")
    state = apply(state, out_of_turn(2, Kind.CALL))
    state = apply(state, call(1))
    assert state.bets[2] == 20
    assert state.actor == 3
    # The binding call is derived from the declaration at replay, never stored twice.
    assert [a.kind for a in state.log[-2:]] == [Kind.OUT_OF_TURN, Kind.CALL]
    with pytest.raises(RuleViolation) as error:
        apply(state, check(2))
    assert error.value.code == "not_your_turn"


# --- the procedure: what the dealer reads, what the engine records ---------------------------


def test_t53_procedure_records_a_waiting_bet_and_names_the_players_skipped() -> None:
    state = flop()
    found = remedy(state, Trigger.ACTED_OUT_OF_TURN, player=3, details=BET_40)
    assert found.effect == Effect.BACK_UP
    assert found.rule == "T 53"
    assert found.actions == (out_of_turn(3, Kind.BET, 40, reason=found.actions[0].reason),)
    assert found.steps[0].startswith("The action goes back to seat 1:")
    assert "(seat 1, seat 2 and seat 3)" in found.steps[0]
    assert "bet of 40" in found.steps[1]
    after = play(apply(state, found.actions[0]), "x x x")
    assert after.bets[3] == 40


def test_t53_procedure_check_or_call_is_a_call_when_facing_a_bet() -> None:
    state = play(flop(), "b20")
    found = remedy(state, Trigger.ACTED_OUT_OF_TURN, player=2, details={"action": "check_call"})
    assert found.actions[0].declared == Kind.CALL
    assert "call of 20" in found.steps[1]
    checked = remedy(flop(), Trigger.ACTED_OUT_OF_TURN, player=2, details={"action": "check_call"})
    assert checked.actions[0].declared == Kind.CHECK


def test_t53_procedure_bet_or_raise_is_a_raise_when_facing_a_bet() -> None:
    state = play(flop(), "b20")
    found = remedy(
        state, Trigger.ACTED_OUT_OF_TURN, player=2, details={"action": "bet_raise", "amount": 60}
    )
    assert found.actions[0].declared == Kind.RAISE
    assert found.actions[0].amount == 60


def test_t53_procedure_fold_is_binding_at_once() -> None:
    found = remedy(flop(), Trigger.ACTED_OUT_OF_TURN, player=2, details={"action": "fold"})
    assert found.effect == Effect.DEAD_HAND
    assert "stands" in found.steps[0]
    assert apply(flop(), found.actions[0]).folded[2]


@pytest.mark.parametrize(
    ("details", "code"),
    [
        ({}, "action_required"),
        ({"action": "shove"}, "bad_details"),
        ({"action": "bet_raise"}, "amount_required"),
        ({"action": "bet_raise", "amount": "lots"}, "bad_details"),
        ({"action": "bet_raise", "amount": 0}, "bad_details"),
        ({"action": "bet_raise", "amount": 5}, "below_minimum"),
    ],
)
def test_t53_procedure_refuses_what_the_engine_would_refuse(
    details: dict[str, object], code: str
) -> None:
    with pytest.raises(RuleViolation) as error:
        remedy(flop(), Trigger.ACTED_OUT_OF_TURN, player=2, details=details)
    assert error.value.code == code


def test_t53_procedure_needs_the_player_who_acted() -> None:
    with pytest.raises(RuleViolation) as error:
        remedy(flop(), Trigger.ACTED_OUT_OF_TURN, details=BET_40)
    assert error.value.code == "player_required"


def test_t53_a_hand_with_an_action_out_of_turn_is_not_exported_to_phh() -> None:
    # p3's check out of turn stands when its turn comes: three checks entered on the flop.
    state = play(apply(flop(), out_of_turn(2, Kind.CHECK)), "x x x | /2h | x x x x | /3d")
    state = play(state, "x x x x")
    assert state.phase == Phase.SHOWDOWN
    with pytest.raises(PhhError) as refused:
        state_to_phh(state)
    assert refused.value.code == "not_representable"


# --- property: random hands with random actions out of turn ----------------------------------


def _random_step(rng: random.Random, state: HandState) -> Action | None:
    """An action out of turn by anyone (legal or not), else a legal action in turn."""
    if rng.random() < 0.3:
        kind = rng.choice([Kind.FOLD, Kind.CHECK, Kind.CALL, Kind.BET, Kind.RAISE, Kind.ALL_IN])
        amount = rng.choice([10, 20, 40, 100, 500]) if kind in (Kind.BET, Kind.RAISE) else None
        return out_of_turn(rng.randrange(state.player_count), kind, amount)
    legal = legal_actions(state)
    if legal is None:
        return Action(kind=Kind.DEAL_BOARD, cards=(None,) * state.board_cards_due())
    choices = [fold(), check() if legal.can_check else call()]
    if legal.min_raise_to is not None:
        kind = Kind.BET if legal.is_bet else Kind.RAISE
        choices.append(Action(kind=kind, amount=legal.min_raise_to))
    return rng.choice(choices)


@pytest.mark.parametrize("options", [NL, FL], ids=["no_limit", "fixed_limit"])
def test_t53_random_hands_keep_chips_replay_and_store_alike(options: dict[str, str]) -> None:
    for seed in range(150):
        rng = random.Random(seed)
        state = hand(**options)
        total = sum(state.stacks) + state.pot_total
        for _ in range(60):
            if state.phase not in (Phase.BETTING, Phase.DEALING):
                break
            action = _random_step(rng, state)
            assert action is not None
            try:
                state = apply(state, action)
            except RuleViolation:
                continue
            in_play = 0 if state.is_over else state.pot_total  # the pots paid out at the end
            assert sum(state.stacks) + in_play == total
            for entry in state.pending:
                assert entry.player != state.actor
                assert not state.folded[entry.player]
        assert replayed(state) == state, seed
        assert state_from_json(state_to_json(state)) == state, seed
