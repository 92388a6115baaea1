"""What the floor reads of the hands its tables play. The hands are the dealer app's
(`dealer.models.Hand`), and the floor app imports nothing of that app but its engine (an import
contract): the dealer app hands the floor this reader when Django starts (`dealer.apps`), and
the floor's selectors ask it.

- `tables_in_hand`: the numbers of a tournament's tables with a hand in progress (bagging waits
  for them);
- `rules_in_hand`: a table's hand in progress, its number and the rules it was dealt with (a
  change of rules applies from the next hand), or None between hands;
- `reopen_offers`: each table's last completed hand a director may reopen, by table id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from dealer.engine.rules import OptionValue


@dataclass(frozen=True, slots=True, kw_only=True)
class ReopenOffer:
    """A table's hand a director may reopen: its id, number and version (sent back)."""

    hand_id: int
    number: int
    version: int


@dataclass(frozen=True, slots=True)
class HandRules:
    """A hand in progress: its number and the rules it was dealt with (options by name)."""

    number: int
    rules: dict[str, OptionValue]


class HandReader(Protocol):
    def tables_in_hand(self, tournament_id: int) -> list[int]: ...

    def rules_in_hand(self, table_id: int) -> HandRules | None: ...

    def reopen_offers(self, table_ids: Sequence[int]) -> dict[int, ReopenOffer]: ...


_reader: HandReader | None = None


def hand_reader_set(reader: HandReader) -> None:
    """Called once, by the dealer app when it is ready."""
    global _reader
    _reader = reader


def hand_reader() -> HandReader:
    if _reader is None:
        raise RuntimeError("The dealer app is not installed: nobody reads the tables' hands.")
    return _reader
