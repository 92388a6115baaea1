"""PHH import and export (dealer/engine/phh): strict replay, field checks, export round trips, CLI.

pokerkit 0.7.7, PHH's reference reader, is the oracle for finishing stacks: each sample and each
exported hand is replayed by both. Where RULES.md and pokerkit differ on purpose (straddle minimum
raise), or where pokerkit repairs a history and we refuse it, a test says so.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pokerkit import HandHistory as PokerkitHistory
from pokerkit.games import PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem

from dealer.engine import (
    HandState,
    Phase,
    Stakes,
    apply,
    deal_setup,
    legal_actions,
    make_rules,
    start_hand,
)
from dealer.engine.actions import (
    Action,
    all_in,
    bet,
    call,
    check,
    claim_board,
    deal_board,
    deal_hole,
    fold,
    kill,
    misdeal,
    muck,
    raise_to,
    show,
)
from dealer.engine.cards import parse_cards
from dealer.engine.phh import (
    HandHistory,
    PhhError,
    ReplayError,
    decision,
    dumps_phh,
    dumps_phhs,
    history_from_state,
    history_to_setup,
    parse_action,
    parse_phh,
    parse_phhs,
    replay,
    split_hands,
    state_to_phh,
    verify,
)

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = Path(__file__).resolve().parent / "phh_samples"
OK_SAMPLES = (
    "nt_6max_side_pots.phh",
    "ft_hand.phh",
    "pt_hand.phh",
    "heads_up.phh",
    "straddle.phh",
    "antes.phh",
    "dwan_ivey_2009.phh",
)


def sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


# --- pokerkit as the oracle ----------------------------------------------------------------


class PotLimitTexasHoldem(PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem):
    """Pot-limit Texas hold'em: pokerkit 0.7.7 has the pieces but no class and no PHH code."""


class OracleHistory(PokerkitHistory):
    """pokerkit's reader, taught our PT code (NT's fields, pot-limit betting)."""

    game_types: ClassVar[dict[str, Any]] = {
        **PokerkitHistory.game_types,
        "PT": PotLimitTexasHoldem,
    }
    required_field_names: ClassVar[dict[str, tuple[str, ...]]] = {
        **PokerkitHistory.required_field_names,
        "PT": PokerkitHistory.required_field_names["NT"],
    }


