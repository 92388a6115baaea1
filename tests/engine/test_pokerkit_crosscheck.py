"""Cross-check of the rules engine against pokerkit 0.7.7 (docs/crosscheck.md).

Random no-limit, fixed-limit and pot-limit hands with 2-9 players, short and deep stacks, antes and
known cards are replayed through both engines (tests/engine/crosscheck.py): who acts, the call
amount, the minimum and maximum bet or raise-to, the stacks during the hand and the finishing
stacks must agree. Where RULES.md knowingly differs from pokerkit the driver accepts the difference
only in the exact situation named, and each such rule has its own test below that shows our rule
next to pokerkit's.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

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
from dealer.engine.actions import bet, call, check, deal_board, fold, raise_to
from tests.engine import crosscheck
from tests.engine.crosscheck import (
    STRUCTURES,
    Driver,
    MismatchError,
    Result,
    make_spec,
    run_many,
)

NORMAL_HANDS = 400  # per structure: 1,200 hands in the normal suite
SLOW_HANDS = 7_000  # per structure: 21,000 hands behind `-m slow`


def _summary(results: list[Result]) -> Counter[str]:
    summary: Counter[str] = Counter()
    for result in results:
        summary["hands"] += 1
        summary[f"players_{result.spec.player_count}"] += 1
        summary["decisions"] += result.decisions
        summary["showdowns"] += result.showdown
        summary["side_pots"] += result.side_pots > 0
        summary["all_ins"] += result.all_ins > 0
        summary["antes"] += result.spec.ante > 0
        summary["odd_chips"] += result.odd_chips
        for name in result.known:
            summary[f"known:{name}"] += 1
    return summary


def _run_structure(structure: str, count: int, seed: int) -> Counter[str]:
    results = run_many(count, seed, structures=(structure,))
    summary = _summary(results)
    assert summary["hands"] == count
    # The generator really produces what the comparison is meant to cover.
    assert all(summary[f"players_{n}"] > 0 for n in range(2, 10)), summary
    assert summary["showdowns"] >= count // 5, summary
    assert summary["side_pots"] >= count // 20, summary
    assert summary["all_ins"] >= count // 5, summary
    assert summary["antes"] >= count // 5, summary
    return summary


@pytest.mark.parametrize("structure", STRUCTURES)
def test_random_hands_agree_with_pokerkit(structure: str) -> None:
    """1,200 seeded hands (400 per structure) agree with pokerkit, known differences aside."""
    _run_structure(structure, NORMAL_HANDS, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("structure", STRUCTURES)
def test_many_random_hands_agree_with_pokerkit(structure: str) -> None:
    """21,000 more seeded hands (7,000 per structure), with other seeds."""
    _run_structure(structure, SLOW_HANDS, seed=2)


def test_the_driver_reports_a_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison is not vacuous: with a different pot-limit formula (S0's literal reading,
    X1) in our engine, the maximum raise soon differs from pokerkit's and the driver says so."""

    def s0_literal(structure: str):
        return make_rules("casino_cash", {"structure": structure, "pl_formula": "s0_literal"})

    monkeypatch.setattr(crosscheck, "our_rules", s0_literal)
    with pytest.raises(MismatchError, match="decision differs"):
        run_many(50, seed=3, structures=("pot_limit",))


# --- Known differences: each shows our rule (RULES.md) next to pokerkit's ----------------------


def test_fold_when_a_check_is_possible_is_legal() -> None:
    """RULES.md 5.2 (S3): folding when a check is available is legal. pokerkit refuses it (a
    warning in its cash-game mode), so the random hands never fold when they could check."""
    driver = Driver(make_spec("no_limit", (200, 200, 200), (1, 2)), random.Random(0))
    driver.script("c c")  # button calls, small blind completes: the big blind may check
    ours, theirs = driver.decisions()
    assert ours.actor == theirs.actor == 1
    assert ours.call == theirs.call == 0
    assert not driver.pk.can_fold()
    state = apply(driver.ours, fold())
    assert state.folded[1]


