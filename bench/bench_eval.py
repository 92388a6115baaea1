"""Benchmark: 7-card hand evaluation, ours against treys and pokerkit.

Run with ``python -m bench.bench_eval``. Every evaluator sees the same random hands (2 hole cards
and a 5-card board from a seeded ``random.Random``). Each is timed over all hands with
``time.perf_counter``, ``REPEATS`` times; the table reports the median evaluations per second.

Our evaluator fills its rank-count cache lazily, so the first pass over new hands is slower: the
"cold" column is that first pass (ours only), the median is over warm passes like the others'.
pokerkit is far slower (about 20 s for the default 20,000 hands x 5 passes); ``pokerkit_limit``
times it on only the first hands when that is too long.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Literal, NotRequired, TypedDict

from dealer.engine.cards import DeckKind, deck, format_cards
from dealer.engine.ranking import Ranker

REPEATS = 5


def _time(evaluate: Callable[[], object], count: int, repeats: int) -> list[float]:
    """Evaluations per second for each of ``repeats`` timed passes."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        evaluate()
        rates.append(count / (time.perf_counter() - start))
    return rates


class EvalResults(TypedDict):
    """`run`'s figures: evaluations per second (None: the library is not installed)."""

    hands: int
    seed: int
    repeats: int
    ours_cold: float
    ours: float
    treys: float | None
    pokerkit: float | None
    pokerkit_hands: int | None
    ours_over_treys: NotRequired[float | None]
    ours_over_pokerkit: NotRequired[float | None]


Figure = Literal["ours", "ours_cold", "treys", "pokerkit", "ours_over_treys", "ours_over_pokerkit"]


def run(n: int = 20000, seed: int = 1, pokerkit_limit: int | None = None) -> EvalResults:
    """Time ours, treys and pokerkit on the same ``n`` random 7-card hands.

    ``pokerkit_limit`` times pokerkit on only that many of the hands (all of them by default).

    Returns the hand count, median evaluations per second per evaluator (``None`` when a library
    is not installed), our cold first pass, and the ratios ours/treys and ours/pokerkit.
    """
    rng = random.Random(seed)
    cards = deck(DeckKind.STANDARD)
    hands = [tuple(rng.sample(cards, 7)) for _ in range(n)]
    ranker = Ranker()
    value = ranker.value

    def ours() -> None:
        for hand in hands:
            value(hand)

    # The cache is per process, so this first pass is only truly cold in a fresh process (as
    # under `python -m bench.bench_eval`); it shows what a new server pays until it warms up.
    cold = _time(ours, n, 1)[0]
    results: EvalResults = {
        "hands": n,
        "seed": seed,
        "repeats": REPEATS,
        "ours_cold": cold,
        "ours": statistics.median(_time(ours, n, REPEATS)),
        "treys": None,
        "pokerkit": None,
        "pokerkit_hands": None,
    }

    try:
        import treys
    except ImportError:  # pragma: no cover - optional reference library
        pass
    else:
        evaluator = treys.Evaluator()
        as_treys = [[treys.Card.new(str(card)) for card in hand] for hand in hands]
        pairs = [(hand[2:], hand[:2]) for hand in as_treys]

        def treys_run() -> None:
            for board, hole in pairs:
                evaluator.evaluate(board, hole)

        results["treys"] = statistics.median(_time(treys_run, n, REPEATS))

    try:
        from pokerkit import StandardHighHand
    except ImportError:  # pragma: no cover - optional reference library
        pass
    else:
        some = hands if pokerkit_limit is None else hands[:pokerkit_limit]
        texts = [(format_cards(hand[:2], ""), format_cards(hand[2:], "")) for hand in some]

        def pokerkit_run() -> None:
            for hole, board in texts:
                StandardHighHand.from_game(hole, board)

        results["pokerkit"] = statistics.median(_time(pokerkit_run, len(texts), REPEATS))
        results["pokerkit_hands"] = len(texts)

    results["ours_over_treys"] = results["ours"] / results["treys"] if results["treys"] else None
    results["ours_over_pokerkit"] = (
        results["ours"] / results["pokerkit"] if results["pokerkit"] else None
    )
    return results


def _format_rows(results: EvalResults) -> Sequence[str]:
    def rate(key: Figure) -> str:
        value = results.get(key)
        return "not installed" if value is None else f"{value:>12,.0f}"

    def ratio(key: Figure) -> str:
        value = results.get(key)
        return "-" if value is None else f"{value:.1f}x"

    return [
        f"7-card evaluation, {results['hands']:,} random hands (seed {results['seed']}), "
        f"median of {results['repeats']} passes",
        f"{'evaluator':<34}{'evals/s':>14}{'ours is':>10}",
        f"{'ours Ranker.value (warm)':<34}{rate('ours'):>14}{'':>10}",
        f"{'ours Ranker.value (cold 1st pass)':<34}{rate('ours_cold'):>14}{'':>10}",
        f"{'treys Evaluator.evaluate':<34}{rate('treys'):>14}{ratio('ours_over_treys'):>10}",
        f"{'pokerkit StandardHighHand':<34}{rate('pokerkit'):>14}{ratio('ours_over_pokerkit'):>10}",
        f"(pokerkit timed on the first {results['pokerkit_hands']:,} hands)"
        if results["pokerkit_hands"] not in (None, results["hands"])
        else "",
    ]


def main() -> None:
    """Print the benchmark table."""
    for line in _format_rows(run()):
        if line:
            print(line)


if __name__ == "__main__":
    main()
