"""The tournament clock (DESIGN.md "The clock is timestamps, not ticks"): levels and breaks derived
on read from a frozen `now`, pause and resume, added and removed time, the director's level jumps,
overtime on the last level, restart safety, announcement scheduling, schedule validation."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pytest

from tournaments.clock import (
    ClockError,
    ClockState,
    ClockStatus,
    Level,
    ScheduleError,
    add_time,
    change_is_due,
    check_levels,
    level_number,
    next_change_at,
    normalize,
    pause,
    resume,
    schedule_errors,
    set_level,
    start,
    view,
)

T0 = datetime(2025, 7, 3, 12, 0, tzinfo=UTC)
MIN = 60

# Rows: 0 Level 1, 1 Level 2, 2 Break, 3 Level 3, 4 Level 4 (last). Ends: 20, 40, 50, 70, 90 min.
LEVELS = (
    Level(small_blind=100, big_blind=200, duration=20 * MIN),
    Level(small_blind=200, big_blind=400, ante=400, bb_ante=True, duration=20 * MIN),
    Level(is_break=True, duration=10 * MIN, note="Colour up the 25s"),
    Level(small_blind=300, big_blind=600, ante=600, bb_ante=True, duration=20 * MIN),
    Level(small_blind=400, big_blind=800, ante=800, bb_ante=True, duration=20 * MIN),
)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def started() -> ClockState:
    return start(LEVELS, T0)


# --- levels and breaks on read -----------------------------------------------------------------


def test_start_shows_level_1_with_its_full_time() -> None:
    shown = view(started(), LEVELS, T0)
    assert shown.status is ClockStatus.RUNNING
    assert (shown.level_index, shown.level_number, shown.label) == (0, 1, "Level 1")
    assert shown.level == LEVELS[0]
    assert shown.seconds_left == 20 * MIN
    assert shown.ends_at == at(20)
    assert shown.started_at == T0
    assert shown.next_level == LEVELS[1]


def test_not_started_clock_shows_the_first_level_with_its_full_time() -> None:
    shown = view(ClockState(), LEVELS, T0)
    assert shown.status is ClockStatus.NOT_STARTED
    assert (shown.level_index, shown.seconds_left, shown.ends_at) == (0, 20 * MIN, None)
    assert shown.seconds_to_next_break == 40 * MIN


@pytest.mark.parametrize(
    ("minutes", "index", "label", "seconds_left"),
    [
        (0, 0, "Level 1", 20 * MIN),
        (10, 0, "Level 1", 10 * MIN),
        (20, 1, "Level 2", 20 * MIN),  # the level ends at its end time exactly
        (39.5, 1, "Level 2", 30),
        (45, 2, "Break", 5 * MIN),
        (50, 3, "Level 3", 20 * MIN),  # playing levels are numbered without the break
        (75, 4, "Level 4", 15 * MIN),
    ],
)
def test_clock_passes_through_levels_and_breaks_on_read(
    minutes: float, index: int, label: str, seconds_left: int
) -> None:
    shown = view(started(), LEVELS, at(minutes))
    assert (shown.level_index, shown.label, shown.seconds_left) == (index, label, seconds_left)
    assert shown.level == LEVELS[index]
    assert shown.overtime_seconds == 0


def test_break_has_no_level_number_and_keeps_its_note() -> None:
    shown = view(started(), LEVELS, at(41))
    assert shown.level_number is None
    assert shown.level.note == "Colour up the 25s"
    assert shown.next_level == LEVELS[3]


def test_seconds_left_rounds_up_so_the_countdown_never_shows_zero_early() -> None:
    shown = view(started(), LEVELS, at(20) - timedelta(milliseconds=300))
    assert (shown.level_index, shown.seconds_left) == (0, 1)


@pytest.mark.parametrize(
    ("minutes", "to_break"),
    [(0, 40 * MIN), (25, 15 * MIN), (45, None), (60, None)],
)
def test_seconds_to_next_break(minutes: float, to_break: int | None) -> None:
    assert view(started(), LEVELS, at(minutes)).seconds_to_next_break == to_break


def test_last_level_runs_into_overtime_and_blinds_never_change_on_their_own() -> None:
    shown = view(started(), LEVELS, at(100))
    assert (shown.level_index, shown.label) == (4, "Level 4")
    assert shown.level == LEVELS[4]
    assert shown.seconds_left == 0
    assert shown.overtime_seconds == 10 * MIN
    assert shown.in_overtime
    assert shown.next_level is None
    assert shown.ends_at == at(90)
    assert view(started(), LEVELS, at(90)).overtime_seconds == 0


def test_normalize_returns_the_row_in_force_with_its_end() -> None:
    state = normalize(started(), LEVELS, at(45))
    assert state == ClockState(level_index=2, ends_at=at(50), started_at=T0)
    assert view(state, LEVELS, at(45)) == view(started(), LEVELS, at(45))


def test_view_reads_the_same_state_at_any_time_without_changing_it() -> None:
    state = started()
    later = view(state, LEVELS, at(75))
    earlier = view(state, LEVELS, at(5))
    assert (earlier.level_index, later.level_index) == (0, 4)
    assert state == started()


# --- restart safety ----------------------------------------------------------------------------


def stored(state: ClockState) -> dict[str, object]:
    """The state as a database row would keep it: plain values, datetimes as ISO text."""
    return {
        "level_index": state.level_index,
        "ends_at": state.ends_at.isoformat() if state.ends_at else None,
        "remaining": state.remaining,
        "started_at": state.started_at.isoformat() if state.started_at else None,
    }


def loaded(row: dict[str, object]) -> ClockState:
    ends_at, started_at = row["ends_at"], row["started_at"]
    return ClockState(
        level_index=int(str(row["level_index"])),
        ends_at=datetime.fromisoformat(str(ends_at)) if ends_at else None,
        remaining=int(str(row["remaining"])) if row["remaining"] is not None else None,
        started_at=datetime.fromisoformat(str(started_at)) if started_at else None,
    )


@pytest.mark.parametrize("minutes", [3, 20, 44.25, 65, 130])
def test_state_saved_and_loaded_later_gives_the_same_view(minutes: float) -> None:
    running = add_time(started(), LEVELS, 37, at(2))
    paused = pause(running, LEVELS, at(12.5))
    for state in (running, paused, normalize(running, LEVELS, at(30))):
        again = loaded(stored(state))
        assert again == state
        assert view(again, LEVELS, at(minutes)) == view(state, LEVELS, at(minutes))


def test_clock_in_another_time_zone_reads_the_same() -> None:
    paris = timezone(timedelta(hours=2))
    here = view(started(), LEVELS, at(45))
    there = view(started(), LEVELS, at(45).astimezone(paris))
    assert (there.level_index, there.seconds_left) == (here.level_index, here.seconds_left)


# --- pause and resume --------------------------------------------------------------------------


def test_pause_keeps_the_remaining_time_however_long_the_pause() -> None:
    state = pause(started(), LEVELS, at(5))
    assert state == ClockState(level_index=0, remaining=15 * MIN, started_at=T0)
    shown = view(state, LEVELS, at(300))
    assert shown.status is ClockStatus.PAUSED
    assert (shown.level_index, shown.seconds_left, shown.ends_at) == (0, 15 * MIN, None)
    assert next_change_at(state, LEVELS, at(300)) is None


def test_resume_counts_down_from_the_remaining_time() -> None:
    state = resume(pause(started(), LEVELS, at(5)), LEVELS, at(60))
    assert state.ends_at == at(75)
    assert view(state, LEVELS, at(74)).level_index == 0
    assert view(state, LEVELS, at(75)).level_index == 1


def test_pause_takes_effect_on_the_level_in_force_not_the_stored_one() -> None:
    state = pause(started(), LEVELS, at(47))  # stored row 0, in force: the break
    assert state == ClockState(level_index=2, remaining=3 * MIN, started_at=T0)


def test_pause_rounds_a_part_second_up() -> None:
    state = pause(started(), LEVELS, at(5) + timedelta(milliseconds=400))
    assert state.remaining == 15 * MIN


def test_multi_day_event_pauses_overnight_and_resumes_next_day() -> None:
    night = pause(started(), LEVELS, at(61))
    morning = T0 + timedelta(days=1)
    state = resume(night, LEVELS, morning)
    shown = view(state, LEVELS, morning)
    assert (shown.label, shown.seconds_left) == ("Level 3", 9 * MIN)


def test_pause_in_overtime_resumes_with_overtime_from_zero() -> None:
    paused = pause(started(), LEVELS, at(100))
    assert paused.remaining == 0
    assert view(paused, LEVELS, at(200)).overtime_seconds == 0
    assert view(resume(paused, LEVELS, at(200)), LEVELS, at(203)).overtime_seconds == 3 * MIN


@pytest.mark.parametrize(
    ("operation", "code"),
    [
        (lambda: pause(ClockState(), LEVELS, T0), "not_running"),
        (lambda: pause(pause(started(), LEVELS, T0), LEVELS, T0), "not_running"),
        (lambda: resume(started(), LEVELS, T0), "not_paused"),
        (lambda: resume(ClockState(), LEVELS, T0), "not_paused"),
        (lambda: add_time(ClockState(), LEVELS, 60, T0), "not_started"),
        (lambda: set_level(ClockState(), LEVELS, 1, T0), "not_started"),
        (lambda: set_level(started(), LEVELS, 5, T0), "no_such_level"),
        (lambda: start(LEVELS, T0, level_index=-1), "no_such_level"),
        (lambda: view(ClockState(level_index=5), LEVELS, T0), "no_such_level"),
    ],
)
def test_operation_refused_when_the_clock_is_not_in_that_state(operation, code: str) -> None:
    with pytest.raises(ClockError) as refused:
        operation()
    assert refused.value.code == code
    assert refused.value.detail.endswith(".")
    assert refused.value.as_dict() == {"code": code, "detail": refused.value.detail}


# --- adding and removing time ------------------------------------------------------------------


def test_add_time_to_a_running_level() -> None:
    state = add_time(started(), LEVELS, 2 * MIN, at(5))
    assert state.ends_at == at(22)
    assert view(state, LEVELS, at(21)).level_index == 0
    assert view(state, LEVELS, at(41)).level_index == 1  # the following rows shift too
    assert view(state, LEVELS, at(42)).label == "Break"


def test_remove_time_from_a_running_level() -> None:
    state = add_time(started(), LEVELS, -5 * MIN, at(5))
    assert state.ends_at == at(15)
    assert view(state, LEVELS, at(15)).label == "Level 2"


def test_removing_more_than_is_left_ends_the_level_now() -> None:
    state = add_time(started(), LEVELS, -30 * MIN, at(5))
    assert state == ClockState(level_index=1, ends_at=at(25), started_at=T0)
    assert view(state, LEVELS, at(5)).seconds_left == 20 * MIN


def test_add_and_remove_time_while_paused() -> None:
    paused = pause(started(), LEVELS, at(5))
    assert add_time(paused, LEVELS, 90, at(9)).remaining == 15 * MIN + 90
    assert add_time(paused, LEVELS, -90, at(9)).remaining == 15 * MIN - 90
    ended = add_time(paused, LEVELS, -16 * MIN, at(9))
    assert ended == ClockState(level_index=1, remaining=20 * MIN, started_at=T0)  # still paused


def test_removing_time_on_the_last_level_goes_to_overtime_not_below_zero() -> None:
    state = add_time(started(), LEVELS, -30 * MIN, at(80))
    shown = view(state, LEVELS, at(80))
    assert (shown.level_index, shown.seconds_left, shown.overtime_seconds) == (4, 0, 0)
    assert view(state, LEVELS, at(81)).overtime_seconds == MIN
    paused = add_time(pause(started(), LEVELS, at(80)), LEVELS, -30 * MIN, at(80))
    assert (paused.level_index, paused.remaining) == (4, 0)


def test_in_overtime_removing_time_changes_nothing_and_adding_starts_a_countdown() -> None:
    state = normalize(started(), LEVELS, at(100))
    assert add_time(state, LEVELS, -MIN, at(100)) == state
    added = add_time(state, LEVELS, 5 * MIN, at(100))
    shown = view(added, LEVELS, at(101))
    assert (shown.level_index, shown.seconds_left, shown.overtime_seconds) == (4, 4 * MIN, 0)


def test_rp8_hand_for_hand_deducts_at_most_the_fixed_time_per_hand() -> None:
    cap = 2 * MIN
    state = pause(started(), LEVELS, at(10))  # hand-for-hand starts: 10 min left
    for hand_seconds in (45, 200, 150, 90):  # 45 + 120 + 120 + 90 deducted
        state = add_time(state, LEVELS, -min(hand_seconds, cap), at(10))
    assert (state.level_index, state.remaining) == (0, 10 * MIN - 375)
    for _ in range(2):  # 240 s more than the 225 left: the level is over, the excess dropped
        state = add_time(state, LEVELS, -cap, at(10))
    assert state == ClockState(level_index=1, remaining=20 * MIN, started_at=T0)


# --- the director's level jumps ----------------------------------------------------------------


def test_set_level_starts_the_level_with_its_full_time_and_keeps_running() -> None:
    state = set_level(started(), LEVELS, 3, at(5))
    shown = view(state, LEVELS, at(5))
    assert (shown.status, shown.label, shown.seconds_left) == (ClockStatus.RUNNING, "Level 3", 1200)


def test_set_level_keeps_a_paused_clock_paused() -> None:
    state = set_level(pause(started(), LEVELS, at(5)), LEVELS, 1, at(8))
    assert state == ClockState(level_index=1, remaining=20 * MIN, started_at=T0)


def test_set_level_without_restart_keeps_the_countdown() -> None:
    running = set_level(started(), LEVELS, 1, at(5), restart=False)
    assert (running.level_index, running.ends_at) == (1, at(20))
    paused = set_level(pause(started(), LEVELS, at(5)), LEVELS, 1, at(8), restart=False)
    assert (paused.level_index, paused.remaining) == (1, 15 * MIN)


def test_set_level_back_from_overtime_without_restart_gives_the_full_time() -> None:
    state = set_level(started(), LEVELS, 3, at(100), restart=False)
    assert view(state, LEVELS, at(100)).seconds_left == 20 * MIN


def test_start_on_a_later_level() -> None:
    shown = view(start(LEVELS, T0, level_index=3), LEVELS, at(1))
    assert (shown.label, shown.seconds_left) == ("Level 3", 19 * MIN)


# --- announcements -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("minutes", "change"),
    [(0, (1, at(20))), (30, (2, at(40))), (45, (3, at(50))), (60, (4, at(70))), (75, None)],
)
def test_next_change_at_names_the_next_row_and_its_start(
    minutes: float, change: tuple[int, datetime] | None
) -> None:
    assert next_change_at(started(), LEVELS, at(minutes)) == change


def test_no_change_is_scheduled_before_the_start() -> None:
    assert next_change_at(ClockState(), LEVELS, T0) is None


def test_change_is_due_when_the_clock_reaches_the_expected_level() -> None:
    assert next_change_at(started(), LEVELS, T0) == (1, at(20))
    when = at(20)
    assert not change_is_due(started(), LEVELS, 1, when - timedelta(seconds=1))  # early wake-up
    assert change_is_due(started(), LEVELS, 1, when)
    assert change_is_due(started(), LEVELS, 1, when)  # a second run: the clock still agrees


@pytest.mark.parametrize(
    "changed",
    [
        lambda state: pause(state, LEVELS, at(10)),
        lambda state: add_time(state, LEVELS, 5 * MIN, at(10)),
        lambda state: set_level(state, LEVELS, 0, at(10)),
    ],
    ids=["paused", "time added", "level restarted"],
)
def test_stale_announcement_is_not_due(changed) -> None:
    assert not change_is_due(changed(started()), LEVELS, 1, at(20))


def test_announcement_running_after_the_clock_moved_past_it_is_not_due() -> None:
    assert not change_is_due(started(), LEVELS, 1, at(45))
    assert change_is_due(started(), LEVELS, 2, at(45))


# --- validation --------------------------------------------------------------------------------


def lv(sb: int, bb: int, ante: int = 0, *, bb_ante: bool = False) -> Level:
    return Level(small_blind=sb, big_blind=bb, ante=ante, bb_ante=bb_ante, duration=600)


BREAK = Level(is_break=True, duration=600)


@pytest.mark.parametrize(
    ("levels", "code", "index", "detail"),
    [
        ([], "empty_schedule", None, "The schedule has no levels."),
        (
            [lv(100, 200), Level(small_blind=200, big_blind=400, duration=0)],
            "bad_duration",
            1,
            "Level 2: the duration must be positive (it is 0 s).",
        ),
        (
            [lv(100, 200), lv(150, 300), lv(200, 100)],
            "small_blind_above_big_blind",
            2,
            "Level 3: the small blind (200) is above the big blind (100).",
        ),
        (
            [lv(100, 200), BREAK, lv(200, 400), lv(100, 300)],
            "blinds_decrease",
            3,
            "Level 3: the big blind (300) is below the previous level's (400); blinds may stay "
            "the same but never go down.",
        ),
        (
            [lv(100, 200), lv(100, 200, -25)],
            "negative_amount",
            1,
            "Level 2: the ante (-25) is negative.",
        ),
        (
            [lv(100, 200), Level(is_break=True, big_blind=400, duration=600), lv(200, 400)],
            "break_with_blinds",
            1,
            "The break after level 1: a break has no blinds or ante.",
        ),
        (
            [BREAK, lv(100, 200)],
            "first_level_break",
            0,
            "The schedule starts with a break; it must start with a playing level.",
        ),
        (
            [lv(100, 200), BREAK],
            "last_level_break",
            1,
            "The schedule ends with a break; it must end with a playing level, which runs into "
            "overtime.",
        ),
        ([lv(0, 0)], "no_big_blind", 0, "Level 1: a playing level needs a big blind."),
        (
            [lv(100, 200, bb_ante=True)],
            "bb_ante_without_ante",
            0,
            "Level 1: a big-blind ante needs an ante amount.",
        ),
    ],
)
def test_schedule_error(levels: list[Level], code: str, index: int | None, detail: str) -> None:
    with pytest.raises(ScheduleError) as refused:
        check_levels(levels)
    assert (refused.value.code, refused.value.index, refused.value.detail) == (code, index, detail)
    assert isinstance(refused.value, ValueError)
    with pytest.raises(ScheduleError):
        view(ClockState(), levels, T0)


def test_equal_blinds_from_one_level_to_the_next_are_allowed() -> None:
    check_levels([lv(100, 200), lv(100, 200, 200, bb_ante=True), BREAK, lv(200, 400)])


def test_schedule_errors_lists_every_fault_in_order() -> None:
    faults = schedule_errors([BREAK, lv(300, 200), lv(100, 100)])
    assert [f.code for f in faults] == [
        "first_level_break",
        "small_blind_above_big_blind",
        "blinds_decrease",
    ]
    assert schedule_errors(LEVELS) == ()


def test_level_numbers_count_playing_levels_only() -> None:
    assert [level_number(LEVELS, i) for i in range(len(LEVELS))] == [1, 2, None, 3, 4]


# --- time zones --------------------------------------------------------------------------------

NAIVE = datetime(2025, 7, 3, 12, 0)  # noqa: DTZ001 - a naive time on purpose


@pytest.mark.parametrize(
    "operation",
    [
        lambda: start(LEVELS, NAIVE),
        lambda: view(started(), LEVELS, NAIVE),
        lambda: pause(started(), LEVELS, NAIVE),
        lambda: next_change_at(started(), LEVELS, NAIVE),
        lambda: ClockState(ends_at=NAIVE, started_at=T0),
        lambda: ClockState(remaining=60, started_at=NAIVE),
    ],
)
def test_naive_datetimes_are_refused(operation) -> None:
    with pytest.raises(ClockError) as refused:
        operation()
    assert refused.value.code == "naive_datetime"
    assert "no time zone" in refused.value.detail


@pytest.mark.parametrize(
    "fields",
    [
        {"ends_at": T0, "remaining": 60, "started_at": T0},  # running and paused at once
        {"remaining": -1, "started_at": T0},
        {"ends_at": T0},  # running without a start time
        {"started_at": T0},  # a start time but neither running nor paused
        {"level_index": -1},
    ],
)
def test_inconsistent_stored_state_is_refused(fields: dict[str, object]) -> None:
    with pytest.raises(ClockError) as refused:
        ClockState(**fields)  # type: ignore[arg-type]
    assert refused.value.code == "bad_state"


def test_states_are_immutable_values() -> None:
    state = started()
    assert replace(state, level_index=1) != state
    with pytest.raises(AttributeError):
        state.level_index = 3  # type: ignore[misc]


# --- purity ------------------------------------------------------------------------------------


@pytest.mark.parametrize("module", ["tournaments.clock", "tournaments.payouts", "tournaments.icm"])
def test_floor_module_is_pure_python_without_django(module: str) -> None:
    check = f"import sys, {module}; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", check], check=False).returncode == 0
