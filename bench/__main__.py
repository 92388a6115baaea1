"""`python -m bench`: every benchmark in turn (the figures go into docs/performance.md)."""

from __future__ import annotations

import platform
import subprocess
import sys

from bench import (
    bench_eval,
    bench_floor,
    bench_hands,
    bench_phh,
    bench_state,
    bench_taps,
    bench_tournament,
)


def main() -> None:
    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{platform.processor() or 'unknown CPU'}"
    )
    print()
    print("== 7-card evaluation (bench/bench_eval.py) ==")
    bench_eval.main()
    print()
    print("== Whole hands with showdowns (bench/bench_hands.py) ==")
    bench_hands.main()
    print()
    print("== Taps a dealer needs per hand on the tablet (bench/bench_taps.py) ==")
    bench_taps.main()
    print()
    print("== PHH replay from text through the command line (bench/bench_phh.py) ==")
    bench_phh.main()
    print()
    print("== A hand's stored state: JSON, pickle or replay (bench/bench_state.py) ==")
    bench_state.main()
    print()
    print("== Floor logic in memory, 10,000 entries (bench/bench_floor.py) ==")
    bench_floor.main()
    print()
    print("== Floor services on PostgreSQL, 10,000 entries (bench/bench_tournament.py) ==")
    bench_tournament.main()
    print()
    print("== The Day 2 draw from 5,000 survivors of three flights (bench/bench_day2.py) ==")
    sys.stdout.flush()
    # A process of its own: it sets Django up on its own throwaway database.
    subprocess.run([sys.executable, "-m", "bench.bench_day2"], check=True)
    print()
    print("== One dealer write in-process, 40 tables (bench/bench_write_cpu.py) ==")
    sys.stdout.flush()
    # Processes of their own: Django is set up here already, on another throwaway database.
    subprocess.run([sys.executable, "-m", "bench.bench_write_cpu"], check=True)
    print()
    print("== The registration desk in-process, 50 and 1,000 entries (bench/bench_desk.py) ==")
    sys.stdout.flush()
    subprocess.run([sys.executable, "-m", "bench.bench_desk"], check=True)
    print()
    print("== Dealer actions through gunicorn on PostgreSQL, 40 tables (bench/bench_actions.py) ==")
    sys.stdout.flush()
    subprocess.run([sys.executable, "-m", "bench.bench_actions"], check=True)
    print()
    print("== Public polling through gunicorn on PostgreSQL, 45 and 10,000 entries ==")
    print("== (bench/bench_polling.py) ==")
    sys.stdout.flush()
    subprocess.run([sys.executable, "-m", "bench.bench_polling"], check=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
