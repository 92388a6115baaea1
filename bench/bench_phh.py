"""PHH replay from text, through the command line: ours against pokerkit on the same files.

The corpus is every `.phhs` file under bench/data/phh/ (real no-limit hands from the PHH dataset:
see the README there). Each command runs as a whole process, start-up and imports included, as a
user runs it:

    ours      python -m dealer.engine.phh replay FILE...
    pokerkit  python -m bench.pokerkit_replay FILE...   (HandHistory.load_all, every hand played)

The two alternate (ours, pokerkit, ours, ...), after one run of each that is not counted (it
also writes Python's bytecode cache: both run with one, as installed programs do, whatever
PYTHONDONTWRITEBYTECODE says). Wall-clock and CPU (user + system) seconds per run; medians of
`RUNS` runs, and the ratio of the medians. Run: `python -m bench.bench_phh` (or `make bench`).
"""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = sorted((ROOT / "bench" / "data" / "phh").glob("*.phhs"))
RUNS = 7


def commands(files: list[str]) -> dict[str, list[str]]:
    return {
        "ours": [sys.executable, "-m", "dealer.engine.phh", "replay", *files],
        "pokerkit": [sys.executable, "-m", "bench.pokerkit_replay", *files],
    }


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def timed(command: list[str]) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds, standard output) of one run of the command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(
        command, cwd=ROOT, env=_environment(), capture_output=True, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, completed.stdout


def agreement(ours: bytes, theirs: bytes) -> dict[str, int]:
    """How the two answers compare hand by hand: the same finishing stacks, a winner we call
    unknown (pokerkit pays the known hand), a hand we refuse (a check field the actions
    contradict: pokerkit does not read check fields), and other differences (a pot split to the
    cent: pokerkit splits it to fractions of a cent)."""
    counts = {"same": 0, "winner_unknown": 0, "refused": 0, "different": 0}
    for mine, other in zip(ours.splitlines(), theirs.splitlines(), strict=True):
        a, b = json.loads(mine), json.loads(other)
        if a.get("status") == "winner_unknown":
            counts["winner_unknown"] += 1
        elif not a["ok"]:
            counts["refused"] += 1
        elif [Decimal(str(v)) for v in a["finishing_stacks"]] == [
            Decimal(str(v)) for v in b["finishing_stacks"]
        ]:
            counts["same"] += 1
        else:
            counts["different"] += 1
    return counts


@dataclass(frozen=True, slots=True)
class Result:
    files: int
    bytes: int
    hands: int
    wall: dict[str, float]  # median seconds per run, by command
    cpu: dict[str, float]
    agreement: dict[str, int]

    @property
    def wall_ratio(self) -> float:
        return self.wall["pokerkit"] / self.wall["ours"]

    @property
    def cpu_ratio(self) -> float:
        return self.cpu["pokerkit"] / self.cpu["ours"]


def run(runs: int = RUNS) -> Result:
    files = [str(path.relative_to(ROOT)) for path in CORPUS]
    todo = commands(files)
    outputs = {name: timed(command)[2] for name, command in todo.items()}  # warm-up
    walls: dict[str, list[float]] = {name: [] for name in todo}
    cpus: dict[str, list[float]] = {name: [] for name in todo}
    for _ in range(runs):
        for name, command in todo.items():
            wall, cpu, _ = timed(command)
            walls[name].append(wall)
            cpus[name].append(cpu)
    return Result(
        files=len(files),
        bytes=sum(path.stat().st_size for path in CORPUS),
        hands=len(outputs["ours"].splitlines()),
        wall={name: statistics.median(values) for name, values in walls.items()},
        cpu={name: statistics.median(values) for name, values in cpus.items()},
        agreement=agreement(outputs["ours"], outputs["pokerkit"]),
    )


def main() -> None:
    result = run()
    print(
        f"Corpus: {result.hands} hands in {result.files} file(s), {result.bytes:,} bytes "
        f"(bench/data/phh); whole processes, median of {RUNS} runs"
    )
    print(f"Python {platform.python_version()}, {os.cpu_count()} CPU(s)")
    wall, cpu = result.wall, result.cpu
    print("                                    wall s    cpu s")
    print(f"  ours: python -m dealer.engine.phh {wall['ours']:>7.3f}  {cpu['ours']:>7.3f}")
    print(f"  pokerkit: bench.pokerkit_replay   {wall['pokerkit']:>7.3f}  {cpu['pokerkit']:>7.3f}")
    print(
        f"  ratio                             {result.wall_ratio:>7.1f}x "
        f"{result.cpu_ratio:>7.1f}x  (target: at least 10x)"
    )
    print(f"  answers compared hand by hand: {result.agreement}")


if __name__ == "__main__":
    main()
