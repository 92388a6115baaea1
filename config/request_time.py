"""The moment a request acts at: one function for the pages, the API and the tablets, so that a
test sets the time of every front door at once (`monkeypatch.setattr("config.request_time.now",
...)`). Nothing that serves a request reads the system clock another way."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    """The current time (time-zone aware)."""
    return timezone.now()
