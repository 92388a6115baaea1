"""RULES.md sections 6 and 7: pots by contribution layers, awards and the showdown."""

from __future__ import annotations

import pytest

from dealer.engine import (
    HandState,
    Phase,
    RuleViolation,
    Stakes,
    apply,
    before_award,
    deal_setup,
    make_rules,
    muck,
    next_to_show,
    show,
    showdown_order,
    side_pots,
    start_hand,
)
from dealer.engine.cards import parse_cards
from dealer.engine.pots import Pot, split_pot, uncalled_excess
from tests.engine.scripted import play


def hand(stacks: list[int], holes: str, **options: object) -> HandState:
    rules = make_rules("casino_cash", dict(options))
    hole_cards = [parse_cards(h) for h in holes.split(",")]
    return start_hand(
        deal_setup(rules, Stakes(small_blind=5, big_blind=10), stacks, holes=hole_cards)
    )


def show_all(state: HandState) -> HandState:
    while (player := next_to_show(state)) is not None:
        state = apply(state, show(player))
    return state


def test_6_3_layers_make_a_main_pot_and_side_pots_with_their_contenders() -> None:
    pots = side_pots([100, 300, 500, 500], [False] * 4, [True, True, False, False])
    assert pots == (
        Pot(amount=400, eligible=(0, 1, 2, 3)),
        Pot(amount=600, eligible=(1, 2, 3)),
        Pot(amount=400, eligible=(2, 3)),
    )


def test_6_3_folded_chips_stay_in_and_dead_money_joins_the_main_pot() -> None:
    pots = side_pots([50, 200, 200], [True, False, False], [False, True, False], dead=5)
    assert pots == (Pot(amount=455, eligible=(1, 2)),)


def test_6_3_adjacent_pots_with_the_same_contenders_merge() -> None:
    # The folded player's all-in level does not create a separate pot.
    pots = side_pots([100, 300, 300], [True, False, False], [True, False, False])
    assert pots == (Pot(amount=700, eligible=(1, 2)),)


def test_6_2_s1_uncalled_surplus_goes_back_before_any_award() -> None:
    assert uncalled_excess([100, 400, 250]) == (1, 150)
    assert uncalled_excess([100, 100]) == (None, 0)
    state = hand([300, 1000, 1000], "As Ad,Ks Kd,Qs Qd")
    state = play(state, "a c f")  # the button shoves 1000, the small blind calls 300 all-in
    assert state.stacks[2] == 700
    assert state.contributed[2] == 300


def test_6_5_split_in_whole_units_odd_chip_once_each_in_order() -> None:
    assert split_pot(101, [2, 0], 1) == {2: 51, 0: 50}
    assert split_pot(103, [0, 1, 2], 1) == {0: 35, 1: 34, 2: 34}
    assert split_pot(250, [1, 0], 25) == {1: 125, 0: 125}
    assert split_pot(275, [1, 0], 25) == {1: 150, 0: 125}


def test_6_4_highest_side_pot_awarded_first_each_pot_to_its_best_eligible_hand() -> None:
    # Player 1 (aces) is all-in for the main pot only; kings beat queens for the side pot.
    state = hand([100, 400, 400], "As Ad,Ks Kd,Qs Qd")
    state = play(state, "a a c | /2c 7d 9h | /3s | /4d")
    state = show_all(state)
    assert state.phase == Phase.COMPLETE
    side, main = state.awards
    assert (side.pot, side.winners, side.amount) == (1, (1,), 600)
    assert (main.pot, main.winners, main.amount) == (0, (0,), 300)
    assert main.hands == ("Pair of aces",)
    assert state.finishing_stacks == (300, 600, 0)


def test_7_r_players_in_a_side_pot_show_before_the_all_in_player() -> None:
    state = hand([100, 400, 400], "As Ad,Ks Kd,Qs Qd")
    state = play(state, "a a c | /2c 7d 9h | /3s | /4d")
    assert state.phase == Phase.SHOWDOWN
    assert showdown_order(state) == (1, 2, 0)


