"""What a clock display needs, in a form that stays the same between level changes.

The browser counts down by itself (static/js/clock.js): it gets the moment the level ends while
the clock runs (`ends_at`), or the seconds left while it stands still (`remaining`), never a
per-second value, so the payload (and its ETag) only changes when something really changes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tournaments.clock import ClockView
from tournaments.labels import blinds_label
from tournaments.models import Tournament
from tournaments.selectors import Standings, clock_summary
from tournaments.services.clocks import clock_view


def level_text(level: dict[str, Any] | None) -> str:
    """ "100 / 200, ante 200 (BB ante)", or "Break, 15 min"; "" for no level."""
    if level is None:
        return ""
    if level["is_break"]:
        return f"Break, {level['minutes']} min"
    return blinds_label(
        level["small_blind"], level["big_blind"], ante=level["ante"], bb_ante=level["bb_ante"]
    )


def clock_payload(
    tournament: Tournament,
    now: datetime,
    *,
    view: ClockView | None = None,
    standings: Standings | None = None,
) -> dict[str, Any]:
    """The clock as JSON for the big screen and the dashboard (stable between changes).
    `view` and `standings`, when the caller has them already (of `now`), are not read again."""
    view = view or clock_view(tournament, now)
    summary = clock_summary(tournament, now, view=view, standings=standings)
    running = summary["running"]
    payload = {key: value for key, value in summary.items() if key not in ("seconds_left",)}
    payload.pop("overtime_seconds", None)
    payload.update(
        tournament_status=tournament.status,
        finished=tournament.status == Tournament.Status.FINISHED,
        level_index=view.level_index,
        blinds=level_text(summary["level"]),
        next_blinds=level_text(summary["next_level"]),
        is_last_level=summary["next_level"] is None,
        ends_at=view.ends_at.isoformat() if running and view.ends_at else None,
        remaining=None if running else view.seconds_left,
    )
    return payload


def countdown_text(seconds: int) -> str:
    """ "1:05:00", "12:30", "0:09"."""
    minutes, secs = divmod(max(seconds, 0), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clock_context(
    tournament: Tournament, now: datetime, *, standings: Standings | None = None
) -> dict[str, Any]:
    """Template context for a clock display: the payload (also given to the script), the time
    shown before the script takes over, and the server's time for the script's countdown."""
    view = clock_view(tournament, now)
    payload = clock_payload(tournament, now, view=view, standings=standings)
    if view.overtime_seconds:
        shown = "+" + countdown_text(view.overtime_seconds)
    else:
        shown = countdown_text(view.seconds_left)
    return {
        "clock": payload,
        "clock_time": shown,
        "server_now_ms": int(now.timestamp() * 1000),
    }
