"""The chip ledger: the only code that changes an entry's chips.

Every change is one appended `ChipMove` row; `Entry.chips` is the running total of the entry's
rows, kept on the entry for reads, with where the latest figure came from (`chips_source`) and
when. Callers hold the tournament's lock (floor writes) or the hand's (a hand's end); the entry
rows are locked here as well, so two writers never add to a stale total.

`chips_check` replays the ledgers and proves the books balance: each entry's rows add up to its
chips, each hand's rows add up to nothing (a hand moves chips, it makes none), busted entries
hold none, and the chips in play are the chips issued, less colour-ups, plus the floor's
recorded corrections.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Sum

from tournaments.models import ChipMove, Entry, Tournament
from tournaments.services.errors import FloorError

Kind = ChipMove.Kind
SOURCE_LENGTH = Entry._meta.get_field("chips_source").max_length or 120

# Chips that enter the tournament, and chips a colour-up or chip race takes out (or rounds in).
ISSUED = (Kind.BUY_IN, Kind.REBUY, Kind.ADDON, Kind.BONUS)
REMOVED = (Kind.COLOUR_UP,)
# The floor setting a stack right (with who and why); chips that went where nobody recorded.
FLOOR = (Kind.COUNT, Kind.CORRECTION, Kind.BUST, Kind.UNBUST)
# The floor's counts: each says what a stack is now (a hand before it is part of the figure).
FLOOR_COUNTS = (Kind.COUNT, Kind.CORRECTION, Kind.COLOUR_UP)
# Chips moved between players by hands: each hand's rows add up to zero.
HANDS = (Kind.HAND, Kind.HAND_REVERSED)


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
    }
    said = words.get(Kind(kind), str(kind))
    if not note or kind not in (Kind.COUNT, Kind.COLOUR_UP):
        return said
    room = SOURCE_LENGTH - len(said) - 3
    return f"{said} ({note if len(note) <= room else note[: room - 1] + '…'})"


def chips_move(
    *,
    entry: Entry,
    kind: str,
    delta: int,
    now: datetime,
    actor: Any = None,
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
    actor: Any = None,
    note: str = "",
    hand: HandRef | None = None,
) -> list[ChipMove]:
    """Append one row per (entry, delta), all of one kind, in a few statements. The entries'
    totals are read locked, so a stale `Entry` in memory never decides a balance; the objects
    passed in are brought up to date. A change that would leave a stack below zero is refused
    (409) and nothing is written."""
    if not changes:
        return []
    ids = [entry.pk for entry, _ in changes]
    current = dict(
        Entry.objects.select_for_update()
        .filter(pk__in=ids)
        .order_by("pk")
        .values_list("pk", "chips")
    )
    user = actor if getattr(actor, "is_authenticated", False) else None
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
                actor=user,
                created_at=now,
            )
        )
    created = ChipMove.objects.bulk_create(rows)
    Entry.objects.bulk_update(
        [entry for entry, _ in changes], ["chips", "chips_source", "chips_at"]
    )
    return created


# --- reading the books -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Books:
    """A tournament's chips by where they came from. `in_play` is what exists at the tables
    (issued less colour-ups): the figure the clock and the phone pages show; `stacks` is what
    the entries' counts add up to, which differs from it by the floor's corrections."""

    issued: int
    removed: int
    corrections: int
    hands: int
    stacks: int

    @property
    def in_play(self) -> int:
        return self.issued + self.removed


def chips_in_play(tournament: Tournament) -> int:
    """Chips issued less colour-ups: the chips in play a tournament clock shows. One sum over
    the rows that issue or remove chips (on the tournament-and-kind index), however many hands
    have been played: the public pages ask for it on every poll."""
    total = ChipMove.objects.filter(tournament=tournament, kind__in=ISSUED + REMOVED).aggregate(
        s=Sum("delta")
    )["s"]
    return int(total or 0)


def tournament_books(tournament: Tournament) -> Books:
    """The ledger's sums by kind, and the entries' chips (two queries)."""
    sums = dict(
        ChipMove.objects.filter(tournament=tournament)
        .values_list("kind")
        .annotate(total=Sum("delta"))
        .values_list("kind", "total")
    )
    stacks = (
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).aggregate(
            s=Sum("chips")
        )["s"]
        or 0
    )

    def total(kinds: tuple[str, ...]) -> int:
        return int(sum(sums.get(k, 0) or 0 for k in kinds))

    return Books(
        issued=total(ISSUED),
        removed=total(REMOVED),
        corrections=total(FLOOR),
        hands=total(HANDS),
        stacks=int(stacks),
    )


def chips_check(tournament: Tournament | None = None) -> list[str]:
    """Replay the ledgers (of one tournament, or all) and say what does not add up (an empty
    list when the books balance)."""
    tournaments = [tournament] if tournament else list(Tournament.objects.order_by("pk"))
    problems: list[str] = []
    for event in tournaments:
        problems += _check_tournament(event)
    return problems


def _check_tournament(tournament: Tournament) -> list[str]:
    problems: list[str] = []
    running: dict[int, int] = defaultdict(int)
    by_hand: dict[tuple[int, str], int] = defaultdict(int)
    for pk, entry_id, kind, delta, balance, hand_id in (
        ChipMove.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("pk", "entry_id", "kind", "delta", "balance", "hand_id")
        .iterator()
    ):
        running[entry_id] += delta
        if running[entry_id] != balance:
            problems.append(
                f"{tournament}: ledger row {pk} says entry {entry_id} holds {balance}, "
                f"its rows add up to {running[entry_id]}"
            )
            running[entry_id] = balance  # report each break once
        if kind in HANDS and hand_id is not None:
            by_hand[(hand_id, kind)] += delta
    for (hand_id, kind), net in sorted(by_hand.items()):
        if net and kind == Kind.HAND_REVERSED:
            problems.append(f"{tournament}: reopening hand {hand_id} moved {net:+d} chips")
    hand_totals: dict[int, int] = defaultdict(int)
    for (hand_id, _), net in by_hand.items():
        hand_totals[hand_id] += net
    for hand_id, net in sorted(hand_totals.items()):
        if net:
            problems.append(f"{tournament}: hand {hand_id} made {net:+d} chips")
    for pk, name, status, chips in Entry.objects.filter(tournament=tournament).values_list(
        "pk", "player__name", "status", "chips"
    ):
        if chips != running.get(pk, 0):
            problems.append(
                f"{tournament}: {name} (entry {pk}) has {chips} chips, "
                f"the ledger {running.get(pk, 0)}"
            )
        if status != Entry.Status.ACTIVE and chips:
            problems.append(f"{tournament}: {name} (entry {pk}) is {status} with {chips} chips")
    books = tournament_books(tournament)
    if chips_in_play(tournament) != books.in_play:  # the pages' quick sum against the books
        problems.append(
            f"{tournament}: chips in play {chips_in_play(tournament)} != the books' {books.in_play}"
        )
    if books.stacks != books.issued + books.removed + books.corrections + books.hands:
        problems.append(
            f"{tournament}: stacks {books.stacks} != issued {books.issued} "
            f"+ colour-ups {books.removed} + corrections {books.corrections} "
            f"+ hands {books.hands}"
        )
    return problems
