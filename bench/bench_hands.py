"""Hands per second: our engine against pokerkit, replaying the same random no-limit hands.

The hands are generated once with our engine (random stacks, 2-9 players, many all-ins, most
hands reaching a showdown), then each engine replays every hand from its start: blinds, hole
cards, every decision, the board and the showdown, until the chips are pushed. Only the replays
are timed. Run: `python -m bench.bench_hands` (or `make bench` for every benchmark).
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from pokerkit import Automation, Mode, NoLimitTexasHoldem

from dealer.engine import (
    Action,
    Phase,
    Stakes,
    apply,
    deal_setup,
    legal_actions,
    make_rules,
    next_to_show,
    start_hand,
)
from dealer.engine.actions import Kind, bet, call, check, deal_board, fold, raise_to, show
from dealer.engine.cards import Card, DeckKind, shuffled_deck

RULES = make_rules("casino_cash")
STAKES = Stakes(small_blind=1, big_blind=2)
POKERKIT_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@dataclass(frozen=True, slots=True)
class Recorded:
    """One hand as both engines replay it."""

    stacks: tuple[int, ...]
    holes: tuple[tuple[Card, ...], ...]
    burns: tuple[Card, ...]  # pokerkit burns a card before each street; ours need not know
    actions: tuple[Action, ...]  # ours, in order (betting, board, shows)
    finishing: tuple[int, ...]


def generate(count: int, seed: int) -> list[Recorded]:
    """Random hands played by our engine: calls are common so most hands reach a showdown."""
    rng = random.Random(seed)
    return [_one_hand(rng) for _ in range(count)]


def _one_hand(rng: random.Random) -> Recorded:
    players = rng.randint(2, 9)
    stacks = tuple(rng.choice((rng.randint(4, 60), rng.randint(60, 400))) for _ in range(players))
    deck = shuffled_deck(DeckKind.STANDARD, rng)
    holes = tuple(tuple(deck[2 * i : 2 * i + 2]) for i in range(players))
    board = deck[2 * players : 2 * players + 5]
    burns = tuple(deck[2 * players + 5 : 2 * players + 8])
    state = start_hand(deal_setup(RULES, STAKES, stacks, holes=holes))
    actions: list[Action] = []
    while not state.is_over:
        if state.phase == Phase.DEALING:
            start = len(state.board)
            action = deal_board(tuple(board[start : start + state.board_cards_due()]))
        elif state.phase == Phase.SHOWDOWN:
            player = next_to_show(state)
            assert player is not None
            action = show(player)
        else:
            action = _decide(state, rng)
        state = apply(state, action)
        actions.append(action)
    assert state.finishing_stacks is not None
    return Recorded(
        stacks=stacks,
        holes=holes,
        burns=burns,
        actions=tuple(actions),
        finishing=state.finishing_stacks,
    )


def _decide(state: object, rng: random.Random) -> Action:
    options = legal_actions(state)  # type: ignore[arg-type]
    assert options is not None
    roll = rng.random()
    if roll < 0.12 and not options.can_check:
        return fold()
    if roll < 0.75 or options.min_raise_to is None:
        return check() if options.can_check else call()
    low, high = options.min_raise_to, options.max_raise_to
    assert high is not None
    total = high if rng.random() < 0.3 else rng.randint(low, high)
    return bet(total) if options.is_bet else raise_to(total)


def replay_ours(hands: list[Recorded]) -> None:
    for recorded in hands:
        state = start_hand(deal_setup(RULES, STAKES, recorded.stacks, holes=recorded.holes))
        for action in recorded.actions:
            state = apply(state, action)


def replay_pokerkit(hands: list[Recorded]) -> None:
    for recorded in hands:
        state = NoLimitTexasHoldem.create_state(
            POKERKIT_AUTOMATIONS,
            True,
            0,
            (1, 2),
            2,
            recorded.stacks,
            len(recorded.stacks),
            mode=Mode.CASH_GAME,
        )
        for hole in recorded.holes:
            state.deal_hole("".join(map(str, hole)))
        burns = iter(recorded.burns)
        for action in recorded.actions:
            kind = action.kind
            if kind == Kind.FOLD:
                state.fold()
            elif kind in (Kind.CHECK, Kind.CALL):
                state.check_or_call()
            elif kind in (Kind.BET, Kind.RAISE):
                state.complete_bet_or_raise_to(action.amount)
            elif kind == Kind.DEAL_BOARD:
                state.burn_card(str(next(burns)))
                state.deal_board("".join(map(str, action.cards)))
            # Shows are automated in pokerkit (HOLE_CARDS_SHOWING_OR_MUCKING).
        assert tuple(state.stacks) == recorded.finishing or sum(state.stacks) == sum(
            recorded.finishing
        )


def _median_rate(function: object, hands: list[Recorded], repeats: int) -> float:
    rates = []
    for _ in range(repeats):
        started = time.perf_counter()
        function(hands)  # type: ignore[operator]
        rates.append(len(hands) / (time.perf_counter() - started))
    return statistics.median(rates)


def run(n: int = 2000, seed: int = 7, repeats: int = 5) -> dict[str, float]:
    """Median hands per second for each engine over the same hands, and the ratio."""
    hands = generate(n, seed)
    showdowns = sum(1 for h in hands if any(a.kind == Kind.SHOW for a in h.actions))
    ours = _median_rate(replay_ours, hands, repeats)
    theirs = _median_rate(replay_pokerkit, hands, repeats)
    return {
        "hands": n,
        "showdown_share": showdowns / n,
        "ours_hands_per_s": ours,
        "pokerkit_hands_per_s": theirs,
        "ratio": ours / theirs,
    }


def main() -> None:
    result = run()
    print(
        f"Hands replayed: {result['hands']:.0f} no-limit hands, 2-9 players, "
        f"{result['showdown_share']:.0%} with a showdown (median of 5 runs)"
    )
    print(f"  ours      {result['ours_hands_per_s']:>10,.0f} hands/s")
    print(f"  pokerkit  {result['pokerkit_hands_per_s']:>10,.0f} hands/s")
    print(f"  ratio     {result['ratio']:>10.1f}x  (target: at least 10x)")


if __name__ == "__main__":
    main()
