"""The tournament clock, derived from timestamps (DESIGN.md "The clock is timestamps, not ticks").

Pure Python, standard library only: no Django, no I/O, and the current time is always an argument
(`now`, time-zone aware), never read from the system.

What is stored (`ClockState`) is one of:

- not started;
- running: the schedule row in force and the moment it ends (`ends_at`);
- paused: the schedule row in force and the seconds it has left (`remaining`).

Everything else is derived on read. While the clock runs and `now` passes `ends_at`, the clock has
moved on through the following rows (playing levels and breaks), each with its full duration. The
last row runs into overtime: the clock keeps showing it and counts `overtime_seconds` up; blinds
never change without the director. A server or worker restart changes nothing, because nothing
ticks: a state saved and loaded later gives the same view for the same `now`.

How a service uses it:

- Store the `ClockState` fields on the tournament row; after every operation store what it
  returns. `normalize` gives the state with the level actually in force, to store before showing
  it or before editing the schedule.
- T 23 (a new level applies from the next hand) is the caller's business: `view` gives the level
  on the clock; a hand takes the level in force at the moment it starts and keeps it to its end.
- Level-change announcements: `next_change_at` says when the level in force changes next and to
  which row; enqueue a task for that moment carrying the expected row index. When it runs,
  `change_is_due` says whether the clock still agrees (a pause, added time or a jump to another
  level makes it stale, and the task does nothing). A task that finds the change not yet due
  while `next_change_at` still names its row (an early wake-up) re-enqueues itself for that time.
  Correctness never depends on the task: `view` derives the level without it.
- Hand-for-hand (RP-8): pause the clock when hand-for-hand starts; after each hand-for-hand hand,
  call `add_time(state, levels, -min(hand_seconds, cap), now)` so the level loses the hand's
  duration but at most the fixed `cap` per hand; resume when hand-for-hand ends.
- Editing the schedule of a started clock: `normalize` under the old schedule and store that
  first. A clock in overtime on the old last row stays there until the director moves it with
  `set_level` (otherwise a level appended behind it would start in the past).

Numbering: a schedule is a list of rows, indexed from 0 (`level_index`). Directors count playing
levels only: the view shows "Level 5" for the fifth playing level and "Break" for a break, and
error messages name rows the same way ("Level 3", "The break after level 4").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from dealer.engine.errors import Conflict

ONE_SECOND = timedelta(seconds=1)


class ClockError(Conflict, ValueError):
    """A clock operation that cannot be done in the clock's state; `code` is stable, `detail` is
    for the director. A service that checks a schedule the director sends (not the one stored)
    refuses its `ScheduleError` as `Invalid`."""


class ScheduleError(ClockError):
    """A blind schedule that cannot be used. `index` is the schedule row at fault (0-based), if
    the fault is in one row."""

    def __init__(self, code: str, detail: str, *, index: int | None = None) -> None:
        super().__init__(code, detail)
        self.index = index


@dataclass(frozen=True, slots=True, kw_only=True)
class Level:
    """One row of a blind schedule: a playing level, or a break (`is_break`, no blinds).

    `ante` is per player, or, with `bb_ante`, the big-blind ante posted by the big blind alone.
    `duration` is in seconds. `note` is shown with the row (for example a colour-up note).
    """

    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    bb_ante: bool = False
    duration: int
    is_break: bool = False
    note: str = ""
    smallest_chip: int = 1  # the smallest chip in play: pots split to it (RULES.md 6)


class ClockStatus(StrEnum):
    """There is no "finished": the clock never stops on its own (the last row runs into overtime);
    a tournament ends when the service says so."""

    NOT_STARTED = "not_started"
    RUNNING = "running"
    PAUSED = "paused"


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockState:
    """What is stored for a tournament clock (see the module docstring); `status` follows from
    which field is set:

    - running: `ends_at` (time-zone aware), the moment the row `level_index` ends;
    - paused: `remaining`, the whole seconds (0 or more) the row has left. Overtime is not kept
      across a pause: a clock paused in overtime resumes with its overtime counting from 0;
    - not started: neither; `level_index` is the row the clock will show until it starts
      (normally 0).

    `started_at` is when the clock was first started (set exactly when running or paused). The
    row index is checked against the schedule by every operation, since the state does not carry
    the schedule. The fields map one to one onto nullable columns.
    """

    level_index: int = 0
    ends_at: datetime | None = None
    remaining: int | None = None
    started_at: datetime | None = None

    def __post_init__(self) -> None:
        if self.ends_at is not None:
            _check_aware(self.ends_at, "ends_at")
        if self.started_at is not None:
            _check_aware(self.started_at, "started_at")
        started = self.ends_at is not None or self.remaining is not None
        if (
            self.level_index < 0
            or (self.ends_at is not None and self.remaining is not None)
            or (self.remaining is not None and self.remaining < 0)
            or (self.started_at is not None) != started
        ):
            raise ClockError("bad_state", f"The stored clock is inconsistent: {self!r}.")

    @property
    def status(self) -> ClockStatus:
        if self.ends_at is not None:
            return ClockStatus.RUNNING
        if self.remaining is not None:
            return ClockStatus.PAUSED
        return ClockStatus.NOT_STARTED


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockView:
    """What the clock shows at `now`.

    `level_number` counts playing levels from 1 and is None on a break; `label` is "Level 5" or
    "Break". `seconds_left` is rounded up (a countdown shows 0:01 until the level is really over);
    it is 0 in overtime, when `overtime_seconds` counts up on the last row. `next_level` is the next
    row (a break or a level), None on the last row. `seconds_to_next_break` is the time until the
    next break starts (None when no break follows). `ends_at` is when the row in force ends (past
    in overtime), None unless the clock runs.
    """

    status: ClockStatus
    level_index: int
    level_number: int | None
    label: str
    level: Level
    seconds_left: int
    overtime_seconds: int
    next_level: Level | None
    seconds_to_next_break: int | None
    ends_at: datetime | None
    started_at: datetime | None

    @property
    def in_overtime(self) -> bool:
        return self.overtime_seconds > 0


# --- schedule ------------------------------------------------------------------------------


def level_number(levels: Sequence[Level], index: int) -> int | None:
    """The director's number of row `index`: playing levels count from 1, a break has none."""
    if levels[index].is_break:
        return None
    return sum(1 for level in levels[: index + 1] if not level.is_break)


