"""Showdown by tap (docs/rules.md "Showdown by tap"): the dealer pushes each pot to its winners
without the cards entered; with cards entered the engine still decides what it can see."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from pokerkit import HandHistory as OracleHistory

from dealer.engine import (
    HandState,
    Phase,
    RuleViolation,
    Stakes,
    apply,
    award,
    deal_setup,
    make_rules,
    muck,
    pushes,
    run_twice,
    show,
    showdown_pots,
    start_hand,
)
from dealer.engine.cards import parse_cards
from dealer.engine.phh import parse_phh, state_to_phh
from dealer.engine.phh.play import outcome
from dealer.engine.snapshot import state_from_json, state_to_json
from tests.engine.scripted import play


def hand(stacks: list[int], holes: str | None = None, **options: Any) -> HandState:
    rules = make_rules("casino_cash", options)
    hole_cards = None if holes is None else [parse_cards(h) for h in holes.split(",")]
    return start_hand(
        deal_setup(rules, Stakes(small_blind=5, big_blind=10), stacks, holes=hole_cards)
    )


def to_showdown(state: HandState) -> HandState:
    """Check it down with the board dealt unentered."""
    return play(state, "x | /- | x x | /- | x x | /- | x x")


def test_tap_pushes_the_main_pot_without_any_card_entered() -> None:
    state = to_showdown(play(hand([100, 100]), "c"))
    assert state.phase == Phase.SHOWDOWN
    state = apply(state, award(0, (1,)))
    assert state.phase == Phase.COMPLETE
    assert state.stacks == (90, 110)
    (only,) = state.awards
    assert (only.pot, only.amount, only.winners, only.shares, only.hands) == (
        0,
        20,
        (1,),
        (20,),
        ("",),
    )


def test_tap_split_gives_the_odd_chip_by_seat_position_without_cards() -> None:
    # Three players: the button (index 0 here is the small blind heads-up only); the small blind
    # folds, leaving 5 + 10 + 10 = 25 between the other two, split 13 / 12.
    state = play(hand([100, 100, 100]), "c f x | /- | x x | /- | x x | /- | x x")
    contenders = showdown_pots(state)[0].eligible
    state = apply(state, award(0, contenders))
    (only,) = state.awards
    assert only.winners == tuple(sorted(contenders))
    assert only.shares == (13, 12)
    assert sum(state.stacks) == 300


def test_tap_each_side_pot_is_pushed_on_its_own_and_the_hand_ends_with_the_last() -> None:
    state = play(hand([30, 60, 200]), "a a c")  # everyone all in or called: the board runs out
    state = play(state, "/- | /- | /-")
    pots = showdown_pots(state)
    assert [p.eligible for p in pots] == [(0, 1, 2), (1, 2)]
    state = apply(state, award(1, (2,)))
    assert state.phase == Phase.SHOWDOWN
    assert pushes(state) == {1: (2,)}
    state = apply(state, award(0, (0,)))
    assert state.phase == Phase.COMPLETE
    assert state.stacks == (90, 0, 200)  # 90 main pot; 60 side pot and 140 behind
    assert [(a.pot, a.winners) for a in state.awards] == [(1, (2,)), (0, (0,))]


def test_tap_after_an_all_in_runs_out_the_unentered_board_without_a_tap_per_street() -> None:
    state = play(hand([100, 100]), "a c")
    assert state.phase == Phase.DEALING
    state = apply(state, award(0, (0,)))
    assert state.phase == Phase.COMPLETE
    assert state.board == (None,) * 5
    assert state.stacks == (200, 0)


def test_tap_takes_the_rake_as_a_card_showdown_does() -> None:
    options: dict[str, Any] = {"rake_percent": 5, "rake_cap": 5, "rake_no_flop_no_drop": True}
    state = play(hand([100, 100], **options), "r40 c | /- | x x | /- | x x | /- | x x")
    state = apply(state, award(0, (0,)))
    assert state.rake == 4
    assert state.awards[0].amount == 76
    assert state.stacks == (136, 60)


@pytest.mark.parametrize(
    ("pot", "winners", "code"),
    [
        (0, (0,), "not_eligible"),  # folded
        (1, (3,), "not_eligible"),  # all in for the main pot only
        (2, (1,), "bad_pot"),
        (0, (), "winners_required"),
        (0, (1, 1), "winners_required"),
    ],
)
def test_tap_winners_must_be_in_that_pot(pot: int, winners: tuple[int, ...], code: str) -> None:
    # Player 3 is all in for 30; players 1 and 2 bet on into a side pot; player 0 folds.
    state = play(hand([200, 200, 200, 30]), "c a f c c | /- | b20 c | /- | x x | /- | x x")
    assert [p.eligible for p in showdown_pots(state)] == [(1, 2, 3), (1, 2)]
    with pytest.raises(RuleViolation) as refused:
        apply(state, award(pot, winners))
    assert refused.value.code == code


def test_tap_the_same_pot_twice_is_refused() -> None:
    state = play(hand([30, 60, 200]), "a a c | /- | /- | /-")
    state = apply(state, award(1, (2,)))
    with pytest.raises(RuleViolation) as refused:
        apply(state, award(1, (1,)))
    assert refused.value.code == "already_pushed"


def test_tap_before_the_betting_is_over_is_refused() -> None:
    with pytest.raises(RuleViolation) as refused:
        apply(hand([100, 100]), award(0, (0,)))
    assert refused.value.code == "not_showdown"


# With cards: As Ad (pair of aces) against 7c 2d on a board of Kh 9s 5c 3d Jh.
HOLES = "As Ad,7c 2d"


def carded_showdown() -> HandState:
    return play(hand([100, 100], HOLES), "c x | /Kh 9s 5c | x x | /3d | x x | /Jh | x x")


def test_tap_that_goes_against_a_shown_better_hand_is_refused() -> None:
    state = apply(carded_showdown(), show(0))
    with pytest.raises(RuleViolation) as refused:
        apply(state, award(0, (1,)))  # 7-high's cards were entered at the deal
    assert refused.value.code == "award_disagrees"


def test_tap_that_agrees_with_the_cards_is_taken_and_names_the_hand() -> None:
    state = apply(carded_showdown(), award(0, (0,)))
    assert state.phase == Phase.COMPLETE
    assert "aces" in state.awards[0].hands[0].lower()


def test_tap_a_shown_hand_that_ties_must_share_the_pot() -> None:
    state = play(hand([100, 100], "2c 3c,2d 3d"), "c x | /As Ks Qh | x x | /Jd | x x | /Th | x x")
    state = apply(state, show(0))
    with pytest.raises(RuleViolation) as refused:
        apply(state, award(0, (1,)))
    assert refused.value.code == "award_disagrees"
    state = apply(state, award(0, (0, 1)))
    assert state.awards[0].shares == (10, 10)


def test_tap_mixed_an_unentered_hand_beats_a_shown_one_on_the_dealers_word() -> None:
    # Player 0's cards were never entered; player 1 shows a pair: the dealer saw 0 win.
    setup_holes = None
    state = play(hand([100, 100], setup_holes), "c x | /Kh 9s 5c | x x | /3d | x x | /Jh | x x")
    state = apply(state, show(1, tuple(parse_cards("Kd 2c"))))
    state = apply(state, award(0, (0,)))
    assert state.stacks == (110, 90)


def test_tap_a_later_show_that_contradicts_a_push_is_refused() -> None:
    state = play(hand([30, 60, 200], "As Ad,7c 2d,8h 8d"), "a a c")
    state = play(state, "/Kh 9s 5c | /3d | /Jh")
    state = apply(state, award(1, (1,)))  # side pot pushed to 7-high before anyone showed
    with pytest.raises(RuleViolation) as refused:
        apply(state, show(2))  # eights beat the 7-high the side pot went to
    assert refused.value.code == "award_disagrees"


def test_tap_then_muck_is_refused_as_it_would_renumber_the_pots() -> None:
    state = play(hand([30, 60, 200]), "a a c | /- | /- | /-")
    state = apply(state, award(1, (2,)))
    with pytest.raises(RuleViolation) as refused:
        apply(state, muck(1))
    assert refused.value.code == "pushing_started"


def test_tap_a_hand_run_twice_needs_its_boards() -> None:
    state = apply(play(hand([100, 100], run_it_twice_allowed=True), "a c"), run_twice())
    with pytest.raises(RuleViolation) as refused:
        apply(state, award(0, (0,)))
    assert refused.value.code == "runs_need_boards"


def test_tap_the_stored_state_round_trips_with_its_push() -> None:
    state = play(hand([30, 60, 200]), "a a c | /- | /- | /-")
    state = apply(state, award(1, (2,)))
    back = state_from_json(state_to_json(state))
    assert back == state
    assert pushes(back) == {1: (2,)}
    assert apply(back, award(0, (1,))) == apply(state, award(0, (1,)))


def test_phh_export_of_a_tapped_hand_writes_unknown_cards_and_the_winner() -> None:
    state = apply(play(hand([100, 100]), "a c"), award(0, (1,)))  # pushed before the run-out
    text = state_to_phh(state)
    history = parse_phh(text)
    assert history.actions[:2] == ["d dh p1 ????", "d dh p2 ????"]
    assert "d db ??????" in history.actions  # the board dealt unentered
    assert history.actions[-2:] == ["p2 sm ????", "p1 sm"]  # the winner tables, the other mucks
    assert history.winnings == [0, 200]
    result = outcome(history)
    assert (result.status, result.stacks) == ("complete", state.stacks)
    # pokerkit reads the file, `????` included, and plays it until it must rank the hands: at
    # the river it cannot evaluate unknown cards, so the push is ours (and the file's winnings).
    oracle = OracleHistory.loads(text)
    assert list(oracle.actions) == history.actions
    oracle.actions = oracle.actions[: history.actions.index("d db ??") + 1]  # to the turn
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        last = list(oracle)[-1]
    assert list(last.stacks) == [0, 0]
    assert len(last.board_cards) == 4


def test_phh_export_of_side_pots_pushed_to_different_winners_names_them_in_winnings() -> None:
    state = play(hand([30, 60, 200]), "a a c | /- | /- | /-")
    state = apply(apply(state, award(1, (2,))), award(0, (0,)))
    history = parse_phh(state_to_phh(state))
    assert history.actions[-3:] == ["p3 sm ????", "p1 sm ????", "p2 sm"]
    assert history.winnings == [90, 0, 60]
    assert history.finishing_stacks == list(state.stacks)
    # Two hands tabled face down contest the main pot: a reader cannot tell who won it.
    assert outcome(history).status == "winner_unknown"


def test_tap_without_a_pot_pushes_every_pot_the_winner_is_in_with_one_tap() -> None:
    state = play(hand([30, 60, 200]), "a a c | /- | /- | /-")
    state = apply(state, award(None, (2,)))  # the deepest stack has the best hand: both pots
    assert state.phase == Phase.COMPLETE
    assert [(a.pot, a.winners) for a in state.awards] == [(1, (2,)), (0, (2,))]
    assert state.stacks == (0, 0, 290)


def test_tap_without_a_pot_for_the_short_stack_leaves_the_pots_above_it() -> None:
    state = play(hand([30, 60, 200]), "a a c | /- | /- | /-")
    state = apply(state, award(None, (0,)))  # the short stack wins the main pot only
    assert pushes(state) == {0: (0,)}
    state = apply(state, award(None, (1,)))
    assert state.stacks == (90, 60, 140)
    with pytest.raises(RuleViolation) as refused:
        apply(play(hand([30, 60, 200]), "a a c | /- | /- | /-"), award(None, (4,)))
    assert refused.value.code == "not_eligible"
