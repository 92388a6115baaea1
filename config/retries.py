"""How a task waits out a short database outage.

A task that meets PostgreSQL down or restarting (`OperationalError`, `InterfaceError`) is sent
again a little later instead of failing for good: a lost level-change task would leave the audit
log without that change, a lost hold expiry a seat held. The waits (2, 4, 8, 16, then 20 s) stay
below the tasks' time limit and the broker's visibility timeout; six retries cover a restart of
about a minute. Only these errors are retried: any other is a bug, and retrying it would hide it.
Every task decides whether its work is still due, so a retry after the work was done does nothing.
"""

from __future__ import annotations

from typing import TypedDict

from django.db import InterfaceError, OperationalError


class RetryOptions(TypedDict):
    """Celery's retry options of a task, as `shared_task` takes them."""

    autoretry_for: tuple[type[Exception], ...]
    retry_backoff: int
    retry_backoff_max: int
    retry_jitter: bool
    max_retries: int


OUTAGE_RETRY: RetryOptions = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 2,
    "retry_backoff_max": 20,
    "retry_jitter": False,
    "max_retries": 6,
}