def test_7_s3_mucking_hand_loses_its_claim_and_last_live_hand_wins_unseen() -> None:
    state = hand([400, 400, 400], "As Ad,Ks Kd,Qs Qd")
    state = play(state, "c c x | /2c 7d 9h | x x x | /3s | x x x | /4d | x b10 c c")
    assert showdown_order(state)[0] == 1
    state = apply(state, muck(1))
    state = apply(state, muck(2))
    assert state.phase == Phase.COMPLETE
    assert state.awards[0].winners == (0,)
    assert state.awards[0].hands == ("",)


def test_7_t_when_every_opponent_mucks_the_last_live_hand_wins() -> None:
    state = hand([400, 400], "As Ad,Ks Kd")
    state = play(state, "c x | /2c 7d 9h | x x | /3s | x x | /4d | x x")
    state = apply(state, muck(0))
    assert state.phase == Phase.COMPLETE
    assert state.awards[0].winners == (1,)


def test_7_the_last_live_hand_for_a_side_pot_cannot_muck_it_away() -> None:
    state = hand([100, 400, 400], "As Ad,Ks Kd,Qs Qd")
    state = play(state, "a a c | /2c 7d 9h | /3s | /4d")
    state = apply(state, muck(1))
    with pytest.raises(RuleViolation) as refused:
        apply(state, muck(2))
    assert refused.value.code == "last_live_hand"
    state = apply(apply(state, show(2)), show(0))
    side, main = state.awards
    assert side.winners == (2,)
    assert main.winners == (0,)


def test_7_s3_uncontested_pot_is_won_without_a_showdown() -> None:
    state = play(hand([400, 400, 400], "As Ad,Ks Kd,Qs Qd"), "r30 f f")
    assert state.phase == Phase.COMPLETE
    assert state.finishing_stacks == (395, 390, 415)


def test_6_6_s2_s4_board_plays_for_everyone_splits() -> None:
    state = hand([400, 400], "2c 3d,4h 2h")
    state = play(state, "c x | /As Ks Qs | x x | /Js | x x | /Ts | x x")
    state = show_all(state)
    (award,) = state.awards
    assert award.winners == (0, 1)
    assert award.shares == (10, 10)
    assert award.hands == ("Royal flush", "Royal flush")


def test_7_shown_cards_must_be_both_hole_cards() -> None:
    rules = make_rules("casino_cash")
    state = start_hand(deal_setup(rules, Stakes(small_blind=5, big_blind=10), [400, 400]))
    state = play(state, "c x | /As Ks Qs | x x | /Js | x x | /Ts | x x")
    with pytest.raises(RuleViolation) as refused:
        apply(state, show(0, (parse_cards("2c")[0], None)))
    assert refused.value.code == "both_cards_required"
    with pytest.raises(RuleViolation) as duplicate:
        apply(state, show(0, parse_cards("As 2c")))
    assert duplicate.value.code == "duplicate_card"


def test_1_sixplus_hand_uses_the_36_card_deck() -> None:
    rules = make_rules("texas_6plus")
    state = start_hand(deal_setup(rules, Stakes(small_blind=5, big_blind=10), [400, 400]))
    with pytest.raises(RuleViolation) as refused:
        play(state, "c x | /As 5s Qs")
    assert refused.value.code == "card_not_in_deck"


def test_1_sixplus_a6789_straight_beats_three_of_a_kind_at_showdown() -> None:
    rules = make_rules("texas_6plus")
    holes = [parse_cards("As 6d"), parse_cards("Kh Kc")]
    state = start_hand(
        deal_setup(rules, Stakes(small_blind=5, big_blind=10), [400, 400], holes=holes)
    )
    state = play(state, "c x | /7c 8h 9s | x x | /Kd | x x | /Qc | x x")
    state = show_all(state)
    assert state.awards[0].winners == (0,)
    assert state.awards[0].hands[0] == "Straight, nine high"


