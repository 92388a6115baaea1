"""RULES.md section 9 contradictions and the other hand options, each shown by a named test."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.engine import (
    ConfigError,
    HandState,
    Phase,
    RuleViolation,
    Stakes,
    apply,
    claim_board,
    deal_setup,
    kill,
    legal_actions,
    make_rules,
    misdeal,
    muck,
    raise_to,
    show,
    start_hand,
    threshold_passed,
)
from dealer.engine.cards import parse_cards
from dealer.engine.draw import button_draw
from dealer.engine.rules import PROFILES, OddChip, Rules
from tests.engine.scripted import play


def hand(
    stacks: list[int],
    *,
    structure: str = "no_limit",
    sb: int = 5,
    bb: int = 10,
    ante: int = 0,
    small_bet: int = 0,
    profile: str = "casino_cash",
    holes: str = "",
    **options: Any,
) -> HandState:
    rules = make_rules(profile, {"structure": structure, **options})
    stakes = Stakes(small_blind=sb, big_blind=bb, ante=ante, small_bet=small_bet)
    hole_cards = [parse_cards(h) for h in holes.split(",")] if holes else None
    return start_hand(deal_setup(rules, stakes, stacks, holes=hole_cards))


# --- Rules as a validated configuration ----------------------------------------------------------


def test_profiles_apply_their_documented_differences() -> None:
    tda = make_rules("tda_tournament")
    assert (tda.mode, tda.button_mode, tda.missed_blind_policy) == (
        "tournament",
        "dead",
        "TDA_tournament",
    )
    assert (tda.fl_headsup_uncapped, tda.action_threshold, tda.table_all_in) == (
        False,
        "tda_substantial",
        True,
    )
    cash = make_rules("casino_cash")
    assert (cash.button_mode, cash.missed_blind_policy, cash.straddle_allowed) == (
        "moving",
        "S2_casino",
        True,
    )
    six = make_rules("texas_6plus")
    assert (
        six.game,
        six.heads_up_button_posts,
        six.draw_tiebreak,
        six.initial_button,
        six.missed_blind_policy,
    ) == ("sixplus", "big", "deal_order", "first_seated", "S0_missed_blinds")


def test_defaults_are_those_written_in_rules_md() -> None:
    rules = Rules()
    assert (
        rules.fl_cap_bets,
        rules.fl_short_allin,
        rules.odd_chip,
        rules.play_board_claim,
        rules.short_blind,
        rules.pl_min_bet,
        rules.pl_min_raise,
        rules.action_threshold,
    ) == (
        4,
        "half_bet",
        "left_of_button",
        "table_both",
        "allin_post",
        "bb",
        "last_raise",
        "two_acted",
    )


def test_texas_6plus_in_a_tournament_takes_the_tournament_floor_rules() -> None:
    rules = make_rules("texas_6plus", {"mode": "tournament"})
    assert (rules.game, rules.button_mode, rules.missed_blind_policy, rules.initial_button) == (
        "sixplus",
        "dead",
        "TDA_tournament",
        "draw",
    )


@pytest.mark.parametrize(
    ("profile", "overrides", "code"),
    [
        ("casino_cash", {"no_such_rule": True}, "unknown_option"),
        ("casino_cash", {"odd_chip": "to_the_dealer"}, "bad_option_value"),
        ("casino_cash", {"fl_cap_bets": 0}, "bad_option_value"),
        ("casino_cash", {"bb_ante": "yes"}, "bad_option_value"),
        ("casino_cash", {"sixplus_flush_beats_full_house": True}, "bad_option_combination"),
        ("tda_tournament", {"straddle_allowed": True}, "bad_option_combination"),
        ("casino_cash", {"missed_blind_policy": "TDA_tournament"}, "bad_option_combination"),
        ("home_game", {}, "unknown_profile"),
    ],
)
def test_unknown_keys_and_impossible_values_are_refused(
    profile: str, overrides: dict[str, object], code: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        make_rules(profile, overrides)
    assert refused.value.code == code
    assert refused.value.detail


def test_bad_value_message_lists_the_allowed_values() -> None:
    with pytest.raises(ConfigError) as refused:
        make_rules("casino_cash", {"odd_chip": "dealer"})
    assert refused.value.detail == (
        "Rule option 'odd_chip' cannot be 'dealer': use one of left_of_button, high_card_by_suit."
    )


def test_rules_are_immutable() -> None:
    rules = make_rules("casino_cash")
    with pytest.raises(AttributeError):
        rules.odd_chip = OddChip.HIGH_CARD_BY_SUIT  # type: ignore[misc]
    assert set(PROFILES) == {"casino_cash", "tda_tournament", "texas_6plus"}


# --- X5: button draw ties ------------------------------------------------------------------------


def test_x5_draw_highest_card_wins_the_button() -> None:
    assert button_draw(parse_cards("9c Kd 2s")) == 1


def test_x5_r_draw_tie_broken_by_suit_spades_highest() -> None:
    assert button_draw(parse_cards("Kd Ks Kh"), "suit") == 1


def test_x5_s0_draw_tie_broken_by_deal_order() -> None:
    assert button_draw(parse_cards("Kd Ks Kh"), "deal_order") == 0


# --- X7: playing the board -----------------------------------------------------------------------

BOARD_PLAYS = "c x | /As Ks Qs | x x | /Js | x x | /Ts | x x"


def _board_hand(policy: str) -> HandState:
    return play(hand([100, 100], play_board_claim=policy, holes="2c 3d,4h 5h"), BOARD_PLAYS)


def test_x7_table_both_a_board_player_must_show_both_cards() -> None:
    state = _board_hand("table_both")
    with pytest.raises(RuleViolation) as refused:
        apply(state, claim_board(0))
    assert refused.value.code == "must_table"
    state = apply(apply(state, show(0)), show(1))
    assert state.awards[0].winners == (0, 1)


def test_x7_declare_then_muck_declared_board_splits_and_silent_muck_loses() -> None:
    state = apply(apply(_board_hand("declare_then_muck"), show(0)), claim_board(1))
    assert state.phase == Phase.COMPLETE
    assert state.awards[0].winners == (0, 1)
    state = apply(_board_hand("declare_then_muck"), show(0))
    state = apply(state, muck(1))
    assert state.awards[0].winners == (0,)


def test_x7_muck_ok_claim_allowed_only_after_check_or_bet_and_call() -> None:
    state = apply(apply(_board_hand("muck_ok"), show(0)), claim_board(1))
    assert state.awards[0].winners == (0, 1)
    raised = play(
        hand([100, 100, 100], play_board_claim="muck_ok"),
        "c c x | /As Ks Qs | x x x | /Js | x x x | /Ts | b10 r30 c c",
    )
    with pytest.raises(RuleViolation) as refused:
        apply(raised, claim_board(1))
    assert refused.value.code == "claim_not_allowed"


# --- X8: fixed-limit cap heads-up ----------------------------------------------------------------


def _heads_up_flop(**options: Any) -> HandState:
    state = hand([1000, 1000], structure="fixed_limit", sb=5, bb=10, **options)
    return play(state, "c x | /As Kd 7c | b10 r20 r30 r40")


def test_x8_s2_heads_up_cap_lifted_by_default_in_cash() -> None:
    assert legal_actions(_heads_up_flop()).min_raise_to == 50  # type: ignore[union-attr]


def test_x8_s0_s3_always_capped_option() -> None:
    state = _heads_up_flop(fl_headsup_uncapped=False)
    assert legal_actions(state).min_raise_to is None  # type: ignore[union-attr]


def test_x8_tournament_keeps_the_cap_heads_up() -> None:
    state = hand([1000, 1000], structure="fixed_limit", profile="tda_tournament")
    state = play(state, "c x | /As Kd 7c | b10 r20 r30 r40")
    assert legal_actions(state).min_raise_to is None  # type: ignore[union-attr]


def test_x8_a_later_fold_does_not_uncap_a_capped_round() -> None:
    state = hand([1000] * 3, structure="fixed_limit")
    state = play(state, "c c x | /As Kd 7c | b10 r20 r30 r40 f")
    options = legal_actions(state)
    assert options is not None
    assert options.actor == 2
    assert options.min_raise_to is None


def test_fl_cap_bets_option_changes_the_cap() -> None:
    state = hand([1000] * 3, structure="fixed_limit", fl_cap_bets=3)
    state = play(state, "c c x | /As Kd 7c | b10 r20 r30")
    assert legal_actions(state).min_raise_to is None  # type: ignore[union-attr]


# --- Pot limit options ---------------------------------------------------------------------------


def test_r_pl_sb_as_bb_makes_the_maximum_open_four_big_blinds() -> None:
    assert legal_actions(hand([500] * 3, structure="pot_limit", sb=1, bb=2)).max_raise_to == 7  # type: ignore[union-attr]
    state = hand([500] * 3, structure="pot_limit", sb=1, bb=2, pl_sb_as_bb=True)
    assert legal_actions(state).max_raise_to == 8  # type: ignore[union-attr]


def test_t54b_pot_limit_counts_a_short_blind_in_full_preflop() -> None:
    state = hand([500, 4, 500], structure="pot_limit", sb=5, bb=10)
    assert state.bets[1] == 4
    # As if the full blind were posted: pot 15, call 10 -> raise to 10 + 15 + 10.
    assert legal_actions(state).max_raise_to == 35  # type: ignore[union-attr]


def test_s2_pl_heads_up_overbet_by_agreement_allows_any_amount() -> None:
    state = play(
        hand([500, 500], structure="pot_limit", pl_headsup_overbet_by_agreement=True),
        "c x | /As Kd 7c",
    )
    assert legal_actions(state).max_raise_to == 490  # type: ignore[union-attr]
    plain = play(hand([500, 500], structure="pot_limit"), "c x | /As Kd 7c")
    assert legal_actions(plain).max_raise_to == 20  # type: ignore[union-attr]


def test_r_pot_limit_overbet_is_refused_with_the_maximum() -> None:
    state = play(hand([500, 500, 500], structure="pot_limit"), "c c x | /As Kd 7c")
    with pytest.raises(RuleViolation) as refused:
        apply(state, play_bet(31))
    assert refused.value.code == "above_maximum"
    assert refused.value.detail == "Bet 31 is above the pot-limit maximum of 30."


def play_bet(amount: int):
    from dealer.engine import bet

    return bet(amount)


# --- Antes, big-blind ante, T 47 reopening --------------------------------------------------------


def test_s2_antes_are_dead_and_counted_in_the_pot_layers() -> None:
    state = hand([100, 100, 100], ante=2)
    assert state.contributed == (7, 12, 2)
    assert state.pot_total == 21
    assert legal_actions(state).call == 10  # type: ignore[union-attr]


def test_t_big_blind_ante_paid_after_the_blind_as_dead_money() -> None:
    state = hand([100, 15, 100], ante=10, bb_ante=True, profile="tda_tournament")
    assert state.bets[1] == 10
    assert state.contributed[1] == 10
    assert state.dead == 5
    assert state.stacks[1] == 0


def test_t47_short_allins_adding_up_to_a_full_raise_reopen_the_betting() -> None:
    # T example: bet 100, all-in 125, call, all-in 200 -> the opener may raise again.
    state = hand([1000, 1000, 135, 1000, 210], sb=5, bb=10)
    state = play(state, "c c c c x | /As Kd 7c")
    state = play(state, "b100")  # player 1 (small blind) opens; then the big blind folds
    state = play(state, "f a c a")
    assert state.bets == (100, 0, 125, 125, 200)
    options = legal_actions(state)
    assert options is not None
    assert options.actor == 0
    assert options.min_raise_to == 300


def test_t47_single_short_allin_does_not_reopen_for_the_opener() -> None:
    state = hand([1000, 1000, 150], sb=5, bb=10)
    state = play(state, "c c x | /As Kd 7c | b100 c a")
    options = legal_actions(state)
    assert options is not None
    assert options.actor == 0
    assert options.min_raise_to is None
    assert options.call == 40


def test_r_minimum_raise_after_short_allin_is_high_plus_last_full_raise() -> None:
    state = hand([1000, 150, 1000], sb=5, bb=10)
    state = play(state, "c c x | /As Kd 7c | b100 a")
    assert legal_actions(state).min_raise_to == 240  # type: ignore[union-attr]


# --- Threshold, misdeal, dead hand ---------------------------------------------------------------


def test_s2_two_acted_threshold_passes_after_two_actions_in_turn() -> None:
    state = hand([100] * 4)
    assert not threshold_passed(play(state, "f"))
    assert threshold_passed(play(state, "f f"))


def test_t36_tda_substantial_needs_chips_in_or_three_actions() -> None:
    state = hand([100] * 5, profile="tda_tournament")
    assert not threshold_passed(play(state, "f f"))
    assert threshold_passed(play(state, "f c"))
    assert threshold_passed(play(state, "f f f"))


def test_t_misdeal_returns_every_chip_before_the_threshold() -> None:
    state = play(hand([100, 100, 100, 100], ante=1), "c")
    voided = apply(state, misdeal("two cards exposed"))
    assert voided.phase == Phase.VOID
    assert voided.finishing_stacks == (100, 100, 100, 100)


def test_r_no_misdeal_after_the_threshold() -> None:
    state = play(hand([100] * 4), "c c")
    with pytest.raises(RuleViolation) as refused:
        apply(state, misdeal())
    assert refused.value.code == "misdeal_too_late"


def test_r_dead_hand_keeps_the_players_chips_in_the_pot() -> None:
    state = play(hand([100, 100, 100]), "r30 c")
    state = apply(state, kill(2, "three hole cards"))
    assert state.folded[2]
    assert state.contributed[2] == 30
    state = play(state, "c | /As Kd 7c | x x | /2h | x x | /3d | x x")
    assert state.phase == Phase.SHOWDOWN
    assert state.pot_total == 90


def test_r_dead_hand_of_the_last_opponent_awards_the_pot() -> None:
    state = play(hand([100, 100]), "r30")
    state = apply(state, kill(0, "fouled"))
    assert state.phase == Phase.COMPLETE
    assert state.finishing_stacks == (90, 110)


# --- Tabling in tournaments ----------------------------------------------------------------


def test_t16_tournament_all_in_hands_are_tabled_no_muck() -> None:
    state = hand([100, 50, 100], profile="tda_tournament", holes="As Ad,Ks Kd,Qs Qd")
    state = play(state, "a c c")
    with pytest.raises(RuleViolation) as refused:
        apply(state, muck(0))
    assert refused.value.code == "must_table"
    # PHH / T 16: shown before the rest of the board is dealt.
    state = apply(state, show(1))
    assert state.phase == Phase.BETTING or state.phase == Phase.DEALING


def test_bet_and_raise_words_must_fit_the_situation() -> None:
    state = hand([100, 100, 100])
    with pytest.raises(RuleViolation) as refused:
        apply(state, play_bet(20))
    assert refused.value.code == "bet_not_allowed"
    state = play(state, "c c x | /As Kd 7c")
    with pytest.raises(RuleViolation) as refused:
        apply(state, raise_to(20))
    assert refused.value.code == "raise_not_allowed"


def test_half_pot_size_is_offered_between_the_minimum_and_the_pot() -> None:
    state = play(hand([5000] * 4, structure="pot_limit", sb=10, bb=20), "r50 c c c | /As Kd 7c")
    options = legal_actions(state)
    assert options is not None
    assert (options.min_raise_to, options.half_pot_raise_to, options.pot_raise_to) == (20, 100, 200)
    facing = legal_actions(play(state, "b20"))
    assert facing is not None
    assert facing.half_pot_raise_to == 20 + (260 - 20) // 2