def test_short_blind_keeps_the_full_blind_to_call() -> None:
    """RULES.md 3 (`short_blind=allin_post`, R): a big blind all-in for less still makes the
    others call the full blind, and raises are sized from it. pokerkit uses the posted amount.
    The generator gives every blind poster at least ante + blind, so this stays out of the
    random hands."""
    driver = Driver(make_spec("no_limit", (1000, 5, 1000), (10, 20)), random.Random(0))
    ours, theirs = driver.decisions()
    assert ours.actor == theirs.actor == 2
    assert ours.call == 20
    assert ours.min_to == 40
    assert theirs.call == 10  # pokerkit: the small blind's 10 is the largest bet
    assert theirs.min_to == 30


def test_fixed_limit_preflop_cap_counts_the_big_blind_as_the_first_bet() -> None:
    """RULES.md 5.3 (`fl_cap_bets=4`): bet, raise, re-raise, cap, and preflop the big blind is
    the bet, so three raises cap the round. pokerkit allows four raises over the blinds."""
    driver = Driver(make_spec("fixed_limit", (1000, 1000, 1000), (10, 20)), random.Random(0))
    driver.script("r40 r60 r80")  # button, small blind, big blind
    ours, theirs = driver.decisions()
    assert ours.actor == theirs.actor == 2
    assert ours.call == theirs.call == 40
    assert (ours.min_to, ours.max_to) == (None, None)
    assert (theirs.min_to, theirs.max_to) == (100, 100)
    # After the flop both engines cap at a bet and three raises.
    driver.script("c c / b20 r40 r60 r80")
    ours, theirs = driver.decisions()
    assert ours.actor == theirs.actor == 1
    assert ours.call == theirs.call == 40
    assert ours.min_to is None
    assert theirs.min_to is None


def test_fixed_limit_heads_up_is_uncapped_by_default() -> None:
    """RULES.md 5.3 (`fl_headsup_uncapped=true`, S2, R): heads-up there is no cap. pokerkit always
    caps, so the cross-check runs with `fl_headsup_uncapped=false` (S0, S3, T tournaments)."""
    spec = make_spec("fixed_limit", (1000, 1000), (10, 20))
    driver = Driver(spec, random.Random(0))
    driver.script("c x / b20 r40 r60 r80")
    ours, theirs = driver.decisions()
    # With the cross-check's rules (`fl_headsup_uncapped=false`) both engines are capped.
    assert ours.min_to is None
    assert theirs.min_to is None
    default = start_hand(
        deal_setup(
            make_rules("casino_cash", {"structure": "fixed_limit"}),
            Stakes(small_blind=10, big_blind=20),
            spec.stacks,
        )
    )
    for action in ("call", "check", None, 20, 40, 60, 80):
        default = _step(default, action)
    legal = legal_actions(default)
    assert legal is not None
    assert (legal.min_raise_to, legal.max_raise_to) == (100, 100)


def _step(state: HandState, action: str | int | None) -> HandState:
    """Our engine alone: "call", "check", None (deal the flop unseen) or a bet/raise-to."""
    if action is None:
        return apply(state, deal_board((None, None, None)))
    if action == "call":
        return apply(state, call())
    if action == "check":
        return apply(state, check())
    assert isinstance(action, int)
    return apply(state, bet(action) if state.high == 0 else raise_to(action))


def _four_handed_flop(short_stack: int) -> Driver:
    """Fixed limit 10/20 (unit 10 on the flop); player 3 is short. Everyone limps, then on the
    flop player 1 bets 10, player 2 calls and player 3 moves all-in."""
    spec = make_spec("fixed_limit", (1000, 1000, short_stack, 1000), (5, 10))
    driver = Driver(spec, random.Random(0))
    driver.script("c c c x / b10 c a")
    return driver


