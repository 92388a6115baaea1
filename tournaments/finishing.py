"""Finishing places from the bust record: who finishes above whom when players go out on the
same hand, at one table or, in hand-for-hand play, at several.

Pure Python, standard library only. The services (`tournaments.services.places`) read the bust
record, call `finishing_places` and store the answer; `payouts.split_places` then shares the
prizes of the places a tie covers.

The rules (docs/rules.md, "Finishing places"; T = the TDA rules):

- Players out on different hands: the later out finishes higher.
- Players out on the same hand at the same table: the one who started the hand with more chips
  finishes higher; equal starting stacks tie (T).
- Hand-for-hand (RP-8): players out on the same hand-for-hand hand at different tables tie (T).
  When one table loses several players on that hand and another table loses some too, each
  table's order stands and the tables are lined up from the bottom: the shortest starting
  stack(s) out at each table tie with each other, the next shortest at each table tie, and so
  on (our reading, A11: the TDA text does not say).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class Out:
    """One entry out of the event, as its bust record tells it.

    `when` orders the hands the players went out on (the chip ledger's position of the bust:
    a reopened hand keeps its first end's); `hand` names the hand (the bust group: one tablet
    hand, or one bust typed on the desk); `round` is the hand-for-hand hand it was dealt in, or
    None outside hand-for-hand; `table` is where the player sat."""

    entry_id: int
    when: int
    hand: int
    stack: int
    table: int | None = None
    round: int | None = None


def finishing_places(*, left: int, out: Sequence[Out]) -> dict[int, int]:
    """Each entry's finishing place (T, RP-8, A11): the `left` players still in hold places 1 to
    `left`; the players out follow, the latest hand first. Tied entries get the same place, the
    best of the places they cover (two tied below 6 players left both get 7th, covering 7-8),
    and the next entry's place counts them all."""
    places: dict[int, int] = {}
    place = left + 1
    for block in _blocks_latest_first(out):
        for tier in _tiers(block):
            for entry in tier:
                places[entry.entry_id] = place
            place += len(tier)
    return places


def _blocks_latest_first(out: Iterable[Out]) -> list[list[Out]]:
    """The busts grouped by the hand they went out on: one hand-for-hand hand (every table),
    or one hand outside hand-for-hand; the latest first."""
    blocks: dict[tuple[str, int], list[Out]] = {}
    for entry in out:
        key = ("round", entry.round) if entry.round else ("hand", entry.hand)
        blocks.setdefault(key, []).append(entry)
    return sorted(
        blocks.values(),
        key=lambda block: (-min(e.when for e in block), -max(e.hand for e in block)),
    )


def _tiers(block: Sequence[Out]) -> list[list[Out]]:
    """One hand's busts in finishing order, tied entries together (T; A11). Outside
    hand-for-hand the hand was at one table; a hand-for-hand hand's busts are that hand at each
    table (one hand per table: a table's busts typed on the desk one by one are still one
    hand)."""
    if block[0].round:
        tables: dict[object, list[Out]] = {}
        for entry in block:
            where = ("table", entry.table) if entry.table is not None else ("hand", entry.hand)
            tables.setdefault(where, []).append(entry)
        at_tables = list(tables.values())
    else:
        at_tables = [list(block)]
    by_depth: dict[int, list[Out]] = {}
    for table in at_tables:
        shorter = sorted({e.stack for e in table})  # the distinct starting stacks, shortest first
        for entry in table:
            by_depth.setdefault(shorter.index(entry.stack), []).append(entry)
    return [
        sorted(by_depth[depth], key=lambda e: e.entry_id)
        for depth in sorted(by_depth, reverse=True)
    ]
