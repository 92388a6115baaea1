"""The clock as read: a tournament's levels and its clock as stored (the one reader of the
clock's columns, which the clock services write through), what the clock shows now, the one
clock feed (the big screen, the desk, the tablets and the API) and what the desk reads from the
field's totals it shows (hand-for-hand due, RP-8)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, TypedDict

from tournaments import balancing, clock
from tournaments.labels import blinds_label
from tournaments.models import LevelFields, Tournament
from tournaments.selectors.standings import tournament_standings
from tournaments.selectors.versions import cached, tournament_full, version_tag

# --- the schedule and the clock as stored ----------------------------------------------------

LEVEL_FIELDS = (
    "small_blind",
    "big_blind",
    "ante",
    "bb_ante",
    "smallest_chip",
    "duration",
    "is_break",
    "note",
)


def levels_as_clock(rows: Iterable[LevelFields | Mapping[str, object]]) -> tuple[clock.Level, ...]:
    """Schedule rows (model rows, or dicts from a form or the API) as the clock's `Level`s."""

    # A dict's values go to `Level` unchecked: `clock.check_levels` judges them after.
    def fields(row: LevelFields | Mapping[str, object]) -> dict[str, Any]:
        if isinstance(row, Mapping):
            return {name: row[name] for name in LEVEL_FIELDS if name in row}
        return {name: getattr(row, name) for name in LEVEL_FIELDS}

    return tuple(clock.Level(**fields(row)) for row in rows)


def clock_state(tournament: Tournament) -> clock.ClockState:
    return clock.ClockState(
        level_index=tournament.clock_level,
        ends_at=tournament.clock_ends_at,
        remaining=tournament.clock_remaining,
        started_at=tournament.clock_started_at,
    )


def tournament_levels(tournament: Tournament) -> tuple[clock.Level, ...]:
    return levels_as_clock(tournament.levels.all())


def clock_view(tournament: Tournament, now: datetime) -> clock.ClockView:
    """What the clock shows now (read-only; nothing needs to have been stored)."""
    return clock.view(clock_state(tournament), tournament_levels(tournament), now)


# --- the clock feed --------------------------------------------------------------------------


def _iso(moment: datetime | None) -> str | None:
    """A moment as the API writes it (ISO 8601, UTC as "Z")."""
    if moment is None:
        return None
    text = moment.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def _amount(value: Decimal | None) -> str | None:
    return None if value is None else f"{value:.2f}"


class LevelAnswer(TypedDict):
    """A schedule row as the clock feed writes it."""

    small_blind: int
    big_blind: int
    ante: int
    bb_ante: bool
    smallest_chip: int
    duration: int
    is_break: bool
    note: str


class FieldSummary(TypedDict):
    """The field's totals the clock shows (amounts as strings)."""

    players_left: int
    entries: int
    average_stack: int
    places_paid: int
    prize_pool: str | None
    next_payout: str | None
    min_cash: str | None


class ClockStable(FieldSummary):
    """The clock feed's fields that stay the same until a write or the end of the level."""

    tournament: int
    name: str
    tournament_status: str
    finished: bool
    status: str
    level_index: int
    level_number: int | None
    label: str
    level: LevelAnswer
    next_level: LevelAnswer | None
    is_last_level: bool
    blinds: str
    next_blinds: str
    started_at: str | None
    ends_at: str | None
    next_break_at: str | None
    remaining_seconds: int | None
    hand_for_hand: bool
    hand_for_hand_hand: int | None
    break_note: str
    floor_message: str


class ClockVolatile(TypedDict):
    """The clock feed's fields that move every second."""

    server_time: str | None
    seconds_left: int
    overtime_seconds: int
    seconds_to_next_break: int | None


class ClockAnswer(ClockStable, ClockVolatile):
    """The whole clock feed."""


def _clock_level(level: clock.Level) -> LevelAnswer:
    return {
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "bb_ante": level.bb_ante,
        "smallest_chip": level.smallest_chip,
        "duration": level.duration,
        "is_break": level.is_break,
        "note": level.note,
    }


def level_text(level: clock.Level | None) -> str:
    """ "100 / 200, ante 200 (BB ante)", or "Break, 15 min"; "" for no level."""
    if level is None:
        return ""
    if level.is_break:
        return f"Break, {level.duration // 60} min"
    return blinds_label(level.small_blind, level.big_blind, ante=level.ante, bb_ante=level.bb_ante)


def _field_summary(tournament: Tournament) -> FieldSummary:
    standings = tournament_standings(tournament_full(tournament), limit=0)
    return {
        "players_left": standings.players_left,
        "entries": standings.entries,
        "average_stack": standings.average_stack,
        "places_paid": standings.places_paid,
        "prize_pool": _amount(standings.prize_pool),
        "next_payout": _amount(standings.next_payout),
        "min_cash": _amount(standings.min_cash),
    }


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockFeed:
    """The clock as every display gets it (the big screen, the desk, the tablets, the API):
    `stable` stays the same until a write or the end of the level in force, and `etag` names
    it; `volatile` moves every second (the server's time, the countdowns) and is left out of
    the tag. The browser counts down from `ends_at` by itself."""

    etag: str
    stable: ClockStable
    volatile: ClockVolatile

    def as_dict(self) -> ClockAnswer:
        return {**self.stable, **self.volatile}


