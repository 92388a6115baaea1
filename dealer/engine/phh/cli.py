"""The PHH command line: `python -m dealer.engine.phh replay FILE...` and `... legal FILE`.

`replay` prints one JSON object per hand, one per line, and exits 0 when every hand is ok (played
to the end, finishing stacks as stated), 1 otherwise. `legal` replays a hand that stops mid-way
and prints the betting decision due; it exits 1 with a JSON error when none is due or the history
is bad. Usage errors exit 2 (argparse). See docs/phh.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dealer.engine.errors import EngineError
from dealer.engine.phh.history import PhhError, history_from_fields, split_hands
from dealer.engine.phh.play import decision, replay, verify


def read_hands(path: str) -> list[dict[str, Any]]:
    """The raw TOML tables of the hands in a file; `PhhError` when it cannot be read or parsed."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise PhhError("The file is not UTF-8 text.", code="bad_toml") from None
    except OSError as error:
        raise PhhError(
            f"The file cannot be read: {error.strerror}.", code="unreadable_file"
        ) from None
    return split_hands(text)


def _error(path: str, index: int, error: EngineError) -> dict[str, object]:
    return {"file": path, "index": index, "ok": False, "error": error.as_dict()}


def replay_file(path: str) -> list[dict[str, object]]:
    """One result per hand of the file (a file that cannot be read or parsed gives one result)."""
    try:
        hands = read_hands(path)
    except EngineError as error:
        return [_error(path, 0, error)]
    results: list[dict[str, object]] = []
    for index, fields in enumerate(hands):
        try:
            state = verify(history_from_fields(fields))
        except EngineError as error:
            results.append(_error(path, index, error))
        else:
            results.append(
                {"file": path, "index": index, "ok": True, "finishing_stacks": list(state.stacks)}
            )
    return results


def legal_file(path: str, hand: int = 0) -> dict[str, object]:
    """The decision due at the end of the hand's history; `EngineError` when there is none."""
    hands = read_hands(path)
    if not 0 <= hand < len(hands):
        raise PhhError(
            f"The file holds {len(hands)} hand(s); there is no hand {hand}.", code="no_such_hand"
        )
    return decision(replay(history_from_fields(hands[hand])))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m dealer.engine.phh",
        description="Replay PHH hand histories (NT, FT, PT) strictly through the rules engine.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    replay_cmd = commands.add_parser(
        "replay", help="replay every hand; one JSON line per hand; exit 1 unless all are ok"
    )
    replay_cmd.add_argument("files", nargs="+", metavar="FILE")
    legal_cmd = commands.add_parser(
        "legal", help="print the betting decision due where a history stops"
    )
    legal_cmd.add_argument("file", metavar="FILE")
    legal_cmd.add_argument(
        "--hand", type=int, default=0, help="which hand of a multi-hand file (from 0)"
    )
    args = parser.parse_args(argv)
    if args.command == "replay":
        ok = True
        for path in args.files:
            for result in replay_file(path):
                ok = ok and bool(result["ok"])
                print(json.dumps(result), flush=True)
        return 0 if ok else 1
    try:
        print(json.dumps(legal_file(args.file, args.hand)))
    except EngineError as error:
        print(
            json.dumps(
                {"file": args.file, "index": args.hand, "ok": False, "error": error.as_dict()}
            )
        )
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
