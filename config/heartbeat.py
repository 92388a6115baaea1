"""When the Celery worker and beat last showed they were alive, for `/healthz`.

The beat sends `heartbeat_task` every `HEARTBEAT_SECONDS` (30; `CELERY_BEAT_SCHEDULE`); as it
sends it, the beat records the time under its key. The worker records the time under its own
key whenever it runs that task, and on its own event heartbeat (every few seconds, at most once
per `WORKER_WRITE_SECONDS`), so a worker whose beat is down still shows it is alive.

Both live in the cache (Redis, which web, worker and beat share). A heartbeat older than
`stale_after()` is "stale": the process is gone, hung or cut off from Redis.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime

from celery import shared_task
from celery.signals import before_task_publish, heartbeat_sent
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

logger = logging.getLogger("floordesk.heartbeat")

TASK = "config.heartbeat.heartbeat_task"
KEYS = {"worker": "heartbeat:worker", "beat": "heartbeat:beat"}
# Kept a day: an old time still tells the operator when the process was last seen.
KEEP_SECONDS = 24 * 3600
WORKER_WRITE_SECONDS = 10.0
_last_worker_write = 0.0


def stale_after() -> float:
    """Seconds without a heartbeat after which a process is reported stale: three missed."""
    return 3 * max(float(settings.HEARTBEAT_SECONDS), WORKER_WRITE_SECONDS)


def record(process: str) -> None:
    """Write `process`'s heartbeat; a cache that does not answer is logged, never raised (the
    worker and beat carry on, and `/healthz` reports the cache)."""
    try:
        cache.set(KEYS[process], timezone.now().isoformat(), timeout=KEEP_SECONDS)
    except Exception:
        logger.warning("could not record the %s's heartbeat", process, exc_info=True)


def last_heartbeats() -> dict[str, datetime | None]:
    """The last heartbeat of the worker and of the beat (None: not seen for a day or more)."""
    found = cache.get_many(list(KEYS.values()))
    times: dict[str, datetime | None] = {}
    for process, key in KEYS.items():
        value = found.get(key)
        times[process] = datetime.fromisoformat(value) if isinstance(value, str) else None
    return times


@shared_task(acks_late=True, time_limit=30, soft_time_limit=20, ignore_result=True)
def heartbeat_task() -> None:
    """Sent by the beat: running it shows the worker takes tasks from the queue."""
    record("worker")


@before_task_publish.connect(weak=False)
def _beat_sends_heartbeat(sender: str | None = None, **_: object) -> None:
    # Only the beat sends this task (CELERY_BEAT_SCHEDULE).
    if sender == TASK:
        record("beat")


@heartbeat_sent.connect(weak=False)
def _worker_is_alive(**_: object) -> None:
    global _last_worker_write
    now = time.monotonic()
    if now - _last_worker_write >= WORKER_WRITE_SECONDS:
        _last_worker_write = now
        record("worker")
