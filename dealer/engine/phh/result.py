"""How a replayed PHH hand ends (`HandResult`), and the check of the file's finishing stacks and
winnings against it: shared by the strict path (play.py) and the fast lane (fast.py).

A module of its own so that the fast lane, and the command line's start-up, need not import the
engine's state machine (play.py and what it imports) for hands the lane plays itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from dealer.engine.phh.history import HandHistory, PhhError

__all__ = ["HandResult", "UnknownPot", "compare_checks"]


@dataclass(frozen=True, slots=True, kw_only=True)
class UnknownPot:
    """A pot at a hand whose winner is unknown: its chips, who contests it, and which of them
    tabled cards the history does not know. Players are our indices."""

    amount: int
    contenders: tuple[int, ...]
    unknown: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandResult:
    """How a replayed hand ends, in whole units of the hand.

    `status` is "complete" (every pot awarded: `stacks` are the finishing stacks, `won` what
    each player won from the pot) or "winner_unknown" (a pot is contested by a hand tabled with
    unknown cards: `stacks` are the chips behind, `pots` every pot with its contenders, `won` is
    None). `notes` says, for each check field given, why it was not applied or how it matched
    ("the pot less 1.40 (the rake)").
    """

    status: str
    stacks: tuple[int, ...]
    won: tuple[int, ...] | None = None
    pots: tuple[UnknownPot, ...] = ()
    notes: dict[str, str] = dataclasses.field(default_factory=dict)


def compare_checks(
    history: HandHistory,
    stacks: Sequence[int],
    won: Sequence[int],
    back: Sequence[int],
    notes: dict[str, str],
) -> None:
    """Compare the file's finishing stacks and winnings with a complete hand's.

    `finishing_stacks` must be ours exactly (`finishing_stacks_mismatch`). `winnings` is what
    each player won from the pot (`won`), as a site counts it: after its rake, and some sites
    count an uncalled bet taken back (`back`; the big blind's unmatched half when everyone
    folds) as won. So a player's winnings may be anything from 0 up to what we paid them plus
    what they took back; more, or winnings for a player who neither won nor took anything back,
    is `winnings_mismatch`. When they are not exactly `won`, `notes` says how they differ.
    """
    if history.finishing_stacks is not None and history.finishing_stacks != list(stacks):
        raise PhhError(
            f"The file's finishing stacks {_amounts(history, history.finishing_stacks)} differ "
            f"from the replay's {_amounts(history, stacks)}.",
            code="finishing_stacks_mismatch",
        )
    winnings = history.winnings
    if winnings is None or winnings == list(won):
        return
    gross = [w + b for w, b in zip(won, back, strict=True)]
    if any(w > most for w, most in zip(winnings, gross, strict=True)):
        raise PhhError(
            f"The file's winnings {_amounts(history, winnings)} are more than the replay pays "
            f"{_amounts(history, won)} (with the uncalled bets taken back: "
            f"{_amounts(history, gross)}).",
            code="winnings_mismatch",
        )
    if winnings == gross:
        notes["winnings"] = "counts the uncalled bet taken back as won"
    elif all(w <= ours for w, ours in zip(winnings, won, strict=True)):
        rake = sum(won) - sum(winnings)
        notes["winnings"] = f"the pot less {history.amount_text(rake)} (the rake)"
    else:
        notes["winnings"] = (
            f"not the replay's {_amounts(history, won)}, but within what it pays with the "
            f"uncalled bets taken back {_amounts(history, gross)}"
        )


def _amounts(history: HandHistory, values: Sequence[int]) -> str:
    return "[" + ", ".join(history.amount_text(v) for v in values) + "]"
