"""Benchmark: seat draws and balancing plans at the scale of the largest live events.

Run with ``python -m bench.bench_floor``. DESIGN.md asks for seat draws and balancing plans for
10,000 entries "well under a second"; the targets here are a 10,000-entry draw well under 1 s and
a plan after one bust well under 50 ms, in pure Python.

Three timings, each the median of ``repeats`` runs on the same seeded input:

- ``seat_draw``: 10,000 entries on 1,112 tables of 9 (T 7).
- ``plan_break``: that event after one bust. 9,999 players fit on 1,111 tables, so the plan breaks
  a table and draws seats for its players (T 10-B).
- ``plan_balance``: 9,995 players on 1,111 tables (four tables of 8); a bust at a table of 8
  leaves it 2 short, so the plan moves one next big blind (T 11-A).

The builders (:func:`build_tables`, :func:`bust`) are reusable by other floor benchmarks.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TypedDict

from tournaments.balancing import Plan, TableState, draw_break_order, plan
from tournaments.seating import SeatRef, seat_draw

ENTRIES = 10_000
TABLES = 1_112
SEATS = 9
REPEATS = 20


def time_ms(call: Callable[[], object], repeats: int) -> list[float]:
    """Wall time of each of ``repeats`` calls, in milliseconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def build_tables(
    seating: Mapping[int, SeatRef], seats: int, rng: random.Random
) -> list[TableState]:
    """Tables in play from a seat draw, each with the positions of a last hand (dead button).

    A random occupied seat was last hand's big blind; the occupied seats before it were the
    small blind and the button.
    """
    occupied: dict[int, dict[int, int]] = {}
    for entry, ref in seating.items():
        occupied.setdefault(ref.table, {})[ref.seat] = entry
    tables = []
    for number, players in sorted(occupied.items()):
        order = sorted(players)
        at = rng.randrange(len(order))
        tables.append(
            TableState(
                number=number,
                seats=seats,
                occupied=players,
                button=order[at - 2],
                small_blind=order[at - 1],
                big_blind=order[at],
            )
        )
    return tables


def bust(tables: list[TableState], number: int, rng: random.Random) -> list[TableState]:
    """The tables after one random player of table ``number`` is eliminated."""
    result = []
    for table in tables:
        if table.number == number:
            gone = rng.choice(sorted(table.occupied))
            table = replace(table, occupied={s: e for s, e in table.occupied.items() if s != gone})
        result.append(table)
    return result


def _plan_case(
    tables: list[TableState], order: Iterable[int], repeats: int, seed: int
) -> tuple[float, Plan]:
    break_order = tuple(order)
    result = plan(tables, random.Random(seed), max_table_size=SEATS, break_order=break_order)
    times = time_ms(
        lambda: plan(tables, random.Random(seed), max_table_size=SEATS, break_order=break_order),
        repeats,
    )
    return statistics.median(times), result


class FloorResults(TypedDict):
    """`run`'s medians (ms) and what the two plans did."""

    entries: int
    tables: int
    seats: int
    repeats: int
    seat_draw_ms: float
    plan_break_ms: float
    plan_break_moves: int
    plan_break_tables: tuple[int, ...]
    plan_balance_ms: float
    plan_balance_moves: int
    plan_balance_describe: tuple[str, ...]


def run(
    entries: int = ENTRIES, tables: int = TABLES, repeats: int = REPEATS, seed: int = 1
) -> FloorResults:
    """Time the seat draw and two plans after a bust: medians in ms, and what the plans did."""
    rng = random.Random(seed)
    ids = list(range(1, entries + 1))
    draw_ms = statistics.median(
        time_ms(lambda: seat_draw(ids, tables, SEATS, random.Random(seed)), repeats)
    )
    event = build_tables(seat_draw(ids, tables, SEATS, rng), SEATS, rng)
    order = draw_break_order((t.number for t in event), rng)
    break_ms, break_plan = _plan_case(bust(event, event[0].number, rng), order, repeats, seed)

    # 1,111 tables with four of them at 8: a bust there needs one balancing move, no break.
    smaller = build_tables(
        seat_draw(ids[: 9 * (tables - 1) - 4], tables - 1, SEATS, rng), SEATS, rng
    )
    short = next(t.number for t in smaller if len(t.occupied) < SEATS)
    balance_ms, balance_plan = _plan_case(bust(smaller, short, rng), order, repeats, seed)
    return {
        "entries": entries,
        "tables": tables,
        "seats": SEATS,
        "repeats": repeats,
        "seat_draw_ms": draw_ms,
        "plan_break_ms": break_ms,
        "plan_break_moves": len(break_plan.moves),
        "plan_break_tables": break_plan.broken_tables,
        "plan_balance_ms": balance_ms,
        "plan_balance_moves": len(balance_plan.moves),
        "plan_balance_describe": balance_plan.describe(),
    }


def main() -> None:
    results = run()
    print(
        f"{results['entries']:,} entries on {results['tables']:,} tables of {results['seats']}; "
        f"median of {results['repeats']} runs"
    )
    print(f"  seat draw (T 7)                         {results['seat_draw_ms']:8.2f} ms")
    print(
        f"  plan after a bust, table breaks (T 10-B) {results['plan_break_ms']:8.2f} ms "
        f"({results['plan_break_moves']} moves, table {results['plan_break_tables'][0]} breaks)"
    )
    print(
        f"  plan after a bust, balance (T 11-A)     {results['plan_balance_ms']:8.2f} ms "
        f"({results['plan_balance_moves']} move)"
    )
    for line in results["plan_balance_describe"]:
        print(f"    {line}")


if __name__ == "__main__":
    main()