def test_board_dealt_without_card_entry_is_revealed_at_the_showdown_to_settle() -> None:
    from dealer.engine import reveal_board

    state = hand([400, 400], "As Ad,Ks Kd")
    state = play(state, "c x | /- | x x | /- | x x | /- | x x")
    assert state.board == (None,) * 5
    state = apply(state, show(0))
    with pytest.raises(RuleViolation) as unknown:
        apply(state, show(1))
    assert unknown.value.code == "board_unknown"
    with pytest.raises(RuleViolation) as short:
        apply(state, reveal_board(tuple(parse_cards("2c 7d 9h"))))
    assert short.value.code == "wrong_card_count"
    with pytest.raises(RuleViolation) as duplicate:
        apply(state, reveal_board(tuple(parse_cards("As 7d 9h 3s 4d"))))
    assert duplicate.value.code == "duplicate_card"
    state = apply(state, reveal_board(tuple(parse_cards("2c 7d 9h 3s 4d"))))
    state = apply(state, show(1))
    assert state.phase == Phase.COMPLETE
    assert state.awards[0].winners == (0,)


# --- who can win a pot while betting goes on (issue 13) ----------------------------------------


def test_s3_after_the_blinds_every_player_still_in_can_win_the_pot() -> None:
    # S3: "All other players are competing for BOTH pots" / "players only compete for the pot(s)
    # that they have contributed to": at the showdown. While betting, a player yet to act is a
    # contender for every pot they can still pay into; the blinds alone do not make the big
    # blind its only contender (the tablet showed "seats that can win it: 3" after the blinds).
    (pot,) = side_pots(
        contributions=[0, 50, 100, 0], folded=[False] * 4, all_in=[False] * 4, behind=[1000] * 4
    )
    assert pot.eligible == (0, 1, 2, 3)


def test_s3_a_short_stack_all_in_contends_only_for_the_main_pot_while_others_can_still_pay() -> (
    None
):
    # Seat 0 all-in for 300; seat 1 bet 1000; seat 2 has not acted, with 5000 behind; seat 3 has
    # 500 behind in all: it can reach the main pot's layer, not the side pot's.
    main, side = side_pots(
        contributions=[300, 1000, 0, 0],
        folded=[False] * 4,
        all_in=[True, False, False, False],
        behind=[0, 4000, 5000, 500],
    )
    assert main.amount == 600
    assert main.eligible == (0, 1, 2, 3)
    assert side.amount == 700
    assert side.eligible == (1, 2)


def test_s3_at_the_showdown_only_players_who_paid_a_layer_win_it() -> None:
    # Everyone still in has matched or is all-in: the chips behind change nothing.
    main, side = side_pots(
        contributions=[300, 1000, 1000],
        folded=[False] * 3,
        all_in=[True, False, False],
        behind=[0, 4000, 9000],
    )
    assert (main.eligible, side.eligible) == ((0, 1, 2), (1, 2))


def test_7_a_reopened_hand_stands_as_before_its_pots_were_pushed() -> None:
    state = hand([100, 400, 400], "As Ad,Ks Kd,Qs Qd")
    state = show_all(play(state, "a a c | /2c 7d 9h | /3s | /4d"))
    assert state.finishing_stacks == (300, 600, 0)
    # Read from the awarded state, the pots are wrong: the winners are no longer all-in.
    assert state.pots() != (Pot(amount=300, eligible=(0, 1, 2)), Pot(amount=600, eligible=(1, 2)))

    before = before_award(state)
    assert (before.stacks, before.all_in, before.awards, before.rake) == (
        (0, 0, 0),
        (True,) * 3,
        (),
        0,
    )
    assert before.pots() == (Pot(amount=300, eligible=(0, 1, 2)), Pot(amount=600, eligible=(1, 2)))
    assert sum(before.stacks) + before.pot_total == sum(state.stacks)
    assert before_award(before) == before


def test_7_a_reopened_uncontested_hand_gives_the_pot_back_to_the_middle() -> None:
    state = play(hand([400, 400, 400], "As Ad,Ks Kd,Qs Qd"), "r30 f f")
    before = before_award(state)
    # The raise's uncalled 20 went back before the award (S1): it stays with the raiser.
    assert before.stacks == (395, 390, 390)
    assert before.pots() == (Pot(amount=25, eligible=(2,)),)
