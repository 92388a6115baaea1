"""The structure sheet a player reads on the phone: every level and break of the schedule, when
each starts by the clock as it runs now, the one in play, and where late registration ends.

Moments are projected from the clock (the end of the level in play, then the durations of the
rows after it): while the clock is paused or not started there is no moment to give, only the
durations. Read-only; the clock is the clock's (`selectors.clock`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from tournaments import clock
from tournaments.models import Tournament
from tournaments.selectors.clock import clock_state, tournament_levels


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetRow:
    """One row of the schedule as the sheet shows it."""

    number: int | None  # the playing level's number; None for a break
    is_break: bool
    small_blind: int
    big_blind: int
    ante: int
    bb_ante: bool
    minutes: int
    note: str
    starts_at: datetime | None  # projected from the running clock; None when it stands
    current: bool
    past: bool
    last_to_register: bool  # late registration closes at the end of this row


@dataclass(frozen=True, slots=True, kw_only=True)
class LateRegistration:
    """Until when a player may still enter: the end of `level` (and the break right after
    it), at `ends_at` by the running clock; `open` says whether it still is."""

    level: int
    ends_at: datetime | None
    open: bool


def _last_registration_row(levels: tuple[clock.Level, ...], level: int) -> int | None:
    """The schedule row that closes late registration: the last row before playing level
    `level + 1` (the level itself, or the break right after it; `registration_open`'s rule)."""
    if level <= 0:
        return None
    numbers = [clock.level_number(levels, row) for row in range(len(levels))]
    if level + 1 in numbers:
        return numbers.index(level + 1) - 1
    return len(levels) - 1


def _starts(levels: tuple[clock.Level, ...], view: clock.ClockView) -> list[datetime | None]:
    """When each row after the one in play starts by the running clock (None for the rows
    before it, the row in play, and every row while the clock stands)."""
    starts: list[datetime | None] = [None] * len(levels)
    if view.ends_at is None:
        return starts
    moment = view.ends_at
    for row in range(view.level_index + 1, len(levels)):
        starts[row] = moment
        moment += timedelta(seconds=levels[row].duration)
    return starts


def structure_sheet(tournament: Tournament, now: datetime) -> list[SheetRow]:
    """Every row of the schedule, first level first (see the module's docstring)."""
    levels = tournament_levels(tournament)
    if not levels:
        return []
    view = clock.view(clock_state(tournament), levels, now)
    started = tournament.clock_started_at is not None
    starts = _starts(levels, view)
    closing = _last_registration_row(levels, tournament.late_registration_level)
    return [
        SheetRow(
            number=clock.level_number(levels, row),
            is_break=level.is_break,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
            bb_ante=level.bb_ante,
            minutes=level.duration // 60,
            note=level.note,
            starts_at=starts[row],
            current=started and row == view.level_index,
            past=started and row < view.level_index,
            last_to_register=row == closing,
        )
        for row, level in enumerate(levels)
    ]


def late_registration(tournament: Tournament, now: datetime) -> LateRegistration | None:
    """When late registration ends (None: the event has none)."""
    levels = tournament_levels(tournament)
    closing = _last_registration_row(levels, tournament.late_registration_level)
    if closing is None:
        return None
    view = clock.view(clock_state(tournament), levels, now)
    started = tournament.clock_started_at is not None
    ends_at = None
    if view.ends_at is not None and closing >= view.level_index:
        ends_at = view.ends_at + timedelta(
            seconds=sum(levels[row].duration for row in range(view.level_index + 1, closing + 1))
        )
    playing = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.PAUSED)
    still = tournament.status == Tournament.Status.REGISTERING or (
        playing and (not started or view.level_index <= closing)
    )
    return LateRegistration(level=tournament.late_registration_level, ends_at=ends_at, open=still)
