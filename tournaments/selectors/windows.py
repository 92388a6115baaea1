"""When the desk sells chips: late registration, rebuys and the add-on, each in its window of the
schedule (issue 26). The services refuse outside a window with these answers, and the pages and
the API ask the same questions to show or hide their buttons: one answer for every front door.

Levels are the director's numbers: playing levels count from 1, a break belongs to the level
before it ("the break after level 2").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from common.errors import FloorConflict, FloorError, FloorInvalid
from tournaments import clock
from tournaments.models import Tournament
from tournaments.selectors.clock import clock_state, tournament_levels


@dataclass(frozen=True, slots=True, kw_only=True)
class Moment:
    """Where the clock is: the schedule row in play, and the playing level it counts as."""

    row: int
    level: int  # the playing level in play, or the one before the break in play
    on_break: bool

    @property
    def text(self) -> str:
        return f"the break after level {self.level}" if self.on_break else f"level {self.level}"


def moment_at(levels: Sequence[clock.Level], row: int) -> Moment:
    return Moment(
        row=row,
        level=sum(1 for level in levels[: row + 1] if not level.is_break),
        on_break=levels[row].is_break,
    )


def clock_moment(tournament: Tournament, now: datetime) -> Moment:
    """The moment on the tournament's clock now (row 0 before it starts)."""
    levels = tournament_levels(tournament)
    state = clock_state(tournament)
    row = clock.normalize(state, levels, now).level_index if state.started_at else 0
    return moment_at(levels, row)


def playing_levels(levels: Sequence[clock.Level]) -> int:
    return sum(1 for level in levels if not level.is_break)


# --- rebuys ----------------------------------------------------------------------------------


def rebuy_refusal(tournament: Tournament, now: datetime) -> FloorError | None:
    """Rebuys run until the end of `rebuy_until_level` and the break right after it."""
    if not tournament.rebuy_chips:
        return FloorConflict("no_rebuys", "This tournament has no rebuys.")
    moment = clock_moment(tournament, now)
    if moment.level > tournament.rebuy_until_level:
        return FloorConflict(
            "rebuys_closed",
            f"Rebuys ended with level {tournament.rebuy_until_level}; it is now {moment.text}.",
        )
    return None


# --- the add-on ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class AddonWindow:
    """The schedule rows the add-on is taken in, and how the desk says it."""

    rows: frozenset[int]
    text: str


def addon_window(tournament: Tournament, levels: Sequence[clock.Level]) -> AddonWindow:
    """The director's `addon_level` (that level and the break right after it), or by default
    the first break after the last rebuy level (without a break: the level after it)."""
    numbers = [clock.level_number(levels, row) for row in range(len(levels))]
    if tournament.addon_level:
        start = numbers.index(tournament.addon_level)
        rows = {start}
        while start + 1 < len(levels) and levels[start + 1].is_break:
            start += 1
            rows.add(start)
        after = " or the break after it" if len(rows) > 1 else ""
        return AddonWindow(
            rows=frozenset(rows), text=f"during level {tournament.addon_level}{after}"
        )
    last = tournament.rebuy_until_level
    for row, entry in enumerate(levels):
        if entry.is_break and moment_at(levels, row).level >= last:
            return AddonWindow(
                rows=frozenset({row}),
                text=f"on the break after level {moment_at(levels, row).level}",
            )
    following = min(last + 1, playing_levels(levels))
    return AddonWindow(rows=frozenset({numbers.index(following)}), text=f"during level {following}")


def addon_refusal(tournament: Tournament, now: datetime) -> FloorError | None:
    """The add-on is taken only in its window (409 `addon_not_yet` before, `addon_closed`
    after), with a sentence naming the window and the moment."""
    if not tournament.addon_chips:
        return FloorConflict("no_addon", "This tournament has no add-on.")
    levels = tournament_levels(tournament)
    window = addon_window(tournament, levels)
    moment = clock_moment(tournament, now)
    if moment.row in window.rows:
        return None
    code = "addon_not_yet" if moment.row < min(window.rows) else "addon_closed"
    return FloorConflict(code, f"The add-on is taken {window.text}; it is now {moment.text}.")


def sales_open(tournament: Tournament, now: datetime, what: str) -> bool:
    """Whether a rebuy (`what="rebuy"`) or the add-on is taken now: the pages show their
    buttons, and the API says so, by this answer."""
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        return False
    refusal = rebuy_refusal if what == "rebuy" else addon_refusal
    return refusal(tournament, now) is None


# --- the settings ----------------------------------------------------------------------------

WINDOW_SETTINGS = {
    "late_registration_level": "Late registration can only end",
    "rebuy_until_level": "Rebuys can only end",
    "addon_level": "The add-on can only be taken",
}


def check_windows(values: Mapping[str, Any], levels: Sequence[clock.Level]) -> None:
    """Each window is at a playing level the schedule has (0: none, or the default), 400."""
    count = playing_levels(levels)
    for name, words in WINDOW_SETTINGS.items():
        value = int(values.get(name) or 0)
        if value > count:
            raise FloorInvalid(
                f"bad_{name}",
                f"{words} at a playing level of the schedule: the schedule has {count} "
                f"playing levels, and there is no level {value}.",
            )
