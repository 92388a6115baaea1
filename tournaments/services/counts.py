"""A table's count sheet: the floor counts every stack at a table (at a break, at the end of a
day, after a colour-up) and the counts go into the chip ledger together, or not at all."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from common.actors import Actor
from common.errors import (
    FloorConflict,
    FloorError,
    FloorForbidden,
    FloorInvalid,
    FloorNotFound,
    refusal_like,
)
from dealer.engine.errors import Conflict, DomainError, Forbidden, Invalid, NotFound, kind_of
from tournaments.models import ChipMove, Entry, Table, Tournament
from tournaments.selectors.books import chips_in_play
from tournaments.services.audit import audit_record
from tournaments.services.entries import entry_set_chips
from tournaments.services.events import levels_colour_up
from tournaments.services.locks import lock_tournament

# What a count sheet records: a count, or the stacks after a colour-up or chip race.
SHEET_KINDS = (ChipMove.Kind.COUNT, ChipMove.Kind.COLOUR_UP)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipCount:
    """One row of a count sheet: the stack counted in front of one entry."""

    entry_id: int
    chips: int


class CountsRefusedError(FloorError):
    """Some rows of a count sheet were refused, so none was written. `rows` holds each refused
    entry's own refusal; the error's code and kind are the first one's (`CountsRefusedError(rows)`
    builds the subclass of that kind), its sentence all of them."""

    def __new__(cls, rows: dict[int, FloorError]) -> CountsRefusedError:
        if cls is CountsRefusedError:
            cls = _REFUSED_OF_KIND[kind_of(next(iter(rows.values())))]
        return Exception.__new__(cls)

    def __init__(self, rows: dict[int, FloorError]) -> None:
        first = next(iter(rows.values()))
        super().__init__(first.code, " ".join(error.detail for error in rows.values()))
        self.rows = rows


class CountsRefusedInvalid(CountsRefusedError, FloorInvalid):  # noqa: N818 - by kind
    """The first refused row was wrong in itself (a count below one chip)."""


class CountsRefusedConflict(CountsRefusedError, FloorConflict):  # noqa: N818 - by kind
    """The first refused row conflicts with play (a player in a hand, at another table)."""


class CountsRefusedNotFound(CountsRefusedError, FloorNotFound):  # noqa: N818 - by kind
    """The first refused row names an entry that is not in the tournament."""


class CountsRefusedForbidden(CountsRefusedError, FloorForbidden):  # noqa: N818 - by kind
    """The first refused row may not be written by this user."""


_REFUSED_OF_KIND: dict[type[DomainError], type[CountsRefusedError]] = {
    Invalid: CountsRefusedInvalid,
    Conflict: CountsRefusedConflict,
    NotFound: CountsRefusedNotFound,
    Forbidden: CountsRefusedForbidden,
}


@transaction.atomic
def table_record_counts(
    *,
    table: Table,
    counts: Sequence[ChipCount],
    kind: str = ChipMove.Kind.COUNT,
    note: str = "",
    smallest_chip: int | None = None,
    now: datetime | None = None,
    actor: Actor = None,
) -> list[Entry]:
    """Record the stacks counted at one table, one ledger row per entry (`entry_set_chips`,
    with the occasion as its note), in one transaction. Every row is checked: if any is refused
    (a player in a hand in progress: 409 `in_hand`; a count below 1; a player not seated at the
    table) `CountsRefusedError` names each refused row and nothing is written. No stack and no
    sheet is above the chips in play (409 `count_over_chips_in_play`). A colour-up may say the
    new `smallest_chip`: the levels from the one in play on are raised to it
    (`levels_colour_up`), and the stacks counted must be made of it."""
    if kind not in SHEET_KINDS:
        raise FloorInvalid("bad_kind", "A count sheet records a count or a colour-up.")
    if table.tournament_id is None:
        raise FloorInvalid("not_tournament_table", f"{table} is a cash table.")
    tournament = lock_tournament(table.tournament_id)
    _check_sheet(tournament, counts)
    _check_within_chips_in_play(tournament, table, counts)
    when = now or timezone.now()
    if smallest_chip is not None:
        _check_colour_up(kind, counts, smallest_chip)
        levels_colour_up(tournament=tournament, smallest_chip=smallest_chip, now=when, actor=actor)
    seated = {
        e.pk: e
        for e in Entry.objects.filter(
            pk__in=[c.entry_id for c in counts], tournament=tournament
        ).select_related("player", "table")
    }
    refused: dict[int, FloorError] = {}
    recorded: list[Entry] = []
    for count in counts:
        entry = seated.get(count.entry_id)
        if entry is None or entry.status != Entry.Status.ACTIVE or entry.table_id != table.pk:
            refused[count.entry_id] = _not_at_table(entry, count, table)
            continue
        try:
            recorded.append(
                entry_set_chips(
                    entry=entry, chips=count.chips, kind=kind, note=note, now=when, actor=actor
                )
            )
        except FloorError as error:
            refused[count.entry_id] = _naming(error, entry)
    if refused:
        raise CountsRefusedError(refused)
    audit_record(
        tournament=tournament,
        actor=actor,
        action="table_counts",
        table=table.number,
        kind=kind,
        note=note,
        players=len(recorded),
    )
    return recorded


def _check_sheet(tournament: Tournament, counts: Sequence[ChipCount]) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise FloorError(
            "tournament_finished", "The tournament is finished: chip counts are final."
        )
    if not counts:
        raise FloorInvalid("no_counts", "Enter the chips of at least one player.")
    ids = [c.entry_id for c in counts]
    if len(set(ids)) != len(ids):
        raise FloorInvalid("bad_counts", "Count each player once.")


def _check_colour_up(kind: str, counts: Sequence[ChipCount], chip: int) -> None:
    if kind != ChipMove.Kind.COLOUR_UP:
        raise FloorInvalid("bad_smallest_chip", "Only a colour-up raises the smallest chip.")
    if chip < 1:
        raise FloorInvalid("bad_smallest_chip", "The smallest chip is at least 1.")
    odd = [count.chips for count in counts if count.chips % chip]
    if odd:
        raise FloorInvalid(
            "not_in_smallest_chips",
            f"After the colour-up every stack is made of {chip}s: {odd[0]:,} is not a "
            f"multiple of {chip}.",
        )


def _check_within_chips_in_play(
    tournament: Tournament, table: Table, counts: Sequence[ChipCount]
) -> None:
    """A table holds no more than the chips in play (each row is checked by `entry_set_chips`,
    the same rule): 409 `count_over_chips_in_play` naming both numbers."""
    total = sum(count.chips for count in counts)
    in_play = chips_in_play(tournament)
    if total > in_play:
        raise FloorError(
            "count_over_chips_in_play",
            f"The counts at {table} add up to {total:,}, more than the {in_play:,} chips in "
            "play: count the table again.",
        )


def _naming(error: FloorError, entry: Entry) -> FloorError:
    """The refusal, saying whose row it is if its sentence does not."""
    name = entry.player.name
    if name in error.detail:
        return error
    return refusal_like(error, f"{name}: {error.detail}")


def _not_at_table(entry: Entry | None, count: ChipCount, table: Table) -> FloorError:
    if entry is None:
        return FloorNotFound("not_found", f"Entry {count.entry_id} is not in this tournament.")
    return FloorError(
        "not_at_table", f"{entry.player.name} is not playing at {table}: count them there."
    )
