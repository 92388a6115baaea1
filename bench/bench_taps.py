"""Taps a dealer needs on the tablet per hand, against the number of player actions.

The 2,000 hands of bench_hands.py (same seed) are counted three ways: hands that end before a
showdown (a fold-around), and each hand that reaches a showdown twice, once with the cards
entered (the tablet reads the hands) and once by tap without any card entered (docs/rules.md
"Showdown by tap"). A tap is: the start of the hand, each player action, each board deal the
dealer enters, each show or muck, each push of a pot (a split: one tick per winner and the split
button). The hand by tap is replayed through the engine without cards, pushing each pot to the
winners the cards gave, and must end with the same stacks. Run: `python -m bench.bench_taps`.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from bench.bench_hands import RULES, STAKES, Recorded, generate
from dealer.engine import Phase, apply, award, deal_board, deal_setup, start_hand
from dealer.engine.actions import BETTING_KINDS, Kind
from dealer.engine.showdown import betting_finished, showdown_pots
from dealer.engine.state import HandState

TARGET = 2  # the median hand needs at most this many taps beyond its player actions


@dataclass(frozen=True, slots=True)
class Count:
    actions: int  # player actions (betting)
    taps: int

    @property
    def extra(self) -> int:
        return self.taps - self.actions


def with_cards(recorded: Recorded) -> Count:
    """Every entry of the recorded hand is a tap (the pots are pushed by the engine), plus the
    start."""
    actions = sum(1 for a in recorded.actions if a.kind in BETTING_KINDS)
    return Count(actions=actions, taps=1 + len(recorded.actions))


def by_tap(recorded: Recorded) -> Count:
    """The same hand without a card entered: board deals are taps until the betting is over
    (an all-in run-out is dealt unentered with the push), then one push per contested pot."""
    final = _final(recorded)
    state = start_hand(deal_setup(RULES, STAKES, recorded.stacks))
    actions = taps = 0
    for action in recorded.actions:
        if state.is_over or action.kind not in (*BETTING_KINDS, Kind.DEAL_BOARD):
            continue
        if action.kind == Kind.DEAL_BOARD and betting_finished(state):
            break  # the rest of the board is dealt unentered at the push
        if action.kind == Kind.DEAL_BOARD:
            action = deal_board((None,) * len(action.cards))
        else:
            actions += 1
        state = apply(state, action)
        taps += 1
    taps += 1  # the start
    for pot, winners in _winners(final).items():
        if state.is_over:
            break
        contenders = _contenders(state, pot)
        if len(contenders) < 2:
            continue  # goes to its only player without a tap
        state = apply(state, award(pot, winners))
        taps += 1 if len(winners) == 1 else len(winners) + 1
    if state.phase == Phase.SHOWDOWN:
        raise AssertionError("a pot was left unpushed")
    assert state.stacks == final.stacks, (state.stacks, final.stacks)
    return Count(actions=actions, taps=taps)


def _final(recorded: Recorded) -> HandState:
    state = start_hand(deal_setup(RULES, STAKES, recorded.stacks, holes=recorded.holes))
    for action in recorded.actions:
        state = apply(state, action)
    return state


def _winners(final: HandState) -> dict[int, tuple[int, ...]]:
    """Each pot's winners as the cards decided them, side pots first (the order they are
    pushed)."""
    return {a.pot: a.winners for a in final.awards}


def _contenders(state: HandState, pot: int) -> tuple[int, ...]:
    pots = showdown_pots(state)
    return pots[pot].eligible if pot < len(pots) else ()


def summary(counts: Sequence[Count]) -> dict[str, float]:
    return {
        "hands": len(counts),
        "median_actions": statistics.median(c.actions for c in counts),
        "median_taps": statistics.median(c.taps for c in counts),
        "median_extra": statistics.median(c.extra for c in counts),
        "worst_extra": max(c.extra for c in counts),
    }


def run(n: int = 2000, seed: int = 7) -> dict[str, dict[str, float]]:
    hands = generate(n, seed)
    folded = [h for h in hands if not any(a.kind == Kind.SHOW for a in h.actions)]
    shown = [h for h in hands if any(a.kind == Kind.SHOW for a in h.actions)]
    cards = [with_cards(h) for h in shown]
    taps = [by_tap(h) for h in shown]
    around = [with_cards(h) for h in folded]
    return {
        "fold-around": summary(around),
        "showdown, cards": summary(cards),
        "showdown, by tap": summary(taps),
        "all hands, cards": summary(around + cards),
        "all hands, by tap": summary(around + taps),
    }


def main() -> None:
    result = run()
    print("Taps per hand on the tablet, 2,000 hands (bench_hands.py), extra = taps - actions")
    print(f"  {'':20} {'hands':>6} {'actions':>8} {'taps':>6} {'extra':>6} {'worst':>6}")
    for name, row in result.items():
        print(
            f"  {name:20} {row['hands']:>6.0f} {row['median_actions']:>8.1f} "
            f"{row['median_taps']:>6.1f} {row['median_extra']:>6.1f} {row['worst_extra']:>6.0f}"
        )
    print(f"  target: median extra at most {TARGET} (start + actions + {TARGET - 1})")


if __name__ == "__main__":
    main()
