"""The chip ledger: the only code that changes an entry's chips.

Every change is one appended `ChipMove` row; `Entry.chips` is the running total of the entry's
rows, kept on the entry for reads, with where the latest figure came from (`chips_source`) and
when. Callers hold the tournament's lock (floor writes) or the hand's (a hand's end); the entry
rows are locked here as well, so two writers never add to a stale total.

The books are read, and proved to balance, by `tournaments.selectors.books`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connection

from common.actors import Actor, signed_in
from common.errors import FloorError
from tournaments.models import ChipMove, Entry
from tournaments.services.versions import tournament_bump

Kind = ChipMove.Kind
SOURCE_LENGTH = Entry._meta.get_field("chips_source").max_length or 120


@dataclass(frozen=True, slots=True, kw_only=True)
class HandRef:
    """The hand a row comes from: its id, and its table and number to say so to people."""

    hand_id: int
    table_number: int
    hand_number: int
    # The hand-for-hand hand it was dealt for (RP-8), or None: its busts share that hand's place
    # even when it is reopened and ends again after the next hand-for-hand hand has opened.
    hand_for_hand_round: int | None = None


def _source(kind: str, note: str, hand: HandRef | None) -> str:
    """Where an entry's count came from, as the floor says it."""
    if hand is not None:
        where = f"hand {hand.hand_number} at table {hand.table_number}"
        if kind == Kind.HAND:
            return f"after {where}"
        if kind == Kind.HAND_REVERSED:
            return f"{where} reopened"
        if kind == Kind.BUST:
            return f"out on {where}"
    words = {
        Kind.BUY_IN: "starting stack",
        Kind.REBUY: "rebuy",
        Kind.ADDON: "add-on",
        Kind.BONUS: "bonus chips",
        Kind.COUNT: "counted",
        Kind.CORRECTION: "corrected by the floor",
        Kind.COLOUR_UP: "colour-up",
        Kind.BUST: "out",
        Kind.UNBUST: "bust undone",
        Kind.KNOCKOUT: "estimated",
    }
    said = words.get(Kind(kind), str(kind))
    if not note or kind not in (Kind.COUNT, Kind.COLOUR_UP, Kind.KNOCKOUT):
        return said
    room = SOURCE_LENGTH - len(said) - 3
    return f"{said} ({note if len(note) <= room else note[: room - 1] + '…'})"


def chips_move(
    *,
    entry: Entry,
    kind: str,
    delta: int,
    now: datetime,
    actor: Actor = None,
    note: str = "",
    hand: HandRef | None = None,
) -> ChipMove:
    """Append one row to an entry's ledger and bring its chips to the new total."""
    return chips_moves(
        changes=[(entry, delta)], kind=kind, now=now, actor=actor, note=note, hand=hand
    )[0]


def chips_moves(
    *,
    changes: Sequence[tuple[Entry, int]],
    kind: str,
    now: datetime,
    actor: Actor = None,
    note: str = "",
    hand: HandRef | None = None,
    from_entry: Entry | None = None,
) -> list[ChipMove]:
    """Append one row per (entry, delta), all of one kind, in a few statements. The entries'
    totals are read locked, so a stale `Entry` in memory never decides a balance; the objects
    passed in are brought up to date. A change that would leave a stack below zero is refused
    (409) and nothing is written. Knockout rows name the busted entry they move chips from
    (`from_entry`, KO-4), and only they do."""
    if (kind == Kind.KNOCKOUT) != (from_entry is not None):
        raise ValueError("a knockout row, and only a knockout row, names the entry busted")
    if not changes:
        return []
    ids = [entry.pk for entry, _ in changes]
    current = dict(
        Entry.objects.select_for_update()
        .filter(pk__in=ids)
        .order_by("pk")
        .values_list("pk", "chips")
    )
    user = signed_in(actor)
    source = _source(kind, note, hand)
    rows: list[ChipMove] = []
    for entry, delta in changes:
        balance = current[entry.pk] + delta
        if balance < 0:
            raise FloorError(
                "negative_chips",
                f"{entry.player.name} has {current[entry.pk]:,} chips: "
                f"{-delta:,} cannot be taken off.",
            )
        current[entry.pk] = balance
        entry.chips, entry.chips_source, entry.chips_at = balance, source, now
        rows.append(
            ChipMove(
                tournament_id=entry.tournament_id,
                entry_id=entry.pk,
                kind=kind,
                delta=delta,
                balance=balance,
                hand_id=hand.hand_id if hand else None,
                table_number=hand.table_number if hand else None,
                hand_number=hand.hand_number if hand else None,
                note=note[:200],
                from_entry=from_entry,
                actor=user,
                created_at=now,
            )
        )
    created = ChipMove.objects.bulk_create(rows)
    for tournament_id in {entry.tournament_id for entry, _ in changes}:
        tournament_bump(tournament_id)
    _write_totals([(entry.pk, entry.chips) for entry, _ in changes], source, now)
    return created


def _write_totals(totals: Sequence[tuple[int, int]], source: str, now: datetime) -> None:
    """Bring many entries' chips to their new totals in a few statements: one UPDATE from a
    VALUES list per 2,000 entries (a `bulk_update` builds a CASE with a branch per entry, which
    takes seconds for a Day 2 field of thousands)."""
    table = Entry._meta.db_table
    for first in range(0, len(totals), 2000):
        batch = totals[first : first + 2000]
        values = ", ".join(["(%s, %s)"] * len(batch))
        params: list[int | str | datetime] = [value for row in batch for value in row]
        with connection.cursor() as cursor:  # only placeholders are formatted into the SQL
            cursor.execute(
                f"WITH v(id, chips) AS (VALUES {values}) "
                f"UPDATE {table} SET chips = v.chips, chips_source = %s, chips_at = %s "
                f"FROM v WHERE {table}.id = v.id",
                [*params, source, now],
            )