def pokerkit_stacks(text: str) -> list[list[int]]:
    """Finishing stacks of every hand of a PHH text, as pokerkit replays it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about folds when a check is possible
        multi = len(split_hands(text)) > 1
        hands = list(OracleHistory.loads_all(text)) if multi else [OracleHistory.loads(text)]
        results = []
        for history in hands:
            state = list(history)[-1]
            assert not state.status, "pokerkit did not finish the hand"
            results.append(list(state.stacks))
    return results


def play(state: HandState, *actions: Action) -> HandState:
    for action in actions:
        state = apply(state, action)
    return state


def cards(text: str) -> tuple[Any, ...]:
    return parse_cards(text)


# --- samples: replay, oracle -----------------------------------------------------------------


@pytest.mark.parametrize("name", OK_SAMPLES)
def test_valid_samples_finish_with_the_stated_stacks_and_agree_with_pokerkit(name):
    text = sample(name)
    history = parse_phh(text)
    state = verify(history)
    assert state.phase == Phase.COMPLETE
    assert list(state.stacks) == history.finishing_stacks
    assert pokerkit_stacks(text) == [list(state.stacks)]


def test_side_pots_are_awarded_highest_first_to_the_best_eligible_hand():
    state = verify(parse_phh(sample("nt_6max_side_pots.phh")))
    by_pot = {award.pot: (award.amount, award.winners) for award in state.awards}
    assert by_pot == {0: (2450, (2,)), 1: (4200, (5,)), 2: (1000, (1,))}


def test_hands_may_be_shown_before_the_board_is_complete_once_betting_is_over():
    history = parse_phh(sample("nt_6max_side_pots.phh"))
    history.actions = history.actions[: history.actions.index("p6 sm 9s9c") + 1]
    state = replay(history)
    assert state.phase == Phase.DEALING
    assert len(state.board) == 3
    assert all(state.shown[i] is not None for i in (1, 2, 3, 5))


def test_multi_hand_file_replays_each_table_in_order():
    text = sample("two_hands.phhs")
    histories = parse_phhs(text)
    assert [verify(h).stacks for h in histories] == [(99, 101, 100), (100, 98, 102)]
    assert pokerkit_stacks(text) == [[99, 101, 100], [100, 98, 102]]


def test_plain_file_is_one_hand_for_parse_phhs_and_a_multi_hand_file_is_refused_by_parse_phh():
    assert len(parse_phhs(sample("heads_up.phh"))) == 1
    with pytest.raises(PhhError) as caught:
        parse_phh(sample("two_hands.phhs"))
    assert caught.value.code == "bad_field"


# --- set-up: blinds, straddles, antes, heads-up ---------------------------------------------


def test_heads_up_p1_posts_the_big_blind_and_the_button_acts_first_preflop():
    setup = history_to_setup(parse_phh(sample("heads_up.phh")))
    assert [p.blind for p in setup.players] == [2, 1]
    assert setup.bring_in_index == 0
    assert start_hand(setup).actor == 1


def test_heads_up_antes_are_reversed_like_the_blinds():
    history = parse_phh(sample("heads_up.phh"))
    history.antes = [0, 3]  # PHH's heads-up big-blind ante
    assert [p.ante for p in history_to_setup(history).players] == [3, 0]


def test_straddle_is_a_third_blind_and_action_starts_left_of_it():
    state = start_hand(history_to_setup(parse_phh(sample("straddle.phh"))))
    assert decision(state) == {
        "actor": "p4",
        "can_fold": True,
        "can_check": False,
        "call": 4,
        "min_raise_to": 8,
        "max_raise_to": 200,
    }


def test_straddle_minimum_raise_is_twice_the_straddle_where_pokerkit_allows_less():
    history = parse_phh(sample("straddle.phh"))
    history.actions = ["p4 cbr 6"]
    with pytest.raises(ReplayError) as caught:
        replay(history)
    assert caught.value.code == "below_minimum"
    assert caught.value.detail == (
        "action 1 (p4 cbr 6): Raise to 6 is below the minimum raise to 8."
    )


def test_antes_are_posted_per_player_before_the_blinds():
    state = start_hand(history_to_setup(parse_phh(sample("antes.phh"))))
    assert state.contributed == (15, 25, 5, 5)
    assert state.stacks == (485, 475, 295, 495)


def test_min_bet_is_our_big_blind_and_ft_small_bet_our_limit_unit():
    nt = history_to_setup(parse_phh(sample("nt_6max_side_pots.phh")))
    assert (nt.small_blind, nt.big_blind, nt.rules.structure) == (50, 100, "no_limit")
    ft = history_to_setup(parse_phh(sample("ft_hand.phh")))
    assert (ft.small_bet, ft.big_blind, ft.rules.structure) == (2, 2, "fixed_limit")
    pt = history_to_setup(parse_phh(sample("pt_hand.phh")))
    assert pt.rules.structure == "pot_limit"
    assert pt.rules.profile == "casino_cash"


def test_names_and_seats_come_from_the_file():
    setup = history_to_setup(parse_phh(sample("dwan_ivey_2009.phh")))
    assert [p.name for p in setup.players] == ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]
    assert [p.seat for p in setup.players] == [1, 2, 3]


def test_rules_of_another_structure_are_refused():
    with pytest.raises(PhhError) as caught:
        replay(parse_phh(sample("ft_hand.phh")), make_rules("casino_cash"))
    assert caught.value.code == "rules_mismatch"


# --- strictness: illegal, missing and malformed actions ---------------------------------------


def test_raise_below_the_minimum_gives_the_engine_code_and_sentence_with_the_action():
    with pytest.raises(ReplayError) as caught:
        replay(parse_phh(sample("illegal_min_raise.phh")))
    error = caught.value
    assert (error.code, error.number, error.action) == ("below_minimum", 5, "p3 cbr 150")
    assert error.detail == "action 5 (p3 cbr 150): Raise to 150 is below the minimum raise to 200."


def test_missing_action_is_an_error_where_pokerkit_repairs_it():
    text = sample("missing_action.phh")
    with pytest.raises(ReplayError) as caught:
        replay(parse_phh(text))
    assert caught.value.code == "board_not_due"
    assert caught.value.detail == (
        "action 4 (d db 2c5d9h): No board card is due now: seat 2 is to act."
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(PokerkitHistory.loads(text))
    assert len(states[-1].board_cards) == 3  # pokerkit checked for p2 and dealt the flop


def test_history_that_stops_early_is_incomplete_and_the_decision_due_is_known():
    history = parse_phh(sample("stops_early.phh"))
    with pytest.raises(PhhError) as caught:
        verify(history)
    assert caught.value.code == "hand_incomplete"
    assert caught.value.detail == "The history stops before the hand is over: p3 is to act."
    assert decision(replay(history)) == {
        "actor": "p3",
        "can_fold": True,
        "can_check": False,
        "call": 100,
        "min_raise_to": 300,
        "max_raise_to": 500,
    }


def test_acting_out_of_turn_is_refused():
    history = parse_phh(sample("stops_early.phh"))
    history.actions.append("p4 f")
    with pytest.raises(ReplayError) as caught:
        replay(history)
    assert caught.value.code == "not_your_turn"


def test_stated_finishing_stacks_must_match():
    with pytest.raises(PhhError) as caught:
        verify(parse_phh(sample("finishing_stacks_mismatch.phh")))
    assert caught.value.code == "finishing_stacks_mismatch"


def test_no_raise_is_offered_when_no_opponent_has_chips_to_call_it():
    history = parse_phh(sample("heads_up.phh"))
    history.actions = ["p2 cbr 6", "p1 cbr 100"]  # p1 is all-in; p2 has 144 behind
    due = decision(replay(history))
    assert (due["call"], due["min_raise_to"], due["max_raise_to"]) == (94, None, None)
    history.actions.append("p2 cbr 150")
    with pytest.raises(ReplayError) as caught:
        replay(history)
    assert caught.value.code == "nobody_to_raise"


def test_a_player_with_only_enough_chips_to_call_cannot_raise():
    history = parse_phh(sample("heads_up.phh"))
    history.actions = ["p2 cbr 100", "p1 cbr 100"]  # p1 (98 behind) faces 98 more
    with pytest.raises(ReplayError) as caught:
        replay(history)
    assert caught.value.code == "not_enough_to_raise"


def test_no_limit_maximum_is_the_whole_stack():
    history = parse_phh(sample("stops_early.phh"))
    history.actions = ["p3 cbr 501"]
    with pytest.raises(ReplayError) as caught:
        replay(history)
    assert caught.value.code == "not_enough_chips"
    history.actions = ["p3 cbr 500"]
    assert replay(history).stacks[2] == 0


def test_cc_checks_or_calls_and_cbr_bets_or_raises_by_what_is_due():
    history = parse_phh(sample("heads_up.phh"))
    history.actions = ["p2 cc", "p1 cc", "d db 2c3d4h", "p1 cbr 4", "p2 cbr 12", "p1 cc"]
    state = replay(history)
    kinds = [a.kind.value for a in state.log]
    assert kinds == ["call", "check", "deal_board", "bet", "raise", "call"]


def test_commentary_and_empty_actions_are_no_ops():
    assert parse_action("", 3) is None
    assert parse_action("   # burn card exposed", 3) is None
    action = parse_action("p2  cbr   300   # a big raise", 3)
    assert action is not None
    assert (action.text, action.player, action.amount) == (
        "p2 cbr 300",
        1,
        300,
    )


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("p4 f", "bad_action"),
        ("p0 f", "bad_action"),
        ("x1 f", "bad_action"),
        ("p1 raise 300", "bad_action"),
        ("p1 cbr", "bad_action"),
        ("p1 cbr 2.5", "bad_action"),
        ("p1 cbr lots", "bad_action"),
        ("p1 f now", "bad_action"),
        ("p1 sm AsKsQs", "bad_action"),
        ("d dh p1", "bad_action"),
        ("d xx AsKs", "bad_action"),
        ("d db AsAs", "bad_card"),
        ("d dh p1 AsZz", "bad_card"),
        ("p1 pb", "unsupported_action"),
        ("p1 sd AsKs", "unsupported_action"),
    ],
)
def test_malformed_actions_are_refused_with_a_code(text, code):
    with pytest.raises(PhhError) as caught:
        parse_action(text, 3)
    assert caught.value.code == code


def test_whole_chip_amounts_may_be_written_as_floats():
    action = parse_action("p1 cbr 300.0", 3)
    assert action is not None
    assert action.amount == 300


# --- showing and mucking ---------------------------------------------------------------------


def _river_checked_down(*tail: str) -> HandHistory:
    history = parse_phh(sample("heads_up.phh"))
    history.actions = [
        "d dh p1 AsKs",
        "d dh p2 QhQd",
        "p2 cc",
        "p1 cc",
        "d db 2c3c4h",
        "p1 cc",
        "p2 cc",
        "d db 9s",
        "p1 cc",
        "p2 cc",
        "d db Td",
        "p1 cc",
        "p2 cc",
        *tail,
    ]
    history.finishing_stacks = None
    return history


def test_sm_with_cards_shows_and_bare_sm_mucks():
    state = verify(_river_checked_down("p1 sm AsKs", "p2 sm"))
    assert state.stacks == (102, 148)
    assert state.mucked == (False, True)


def test_sm_dash_shows_the_cards_dealt():
    state = verify(_river_checked_down("p1 sm -", "p2 sm -"))
    assert state.stacks == (98, 152)
    assert state.shown[1] == cards("QhQd")


def test_sm_with_unknown_cards_is_a_tabled_hand_so_the_winner_is_unknown_unlike_pokerkit():
    # Issue 13: `sm ????` was taken for a muck, so the known hand won. It is a hand tabled face
    # up whose cards the history does not know: nobody can say who won (pokerkit still pays the
    # known hand; docs/phh.md).
    history = _river_checked_down("p2 sm ????", "p1 sm AsKs")
    with pytest.raises(PhhError) as caught:
        verify(history)
    assert caught.value.code == "winner_unknown"
    assert pokerkit_stacks(dumps_phh(history)) == [[102, 148]]


def test_last_live_hand_may_still_show_after_the_pot_is_paid_as_pokerkit_expects():
    history = _river_checked_down("p2 sm", "p1 sm AsKs")
    assert verify(history).stacks == (102, 148)
    assert pokerkit_stacks(dumps_phh(history)) == [[102, 148]]


def test_showing_cards_other_than_those_dealt_is_refused():
    with pytest.raises(ReplayError) as caught:
        replay(_river_checked_down("p1 sm AsKd"))
    assert caught.value.code == "cards_conflict"


def test_showing_after_winning_uncontested_changes_nothing_but_a_folded_hand_cannot_show():
    # Issue 13: online histories record a winner showing after everyone folded; refusing it
    # refused the hand. The folded player still cannot show.
    history = parse_phh(sample("heads_up.phh"))
    history.actions.append("p2 sm ????")
    assert verify(history).stacks == (94, 156)
    history.actions[-1] = "p1 sm ????"
    with pytest.raises(ReplayError) as caught:
        replay(history)
    assert caught.value.code == "hand_over"


def test_showing_during_betting_is_refused():
    history = _river_checked_down()
    history.actions = [*history.actions[:8], "p1 sm AsKs"]  # the turn is being bet
    with pytest.raises(ReplayError) as caught:
        replay(history)
    assert caught.value.code == "not_showdown"


# --- field checks ----------------------------------------------------------------------------

BASE = """
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["p3 f", "p1 f"]
"""


def _edited(old: str, new: str) -> str:
    assert old in BASE
    return BASE.replace(old, new)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("variant = 'NT'\nantes = [0, 0\n", "bad_toml"),
        ("", "bad_field"),
        (_edited('variant = "NT"', 'variant = "PO"'), "unsupported_variant"),
        (_edited('variant = "NT"', 'variant = "XYZ"'), "unsupported_variant"),
        (_edited('variant = "NT"', "variant = 3"), "bad_field"),
        (_edited('variant = "NT"\n', ""), "bad_field"),
        (_edited("min_bet = 2\n", ""), "bad_field"),
        (_edited("min_bet = 2", "min_bet = 0"), "bad_field"),
        (_edited("min_bet = 2", "min_bet = 2\nsmall_bet = 2"), "bad_field"),
        (_edited("min_bet = 2", "min_bet = 2\nbring_in = 1"), "bad_field"),
        (_edited("antes = [0, 0, 0]", "antes = [0, 0]"), "bad_field"),
        (_edited("antes = [0, 0, 0]", "antes = 0"), "bad_field"),
        (_edited("antes = [0, 0, 0]\n", ""), "bad_field"),
        (
            _edited("blinds_or_straddles = [1, 2, 0]", "blinds_or_straddles = [1, -2, 0]"),
            "bad_field",
        ),
        (_edited("[100, 100, 100]", "[100, inf, 100]"), "bad_field"),
        (_edited("[100, 100, 100]", "[100, 0, 100]"), "bad_field"),
        (_edited("[100, 100, 100]", "[100, true, 100]"), "bad_field"),
        (_edited('actions = ["p3 f", "p1 f"]', 'actions = "p3 f"'), "bad_field"),
        (_edited('actions = ["p3 f", "p1 f"]', "actions = [1, 2]"), "bad_field"),
        (BASE + 'players = ["a", "b"]\n', "bad_field"),
        (BASE + "finishing_stacks = [1, 2, -3]\n", "bad_field"),
        (BASE + "ante_trimming_status = 1\n", "bad_field"),
    ],
)
def test_bad_toml_and_bad_fields_are_refused_with_a_code(text, code):
    with pytest.raises(PhhError) as caught:
        parse_phh(text)
    assert caught.value.code == code


def test_player_count_must_be_two_to_ten():
    one = (
        BASE.replace("[0, 0, 0]", "[0]")
        .replace("[1, 2, 0]", "[2]")
        .replace("[100, 100, 100]", "[100]")
    )
    with pytest.raises(PhhError, match="2 to 10"):
        parse_phh(one)


def test_fixed_limit_needs_small_and_big_bet_with_the_big_bet_twice_the_small():
    ft = BASE.replace('"NT"', '"FT"').replace("min_bet = 2", "small_bet = 2\nbig_bet = 4")
    assert parse_phh(ft).small_bet == 2
    with pytest.raises(PhhError, match="twice"):
        parse_phh(ft.replace("big_bet = 4", "big_bet = 5"))
    with pytest.raises(PhhError, match="min_bet"):
        parse_phh(ft + "min_bet = 2\n")


def test_integral_floats_are_whole_chips():
    history = parse_phh(_edited("min_bet = 2", "min_bet = 2.0"))
    assert history.min_bet == 2
    assert isinstance(history.min_bet, int)


def test_every_other_field_is_kept_and_written_back():
    text = sample("dwan_ivey_2009.phh") + (
        '_note = "line one\\nline \\"two\\""\n'
        "time = 20:15:00\n"
        "day = 2009-03-01\n"
        '"odd key" = {a = 1, b = [1.5, true]}\n'
    )
    history = parse_phh(text)
    assert list(history.extra) == ["event", "year", "currency", "_note", "time", "day", "odd key"]
    again = parse_phh(dumps_phh(history))
    assert again == history
    assert parse_phhs(dumps_phhs([history, history])) == [history, history]


# --- export ----------------------------------------------------------------------------------


def _round_trip(state: HandState) -> HandState:
    """Export, read back and replay under the hand's own rules: same finishing stacks."""
    text = state_to_phh(state)
    replayed = verify(parse_phh(text), state.setup.rules)
    assert replayed.stacks == state.stacks
    return replayed


