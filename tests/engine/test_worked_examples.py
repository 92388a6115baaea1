"""RULES.md 5.7: the worked examples W1-W17, one named test (or more) each."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.engine import (
    HandState,
    Phase,
    RuleViolation,
    Stakes,
    apply,
    deal_setup,
    legal_actions,
    make_rules,
    raise_to,
    show,
    showdown_order,
    start_hand,
)
from dealer.engine.cards import parse_cards
from dealer.engine.setup import HandSetup, PlayerSetup, half_rule_blind, missed_blind_posts
from tests.engine.scripted import play


def hand(
    structure: str,
    stacks: list[int],
    *,
    sb: int,
    bb: int,
    small_bet: int = 0,
    profile: str = "casino_cash",
    straddle: bool = False,
    **options: Any,
) -> HandState:
    rules = make_rules(profile, {"structure": structure, **options})
    stakes = Stakes(small_blind=sb, big_blind=bb, small_bet=small_bet)
    return start_hand(deal_setup(rules, stakes, stacks, straddle=straddle))


def legal(state: HandState):
    actions = legal_actions(state)
    assert actions is not None
    return actions


# --- W1: S0 fixed limit, "1/2" (scaled by 10: bets of 10 preflop and flop, 20 on turn and river)


def test_w1_s0_fixed_limit_bet_sizes_and_four_bet_cap() -> None:
    state = hand("fixed_limit", [1000] * 4, sb=5, bb=10, small_bet=10)
    # Preflop: the big blind is the bet; raise, re-raise, cap.
    for total in (20, 30, 40):
        assert (legal(state).min_raise_to, legal(state).max_raise_to) == (total, total)
        state = apply(state, raise_to(total))
    assert legal(state).min_raise_to is None
    state = play(state, "c c c | /As Kd 7c")
    for total in (10, 20, 30, 40):
        assert (legal(state).min_raise_to, legal(state).max_raise_to) == (total, total)
        state = play(state, f"{'b' if total == 10 else 'r'}{total}")
    assert legal(state).min_raise_to is None
    state = play(state, "c c c | /2h")
    assert (legal(state).min_raise_to, legal(state).max_raise_to) == (20, 20)
    state = play(state, "b20 r40 r60 r80")
    assert legal(state).min_raise_to is None
    with pytest.raises(RuleViolation) as refused:
        apply(state, raise_to(100))
    assert refused.value.code == "betting_capped"


# --- W2 / X1: S0's pot-limit example


def _w2_flop(**options: Any) -> HandState:
    state = hand("pot_limit", [500, 500], sb=1, bb=2, **options)
    state = play(state, "r5 c | /As Kd 7c")  # pot 10
    assert state.pot_total == 10
    return play(state, "b10")


def test_w2_s0_pot_limit_max_raise_follows_the_formula() -> None:
    assert legal(_w2_flop()).max_raise_to == 40


def test_w2_x1_pl_formula_s0_literal_reproduces_the_seed_total() -> None:
    assert legal(_w2_flop(pl_formula="s0_literal")).max_raise_to == 30


# --- W3 / W4 / X3: S1 no-limit minimum raise is the increment, not "twice"


def _w3_flop() -> HandState:
    state = hand("no_limit", [1000] * 3, sb=5, bb=10)
    return play(state, "c c x | /As Kd 7c | b20")


def test_w3_s1_raise_to_60_over_20_is_legal_and_next_minimum_is_100() -> None:
    state = play(_w3_flop(), "r60")
    assert legal(state).min_raise_to == 100


def test_w4_s1_minimum_raise_is_the_last_increment_not_twice_the_total() -> None:
    state = play(_w3_flop(), "r60")
    with pytest.raises(RuleViolation) as refused:
        apply(state, raise_to(99))
    assert refused.value.code == "below_minimum"
    assert refused.value.detail == "Raise to 99 is below the minimum raise to 100."
    assert apply(state, raise_to(100)).high == 100  # well below "twice his total" (120)


# --- W5 / X10: S2 fixed-limit all-in for less than a bet


def _w5_river(option: str) -> HandState:
    state = hand("fixed_limit", [100, 23, 100], sb=2, bb=5, small_bet=5, fl_short_allin=option)
    state = play(state, "c c x | /As Kd 7c | x x x | /2h | x x x | /3d | b10 a")
    assert state.bets[1] == 18
    assert state.stacks[1] == 0
    return state


def test_w5_s2_full_bet_rule_short_allin_is_action_only() -> None:
    state = _w5_river("full_bet")
    options = legal(state)
    assert (options.call, options.min_raise_to, options.max_raise_to) == (18, 20, 20)
    assert state.raise_count == 1  # A's bet is still the only full bet


def test_w5_r_half_bet_rule_short_allin_of_half_a_bet_counts_as_a_raise() -> None:
    state = _w5_river("half_bet")
    assert (legal(state).min_raise_to, legal(state).max_raise_to) == (28, 28)
    assert state.raise_count == 2


def test_w5_full_bet_rule_original_bettor_may_not_reraise_after_action_only_allin() -> None:
    state = play(_w5_river("full_bet"), "c")
    options = legal(state)
    assert options.actor == 0
    assert options.call == 8
    assert options.min_raise_to is None


# --- W6 / X2: S2 pot limit, the "$1000 pot" read as $100


def test_w6_s2_pot_limit_maximum_after_bet_and_call_is_500() -> None:
    state = hand("pot_limit", [2000] * 4, sb=5, bb=10)
    state = play(state, "r25 c c c | /As Kd 7c")
    assert state.pot_total == 100
    state = play(state, "b100 c")
    assert legal(state).max_raise_to == 500


# --- W7 / W8: S3 20/40 fixed limit


def test_w7_s3_preflop_call_complete_and_big_blind_option() -> None:
    state = hand("fixed_limit", [1000] * 3, sb=10, bb=20, small_bet=20)
    options = legal(state)
    assert (options.call, options.min_raise_to, options.max_raise_to) == (20, 40, 40)
    state = play(state, "c")
    options = legal(state)
    assert options.actor == 0
    assert options.call == 10
    assert options.min_raise_to == 40
    state = play(state, "c")
    options = legal(state)
    assert options.actor == 1
    assert options.can_check
    assert options.min_raise_to == 40


def test_w8_s3_flop_bet_raise_reraise_cap_then_refused_and_turn_unit_40() -> None:
    state = hand("fixed_limit", [1000] * 4, sb=10, bb=20, small_bet=20)
    state = play(state, "c c c x | /As Kd 7c | b20 r40 r60 r80")
    with pytest.raises(RuleViolation):
        apply(state, raise_to(100))
    state = play(state, "c c c | /2h")
    assert legal(state).min_raise_to == 40


# --- W9 / W10 / X16: S3 pot limit on the flop


def _w9(**options: Any) -> HandState:
    state = hand("pot_limit", [5000] * 4, sb=10, bb=20, small_bet=20, **options)
    state = play(state, "r50 c c c | /As Kd 7c")
    assert state.pot_total == 200
    return play(state, "b20")


def test_w9_s3_pot_limit_call_20_max_raise_to_260() -> None:
    options = legal(_w9())
    assert options.call == 20
    assert options.max_raise_to == 260


def test_w10_s3_after_raise_to_180_next_max_is_760_and_min_340() -> None:
    state = play(_w9(), "r180")
    assert state.pot_total == 400
    options = legal(state)
    assert (options.call, options.max_raise_to, options.min_raise_to) == (180, 760, 340)


def test_w10_x16_pl_min_raise_street_limit_allows_raise_of_20() -> None:
    state = play(_w9(pl_min_raise="street_limit"), "r180")
    assert legal(state).min_raise_to == 200


def test_x16_pl_min_bet_street_limit_on_the_turn_is_the_big_bet() -> None:
    state = hand("pot_limit", [5000] * 3, sb=10, bb=20, small_bet=20, pl_min_bet="street_limit")
    state = play(state, "c c x | /As Kd 7c | x x x | /2h")
    assert legal(state).min_raise_to == 40
    default = play(hand("pot_limit", [5000] * 3, sb=10, bb=20), "c c x | /As Kd 7c | x x x | /2h")
    assert legal(default).min_raise_to == 20


# --- W11: S3 who shows first


def _w11(river: str) -> HandState:
    state = hand("fixed_limit", [1000] * 3, sb=10, bb=20, small_bet=20)
    return play(state, f"c c x | /As Kd 7c | x x x | /2h | x x x | /3d | {river}")


def test_w11_s3_river_bettor_shows_first() -> None:
    state = _w11("x b40 c c")
    assert state.phase == Phase.SHOWDOWN
    assert showdown_order(state) == (1, 2, 0)


def test_w11_s3_river_raiser_shows_first() -> None:
    assert showdown_order(_w11("x b40 r80 c c"))[0] == 2


def test_w11_checked_around_first_clockwise_from_button_shows_first() -> None:
    assert showdown_order(_w11("x x x")) == (0, 1, 2)


# --- W12 / 6.5: odd chip


def _w12(**options: Any) -> HandState:
    rules = make_rules("casino_cash", options)
    holes = [parse_cards("Qc Qd"), parse_cards("Jh Th"), parse_cards("Js Td")]
    setup = deal_setup(rules, Stakes(small_blind=5, big_blind=10), [1000] * 3, holes=holes)
    state = play(start_hand(setup), "c f x | /9c 8d 7h | x x | /2s | x x | /2c | x x")
    for player in showdown_order(state):
        state = apply(state, show(player))
    return state


def test_w12_s3_odd_chip_to_first_tied_winner_clockwise_from_button() -> None:
    state = _w12()
    (award,) = state.awards
    assert award.amount == 25
    assert award.winners == (1, 2)
    assert award.shares == (13, 12)


def test_w12_r_odd_chip_high_card_by_suit_goes_to_the_jack_of_spades() -> None:
    (award,) = _w12(odd_chip="high_card_by_suit").awards
    assert award.winners == (2, 1)
    assert award.shares == (13, 12)


@pytest.mark.parametrize(("unit", "shares"), [(25, (6275, 6250)), (1, (6263, 6262))])
def test_w12_s3_a_tournament_pot_splits_in_its_smallest_chip(
    unit: int, shares: tuple[int, int]
) -> None:
    """Issue 26: 12,525 split two ways with 25 as the smallest chip is 6,275 / 6,250, the odd
    chip (one 25) to the first tied winner left of the button (S3); a unit of 1 gives the
    6,263 / 6,262 no dealer can push."""
    rules = make_rules("tda_tournament", {"mode": "tournament"})
    holes = [parse_cards("Qc Qd"), parse_cards("Jh Th"), parse_cards("Js Td")]
    stakes = Stakes(small_blind=25, big_blind=50, unit=unit)
    setup = deal_setup(rules, stakes, [10000] * 3, holes=holes)
    state = play(start_hand(setup), "c f x | /9c 8d 7h | b6200 c | /2s | x x | /2c | x x")
    for player in showdown_order(state):
        state = apply(state, show(player))
    (award,) = state.awards
    assert (award.amount, award.winners, award.shares) == (12525, (1, 2), shares)


# --- W13 / X4: heads-up blinds


def test_w13_default_heads_up_button_posts_small_blind_and_acts_first_preflop() -> None:
    state = hand("no_limit", [100, 100], sb=1, bb=2)
    assert [p.blind for p in state.setup.players] == [2, 1]
    assert legal(state).actor == 1
    state = play(state, "c x | /As Kd 7c")
    assert legal(state).actor == 0


def test_w13_x4_s0_heads_up_dealer_posts_big_blind() -> None:
    state = hand("no_limit", [100, 100], sb=1, bb=2, profile="texas_6plus")
    assert [p.blind for p in state.setup.players] == [1, 2]
    assert legal(state).actor == 0
    state = play(state, "c x | /As Kd 7c")
    assert legal(state).actor == 0


# --- W14 / W15 / X11: make-up posts after missed blinds


@pytest.mark.parametrize("profile", ["casino_cash", "texas_6plus"])
def test_w14_return_after_missing_both_blinds_posts_big_live_and_small_dead(profile: str) -> None:
    rules = make_rules(profile)
    assert missed_blind_posts(
        rules, missed_small=True, missed_big=True, small_blind=5, big_blind=10
    ) == (10, 5)


def test_w14_make_up_post_is_live_with_the_option_and_small_blind_dead() -> None:
    rules = make_rules("casino_cash")
    players = (
        PlayerSetup(stack=100, blind=5),
        PlayerSetup(stack=100, blind=10),
        PlayerSetup(stack=100),
        PlayerSetup(stack=100, blind=10, dead=5),
    )
    setup = HandSetup(
        rules=rules, players=players, small_blind=5, big_blind=10, small_bet=10, bring_in_index=1
    )
    state = play(start_hand(setup), "c")
    assert state.dead == 5
    assert state.contributed[3] == 10
    options = legal(state)
    assert options.actor == 3
    assert options.can_check
    assert options.min_raise_to == 20


def test_w15_x11_missing_only_small_blind_fallbacks() -> None:
    def posts(profile: str, **options: Any) -> tuple[int, int]:
        rules = make_rules(profile, options)
        return missed_blind_posts(
            rules, missed_small=True, missed_big=False, small_blind=10, big_blind=20
        )

    assert posts("casino_cash") == (0, 10)  # sb_dead (R)
    assert posts("casino_cash", missed_sb_fallback="bb_live_s3") == (20, 0)
    assert posts("casino_cash", missed_blind_policy="S3_blind_penalties") == (20, 0)
    assert posts("tda_tournament") == (0, 0)


# --- W16: S4 straddle


def test_w16_s4_straddle_utg_plus_one_acts_first_and_straddler_has_the_option() -> None:
    state = hand("no_limit", [100] * 5, sb=1, bb=2, straddle=True)
    assert state.setup.players[2].blind == 4
    options = legal(state)
    assert options.actor == 3
    assert options.call == 4
    assert options.min_raise_to == 8
    state = play(state, "c c c c")
    options = legal(state)
    assert options.actor == 2
    assert options.can_check
    assert options.min_raise_to == 8


def test_straddle_refused_where_not_allowed() -> None:
    from dealer.engine.errors import ConfigError

    with pytest.raises(ConfigError):
        hand("no_limit", [100] * 5, sb=1, bb=2, straddle=True, straddle_allowed=False)


# --- W17 / X13: short blinds


def test_w17_s2_half_rule_classifies_short_blinds() -> None:
    assert half_rule_blind(6, 10, 1) == "full"
    assert half_rule_blind(3, 10, 1) == "short"
    assert half_rule_blind(0, 10, 1) == "out"


def test_w17_s2_half_rule_stack_3_next_player_posts_the_big_blind() -> None:
    state = hand("fixed_limit", [100, 3, 100, 100], sb=5, bb=10, short_blind="half_rule")
    assert [p.blind for p in state.setup.players] == [5, 3, 10, 0]
    assert state.stacks[1] == 0
    options = legal(state)
    assert options.actor == 3
    assert options.call == 10


def test_w17_x13_allin_post_short_blind_still_counts_as_the_full_blind() -> None:
    state = hand("fixed_limit", [100, 6, 100, 100], sb=5, bb=10)
    assert state.bets[1] == 6
    assert state.stacks[1] == 0
    options = legal(state)
    assert options.actor == 2
    assert options.call == 10
    assert options.min_raise_to == 20


def test_w17_player_without_chips_is_not_dealt_in() -> None:
    from dealer.engine.errors import ConfigError

    with pytest.raises(ConfigError) as refused:
        hand("no_limit", [100, 0, 100], sb=5, bb=10)
    assert refused.value.code == "bad_stack"


def test_straddle_refused_when_the_half_rule_leaves_nobody_left_of_the_big_blind() -> None:
    from dealer.engine.errors import ConfigError

    with pytest.raises(ConfigError) as refused:
        hand("no_limit", [100, 3, 100], sb=5, bb=10, straddle=True, short_blind="half_rule")
    assert refused.value.code == "straddle_not_allowed"