def test_fixed_limit_all_in_of_half_a_bet_is_a_raise_that_reopens() -> None:
    """RULES.md 5.3 (`fl_short_allin=half_bet`, R, T; W5): an all-in that raises by at least half
    a bet counts as a full raise: the next raise goes to the all-in total + one bet, and players
    who already acted may raise again. pokerkit agrees on the size but does not reopen."""
    driver = _four_handed_flop(28)  # all-in to 18: 8 more than the bet of 10
    ours, theirs = driver.decisions()
    assert ours == theirs  # player 4 has not acted: both raise to 28
    assert (ours.call, ours.min_to) == (18, 28)
    driver.script("c")
    ours, theirs = driver.decisions()
    assert ours.actor == theirs.actor == 0
    assert ours.call == theirs.call == 8
    assert (ours.min_to, ours.max_to) == (28, 28)  # reopened for the opener
    assert theirs.min_to is None


def test_fixed_limit_all_in_below_half_a_bet_is_completed_from_the_last_level() -> None:
    """RULES.md 5.3 (`fl_short_allin=half_bet`): an all-in raising by less than half a bet is
    action only; a player yet to act may complete it to the previous level + one bet (20).
    pokerkit raises to the all-in total + one bet (23)."""
    driver = _four_handed_flop(23)  # all-in to 13: 3 more than the bet of 10
    ours, theirs = driver.decisions()
    assert ours.actor == theirs.actor == 3
    assert ours.call == theirs.call == 13
    assert (ours.min_to, ours.max_to) == (20, 20)
    assert (theirs.min_to, theirs.max_to) == (23, 23)


def test_all_in_below_the_big_blind_does_not_reopen_the_betting() -> None:
    """RULES.md 5.5 (R; T 47): a full raise is at least the last full bet or raise, and at least
    the big blind; an all-in for less does not reopen the betting to a player who already acted.
    pokerkit measures a raise against the largest one made so far on the street, starting from
    zero, so it lets the limper raise."""
    driver = Driver(make_spec("no_limit", (38, 1163, 5009), (10, 20)), random.Random(0))
    driver.script("c a c")  # button limps 20, small blind all-in to 38, big blind calls
    ours, theirs = driver.decisions()
    assert ours.actor == theirs.actor == 2
    assert ours.call == theirs.call == 18
    assert (ours.min_to, ours.max_to) == (None, None)
    assert (theirs.min_to, theirs.max_to) == (58, 5009)


def test_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting() -> None:
    """RULES.md 5.5 (R; T 47): several short all-ins can add up to a full raise; a player who
    already acted may raise again once the bet has risen by a full raise since they acted.
    pokerkit restarts its running total when the all-ins reach a full raise, so one more short
    all-in after that closes the action again."""
    spec = make_spec("no_limit", (320, 1000, 1000, 250, 300), (50, 100))
    driver = Driver(spec, random.Random(0))
    # UTG raises to 200; all-ins to 250 and 300 (+50 +50: a full raise together), then to 320;
    # the big blind calls.
    driver.script("r200 a a a c")
    ours, theirs = driver.decisions()
    assert ours.actor == theirs.actor == 2
    assert ours.call == theirs.call == 120
    assert (ours.min_to, ours.max_to) == (420, 1000)
    assert (theirs.min_to, theirs.max_to) == (None, None)


def test_odd_chips_go_one_each_clockwise_from_the_button() -> None:
    """RULES.md 6.5 (`odd_chip=left_of_button`, S3, R, T): odd chips go one each, clockwise from
    the button, to the tied winners. pokerkit gives a pot's whole remainder to the first winner."""
    cards = "2c3d 4c5d 6c7d 8c9d 2h AsKsQs 3h Js 4h Ts"  # the board is a royal flush
    spec = make_spec("no_limit", (100, 100, 100, 100), (1, 2), ante=1, cards=cards)
    driver = Driver(spec, random.Random(0))
    # 11 chips: antes 4, the small blind's 1, and 2 from each of the three who play on.
    driver.script("c c f x / x x x / x x x / x x x")
    assert driver.ours.phase == Phase.SHOWDOWN
    driver.showdown_step()
    (award,) = driver.ours.awards
    assert award.amount == 11
    assert award.winners == (1, 2, 3)
    assert award.shares == (4, 4, 3)
    assert driver.ours.finishing_stacks == (98, 101, 101, 100)
    assert tuple(driver.pk.stacks) == (98, 102, 100, 100)