def test_export_of_a_side_pot_hand_round_trips_and_agrees_with_pokerkit():
    rules = make_rules("casino_cash")
    holes = [cards(h) for h in ("7c3d", "AhAd", "KdKc", "QhJh", "8c8d", "9s9c")]
    state = start_hand(
        deal_setup(
            rules,
            Stakes(small_blind=50, big_blind=100),
            [1000, 2500, 600, 3000, 1500, 2000],
            holes=holes,
        )
    )
    state = play(
        state,
        all_in(),
        raise_to(1800),
        fold(),
        call(),
        fold(),
        call(),
        deal_board(cards("Ks9d4c")),
        all_in(),
        call(),
        all_in(),
        show(1),
        show(2),
        show(3),
        show(5),
        deal_board(cards("7h")),
        deal_board(cards("2s")),
    )
    assert state.stacks == (950, 1000, 2450, 500, 1500, 4200)
    text = state_to_phh(state)
    history = parse_phh(text)
    assert history.actions[:6] == [
        "d dh p1 7c3d",
        "d dh p2 AhAd",
        "d dh p3 KdKc",
        "d dh p4 QhJh",
        "d dh p5 8c8d",
        "d dh p6 9s9c",
    ]
    assert history.actions[6:8] == ["p3 cbr 600", "p4 cbr 1800"]
    assert "p6 cc" in history.actions[12:16]  # the short all-in call on the flop
    assert history.finishing_stacks == [950, 1000, 2450, 500, 1500, 4200]
    _round_trip(state)
    assert pokerkit_stacks(text) == [list(state.stacks)]


