"""RULES.md 6.5: the rake, taken by the engine from a cash hand's pots before the award (issue 15:
"a percentage with a cap, 'no flop, no drop', a fixed drop ... shown to the dealer")."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer.engine import (
    ConfigError,
    HandState,
    Phase,
    Stakes,
    apply,
    deal_setup,
    make_rules,
    show,
    showdown_order,
    start_hand,
)
from dealer.engine.cards import parse_cards
from dealer.engine.pots import Pot
from dealer.engine.rake import rake_due, take_rake
from dealer.engine.snapshot import state_from_json, state_to_json
from tests.engine import test_properties as props
from tests.engine.scripted import play

# The worked example: 5% capped at 5 chips, no flop no drop.
FIVE_CAPPED = {"rake_percent": 5, "rake_cap": 5, "rake_no_flop_no_drop": True}


def hand(stacks: list[int], holes: list[str], *, sb: int = 1, bb: int = 2, **options: Any):
    rules = make_rules("casino_cash", options)
    setup = deal_setup(
        rules,
        Stakes(small_blind=sb, big_blind=bb),
        stacks,
        holes=[parse_cards(h) for h in holes],
    )
    return start_hand(setup)


def show_down(state: HandState) -> HandState:
    for player in showdown_order(state):
        state = apply(state, show(player))
    return state


# Three players, from the left of the button: 0 the small blind, 1 the big blind, 2 the button.
HOLES3 = ["As Ad", "Kc Kd", "7h 2c"]
BOARD = "/Ah 9c 4d | x x x | /5s | x x x | /Jd | x x x"


# --- the worked examples: 5% capped at 5, no flop no drop ------------------------------------


def test_rake_no_flop_no_drop_a_pot_of_40_won_preflop_pays_nothing() -> None:
    # Heads-up: the button raises to 20, the big blind re-raises to 60 and the button folds;
    # the uncalled 40 goes back and the big blind wins a pot of 40 before any flop.
    state = play(hand([1000, 1000], ["As Ad", "Kc Kd"], **FIVE_CAPPED), "r20 r60 f")
    assert state.phase is Phase.COMPLETE
    assert state.rake == 0
    (award,) = state.awards
    assert (award.amount, award.rake, award.winners) == (40, 0, (0,))
    assert state.stacks == (1020, 980)


def test_rake_the_same_pot_of_40_is_raked_2_without_no_flop_no_drop() -> None:
    options = {**FIVE_CAPPED, "rake_no_flop_no_drop": False}
    state = play(hand([1000, 1000], ["As Ad", "Kc Kd"], **options), "r20 r60 f")
    assert state.rake == 2
    assert state.stacks == (1018, 980)


def test_rake_five_percent_of_a_60_pot_after_the_flop_is_3() -> None:
    # Everyone calls 20 and the hand is won on the flop: a pot of 60, 5% = 3.
    state = play(hand([1000] * 3, HOLES3, **FIVE_CAPPED), "r20 c c | /Ah 9c 4d | b30 f f")
    assert state.phase is Phase.COMPLETE
    assert state.rake == 3
    (award,) = state.awards
    assert (award.amount, award.rake, award.winners) == (57, 3, (0,))
    assert state.stacks == (1000 - 20 + 57, 980, 980)


def test_rake_a_pot_of_200_is_capped_at_5() -> None:
    state = hand([1000, 1000], ["As Ad", "Kc Kd"], **FIVE_CAPPED)
    state = play(state, "r100 c | /Ah 9c 4d | x x | /5s | x x | /Jd | x x")
    state = show_down(state)
    assert state.pot_total == 200
    assert state.rake == 5  # 5% would be 10
    (award,) = state.awards
    assert (award.amount, award.rake, award.winners) == (195, 5, (0,))
    assert state.stacks == (1095, 900)
    assert sum(state.stacks) + state.rake == 2000


def test_rake_is_rounded_down_to_whole_chips() -> None:
    assert rake_due(make_rules("casino_cash", {"rake_percent": 5}), 59, flop_seen=True) == 2
    assert rake_due(make_rules("casino_cash", {"rake_percent": 10}), 59, flop_seen=True) == 5


def test_rake_is_rounded_down_to_the_smallest_chip_in_play() -> None:
    rules = make_rules("casino_cash", {"rake_percent": 10})
    assert rake_due(rules, 140, flop_seen=True, unit=5) == 10  # 14 is not a whole chip of 5


def test_rake_without_no_flop_no_drop_a_walk_is_raked() -> None:
    # Everyone folds to the big blind: 1 + 2 in the middle, 10% of 3 rounds down to nothing;
    # with a fixed drop of 1 and no threshold the walk pays it.
    assert play(hand([1000] * 3, HOLES3, rake_percent=10), "f f").rake == 0
    assert play(hand([1000] * 3, HOLES3, rake_fixed_drop=1), "f f").rake == 1


def test_rake_is_off_by_default_so_nothing_changes() -> None:
    state = show_down(play(hand([1000] * 3, HOLES3), "r20 c c | " + BOARD))
    assert state.rake == 0
    assert state.awards[0].amount == 60
    assert sum(state.stacks) == 3000


# --- fixed drop and the smallest pot raked --------------------------------------------------


def test_rake_fixed_drop_from_every_pot_that_reaches_the_threshold() -> None:
    rules = make_rules("casino_cash", {"rake_fixed_drop": 4, "rake_min_pot": 20})
    assert rake_due(rules, 19, flop_seen=True) == 0
    assert rake_due(rules, 20, flop_seen=True) == 4
    assert rake_due(rules, 5000, flop_seen=True) == 4


def test_rake_fixed_drop_never_takes_more_than_the_pot() -> None:
    rules = make_rules("casino_cash", {"rake_fixed_drop": 4})
    assert rake_due(rules, 3, flop_seen=True) == 3


def test_rake_fixed_drop_in_a_hand() -> None:
    state = play(hand([1000] * 3, HOLES3, rake_fixed_drop=3), "r20 c c | /Ah 9c 4d | b30 f f")
    assert state.rake == 3
    assert state.awards[0].amount == 57


# --- side pots and split pots -----------------------------------------------------------------


def test_rake_comes_from_the_main_pot_first_with_a_side_pot() -> None:
    # The button is all in for 30: a main pot of 90 and a side pot of 100 between the blinds.
    state = hand([1000, 1000, 30], ["Kc Kd", "7h 2c", "As Ad"], **FIVE_CAPPED)
    state = play(state, "a c c | /Ah 9c 4d | b50 c")
    state = play(state, "/5s | x x | /Jd | x x")
    state = show_down(state)
    assert state.pot_total == 190
    assert state.rake == 5
    side, main = state.awards  # the side pot is awarded first
    assert (main.pot, main.amount, main.rake, main.winners) == (0, 85, 5, (2,))
    assert (side.pot, side.amount, side.rake, side.winners) == (1, 100, 0, (0,))
    assert state.stacks == (1000 - 80 + 100, 1000 - 80, 85)


def test_rake_larger_than_the_main_pot_goes_on_to_the_side_pot() -> None:
    pots = (Pot(amount=3, eligible=(0, 1, 2)), Pot(amount=100, eligible=(1, 2)))
    raked, taken = take_rake(pots, 5)
    assert taken == (3, 2)
    assert [p.amount for p in raked] == [0, 98]
    assert [p.eligible for p in raked] == [(0, 1, 2), (1, 2)]


def test_rake_comes_off_before_a_split_pot_is_divided() -> None:
    # Both players play the board's straight: a pot of 60 less 3 rake is 57, split 29 / 28, the
    # odd chip to the first winner clockwise from the button (S3).
    state = hand([1000] * 3, ["2s 3s", "2d 3d", "7h 7c"], **FIVE_CAPPED)
    state = play(state, "r20 c c | /Ts Jd Qh | x x x | /Kc | x x x | /Ac | x x x")
    state = show_down(state)
    assert state.rake == 3
    (award,) = state.awards
    assert award.amount == 57
    assert award.winners == (0, 1, 2)
    assert award.shares == (19, 19, 19)
    assert sum(state.stacks) + state.rake == 3000


def test_rake_split_pot_odd_chip_after_the_rake() -> None:
    state = hand([1000] * 3, ["Ts 9s", "Td 9d", "7h 2c"], **FIVE_CAPPED)
    state = play(state, "r20 c c | /Jh Qc Kd | x x x | /2s | x x x | /3c | x x x")
    state = show_down(state)
    (award,) = state.awards
    assert (award.amount, award.rake) == (57, 3)
    assert award.winners == (0, 1)
    assert award.shares == (29, 28)


# --- the rules: cash only, one way of raking -------------------------------------------------


@pytest.mark.parametrize(
    "option",
    [
        {"rake_percent": 5},
        {"rake_cap": 5},
        {"rake_fixed_drop": 2},
        {"rake_min_pot": 10},
        {"rake_no_flop_no_drop": True},
    ],
)
def test_rake_options_are_refused_in_a_tournament(option: dict[str, Any]) -> None:
    with pytest.raises(ConfigError) as refused:
        make_rules("tda_tournament", option)
    assert refused.value.code == "bad_option_combination"
    assert "cash tables only" in refused.value.detail


def test_rake_by_percentage_and_fixed_drop_at_once_is_refused() -> None:
    with pytest.raises(ConfigError) as refused:
        make_rules("casino_cash", {"rake_percent": 5, "rake_fixed_drop": 2})
    assert refused.value.code == "bad_option_combination"


def test_rake_percentage_out_of_range_is_refused() -> None:
    with pytest.raises(ConfigError) as refused:
        make_rules("casino_cash", {"rake_percent": 26})
    assert refused.value.code == "bad_option_value"


def test_rake_is_kept_in_the_stored_snapshot() -> None:
    state = play(hand([1000] * 3, HOLES3, **FIVE_CAPPED), "r20 c c | /Ah 9c 4d | b30 f f")
    again = state_from_json(state_to_json(state))
    assert again == state
    assert again.rake == 3
    assert again.awards[0].rake == 3


# --- the property: chips are conserved with the rake -----------------------------------------


@st.composite
def raked_scenarios(draw: st.DrawFn) -> props.Scenario:
    """The property tests' hands, played at a cash table with a rake."""
    scenario = draw(props.scenarios())
    rules = scenario.rules
    if rules.is_tournament:
        rules = make_rules("casino_cash", {"structure": rules.structure.value})
    rake: dict[str, Any]
    if draw(st.booleans()):
        percent = draw(st.integers(1, 2500)) / 100  # to two places: 0.01% to 25%
        rake = {"rake_percent": percent, "rake_cap": draw(st.integers(0, 50))}
    else:
        rake = {"rake_fixed_drop": draw(st.integers(1, 20))}
    rake |= {
        "rake_min_pot": draw(st.sampled_from((0, 0, 10, 100))),
        "rake_no_flop_no_drop": draw(st.booleans()),
        "promo_drop": draw(st.sampled_from((0, 0, 1, 5))),
        "promo_drop_min_pot": draw(st.sampled_from((0, 20))),
    }
    rules = dataclasses.replace(rules, **rake)
    setup = dataclasses.replace(scenario.setup, rules=rules)
    return dataclasses.replace(scenario, setup=setup)


