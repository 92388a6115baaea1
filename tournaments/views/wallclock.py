"""The moment the pages act at: one function, so that tests can set the time."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    """The current time (time-zone aware). Views call `wallclock.now()`, never the system."""
    return timezone.now()