def _row_name(levels: Sequence[Level], index: int) -> str:
    number = level_number(levels, index)
    if number is not None:
        return f"Level {number}"
    before = sum(1 for level in levels[:index] if not level.is_break)
    return f"The break after level {before}" if before else "The break at the start"


def _level_errors(levels: Sequence[Level], index: int) -> list[ScheduleError]:
    level, name = levels[index], _row_name(levels, index)

    def error(code: str, detail: str) -> ScheduleError:
        return ScheduleError(code, f"{name}: {detail}", index=index)

    found: list[ScheduleError] = []
    if level.duration <= 0:
        found.append(
            error("bad_duration", f"the duration must be positive (it is {level.duration} s).")
        )
    amounts = (
        ("small blind", level.small_blind),
        ("big blind", level.big_blind),
        ("ante", level.ante),
    )
    for what, amount in amounts:
        if amount < 0:
            found.append(error("negative_amount", f"the {what} ({amount}) is negative."))
    chip = level.smallest_chip
    if chip < 1:
        found.append(error("bad_smallest_chip", f"the smallest chip ({chip}) must be positive."))
    else:
        # No dealer can post an amount the chips in play cannot make.
        for what, amount in amounts:
            if amount > 0 and amount % chip:
                found.append(
                    error(
                        "not_in_smallest_chips",
                        f"the {what} ({amount}) is not a multiple of the smallest chip ({chip}).",
                    )
                )
    if level.is_break:
        if level.small_blind or level.big_blind or level.ante or level.bb_ante:
            found.append(error("break_with_blinds", "a break has no blinds or ante."))
        return found
    if level.big_blind <= 0:
        found.append(error("no_big_blind", "a playing level needs a big blind."))
    if level.small_blind > level.big_blind:
        found.append(
            error(
                "small_blind_above_big_blind",
                f"the small blind ({level.small_blind}) is above the big blind "
                f"({level.big_blind}).",
            )
        )
    if level.bb_ante and level.ante <= 0:
        found.append(error("bb_ante_without_ante", "a big-blind ante needs an ante amount."))
    return found


def schedule_errors(levels: Sequence[Level]) -> tuple[ScheduleError, ...]:
    """Every fault of a blind schedule, in schedule order (empty when it can be used).

    The rules: at least one row; the first and the last rows are playing levels (the last runs
    into overtime); durations are positive; no amount is negative; a playing level has a big
    blind and a small blind no larger; a big-blind ante has an amount; a break has no blinds or
    ante; the smallest chip is positive and the blinds and ante are multiples of it; and the
    big blind never goes down from one playing level to the next (it may stay the same, for
    example when an ante starts at the same blinds).
    """
    if not levels:
        return (ScheduleError("empty_schedule", "The schedule has no levels."),)
    found: list[ScheduleError] = []
    if levels[0].is_break:
        found.append(
            ScheduleError(
                "first_level_break",
                "The schedule starts with a break; it must start with a playing level.",
                index=0,
            )
        )
    previous: int | None = None
    for index, level in enumerate(levels):
        found.extend(_level_errors(levels, index))
        if level.is_break:
            continue
        if previous is not None and level.big_blind < levels[previous].big_blind:
            found.append(
                ScheduleError(
                    "blinds_decrease",
                    f"{_row_name(levels, index)}: the big blind ({level.big_blind}) is below "
                    f"the previous level's ({levels[previous].big_blind}); blinds may stay the "
                    "same but never go down.",
                    index=index,
                )
            )
        previous = index
    if len(levels) > 1 and levels[-1].is_break:
        found.append(
            ScheduleError(
                "last_level_break",
                "The schedule ends with a break; it must end with a playing level, which runs "
                "into overtime.",
                index=len(levels) - 1,
            )
        )
    return tuple(found)