@props.FAST
@given(scenario=raked_scenarios(), data=st.data())
def test_rake_chips_are_conserved_stacks_plus_rake_equal_the_starting_stacks(
    scenario: props.Scenario, data: st.DataObject
) -> None:
    final = props.play(data, scenario).final
    assert final.is_over
    assert sum(final.stacks) + final.rake == scenario.total_chips
    assert final.rake == sum(award.rake for award in final.awards)
    assert 0 <= final.drop <= final.rake
    assert final.drop <= scenario.rules.promo_drop
    assert all(sum(award.shares) == award.amount >= 0 for award in final.awards)
    if final.phase is Phase.VOID or (scenario.rules.rake_no_flop_no_drop and not final.board):
        assert final.rake == 0
    if scenario.rules.rake_cap and scenario.rules.rake_percent:
        assert final.rake - final.drop <= scenario.rules.rake_cap


# --- a rake in hundredths of a percent, and the promotional drop (issue 25) -------------------


def test_rake_decimal_percentage_two_and_a_half_percent_of_1000_is_25() -> None:
    rules = make_rules("casino_cash", {"rake_percent": 2.5})
    assert rake_due(rules, 1000, flop_seen=True) == 25
    assert rake_due(rules, 999, flop_seen=True) == 24  # rounded down: 24.975
    assert rake_due(make_rules("casino_cash", {"rake_percent": 0.25}), 400, flop_seen=True) == 1


