"""The template context of a clock display (the big screen, the desk, the tablets): the clock
feed (`selectors.clock_feed`, the API's own answer) embedded for the script, the time shown
before the script takes over, the server's time for the script's countdown, and the feed's URL
that the script polls.
"""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from django.urls import reverse

from tournaments.models import Tournament
from tournaments.selectors import clock_feed, clock_seconds_shown
from tournaments.selectors.clock import ClockAnswer


class ClockContext(TypedDict):
    clock: ClockAnswer
    clock_time: str
    server_now_ms: int
    clock_url: str


def clock_context(tournament: Tournament, now: datetime) -> ClockContext:
    feed = clock_feed(tournament, now)
    return {
        "clock": feed.as_dict(),
        "clock_time": clock_seconds_shown(feed),
        "server_now_ms": int(now.timestamp() * 1000),
        "clock_url": reverse("api-clock", args=[tournament.pk]),
    }
