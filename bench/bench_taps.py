"""Taps a dealer needs on the tablet per hand, against the number of player actions.

The 2,000 hands of bench_hands.py (same seed) are counted three ways: hands that end before a
showdown (a fold-around), and each hand that reaches a showdown twice, once with the cards
entered (the tablet reads the hands) and once by tap without any card entered (docs/rules.md
"Showdown by tap"). A tap is: the start of the hand, each player action, each board deal the
dealer enters, each show or muck, each push (a split: one tick per winner and the split button).

Without cards the tablet saves two kinds of taps: a street's board needs no tap of its own (the
street's first action says it was dealt, `deal_unentered`; an all-in run-out is dealt with the
push), and the best hand takes every pot it is in with one tap (a push naming no pot). The hand
by tap is replayed through the engine that way, without cards, pushing the pots to the winners
the cards gave, and must end with the same stacks. Run: `python -m bench.bench_taps`.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from bench.bench_hands import RULES, STAKES, Recorded, generate
from dealer.engine import Phase, apply, award, deal_setup, pushes, start_hand
from dealer.engine.actions import BETTING_KINDS, Kind
from dealer.engine.hand import unentered_deal
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
    """The same hand without a card entered: the board deals are taken with the next action (or
    the push), then one push per tier of winners, best hand first."""
    final = _final(recorded)
    state = start_hand(deal_setup(RULES, STAKES, recorded.stacks))
    actions = 0
    for action in recorded.actions:
        if state.is_over or betting_finished(state) or action.kind not in BETTING_KINDS:
            continue
        if state.phase == Phase.DEALING:
            state = apply(state, unentered_deal(state))  # implied by this tap
        state = apply(state, action)
        actions += 1
    taps = 1 + actions  # the start
    winners = _winners(final)
    while not state.is_over:
        pushed = pushes(state)
        pot = min(i for i, p in enumerate(showdown_pots(state)) if i not in pushed)
        tier = winners[pot]
        state = apply(state, award(None, tier))
        taps += 1 if len(tier) == 1 else len(tier) + 1
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
    around_cards = [with_cards(h) for h in folded]
    around = [by_tap(h) for h in folded]
    return {
        "fold-around, cards": summary(around_cards),
        "fold-around, no cards": summary(around),
        "showdown, cards": summary(cards),
        "showdown, by tap": summary(taps),
        "all hands, cards": summary(around_cards + cards),
        "all hands, by tap": summary(around + taps),
    }


def main() -> None:
    result = run()
    print("Taps per hand on the tablet, 2,000 hands (bench_hands.py), extra = taps - actions")
    print(f"  {'':22} {'hands':>6} {'actions':>8} {'taps':>6} {'extra':>6} {'worst':>6}")
    for name, row in result.items():
        print(
            f"  {name:22} {row['hands']:>6.0f} {row['median_actions']:>8.1f} "
            f"{row['median_taps']:>6.1f} {row['median_extra']:>6.1f} {row['worst_extra']:>6.0f}"
        )
    print(f"  target: median extra at most {TARGET} (start + actions + {TARGET - 1})")


if __name__ == "__main__":
    main()
