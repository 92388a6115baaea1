"""pokerkit's side of the PHH replay bench: load each file, play every hand to its end.

    .venv/bin/python -m bench.pokerkit_replay FILE...

What a pokerkit user does with a PHH file: `HandHistory.load_all` (or `load` for a one-hand
file) reads it, and iterating a hand history plays every action on a pokerkit `State`. One JSON
line per hand with the final stacks, as our `python -m dealer.engine.phh replay` prints them, so
the two can be compared line by line (pokerkit's stacks are written as numbers in the file's
units; a hand pokerkit cannot play prints its error). Exit 0 when every hand played, 1 otherwise.

It is the reference for `bench/bench_phh.py` and for the "PHH replay" figures in
docs/performance.md: both programs run as whole processes on the same files.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Sequence


def replay_file(path: str) -> list[dict[str, object]]:
    from pokerkit import HandHistory

    with open(path, "rb") as file:
        histories = (
            list(HandHistory.load_all(file)) if path.endswith(".phhs") else [HandHistory.load(file)]
        )
    results: list[dict[str, object]] = []
    for index, history in enumerate(histories):
        try:
            state = None
            for state in history:  # noqa: B007 - iterating plays the hand; the last state is kept
                pass
            assert state is not None
            stacks = [float(stack) if stack % 1 else int(stack) for stack in state.stacks]
        except Exception as error:  # any failure of the hand is reported
            results.append({"file": path, "index": index, "ok": False, "error": repr(error)})
        else:
            results.append({"file": path, "index": index, "ok": True, "finishing_stacks": stacks})
    return results


def main(argv: Sequence[str] | None = None) -> int:
    paths = list(sys.argv[1:] if argv is None else argv)
    if not paths:
        print("usage: python -m bench.pokerkit_replay FILE...", file=sys.stderr)
        return 2
    warnings.simplefilter("ignore")  # pokerkit warns about user-defined fields and odd folds
    ok = True
    out = sys.stdout
    for path in paths:
        for result in replay_file(path):
            ok = ok and bool(result["ok"])
            out.write(json.dumps(result) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