def test_export_of_fixed_limit_with_a_muck_round_trips_and_agrees_with_pokerkit():
    rules = make_rules("casino_cash", {"structure": "fixed_limit"})
    state = start_hand(
        deal_setup(
            rules,
            Stakes(small_blind=1, big_blind=2),
            [50, 50, 50],
            holes=[cards("AsAd"), cards("7c2d"), None],
        )
    )
    state = play(
        state,
        raise_to(4),
        call(),
        call(),
        deal_board(cards("Kh8h3c")),
        check(),
        bet(2),
        call(),
        fold(),
        deal_board(cards("4d")),
        check(),
        check(),
        deal_board(cards("Js")),
        bet(4),
        call(),
        show(1),
        muck(2),
    )
    text = state_to_phh(state)
    assert '"d dh p3 ????"' in text
    assert '"p3 sm"' in text
    _round_trip(state)
    assert pokerkit_stacks(text) == [list(state.stacks)]


def test_export_of_pot_limit_round_trips_and_agrees_with_pokerkit():
    rules = make_rules("casino_cash", {"structure": "pot_limit"})
    state = start_hand(
        deal_setup(
            rules,
            Stakes(small_blind=1, big_blind=2),
            [200, 200, 200],
            holes=[cards("8s8h"), cards("AcKc"), cards("JdJs")],
        )
    )
    pot = legal_actions(state)
    assert pot is not None
    assert pot.max_raise_to == 7
    state = play(
        state,
        raise_to(7),
        call(),
        raise_to(28),
        call(),
        fold(),
        deal_board(cards("Kd7c2h")),
        bet(63),
        all_in(),
        call(),
        show(1),
        show(2),
        deal_board(cards("4s")),
        deal_board(cards("9d")),
    )
    text = state_to_phh(state)
    assert 'variant = "PT"' in text
    _round_trip(state)
    assert pokerkit_stacks(text) == [[193, 407, 0]]


