"""RULES.md section 8: the dealer-error procedures and the engine actions that carry them out."""

from __future__ import annotations

from typing import Any

import pytest

from dealer.engine import (
    HandState,
    Kind,
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
from dealer.engine.hand import threshold_passed
from dealer.engine.ledger import stub_count
from dealer.engine.phh import PhhError, state_to_phh
from dealer.engine.procedures import TRIGGER_LABELS, Effect, Remedy, Trigger, remedy
from dealer.engine.triggers import TRIGGERS, Group, PlayerNeed
from tests.engine.scripted import play

R_ONLY = [
    Trigger.CARD_OUT_OF_ORDER,
    Trigger.BUTTON_OUT_OF_PLACE,
    Trigger.FIRST_CARD_TO_WRONG_SEAT,
    Trigger.EMPTY_OR_INELIGIBLE_SEAT_DEALT_IN,
    Trigger.ELIGIBLE_PLAYER_DEALT_OUT,
]


def hand(
    stacks: list[int] | None = None, *, profile: str = "casino_cash", ante: int = 0, **options: Any
) -> HandState:
    rules = make_rules(profile, options)
    stakes = Stakes(small_blind=5, big_blind=10, ante=ante)
    return start_hand(deal_setup(rules, stakes, stacks or [100] * 4))


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


# --- remedy(): helpers ---------------------------------------------------------------------------

MISDEAL_TRIGGERS = [
    Trigger.TWO_OR_MORE_EXPOSED_ON_DEAL,
    Trigger.TWO_OR_MORE_BOXED_CARDS,
    Trigger.TWO_OR_MORE_EXTRA_CARDS,
    *R_ONLY,
]


def carried_out(state: HandState, remedy_: Remedy) -> HandState:
    for action in remedy_.actions:
        state = apply(state, action)
    return state


def assert_void(state: HandState, remedy_: Remedy) -> None:
    assert remedy_.effect == Effect.VOID_HAND
    assert [a.kind for a in remedy_.actions] == [Kind.MISDEAL]
    after = carried_out(state, remedy_)
    assert after.phase == Phase.VOID
    assert after.finishing_stacks == after.starting_stacks


def assert_dead(state: HandState, remedy_: Remedy, player: int) -> None:
    assert remedy_.effect == Effect.DEAD_HAND
    assert remedy_.actions == (kill(player, TRIGGER_LABELS[remedy_.trigger]),)
    after = carried_out(state, remedy_)
    assert after.folded[player]
    assert after.contributed[player] == state.contributed[player]
    assert after.pot_total == state.pot_total


def assert_nothing_recorded(state: HandState, remedy_: Remedy, effect: Effect) -> None:
    assert remedy_.effect == effect
    assert remedy_.actions == ()
    assert carried_out(state, remedy_) is state


def assert_cards_recorded(state: HandState, remedy_: Remedy, effect: Effect, kind: Kind) -> None:
    """The remedy records where the cards went (the ledger), and no chip moves."""
    assert remedy_.effect == effect
    assert [action.kind for action in remedy_.actions] == [kind]
    after = carried_out(state, remedy_)
    assert after.stacks == state.stacks
    assert after.pot_total == state.pot_total
    assert stub_count(after) < stub_count(state)  # the cards left the stub


def text(remedy_: Remedy) -> str:
    return " ".join(remedy_.steps)


# --- misdeal triggers: void before the threshold, play on after it ------------------------------


@pytest.mark.parametrize("trigger", MISDEAL_TRIGGERS)
def test_t_misdeal_triggers_void_the_hand_before_the_threshold(trigger: Trigger) -> None:
    state = play(hand(ante=1), "r30")  # one action in turn: the threshold has not passed
    found = remedy(state, trigger)
    assert_void(state, found)
    assert "action_threshold=two_acted" in (found.option or "")
    assert "same button" in text(found)


@pytest.mark.parametrize("trigger", [Trigger.TWO_OR_MORE_EXPOSED_ON_DEAL, *R_ONLY])
def test_r_no_misdeal_after_the_threshold_play_goes_on(trigger: Trigger) -> None:
    state = play(hand(), "c c")
    found = remedy(state, trigger)
    assert_nothing_recorded(state, found, Effect.NONE)
    assert found.steps[0].startswith("Too late for a misdeal: two players have acted")


def test_r_two_boxed_cards_after_the_threshold_are_each_replaced() -> None:
    state = play(hand(), "c c")
    found = remedy(state, Trigger.TWO_OR_MORE_BOXED_CARDS)
    assert_cards_recorded(state, found, Effect.REPLACE_CARD, Kind.SET_ASIDE)
    assert "scrap paper" in text(found)


def test_s2_two_extra_cards_after_the_threshold_kill_the_named_hand() -> None:
    state = play(hand(), "c c")
    with pytest.raises(RuleViolation) as refused:
        remedy(state, Trigger.TWO_OR_MORE_EXTRA_CARDS)
    assert refused.value.code == "player_required"
    assert_dead(state, remedy(state, Trigger.TWO_OR_MORE_EXTRA_CARDS, player=0), 0)


def test_t36_tda_substantial_threshold_decides_the_misdeal() -> None:
    state = play(hand([100] * 5, profile="tda_tournament"), "f f")  # two folds: not substantial
    found = remedy(state, Trigger.TWO_OR_MORE_EXPOSED_ON_DEAL)
    assert_void(state, found)
    assert "action_threshold=tda_substantial" in (found.option or "")
    state = play(hand([100] * 5, profile="tda_tournament"), "f c")  # chips went in
    late = remedy(state, Trigger.TWO_OR_MORE_EXPOSED_ON_DEAL)
    assert_nothing_recorded(state, late, Effect.NONE)
    assert "substantial action" in late.steps[0]


@pytest.mark.parametrize("trigger", R_ONLY)
def test_r_only_triggers_need_r_misdeal_triggers(trigger: Trigger) -> None:
    state = play(hand(r_misdeal_triggers=False), "c")
    found = remedy(state, trigger)
    assert_nothing_recorded(state, found, Effect.NONE)
    assert found.option is not None
    assert "r_misdeal_triggers=false" in found.option
    assert "call the floor" in text(found)


def test_r_two_boxed_cards_without_r_triggers_are_scrap_paper() -> None:
    state = play(hand(r_misdeal_triggers=False), "c")
    found = remedy(state, Trigger.TWO_OR_MORE_BOXED_CARDS)
    assert_cards_recorded(state, found, Effect.REPLACE_CARD, Kind.SET_ASIDE)
    assert "r_misdeal_triggers=false" in (found.option or "")


def test_s2_two_extra_cards_without_r_triggers_still_a_wrong_count_misdeal() -> None:
    state = play(hand(r_misdeal_triggers=False), "c")
    found = remedy(state, Trigger.TWO_OR_MORE_EXTRA_CARDS)
    assert_void(state, found)
    assert found.rule == "S2"


# --- exposed hole cards (early_exposed_misdeal) -------------------------------------------------

EXPOSED_CASES = [
    ("first", Trigger.FIRST_HOLE_CARD_EXPOSED, Effect.VOID_HAND, "S4"),
    ("first", Trigger.SECOND_HOLE_CARD_EXPOSED, Effect.REPLACE_CARD, "S2, S4"),
    ("first_or_second", Trigger.FIRST_HOLE_CARD_EXPOSED, Effect.VOID_HAND, "R"),
    ("first_or_second", Trigger.SECOND_HOLE_CARD_EXPOSED, Effect.VOID_HAND, "R"),
    ("none", Trigger.FIRST_HOLE_CARD_EXPOSED, Effect.REPLACE_CARD, "S2"),
    ("none", Trigger.SECOND_HOLE_CARD_EXPOSED, Effect.REPLACE_CARD, "S2, S4"),
]


@pytest.mark.parametrize(("setting", "trigger", "effect", "rule"), EXPOSED_CASES)
def test_x6_early_exposed_card_follows_early_exposed_misdeal(
    setting: str, trigger: Trigger, effect: Effect, rule: str
) -> None:
    state = hand(early_exposed_misdeal=setting)
    found = remedy(state, trigger, player=0)
    assert (found.effect, found.rule) == (effect, rule)
    assert found.option is not None
    assert f"early_exposed_misdeal={setting}" in found.option
    if effect == Effect.VOID_HAND:
        assert_void(state, found)
        assert found.steps[0] == "Take the exposed card back."
    else:
        assert_cards_recorded(state, found, Effect.REPLACE_CARD, Kind.BURN)
        assert "burn card for the flop" in text(found)


def test_s2_other_exposed_card_is_replaced_and_becomes_the_burn() -> None:
    state = hand()
    found = remedy(state, Trigger.OTHER_HOLE_CARD_EXPOSED, player=2)
    assert_cards_recorded(state, found, Effect.REPLACE_CARD, Kind.BURN)
    assert found.steps == (
        "Finish the deal; seat 3 may not keep the exposed card.",
        "Give seat 3 the top card of the stub in its place.",
        "Put the exposed card face up on top of the stub.",
        "When the preflop betting is over, use the exposed card as the burn card for the flop.",
    )
    assert found.player == 2


def test_s2_replaced_card_entered_is_forgotten_so_the_new_one_can_be_entered() -> None:
    state = apply(hand(), deal_hole(2, parse_cards("Qs 7d")))
    found = remedy(state, Trigger.OTHER_HOLE_CARD_EXPOSED, player=2, details={"card": "7d"})
    assert found.effect == Effect.REPLACE_CARD
    after = carried_out(state, found)
    assert after.holes[2] == (parse_cards("Qs")[0], None)
    assert after.stacks == state.stacks
    after = apply(after, deal_hole(2, parse_cards("Qs 2c")))
    assert after.holes[2] == parse_cards("Qs 2c")


def test_r_card_a_player_exposes_himself_still_plays() -> None:
    state = play(hand(), "c")
    found = remedy(state, Trigger.PLAYER_EXPOSED_OWN_CARD, player=2)
    assert_nothing_recorded(state, found, Effect.NONE)
    assert found.rule == "R"


# --- boxed cards and jokers ----------------------------------------------------------------------


@pytest.mark.parametrize("trigger", [Trigger.BOXED_CARD, Trigger.JOKER_FACE_UP])
def test_s2_boxed_card_or_joker_face_up_is_scrap_paper(trigger: Trigger) -> None:
    state = play(hand(), "c c c")  # never a misdeal, before or after the threshold
    found = remedy(state, trigger)
    if trigger == Trigger.BOXED_CARD:  # a card of the deck leaves play; a joker is not one
        assert_cards_recorded(state, found, Effect.REPLACE_CARD, Kind.SET_ASIDE)
    else:
        assert_nothing_recorded(state, found, Effect.REPLACE_CARD)
    assert "scrap paper" in text(found)
    assert "The next card in the stub takes its place." in found.steps


def test_s2_joker_dealt_face_down_is_replaced_if_reported_before_acting() -> None:
    state = play(hand(), "c")  # the button (index 3) has not acted yet
    found = remedy(state, Trigger.JOKER_FACE_DOWN, player=3)
    assert_nothing_recorded(state, found, Effect.REPLACE_CARD)
    assert "never a misdeal" in text(found)


def test_s2_joker_holder_who_acted_first_has_a_fouled_hand() -> None:
    state = play(hand(), "r30 c")
    found = remedy(state, Trigger.JOKER_FACE_DOWN, player=2)
    assert found.rule == "S2"
    assert_dead(state, found, 2)
    assert carried_out(state, found).contributed[2] == 30  # he loses every chip he put in
    said = remedy(play(hand(), "c"), Trigger.JOKER_FACE_DOWN, player=2, details={"acted": True})
    assert said.effect == Effect.DEAD_HAND


def test_joker_face_down_needs_the_player() -> None:
    with pytest.raises(RuleViolation) as refused:
        remedy(hand(), Trigger.JOKER_FACE_DOWN)
    assert refused.value.code == "player_required"


# --- wrong number of hole cards (allow_short_card_fix) ------------------------------------------


def test_s2_wrong_card_count_before_the_threshold_is_a_misdeal() -> None:
    state = play(hand(), "c")
    found = remedy(state, Trigger.WRONG_HOLE_CARD_COUNT, player=1, details={"count": "too_many"})
    assert found.rule == "S2"
    assert_void(state, found)


def test_s2_wrong_card_count_after_the_threshold_kills_that_hand() -> None:
    state = play(hand(), "r30 c")
    found = remedy(state, Trigger.WRONG_HOLE_CARD_COUNT, player=1, details={"count": "too_many"})
    assert_dead(state, found, 1)
    after = carried_out(state, found)
    assert after.contributed[1] == 10  # the big blind forfeits his blind
    assert after.actor == 0  # play goes on: the small blind is next


def test_t_short_button_takes_the_top_card_before_acting() -> None:
    state = play(hand([100] * 5), "c c")  # past the threshold; the button (index 4) to act
    assert state.actor == 4
    found = remedy(state, Trigger.WRONG_HOLE_CARD_COUNT, player=4, details={"count": "too_few"})
    assert found.option == "allow_short_card_fix=true"
    assert found.rule == "R; T"
    assert_nothing_recorded(state, found, Effect.REPLACE_CARD)
    assert "top card of the stub" in found.steps[0]


def test_t_short_card_fix_off_makes_a_short_button_a_misdeal() -> None:
    state = play(hand(allow_short_card_fix=False), "c")
    found = remedy(state, Trigger.WRONG_HOLE_CARD_COUNT, player=3, details={"count": "too_few"})
    assert_void(state, found)
    assert "allow_short_card_fix=false" in (found.option or "")
    assert "allow_short_card_fix=false" in found.steps[0]


def test_t_short_card_fix_is_for_the_button_only() -> None:
    state = play(hand(), "c")
    found = remedy(state, Trigger.WRONG_HOLE_CARD_COUNT, player=0, details={"count": "too_few"})
    assert_void(state, found)
    assert found.steps[0] == "Only the button may take a missing card, before acting (T)."


def test_t_short_button_who_acted_has_a_dead_hand_after_the_threshold() -> None:
    state = play(hand(), "c c c")
    found = remedy(state, Trigger.WRONG_HOLE_CARD_COUNT, player=3, details={"count": "too_few"})
    assert_dead(state, found, 3)


def test_wrong_card_count_needs_the_player_and_the_count() -> None:
    with pytest.raises(RuleViolation) as refused:
        remedy(hand(), Trigger.WRONG_HOLE_CARD_COUNT, details={"count": "too_few"})
    assert refused.value.code == "player_required"
    with pytest.raises(RuleViolation) as refused:
        remedy(hand(), Trigger.WRONG_HOLE_CARD_COUNT, player=1)
    assert refused.value.code == "details_required"
    with pytest.raises(RuleViolation) as refused:
        remedy(hand(), Trigger.WRONG_HOLE_CARD_COUNT, player=1, details={"count": "three"})
    assert refused.value.code == "bad_details"


def test_r_one_extra_card_around_is_taken_back_as_the_burn() -> None:
    state = play(hand(), "c")
    found = remedy(state, Trigger.EXTRA_CARD_DEALT_AROUND)
    assert found.player == 0  # the first player dealt got the third card
    assert found.rule == "R"
    assert_cards_recorded(state, found, Effect.REPLACE_CARD, Kind.BURN)
    assert "burn card for the flop" in text(found)


def test_r_extra_card_found_after_the_threshold_kills_the_first_players_hand() -> None:
    state = play(hand(), "c c")
    assert_dead(state, remedy(state, Trigger.EXTRA_CARD_DEALT_AROUND), 0)


# --- board cards (redeal_cut, premature_river_burn) ---------------------------------------------


def test_s2_flop_with_too_many_cards_not_entered_is_redealt_with_no_engine_change() -> None:
    state = play(hand(), "c c c x")  # the flop is due; the engine takes only three cards
    found = remedy(state, Trigger.FLOP_TOO_MANY_CARDS)
    assert_nothing_recorded(state, found, Effect.NONE)
    assert "even if the extra card is known (S4)" in found.steps[0]
    assert "Deal three new flop cards with no new burn: the first burn card stays." in found.steps


def test_s4_flop_found_wrong_after_entry_is_taken_back_and_redealt() -> None:
    state = play(hand(), "c c c x | /As Kd 7c")
    found = remedy(state, Trigger.FLOP_TOO_MANY_CARDS)
    assert found.effect == Effect.RESHUFFLE_BOARD
    assert [a.kind for a in found.actions] == [Kind.TAKE_BACK_BOARD]
    after = carried_out(state, found)
    assert (after.phase, after.street, after.board) == (Phase.DEALING, 0, ())
    assert after.pot_total == state.pot_total
    assert play(after, "/As Kd 7c").board == state.board  # the same cards may come again


def test_flop_stands_once_betting_on_it_has_started() -> None:
    state = play(hand(), "c c c x | /As Kd 7c | b20")
    found = remedy(state, Trigger.FLOP_TOO_MANY_CARDS)
    assert_nothing_recorded(state, found, Effect.NONE)
    assert found.title == "The flop stands"


@pytest.mark.parametrize(("cut", "words"), [(True, "shuffle and cut"), (False, "with no cut")])
def test_x18_redeal_cut_decides_the_cut_of_every_redeal(cut: bool, words: str) -> None:
    preflop = play(hand(redeal_cut=cut), "c")
    flop = play(preflop, "c c x | /As Kd 7c | x")
    turn = play(flop, "x x x | /2h | x")
    for state, trigger in [
        (preflop, Trigger.PREMATURE_FLOP),
        (preflop, Trigger.CARDS_EXPOSED_BEFORE_FLOP),
        (play(preflop, "c c x"), Trigger.FLOP_TOO_MANY_CARDS),
        (flop, Trigger.PREMATURE_TURN),
        (turn, Trigger.PREMATURE_RIVER),
    ]:
        found = remedy(state, trigger)
        assert words in text(found), trigger
        assert f"redeal_cut={str(cut).lower()}" in (found.option or ""), trigger


def test_s2_premature_flop_is_set_aside_and_redealt_after_the_betting() -> None:
    state = play(hand(), "c c")  # preflop betting unfinished
    found = remedy(state, Trigger.PREMATURE_FLOP)
    assert_cards_recorded(state, found, Effect.SET_ASIDE, Kind.PREMATURE)
    assert found.steps[:2] == (
        "Set the flop cards aside: they are not in play.",
        "Finish the preflop betting.",
    )
    assert "no new burn" in text(found)
    # The dealer finishes the betting and enters the new flop as usual.
    assert play(carried_out(state, found), "c x | /2c 3c 4c").street == 1


def test_premature_flop_after_the_preflop_betting_is_just_the_flop() -> None:
    state = play(hand(), "c c c x")
    found = remedy(state, Trigger.PREMATURE_FLOP)
    assert_nothing_recorded(state, found, Effect.NONE)
    assert found.title == "The flop is due"


@pytest.mark.parametrize(
    ("burn", "river"),
    [(False, "Deal the river with no burn."), (True, "Burn one card, then deal the river.")],
)
def test_s2_premature_turn_the_next_card_is_the_turn_and_the_river_is_reshuffled(
    burn: bool, river: str
) -> None:
    state = play(hand(premature_river_burn=burn), "c c c x | /As Kd 7c | b20")
    found = remedy(state, Trigger.PREMATURE_TURN)
    assert_cards_recorded(state, found, Effect.SET_ASIDE, Kind.PREMATURE)
    assert found.steps[0].startswith("Take the card out of play; it stays out")
    assert "it would have been the river" in found.steps[2]
    assert river in found.steps
    assert f"premature_river_burn={str(burn).lower()}" in (found.option or "")


@pytest.mark.parametrize(
    ("burn", "river"),
    [(False, "Deal the river with no burn."), (True, "Burn one card, then deal the river.")],
)
def test_s2_premature_river_is_shuffled_back(burn: bool, river: str) -> None:
    state = play(hand(premature_river_burn=burn), "c c c x | /As Kd 7c | x x x x | /2h | x")
    found = remedy(state, Trigger.PREMATURE_RIVER)
    assert_cards_recorded(state, found, Effect.SET_ASIDE, Kind.PREMATURE)
    assert found.steps[1] == "Finish the turn betting."
    assert river in found.steps


def test_premature_turn_is_not_early_once_entered() -> None:
    state = play(hand(), "c c c x | /As Kd 7c | x x x x | /2h")
    found = remedy(state, Trigger.PREMATURE_TURN)
    assert_nothing_recorded(state, found, Effect.NONE)
    assert found.title == "The turn is not early"


def test_r_burn_error_found_before_the_streets_betting_is_corrected() -> None:
    state = play(hand(), "c c c x | /As Kd 7c | x x x x | /2h")
    found = remedy(state, Trigger.MISSED_OR_DOUBLE_BURN, details={"burn": "missed"})
    assert found.effect == Effect.RESHUFFLE_BOARD
    assert found.steps[0].startswith("Put the turn cards back on top of the stub")
    after = carried_out(state, found)
    assert (after.phase, after.street, after.board) == (Phase.DEALING, 1, state.board[:3])
    assert play(after, "/2h").board == state.board


def test_r_burn_error_found_after_the_streets_betting_stands() -> None:
    state = play(hand(), "c c c x | /As Kd 7c | x")
    found = remedy(state, Trigger.MISSED_OR_DOUBLE_BURN, details={"burn": "double"})
    assert found.effect == Effect.SET_ASIDE
    assert [action.kind for action in found.actions] == [Kind.BURN]
    assert found.steps[-1] == "Deal the next street with no burn."
    # The ledger follows: the turn comes with no burn, so one burn card in all (the flop's).
    after = play(carried_out(state, found), "x x x | /2h")
    assert len(after.burns) == 1
    missed = remedy(state, Trigger.MISSED_OR_DOUBLE_BURN, details={"burn": "missed"})
    after = play(carried_out(state, missed), "x x x | /2h")
    assert len(after.burns) == 3  # R: burn two cards before the next street


def test_r_burn_error_before_the_flop_is_fixed_at_the_stub() -> None:
    state = play(hand(), "c c c x")
    found = remedy(state, Trigger.MISSED_OR_DOUBLE_BURN)
    assert_nothing_recorded(state, found, Effect.NONE)
    assert found.steps[0] == "If a burn was missed, burn one card before dealing the flop."


def test_r_cards_exposed_before_the_flop_are_reshuffled() -> None:
    state = play(hand(), "c")
    found = remedy(state, Trigger.CARDS_EXPOSED_BEFORE_FLOP)
    assert_nothing_recorded(state, found, Effect.NONE)
    assert found.rule == "R"
    assert "Mix the exposed cards with the stub" in text(found)


# --- every trigger ------------------------------------------------------------------------------

DETAILS: dict[Trigger, dict[str, object]] = {
    Trigger.WRONG_HOLE_CARD_COUNT: {"count": "too_many"},
    Trigger.ACTED_OUT_OF_TURN: {"action": "check_call"},
}
SCRIPTS = [
    "",
    "c",
    "c c",
    "c c c x",
    "c c c x | /As Kd 7c",
    "c c c x | /As Kd 7c | b20",
    "c c c x | /As Kd 7c | x x x x | /2h",
    "c c c x | /As Kd 7c | x x x x | /2h | x x x x | /3d | x",
]


@pytest.mark.parametrize("trigger", list(Trigger))
def test_every_trigger_has_a_remedy_whose_actions_apply(trigger: Trigger) -> None:
    """In every phase of a hand: the actions are accepted and do what the effect says."""
    assert trigger in TRIGGER_LABELS
    for script in SCRIPTS:
        state = play(hand(), script)
        if trigger == Trigger.FLOOR_MISDEAL and threshold_passed(state):
            # The floor's misdeal is refused once the threshold is passed (T; RULES.md 5.6).
            with pytest.raises(RuleViolation) as refused:
                remedy(state, trigger)
            assert refused.value.code == "misdeal_too_late"
            continue
        out_of_turn = state.phase != Phase.BETTING or state.actor == 2
        if trigger == Trigger.ACTED_OUT_OF_TURN and (out_of_turn or not state.needs_to_act(2)):
            # Only a player who still owes a decision, while another is to act, acts out of
            # turn (T 53-A): the remedy refuses it otherwise, as the engine would.
            with pytest.raises(RuleViolation) as refused:
                remedy(state, trigger, player=2, details=DETAILS[trigger])
            assert refused.value.code in {"not_betting", "in_turn", "nothing_to_decide"}
            continue
        found = remedy(state, trigger, player=2, details=DETAILS.get(trigger))
        assert found.trigger == trigger
        assert found.steps
        assert all(step.endswith(".") and step[0].isupper() for step in found.steps)
        assert found.rule
        after = carried_out(state, found)
        kinds = [a.kind for a in found.actions]
        expected = {
            Effect.VOID_HAND: [Kind.MISDEAL],
            Effect.DEAD_HAND: [Kind.KILL],
            Effect.RESHUFFLE_BOARD: [Kind.TAKE_BACK_BOARD],
            Effect.BACK_UP: [Kind.OUT_OF_TURN],
            Effect.NONE: [],
        }
        if found.effect in (Effect.REPLACE_CARD, Effect.SET_ASIDE):
            # The ledger records where the cards went; no chip moves.
            assert kinds in ([], [Kind.BURN], [Kind.SET_ASIDE], [Kind.PREMATURE])
            assert after.stacks == state.stacks
        else:
            assert kinds == expected[found.effect], (script, found)
        if found.effect == Effect.RESHUFFLE_BOARD:
            assert len(after.board) < len(state.board)
            assert after.phase == Phase.DEALING


def test_remedy_refuses_a_finished_hand_and_a_bad_player() -> None:
    over = play(hand(), "f f f")
    with pytest.raises(RuleViolation) as refused:
        remedy(over, Trigger.BOXED_CARD)
    assert refused.value.code == "hand_over"
    with pytest.raises(RuleViolation) as refused:
        remedy(hand(), Trigger.JOKER_FACE_DOWN, player=7)
    assert refused.value.code == "bad_player"
    with pytest.raises(RuleViolation) as refused:
        remedy(hand(), "spilled_drink")  # type: ignore[arg-type]
    assert refused.value.code == "unknown_trigger"
    assert remedy(hand(), "boxed_card").trigger == Trigger.BOXED_CARD  # type: ignore[arg-type]


def test_remedy_steps_read_as_a_numbered_list() -> None:
    found = remedy(play(hand(), "c"), Trigger.TWO_OR_MORE_EXPOSED_ON_DEAL)
    lines = found.numbered().splitlines()
    assert (
        lines[0] == "1. Stop play: this is a misdeal (two or more hole cards exposed on the deal)."
    )
    assert len(lines) == len(found.steps)


def test_a_hand_with_a_take_back_is_not_exported_to_phh() -> None:
    state = play(apply(play(hand(), "c c c x | /As Kd 7c"), take_back_board()), "/As Kd 7c")
    with pytest.raises(PhhError) as refused:
        state_to_phh(state)
    assert refused.value.code == "not_representable"


# --- what each trigger needs: data on the trigger ----------------------------------------------


@pytest.mark.parametrize("trigger", list(Trigger))
def test_every_trigger_has_its_info_and_a_group_so_none_lands_under_other(
    trigger: Trigger,
) -> None:
    info = TRIGGERS[trigger]
    assert info.group in Group
    assert info.label
    assert info.label == TRIGGER_LABELS[trigger]
    assert info.player in PlayerNeed
    if info.question is not None:
        assert info.question.choices
        assert len({c.token for c in info.question.choices}) == len(info.question.choices)


def test_the_pick_list_groups_come_in_table_order_with_distinct_labels() -> None:
    assert [str(g) for g in Group] == [
        "Hole cards on the deal",
        "The stub and the deck",
        "The board",
        "Betting",
        "Floor decisions",
    ]
    labels = [info.label for info in TRIGGERS.values()]
    assert len(set(labels)) == len(labels) == len(Trigger)
    floor = [t for t, info in TRIGGERS.items() if info.group is Group.FLOOR]
    assert floor == [Trigger.FLOOR_MISDEAL, Trigger.FLOOR_DEAD_HAND]


@pytest.mark.parametrize("trigger", list(Trigger))
def test_a_player_is_required_exactly_when_the_trigger_says_so(trigger: Trigger) -> None:
    """At the start of a hand; a required player is refused as missing before anything else."""
    info = TRIGGERS[trigger]
    details = DETAILS.get(trigger)
    if info.player is PlayerNeed.REQUIRED:
        with pytest.raises(RuleViolation) as refused:
            remedy(hand(), trigger, details=details)
        assert refused.value.code == "player_required"
        assert remedy(hand(), trigger, player=1, details=details).player == 1
    else:
        assert remedy(hand(), trigger, details=details).trigger == trigger


@pytest.mark.parametrize(
    "trigger", [t for t, info in TRIGGERS.items() if info.question is not None]
)
def test_every_answer_a_question_offers_is_accepted_by_the_remedy(trigger: Trigger) -> None:
    question = TRIGGERS[trigger].question
    assert question is not None
    for choice in question.choices:
        assert question.answer(choice.token) == choice.value
        # A trigger that takes an amount gets one (a raise to 30 at the start of the hand).
        amount = {"amount": 30} if TRIGGERS[trigger].amount else {}
        found = remedy(hand(), trigger, player=1, details={question.key: choice.value, **amount})
        assert found.steps
    assert question.answer("maybe") is None
    assert question.answer(None) is None


def test_every_effect_has_a_sentence_for_the_dealer() -> None:
    for effect in Effect:
        assert effect.sentence.endswith(".")


def test_t_floor_misdeal_voids_the_hand_with_the_dealers_reason() -> None:
    state = play(hand(), "c")
    found = remedy(state, Trigger.FLOOR_MISDEAL, details={"note": "  deck  dropped "})
    assert (found.title, found.rule, found.effect) == ("Misdeal", "T", Effect.VOID_HAND)
    assert found.steps[0] == "The floor's reason: deck dropped."
    assert [(a.kind, a.reason) for a in found.actions] == [(Kind.MISDEAL, "deck dropped")]
    assert_void(state, found)
    unsaid = remedy(state, Trigger.FLOOR_MISDEAL)
    assert unsaid.steps[0] == "Stop the deal."
    assert unsaid.actions[0].reason == "Misdeal (floor decision)"


def test_t_floor_misdeal_is_refused_after_the_threshold_before_anything_is_applied() -> None:
    state = play(hand(), "c c c x | /As Kd 7c")
    assert threshold_passed(state)
    with pytest.raises(RuleViolation) as refused:
        remedy(state, Trigger.FLOOR_MISDEAL)
    assert refused.value.code == "misdeal_too_late"


def test_r_floor_dead_hand_kills_that_hand_and_its_chips_stay() -> None:
    state = play(hand(), "c c")
    found = remedy(state, Trigger.FLOOR_DEAD_HAND, player=1, details={"note": "Fouled"})
    assert (found.title, found.rule) == (f"Dead hand: seat {state.setup.players[1].seat}", "R")
    assert found.actions == (kill(1, "Fouled"),)
    after = carried_out(state, found)
    assert after.folded[1]
    assert after.pot_total == state.pot_total
    with pytest.raises(RuleViolation) as refused:
        remedy(play(hand(), "f"), Trigger.FLOOR_DEAD_HAND, player=2)
    assert refused.value.code == "already_folded"
    with pytest.raises(RuleViolation) as refused:
        remedy(state, Trigger.FLOOR_MISDEAL, details={"note": 7})
    assert refused.value.code == "bad_details"
