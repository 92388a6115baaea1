"""The PHH command line: `python -m dealer.engine.phh replay FILE...` and `... legal FILE`.

`replay` prints one JSON object per hand, one per line, and exits 0 when every hand is ok: played
to the end (its finishing stacks as the file states them, when it does), or played to a showdown
whose winner the history cannot tell (`"status": "winner_unknown"`, with the pots in question).
It exits 1 otherwise. Amounts are printed in the file's own units (200.3, not 20030). `legal`
replays a hand that stops mid-way and prints the betting decision due; it exits 1 with a JSON
error when none is due or the history is bad. Usage errors exit 2 (argparse). See docs/phh.md.

`replay` reads and plays the plain no-limit hands of online histories in the fast lane (fast.py)
and every other hand on the strict path (history.py, play.py): the same answer either way.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Mapping, Sequence

from dealer.engine.errors import EngineError
from dealer.engine.phh import fast
from dealer.engine.phh.history import (
    HandHistory,
    PhhError,
    amount_writer,
    history_from_fields,
    split_hands,
)
from dealer.engine.phh.result import HandResult

# play.py (the strict path, with the engine's state machine) is imported only when a hand needs
# it: most of an online history's hands are the fast lane's, and start-up counts.


def read_text(path: str) -> str:
    """The file's text; `PhhError` when it cannot be read or is not UTF-8."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as error:
        raise PhhError(
            f"The file cannot be read: {error.strerror}.", code="unreadable_file"
        ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise PhhError("The file is not UTF-8 text.", code="bad_toml") from None


def read_hands(path: str) -> list[Mapping[str, object]]:
    """The raw TOML tables of the hands in a file; `PhhError` when it cannot be read or parsed."""
    return split_hands(read_text(path))


def _error(path: str, index: int, error: EngineError) -> str:
    import json

    return json.dumps({"file": path, "index": index, "ok": False, "error": error.as_dict()})


def result_line(path: str, index: int, history: HandHistory, result: HandResult) -> str:
    """A hand's JSON line. A complete hand: `finishing_stacks`; a hand whose winner is unknown:
    `"status": "winner_unknown"` and `pots` (amount, contenders, the unknown ones among them).
    `notes` when a check field was not applied or differs as the rules allow (play.py)."""
    text = _WRITERS.get(history.scale)
    if text is None:
        text = _WRITERS[history.scale] = amount_writer(history.scale)
    head = '{"file": ' + _quoted(path) + ', "index": ' + str(index) + ', "ok": true'
    if result.status == "complete":
        body = ', "finishing_stacks": [' + ", ".join(map(text, result.stacks)) + "]"
    else:
        pots = ", ".join(
            '{"amount": '
            + text(pot.amount)
            + ', "contenders": '
            + _names(pot.contenders)
            + ', "unknown": '
            + _names(pot.unknown)
            + "}"
            for pot in result.pots
        )
        body = ', "status": ' + _quoted(result.status) + ', "pots": [' + pots + "]"
    if result.notes:
        notes = ", ".join(_quoted(k) + ": " + _quoted(v) for k, v in result.notes.items())
        body += ', "notes": {' + notes + "}"
    return head + body + "}"


_WRITERS: dict[int, Callable[[int], str]] = {}  # scale -> amount_writer(scale)
_QUOTED: dict[str, str] = {}  # text -> the text as a JSON string (file names, notes)


def _quoted(text: str) -> str:
    """The text as a JSON string, as `json.dumps` writes it."""
    quoted = _QUOTED.get(text)
    if quoted is None:
        if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
            quoted = '"' + text + '"'  # nothing to escape
        else:
            import json

            quoted = json.dumps(text)
        if len(_QUOTED) < 10_000:
            _QUOTED[text] = quoted
    return quoted


def _names(players: Sequence[int]) -> str:
    """PHH player names as a JSON array: [0, 2] -> '["p1", "p3"]'."""
    return "[" + ", ".join(f'"p{i + 1}"' for i in players) + "]"


def replay_file(path: str) -> list[tuple[bool, str]]:
    """(ok, JSON line) for each hand of the file (one error line for a file that cannot be read
    or parsed): the fast lane for the hands it takes, the strict path for the others."""
    try:
        text = read_text(path)
    except EngineError as error:
        return [(False, _error(path, 0, error))]
    quick = fast.scan(text) or None  # an empty list too: the strict path says what is wrong
    fields: list[Mapping[str, object]] | None = None
    if quick is None or None in quick:
        try:
            fields = split_hands(text)
        except EngineError as error:
            return [(False, _error(path, 0, error))]
    count = len(fields) if fields is not None else len(quick or ())
    lines: list[tuple[bool, str]] = []
    for index in range(count):
        history = quick[index] if quick is not None else None
        try:
            result = fast.play(history) if history is not None else None
            if result is None:
                from dealer.engine.phh.play import outcome

                if fields is None:
                    fields = split_hands(text)
                history = history_from_fields(fields[index])
                result = outcome(history)
            assert history is not None
            lines.append((True, result_line(path, index, history, result)))
        except EngineError as error:
            lines.append((False, _error(path, index, error)))
    return lines


def legal_file(path: str, hand: int = 0) -> dict[str, object]:
    """The decision due at the end of the hand's history; `EngineError` when there is none."""
    from dealer.engine.phh.play import decision, replay

    hands = read_hands(path)
    if not 0 <= hand < len(hands):
        raise PhhError(
            f"The file holds {len(hands)} hand(s); there is no hand {hand}.", code="no_such_hand"
        )
    return decision(replay(history_from_fields(hands[hand])))


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1 and args[0] == "replay" and not any(a.startswith("-") for a in args[1:]):
        return _replay(args[1:])
    import argparse  # only for help, usage errors and `legal`
    import json

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
    parsed = parser.parse_args(args)
    if parsed.command == "replay":
        return _replay(parsed.files)
    try:
        print(json.dumps(legal_file(parsed.file, parsed.hand)))
    except EngineError as error:
        print(
            json.dumps(
                {"file": parsed.file, "index": parsed.hand, "ok": False, "error": error.as_dict()}
            )
        )
        return 1
    return 0


def _replay(paths: Sequence[str]) -> int:
    gc.freeze()  # what the imports made stays: the collector need not go over it again
    ok = True
    out = sys.stdout
    for path in paths:
        results = replay_file(path)
        ok = ok and all(good for good, _ in results)
        out.write("".join(line + "\n" for _, line in results))
        out.flush()
    return 0 if ok else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