@pytest.mark.parametrize("posts", ["small", "big"])
def test_export_heads_up_writes_the_blinds_as_phh_reverses_them(posts):
    rules = make_rules("casino_cash", {"heads_up_button_posts": posts})
    state = start_hand(deal_setup(rules, Stakes(small_blind=1, big_blind=2), [100, 150]))
    state = play(state, raise_to(6), call(), deal_board(cards("Jh8c2d")), check(), bet(8), fold())
    history = history_from_state(state)
    assert history.effective_blinds == [p.blind for p in state.setup.players]
    assert history.blinds_or_straddles == ([1, 2] if posts == "small" else [2, 1])
    _round_trip(state)
    assert pokerkit_stacks(dumps_phh(history)) == [list(state.stacks)]


def test_export_of_a_straddle_and_antes_round_trips():
    rules = make_rules("casino_cash")
    setup = deal_setup(
        rules,
        Stakes(small_blind=1, big_blind=2, ante=1),
        [200] * 5,
        straddle=True,
        names=["A", "B", "C", "D", "E"],
    )
    state = play(
        start_hand(setup),
        call(),
        raise_to(12),
        fold(),
        fold(),
        call(),
        fold(),
        deal_board(cards("6c6d9h")),
        check(),
        bet(20),
        fold(),
    )
    history = history_from_state(state)
    assert history.blinds_or_straddles == [1, 2, 4, 0, 0]
    assert history.antes == [1] * 5
    assert history.ante_trimming_status is True
    assert history.players == ["A", "B", "C", "D", "E"]
    _round_trip(state)
    assert pokerkit_stacks(dumps_phh(history)) == [list(state.stacks)]


