"""Run it twice (docs/rules.md 6.6, RIT): the rest of the board dealt twice at a cash table.

The players agree once the betting is over with every player still in all in except at most one,
before the river. Run 1 is dealt on `board` as usual; the second run's cards go to `board2` after
the `common` cards both runs share. At the award each pot, after the rake (taken once for the
hand), is split in two halves, the odd chip to run 1, and each half goes by its own board.
"""

from __future__ import annotations

from dealer.engine.errors import RuleViolation
from dealer.engine.state import HandState, Phase, evolve


def run_twice_refusal(state: HandState) -> tuple[str, str] | None:
    """Why the hand cannot be run twice now, as (code, sentence), or None when it can."""
    rules = state.setup.rules
    if rules.is_tournament:
        return "run_twice_not_allowed", "A tournament hand is always run once (RIT)."
    if not rules.run_it_twice_allowed:
        return (
            "run_twice_not_allowed",
            "This table's rules do not allow running it twice (run_it_twice_allowed).",
        )
    if state.runs == 2:
        return "run_twice_already", "The players already agreed to run it twice."
    if state.phase == Phase.SHOWDOWN or state.street >= 3 or state.is_over:
        return "river_dealt", "The river is out: the board can only be run twice before it."
    can_bet = sum(1 for i in range(state.player_count) if state.can_act(i))
    if state.phase != Phase.DEALING or can_bet > 1 or len(state.in_hand()) < 2:
        return (
            "not_all_in",
            "A hand is run twice only once the betting is over with every player still in "
            "all in, or all but one (RIT).",
        )
    return None


def can_run_twice(state: HandState) -> bool:
    return run_twice_refusal(state) is None


def apply_run_twice(state: HandState) -> HandState:
    """The players agreed: from now on the rest of the board is dealt twice."""
    refusal = run_twice_refusal(state)
    if refusal is not None:
        raise RuleViolation(refusal[1], code=refusal[0])
    return evolve(state, runs=2, common=len(state.board), board2=())