def test_rake_decimal_percentage_given_as_text_is_the_same_number() -> None:
    assert make_rules("casino_cash", {"rake_percent": "2.5"}).rake_percent == 2.5
    assert make_rules("casino_cash", {"rake_percent": "5"}).rake_percent == 5
    assert type(make_rules("casino_cash", {"rake_percent": 5.0}).rake_percent) is int


@pytest.mark.parametrize("value", [2.555, "2.5.1", "", "nan", "inf", 25.01, -0.5, True, [2]])
def test_rake_decimal_percentage_past_two_places_or_not_a_number_is_refused(value: Any) -> None:
    with pytest.raises(ConfigError) as refused:
        make_rules("casino_cash", {"rake_percent": value})
    assert refused.value.code == "bad_option_value"
    assert "rake_percent" in refused.value.detail


def test_rake_decimal_percentage_is_kept_in_the_stored_rules() -> None:
    rules = make_rules("casino_cash", {"rake_percent": 2.5, "rake_cap": 10})
    again = type(rules)(**rules.as_dict())
    assert again == rules
    assert rake_due(again, 100, flop_seen=True) == 2


def test_rake_promotional_drop_is_taken_beside_the_rake_and_kept_apart() -> None:
    # 5% of a 60 pot after the flop is 3; the jackpot drop of 1 comes beside it, from the same pot.
    options = {**FIVE_CAPPED, "promo_drop": 1, "promo_drop_min_pot": 20}
    state = play(hand([1000] * 3, HOLES3, **options), "r20 c c | /Ah 9c 4d | b30 f f")
    assert (state.rake, state.drop) == (4, 1)  # the house's take in all, and the drop's part
    assert state.awards[0].amount == 56
    assert sum(state.stacks) + state.rake == 3000
    again = state_from_json(state_to_json(state))
    assert again == state
    assert again.drop == 1


def test_rake_promotional_drop_follows_no_flop_no_drop_and_its_smallest_pot() -> None:
    options = {**FIVE_CAPPED, "promo_drop": 1, "promo_drop_min_pot": 50}
    preflop = play(hand([1000, 1000], ["As Ad", "Kc Kd"], **options), "r20 r60 f")
    assert (preflop.rake, preflop.drop) == (0, 0)
    small = play(hand([1000] * 3, HOLES3, **options), "c c x | /Ah 9c 4d | b2 f f")
    assert small.drop == 0  # a pot of 6 + 2 is under the drop's 50


def test_rake_promotional_drop_without_a_rake_and_never_past_the_pot() -> None:
    walk = play(hand([1000] * 3, HOLES3, promo_drop=5), "f f")
    # The big blind's uncalled chip goes back: a pot of 2 is all there is.
    assert (walk.rake, walk.drop) == (2, 2)
    assert walk.awards[0].amount == 0


def test_rake_promotional_drop_is_refused_in_a_tournament() -> None:
    with pytest.raises(ConfigError) as refused:
        make_rules("tda_tournament", {"promo_drop": 1})
    assert refused.value.code == "bad_option_combination"