def test_export_of_an_unfinished_hand_replays_to_the_same_decision():
    rules = make_rules("casino_cash")
    state = start_hand(
        deal_setup(rules, Stakes(small_blind=50, big_blind=100), [1000, 1000, 500, 1000])
    )
    state = play(state, call(), call(), call(), raise_to(200))
    history = history_from_state(state)
    assert history.finishing_stacks is None
    assert decision(replay(history)) == decision(state)


def test_export_keeps_a_chip_unit_other_than_one_in_a_user_field():
    rules = make_rules("casino_cash")
    state = start_hand(
        deal_setup(rules, Stakes(small_blind=5, big_blind=10, unit=5), [100, 100, 100])
    )
    state = play(state, fold(), fold())
    history = parse_phh(state_to_phh(state))
    assert history.extra["_unit"] == 5
    assert history_to_setup(history).unit == 5


@pytest.mark.parametrize(
    "finish",
    [
        lambda s: apply(s, kill(2)),
        lambda s: apply(s, misdeal()),
    ],
)
def test_export_refuses_what_phh_cannot_say(finish):
    rules = make_rules("casino_cash")
    state = finish(
        start_hand(deal_setup(rules, Stakes(small_blind=1, big_blind=2), [100, 100, 100]))
    )
    with pytest.raises(PhhError) as caught:
        state_to_phh(state)
    assert caught.value.code == "not_representable"