def check_levels(levels: Sequence[Level]) -> None:
    """Raise the first `ScheduleError` of the schedule, if any (see `schedule_errors`)."""
    found = schedule_errors(levels)
    if found:
        raise found[0]


# --- helpers -------------------------------------------------------------------------------


def _check_aware(moment: datetime, name: str) -> None:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ClockError(
            "naive_datetime",
            f"The time given as {name} ({moment.isoformat()}) has no time zone; the clock only "
            "accepts time-zone-aware times.",
        )


def _check(state: ClockState, levels: Sequence[Level], now: datetime) -> None:
    check_levels(levels)
    _check_aware(now, "now")
    if state.level_index >= len(levels):
        raise ClockError(
            "no_such_level",
            f"The clock is on row {state.level_index + 1}, but the schedule has only "
            f"{len(levels)} rows.",
        )


def _check_index(levels: Sequence[Level], index: int) -> None:
    if not 0 <= index < len(levels):
        raise ClockError(
            "no_such_level",
            f"There is no row {index + 1} in the schedule; it has {len(levels)} rows.",
        )


def _seconds_ceil(delta: timedelta) -> int:
    return -(-delta // ONE_SECOND)


def _running(
    levels: Sequence[Level],
    index: int,
    ends_at: datetime,
    now: datetime,
    started_at: datetime | None,
) -> ClockState:
    """The running state at `now`: past rows are over, each next one runs its full duration."""
    last = len(levels) - 1
    while index < last and now >= ends_at:
        index += 1
        ends_at += timedelta(seconds=levels[index].duration)
    return ClockState(level_index=index, ends_at=ends_at, started_at=started_at)


def _paused(index: int, remaining: int, started_at: datetime | None) -> ClockState:
    return ClockState(level_index=index, remaining=remaining, started_at=started_at)


def _require_started(state: ClockState) -> None:
    if state.status is ClockStatus.NOT_STARTED:
        raise ClockError("not_started", "The clock has not been started yet.")


# --- operations ----------------------------------------------------------------------------


def normalize(state: ClockState, levels: Sequence[Level], now: datetime) -> ClockState:
    """The same clock with the row actually in force at `now` (what a service stores)."""
    _check(state, levels, now)
    if state.ends_at is None:
        return state
    return _running(levels, state.level_index, state.ends_at, now, state.started_at)


def start(levels: Sequence[Level], now: datetime, *, level_index: int = 0) -> ClockState:
    """Start the clock at `now` on row `level_index` (the first by default) with its full time."""
    _check(ClockState(), levels, now)
    _check_index(levels, level_index)
    ends_at = now + timedelta(seconds=levels[level_index].duration)
    return _running(levels, level_index, ends_at, now, started_at=now)


def pause(state: ClockState, levels: Sequence[Level], now: datetime) -> ClockState:
    """Stop the countdown, keeping the time the row in force has left."""
    state = normalize(state, levels, now)
    if state.ends_at is None:
        raise ClockError("not_running", "The clock is not running, so it cannot be paused.")
    # Rounded up, so a pause never shortens a level.
    remaining = max(_seconds_ceil(state.ends_at - now), 0)
    return _paused(state.level_index, remaining, state.started_at)


def resume(state: ClockState, levels: Sequence[Level], now: datetime) -> ClockState:
    """Restart the countdown from the time the paused row had left."""
    state = normalize(state, levels, now)
    if state.remaining is None:
        raise ClockError("not_paused", "The clock is not paused, so it cannot be resumed.")
    ends_at = now + timedelta(seconds=state.remaining)
    return _running(levels, state.level_index, ends_at, now, state.started_at)


def set_level(
    state: ClockState,
    levels: Sequence[Level],
    index: int,
    now: datetime,
    restart: bool = True,
) -> ClockState:
    """The director moves the clock to row `index`, keeping it running or paused.

    With `restart` (the default) the row starts with its full duration. Without it, the countdown
    keeps the time the row in force has left (a correction of the blinds on the clock), unless
    none is left (overtime), in which case the row starts with its full duration.
    """
    state = normalize(state, levels, now)
    _require_started(state)
    _check_index(levels, index)
    full = levels[index].duration
    if state.ends_at is not None:
        ends_at = state.ends_at
        if restart or ends_at <= now:
            ends_at = now + timedelta(seconds=full)
        return _running(levels, index, ends_at, now, state.started_at)
    kept = state.remaining or full
    return _paused(index, full if restart else kept, state.started_at)


def add_time(state: ClockState, levels: Sequence[Level], seconds: int, now: datetime) -> ClockState:
    """Add `seconds` to the row in force (negative removes time), running or paused.

    Removing more time than is left ends the row now: the next row starts with its full duration
    (still paused if the clock is paused) and the excess is dropped; on the last row the clock
    goes to overtime. Removing time in overtime changes nothing; adding time in overtime starts a
    fresh countdown of `seconds` on the last row. For hand-for-hand (RP-8) pass
    `-min(hand_seconds, cap)` after each hand so the clock loses at most `cap` per hand.
    """
    state = normalize(state, levels, now)
    _require_started(state)
    if state.ends_at is not None:
        return _add_running(state, levels, seconds, state.ends_at, now)
    return _add_paused(state, levels, seconds, state.remaining or 0)


def _add_running(
    state: ClockState, levels: Sequence[Level], seconds: int, ends_at: datetime, now: datetime
) -> ClockState:
    if seconds >= 0:
        ends_at = max(ends_at, now) + timedelta(seconds=seconds)
    elif ends_at <= now:
        return state  # overtime: the level is already over
    else:
        ends_at = max(ends_at + timedelta(seconds=seconds), now)
    return _running(levels, state.level_index, ends_at, now, state.started_at)


def _add_paused(
    state: ClockState, levels: Sequence[Level], seconds: int, remaining: int
) -> ClockState:
    index = state.level_index
    if seconds >= 0 or remaining + seconds > 0:
        return _paused(index, remaining + seconds, state.started_at)
    if remaining == 0:
        return state
    if index == len(levels) - 1:
        return _paused(index, 0, state.started_at)
    return _paused(index + 1, levels[index + 1].duration, state.started_at)


# --- reading -------------------------------------------------------------------------------


def _time_on_row(state: ClockState, levels: Sequence[Level], now: datetime) -> tuple[int, int]:
    """(seconds left, overtime seconds) of the row in force of a normalized state."""
    if state.ends_at is not None:
        left = state.ends_at - now
        if left > timedelta(0):
            return _seconds_ceil(left), 0
        return 0, (-left) // ONE_SECOND
    if state.remaining is not None:
        return state.remaining, 0
    return levels[state.level_index].duration, 0


def _seconds_to_next_break(levels: Sequence[Level], index: int, seconds_left: int) -> int | None:
    total = seconds_left
    for level in levels[index + 1 :]:
        if level.is_break:
            return total
        total += level.duration
    return None


def view(state: ClockState, levels: Sequence[Level], now: datetime) -> ClockView:
    """What the clock shows at `now`: the row in force on the clock, its time and what follows.

    This is the level on the clock, not necessarily the level of the hand in play (T 23: a new
    level applies from the next hand; a hand keeps the level in force when it started).
    """
    state = normalize(state, levels, now)
    index = state.level_index
    seconds_left, overtime = _time_on_row(state, levels, now)
    number = level_number(levels, index)
    return ClockView(
        status=state.status,
        level_index=index,
        level_number=number,
        label="Break" if number is None else f"Level {number}",
        level=levels[index],
        seconds_left=seconds_left,
        overtime_seconds=overtime,
        next_level=levels[index + 1] if index + 1 < len(levels) else None,
        seconds_to_next_break=_seconds_to_next_break(levels, index, seconds_left),
        ends_at=state.ends_at,
        started_at=state.started_at,
    )


def next_change_at(
    state: ClockState, levels: Sequence[Level], now: datetime
) -> tuple[int, datetime] | None:
    """When the row in force changes next on its own, and to which row index.

    None when the clock is not running or is on its last row (blinds never change without the
    director). Used to enqueue the level-change announcement carrying the index it expects.
    """
    state = normalize(state, levels, now)
    if state.ends_at is None or state.level_index == len(levels) - 1:
        return None
    return state.level_index + 1, state.ends_at


def change_is_due(
    state: ClockState, levels: Sequence[Level], expected_index: int, now: datetime
) -> bool:
    """Whether an announcement for row `expected_index` still agrees with the clock at `now`.

    True when that row is the one in force (running or paused). False when the expectation is
    stale (the clock was paused, given time, moved to another row, or has already moved past the
    row) or not yet due. A second run of the same task also gets True: recording that the
    announcement was made, so it is made once, is the service's business.
    """
    state = normalize(state, levels, now)
    return state.status is not ClockStatus.NOT_STARTED and state.level_index == expected_index