def clock_feed(tournament: Tournament, now: datetime, *, tag: ClockTag | None = None) -> ClockFeed:
    """The one clock answer (JSON-ready: amounts as strings, moments as ISO 8601). The schedule
    and the field's totals are read once per tournament version; the rest is arithmetic on
    the tournament's row."""
    view = tag.view if tag is not None else _view(tournament, now)
    field = cached(tournament, "field", lambda: _field_summary(tournament))
    running = view.ends_at is not None
    next_break_at = None
    if running and view.ends_at and view.seconds_to_next_break is not None:
        between = view.seconds_to_next_break - view.seconds_left
        next_break_at = view.ends_at + timedelta(seconds=between)
    stable: ClockStable = {
        "tournament": tournament.pk,
        "name": tournament.name,
        "tournament_status": tournament.status,
        "finished": tournament.status == Tournament.Status.FINISHED,
        "status": view.status.value,
        "level_index": view.level_index,
        "level_number": view.level_number,
        "label": view.label,
        "level": _clock_level(view.level),
        "next_level": None if view.next_level is None else _clock_level(view.next_level),
        "is_last_level": view.next_level is None,
        "blinds": level_text(view.level),
        "next_blinds": level_text(view.next_level),
        "started_at": _iso(view.started_at),
        "ends_at": _iso(view.ends_at),
        "next_break_at": _iso(next_break_at),
        "remaining_seconds": None if running else view.seconds_left,
        "hand_for_hand": tournament.hand_for_hand,
        "hand_for_hand_hand": tournament.hand_for_hand_round if tournament.hand_for_hand else None,
        "break_note": break_note(view),
        "floor_message": tournament.floor_message,
        **field,
    }
    return ClockFeed(etag=_etag(tournament, view), stable=stable, volatile=_volatile(view, now))


def _volatile(view: clock.ClockView, now: datetime) -> ClockVolatile:
    """The feed's fields that move every second (left out of the ETag)."""
    return {
        "server_time": _iso(now),
        "seconds_left": view.seconds_left,
        "overtime_seconds": view.overtime_seconds,
        "seconds_to_next_break": view.seconds_to_next_break,
    }


@dataclass(frozen=True, slots=True)
class ClockTail:
    """The end of the clock feed's JSON, `,"server_time":...}`: its fields that move every
    second, worked out at each answer from the clock as stored and its levels, so that the rest
    of the JSON can be kept once per ETag and served as it is (`config.conditional.Keep`; the
    answer is the same as the whole feed's at that moment). Kept in the cache with that part
    (plain values; compact JSON as DRF's renderer writes it)."""

    state: clock.ClockState
    levels: tuple[clock.Level, ...]

    def __call__(self, now: datetime) -> bytes:
        view = clock.view(self.state, self.levels, now)
        text = json.dumps(_volatile(view, now), separators=(",", ":"))
        return b"," + text[1:].encode()


def clock_tail(tournament: Tournament) -> ClockTail:
    """The tail of the tournament's clock feed (read with the feed: the levels are cached)."""
    levels = cached(tournament, "levels", lambda: tournament_levels(tournament))
    return ClockTail(clock_state(tournament), levels)


def break_note(view: clock.ClockView) -> str:
    """The note of the break on the clock, or of the break that comes next (a colour-up the
    players should know of before it starts); "" when neither has one."""
    if view.level.is_break:
        return view.level.note
    if view.next_level is not None and view.next_level.is_break:
        return view.next_level.note
    return ""


def _view(tournament: Tournament, now: datetime) -> clock.ClockView:
    levels = cached(tournament, "levels", lambda: tournament_levels(tournament))
    return clock.view(clock_state(tournament), levels, now)


def _etag(tournament: Tournament, view: clock.ClockView) -> str:
    # Weak: the fields that move every second are sent with a 200 but are not part of the tag.
    return f'W/"{version_tag(tournament, "clock", view.level_index)}"'


@dataclass(frozen=True, slots=True)
class ClockTag:
    """The clock feed's ETag without the feed: the tournament's version and the level in force
    (a level that ends by time changes it with no write); `until`, while the clock runs, the
    moment that level ends, until which the tag holds if nothing is written."""

    etag: str
    until: datetime | None
    view: clock.ClockView


def clock_etag(tournament: Tournament, now: datetime) -> ClockTag:
    view = _view(tournament, now)
    return ClockTag(etag=_etag(tournament, view), until=view.ends_at, view=view)


def clock_seconds_shown(feed: ClockFeed) -> str:
    """The time a display shows before its script takes over: "12:30", "0:09", "+1:05"."""
    overtime = feed.volatile["overtime_seconds"]
    seconds = overtime or feed.volatile["seconds_left"]
    minutes, secs = divmod(max(seconds, 0), 60)
    hours, minutes = divmod(minutes, 60)
    text = f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
    return "+" + text if overtime else text


def hand_for_hand_due(tournament: Tournament) -> bool:
    """RP-8: one bust from the money, the director should play hand-for-hand (from the field's
    totals the clock shows, read once per version)."""
    field = cached(tournament, "field", lambda: _field_summary(tournament))
    return balancing.needs_hand_for_hand(field["players_left"], field["places_paid"])