def test_export_refuses_a_board_claim():
    rules = make_rules("casino_cash", {"play_board_claim": "declare_then_muck"})
    state = start_hand(deal_setup(rules, Stakes(small_blind=1, big_blind=2), [100, 100]))
    state = play(
        state,
        call(),
        check(),
        deal_board(cards("AsKsQs")),
        check(),
        check(),
        deal_board(cards("Js")),
        check(),
        check(),
        deal_board(cards("Ts")),
        check(),
        check(),
        claim_board(0),
    )
    with pytest.raises(PhhError) as caught:
        state_to_phh(state)
    assert caught.value.code == "not_representable"


def test_export_refuses_texas_6plus():
    rules = make_rules("texas_6plus")
    state = start_hand(deal_setup(rules, Stakes(small_blind=1, big_blind=2), [100, 100, 100]))
    with pytest.raises(PhhError) as caught:
        state_to_phh(state)
    assert caught.value.code == "unsupported_variant"


def test_export_writes_late_hole_cards_first():
    rules = make_rules("casino_cash")
    state = start_hand(deal_setup(rules, Stakes(small_blind=1, big_blind=2), [100, 100, 100]))
    state = play(state, fold(), deal_hole(0, cards("AsKs")), fold())
    history = history_from_state(state)
    assert history.actions == ["d dh p1 AsKs", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 f"]


# --- CLI -------------------------------------------------------------------------------------


def run_cli(*args: str) -> tuple[int, list[dict[str, Any]]]:
    completed = subprocess.run(
        [sys.executable, "-m", "dealer.engine.phh", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.stderr == ""
    return completed.returncode, [json.loads(line) for line in completed.stdout.splitlines()]


def test_cli_replay_prints_one_json_line_per_hand_and_exits_1_when_one_is_not_ok():
    ok = str(SAMPLES / "nt_6max_side_pots.phh")
    bad = str(SAMPLES / "illegal_min_raise.phh")
    code, lines = run_cli("replay", ok, bad)
    assert code == 1
    assert lines == [
        {
            "file": ok,
            "index": 0,
            "ok": True,
            "finishing_stacks": [950, 1000, 2450, 500, 1500, 4200],
        },
        {
            "file": bad,
            "index": 0,
            "ok": False,
            "error": {
                "code": "below_minimum",
                "detail": "action 5 (p3 cbr 150): Raise to 150 is below the minimum raise to 200.",
            },
        },
    ]


def test_cli_replay_exits_0_when_every_hand_is_ok():
    multi = str(SAMPLES / "two_hands.phhs")
    code, lines = run_cli("replay", multi, str(SAMPLES / "ft_hand.phh"))
    assert code == 0
    assert [(line["index"], line["ok"]) for line in lines] == [(0, True), (1, True), (0, True)]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("bad_toml.phh", "bad_toml"),
        ("unknown_variant.phh", "unsupported_variant"),
        ("stops_early.phh", "hand_incomplete"),
        ("missing_action.phh", "board_not_due"),
        ("finishing_stacks_mismatch.phh", "finishing_stacks_mismatch"),
        ("no_such_file.phh", "unreadable_file"),
    ],
)
def test_cli_replay_reports_each_kind_of_failure_by_code(name, code):
    status, lines = run_cli("replay", str(SAMPLES / name))
    assert status == 1
    assert len(lines) == 1
    assert lines[0]["ok"] is False
    assert lines[0]["error"]["code"] == code
    assert set(lines[0]) == {"file", "index", "ok", "error"}


def test_cli_legal_prints_the_decision_due_where_the_history_stops():
    code, lines = run_cli("legal", str(SAMPLES / "stops_early.phh"))
    assert code == 0
    assert lines == [
        {
            "actor": "p3",
            "can_fold": True,
            "can_check": False,
            "call": 100,
            "min_raise_to": 300,
            "max_raise_to": 500,
        }
    ]


def test_cli_legal_gives_null_raise_bounds_when_no_raise_is_possible(tmp_path):
    history = parse_phh(sample("heads_up.phh"))
    history.actions = ["p2 cbr 100"]
    history.finishing_stacks = None
    path = tmp_path / "all_in.phh"
    path.write_text(dumps_phh(history), encoding="utf-8")
    code, lines = run_cli("legal", str(path))
    assert code == 0
    assert lines == [
        {
            "actor": "p1",
            "can_fold": True,
            "can_check": False,
            "call": 98,
            "min_raise_to": None,
            "max_raise_to": None,
        }
    ]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("heads_up.phh", "hand_over"),
        ("illegal_min_raise.phh", "below_minimum"),
        ("bad_toml.phh", "bad_toml"),
    ],
)
def test_cli_legal_prints_a_json_error_and_exits_1_when_no_decision_is_due(name, code):
    path = str(SAMPLES / name)
    status, lines = run_cli("legal", path)
    assert status == 1
    assert lines[0]["file"] == path
    assert lines[0]["ok"] is False
    assert lines[0]["error"]["code"] == code


