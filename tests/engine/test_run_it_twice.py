"""Run it twice (docs/rules.md 6.6, RIT): at a cash table, players all in before the river agree
to deal the rest of the board twice; each pot, after the rake, is split in halves (the odd chip
to run 1) and each half goes by its own board."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.engine import (
    ConfigError,
    HandState,
    Phase,
    RuleViolation,
    Stakes,
    all_in,
    apply,
    call,
    check,
    deal_board,
    deal_setup,
    legal_actions,
    make_rules,
    run_twice,
    show,
    showdown_order,
    start_hand,
)
from dealer.engine.cards import Card, DeckKind, deck, parse_cards
from dealer.engine.ledger import stub_count
from dealer.engine.runs import can_run_twice
from dealer.engine.snapshot import state_from_json, state_to_json
from tests.examples import examples

RIT: dict[str, Any] = {"run_it_twice_allowed": True}


def hand(stacks: list[int], holes: list[str], *, profile: str = "casino_cash", **options: Any):
    rules = make_rules(profile, options)
    setup = deal_setup(
        rules, Stakes(small_blind=1, big_blind=2), stacks, holes=[parse_cards(h) for h in holes]
    )
    return start_hand(setup)


def shove_around(state: HandState) -> HandState:
    """Every player to act goes all in until the betting is over."""
    while (legal := legal_actions(state)) is not None:
        state = apply(state, all_in() if legal.max_raise_to is not None else call())
    return state


def deal(state: HandState, *streets: str) -> HandState:
    for cards in streets:
        state = apply(state, deal_board(parse_cards(cards)))
    return state


def show_down(state: HandState) -> HandState:
    for player in showdown_order(state):
        state = apply(state, show(player))
    return state


# Players from the left of the button: 0 the small blind, 1 the big blind, 2 the button.
# The button shoves 200, the small blind calls all in for 51, the big blind for 101: a main pot
# of 153 (3 x 51) for everyone and a side pot of 100 (2 x 50) for the big blind and the button;
# the button's last 99 come back uncalled.
THREE = [51, 101, 200]
HOLES = ["As Ad", "Kc Kd", "Qh Qs"]


def three_all_in() -> HandState:
    state = shove_around(hand(THREE, HOLES, **RIT))
    assert [pot.amount for pot in state.pots()] == [153, 100]
    return deal(state, "7c 8d 2h")


def test_rit_worked_example_side_pot_and_odd_chip_split_by_run():
    """Run 1 (3s 4c) holds up for the aces and the kings; run 2 (Kh 9s) gives the kings a set.
    Main pot 153: run 1 gets the odd chip, 77 to the aces, and run 2's 76 go to the kings.
    Side pot 100: 50 per run, both to the kings. The button gets back only its uncalled 99."""
    state = apply(three_all_in(), run_twice())
    assert (state.runs, state.common) == (2, 3)
    state = deal(state, "3s", "4c")  # run 1: turn, river
    assert state.phase == Phase.DEALING
    assert state.board_cards_due() == 1
    state = deal(state, "Kh", "9s")  # run 2: turn, river
    assert state.phase == Phase.SHOWDOWN
    state = show_down(state)
    assert state.phase == Phase.COMPLETE
    assert state.stacks == (77, 176, 99)
    assert sum(state.stacks) == sum(THREE)
    by_pot_run = {(a.pot, a.run): (a.amount, a.winners, a.shares) for a in state.awards}
    assert by_pot_run == {
        (0, 1): (77, (0,), (77,)),
        (0, 2): (76, (1,), (76,)),
        (1, 1): (50, (1,), (50,)),
        (1, 2): (50, (1,), (50,)),
    }


def test_rit_same_player_wins_both_runs():
    state = deal(apply(three_all_in(), run_twice()), "3s", "4c", "5d", "Jc")
    state = show_down(state)
    assert state.stacks == (153, 100, 99)
    assert {a.run for a in state.awards} == {1, 2}


def test_rit_agreed_preflop_deals_two_whole_boards_and_a_tie_splits_within_a_run():
    """Heads-up all in preflop for 100 each: run 1 gives the aces the pot's half; run 2's board
    is a straight both play, so its 100 are split 50/50."""
    state = shove_around(hand([100, 100], ["As Ad", "Kc Kd"], **RIT))
    state = apply(state, run_twice())
    assert state.board_cards_due() == 3
    state = deal(state, "7c 8d 2h", "3s", "4c")  # run 1
    assert state.board_cards_due() == 3
    state = deal(state, "5h 6h 7d", "8s", "9c")  # run 2: a straight on the board
    state = show_down(state)
    assert state.stacks == (150, 50)
    run2 = next(a for a in state.awards if a.run == 2)
    assert run2.shares == (50, 50)


def test_rit_ledger_counts_second_run_and_its_burns():
    state = apply(three_all_in(), run_twice())
    before = stub_count(state)
    state = deal(state, "3s", "4c", "Kh", "9s")
    # Each of the four streets burns one card and turns one.
    assert stub_count(state) == before - 8
    assert len(state.burns) == 1 + 4  # the flop's burn, then one per street


def test_rit_card_of_run_one_cannot_be_dealt_in_run_two():
    state = deal(apply(three_all_in(), run_twice()), "3s", "4c")
    with pytest.raises(RuleViolation) as error:
        deal(state, "3s")
    assert error.value.code == "duplicate_card"


def test_rit_refused_while_players_can_still_bet():
    state = hand([200, 200], ["As Ad", "Kc Kd"], **RIT)
    state = apply(apply(state, call()), check())  # the small blind calls, the big blind checks
    assert state.phase == Phase.DEALING
    assert not can_run_twice(state)
    with pytest.raises(RuleViolation) as error:
        apply(state, run_twice())
    assert error.value.code == "not_all_in"


def test_rit_refused_once_the_river_is_dealt():
    state = deal(shove_around(hand(THREE, HOLES, **RIT)), "7c 8d 2h", "3s", "4c")
    with pytest.raises(RuleViolation) as error:
        apply(state, run_twice())
    assert error.value.code == "river_dealt"


def test_rit_refused_when_the_rules_do_not_allow_it():
    state = deal(shove_around(hand(THREE, HOLES)), "7c 8d 2h")
    with pytest.raises(RuleViolation) as error:
        apply(state, run_twice())
    assert error.value.code == "run_twice_not_allowed"


def test_rit_refused_in_a_tournament():
    with pytest.raises(ConfigError):
        make_rules("tda_tournament", RIT)
    state = deal(shove_around(hand(THREE, HOLES, profile="tda_tournament")), "7c 8d 2h")
    with pytest.raises(RuleViolation) as error:
        apply(state, run_twice())
    assert error.value.code == "run_twice_not_allowed"


def test_rit_refused_a_second_time():
    state = apply(three_all_in(), run_twice())
    with pytest.raises(RuleViolation) as error:
        apply(state, run_twice())
    assert error.value.code == "run_twice_already"


def test_rit_state_survives_snapshot_and_old_snapshots_read_as_run_once():
    state = deal(apply(three_all_in(), run_twice()), "3s", "4c", "Kh")
    assert state_from_json(state_to_json(state)) == state
    once = three_all_in()
    data = state_to_json(once)
    assert "runs" not in data
    assert "board2" not in data
    assert state_from_json(data).runs == 1


@settings(max_examples=examples(60), deadline=None)
@given(
    stacks=st.lists(st.integers(3, 400), min_size=2, max_size=5),
    order=st.permutations(deck(DeckKind.STANDARD)),
    agree_on=st.integers(0, 2),
)
def test_rit_conserves_chips_and_the_log_replays(
    stacks: list[int], order: list[Card], agree_on: int
):
    cards = list(order)
    holes = [f"{cards.pop()}{cards.pop()}" for _ in stacks]
    state = shove_around(hand(stacks, holes, **RIT))
    if state.phase != Phase.DEALING:  # everyone but one folded: nothing to run
        return
    sizes = {0: 3, 1: 1, 2: 1}
    while state.street < agree_on:
        state = apply(state, deal_board(tuple(cards.pop() for _ in range(sizes[state.street]))))
    state = apply(state, run_twice())
    while state.phase == Phase.DEALING:
        due = state.board_cards_due()
        cards.pop()  # the burn
        state = apply(state, deal_board(tuple(cards.pop() for _ in range(due))))
    state = show_down(state)
    assert state.phase == Phase.COMPLETE
    assert sum(state.stacks) == sum(stacks)
    assert sum(sum(a.shares) for a in state.awards) == sum(state.contributed)
    replayed = start_hand(state.setup)
    for action in state.log:
        replayed = apply(replayed, action)
    assert replayed == state
    assert state_from_json(state_to_json(state)) == state