def test_legal_names_the_board_or_showdown_that_is_due():
    history = _river_checked_down()
    with pytest.raises(PhhError) as caught:
        decision(replay(history))
    assert caught.value.code == "showdown_due"
    history.actions = history.actions[:4]
    with pytest.raises(PhhError) as caught:
        decision(replay(history))
    assert caught.value.code == "board_due"
    assert caught.value.detail == "No betting decision is due: the flop (3 cards) is to be dealt."


# --- engine fixes found through PHH ----------------------------------------------------------

BB_ANTE_CALL = """
variant = "NT"
antes = [0, 50, 0]
blinds_or_straddles = [25, 50, 0]
min_bet = 50
starting_stacks = [1000, 1000, 1000]
actions = ["p3 cbr 150", "p1 f", "p2 cc", "d db 2c7d9h", "p2 cc", "p3 cbr 200", "p2 f"]
"""


def test_big_blind_ante_is_never_returned_as_an_uncalled_bet():
    # Engine fix (hand.py `_return_uncalled`): the uncalled part of a bet is measured on this
    # street's bets. Measured on total contributions, the big blind's ante made its call look
    # bigger than the raise, and 50 chips went back to the big blind.
    state = verify(parse_phh(BB_ANTE_CALL))
    assert state.stacks == (975, 800, 1225)
    assert pokerkit_stacks(BB_ANTE_CALL) == [[975, 800, 1225]]


def test_big_blind_ante_call_keeps_the_ante_in_the_pot_in_the_engine():
    rules = make_rules("tda_tournament", {"bb_ante": True})
    setup = deal_setup(rules, Stakes(small_blind=25, big_blind=50, ante=50), [1000] * 3)
    state = play(start_hand(setup), raise_to(150), fold(), call())
    assert state.phase == Phase.DEALING
    assert state.contributed == (25, 150, 150)
    assert state.dead == 50
    assert state.stacks == (975, 800, 850)


def test_t_big_blind_ante_is_dead_money_so_a_caller_can_win_the_main_pot():
    """The big-blind ante is paid for the table: it joins the main pot as dead money and does not
    count in the all-in big blind's layer (a caller who matched every bet contests the main pot)."""
    text = """
variant = "NT"
antes = [0, 50, 0]
blinds_or_straddles = [25, 50, 0]
min_bet = 50
starting_stacks = [1000, 500, 1000]
actions = ["d dh p1 ????", "d dh p2 9d9c", "d dh p3 AcKc", "p3 cbr 150", "p1 f",
           "p2 cbr 450", "p3 cc", "p2 sm 9d9c", "p3 sm AcKc", "d db 2c8cTh", "d db Ah", "d db 6d"]
"""
    assert pokerkit_stacks(text) == [[975, 0, 1525]]
    assert verify(parse_phh(text)).stacks == (975, 0, 1525)
