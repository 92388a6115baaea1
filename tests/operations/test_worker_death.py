"""A worker killed while it runs the level-change task: another worker runs it, within a minute.

The task is acknowledged only when it has run (acks late), so a worker killed in the middle
leaves it unacknowledged in Redis. Redis hands it out again once the visibility timeout has
passed, but only when a live worker sweeps for such tasks: kombu's defaults (an hour's timeout,
a sweep every 100 s) kept the audit entry of a level change waiting for an hour.

The test holds the tournament's row, so worker A's task is seen waiting for it in PostgreSQL;
worker A's whole process group is then SIGKILLed, the row released and worker B started. The
audit entry must appear within the visibility timeout and a margin for B's start.
"""

from __future__ import annotations

import time
import uuid
from datetime import timedelta

import pytest
from celery import Celery
from django.db import connection, transaction
from django.utils import timezone
from pytest_django import Settings

from tests.factories import seated_tournament
from tests.operations.processes import (
    Process,
    broker_database,
    celery_worker,
    need_services,
    production_env,
    redis_url,
    wait_until,
)
from tournaments.models import AuditEvent, Tournament
from tournaments.services.clocks import ANNOUNCE_TASK

VISIBILITY_TIMEOUT = 5
# Worker B's start (about 3 s of Django and Celery) and its first sweeps after the timeout.
MARGIN = 20


def _waiting_on_a_lock() -> bool:
    """Whether another session of the test database waits for a row lock (worker A's task)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # a fresh view inside the transaction
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        )
        (waiting,) = cursor.fetchone()
    return bool(waiting)


def _announced(tournament_id: int) -> bool:
    return AuditEvent.objects.filter(tournament_id=tournament_id, action="level_change").exists()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_killed_workers_level_change_runs_on_another_worker_within_the_visibility_timeout(
    settings: Settings,
) -> None:
    need_services()
    settings.CELERY_TASK_ALWAYS_EAGER = True  # set-up sends nothing
    # Two 20-minute levels, started 21 minutes ago: the change to the second level is due.
    tournament = seated_tournament(
        players=3,
        now=timezone.now() - timedelta(minutes=21),
        levels=[(100, 200, 0, 1200), (200, 400, 0, 1200)],
    )
    broker = redis_url(broker_database(0))
    queue = f"test-death-{uuid.uuid4().hex[:8]}"
    env = production_env(
        REDIS_URL=broker, CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT), LOG_LEVEL="WARNING"
    )
    sender = Celery("sender", broker=broker, set_as_current=False)

    with transaction.atomic(), Process(celery_worker(queue), env) as worker_a:
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        sender.send_task(ANNOUNCE_TASK, args=(tournament.pk, 1), queue=queue)
        wait_until(_waiting_on_a_lock, timeout=60, what="worker A running the task")
        worker_a.kill()
        assert not worker_a.running()
    killed_at = time.monotonic()
    sender.close()
    assert not _announced(tournament.pk)  # worker A died before it could record anything

    with Process(celery_worker(queue), env):
        wait_until(
            lambda: _announced(tournament.pk),
            timeout=VISIBILITY_TIMEOUT + MARGIN,
            what="the level change after worker A was killed",
        )
    assert time.monotonic() - killed_at < VISIBILITY_TIMEOUT + MARGIN
    assert AuditEvent.objects.filter(tournament=tournament, action="level_change").count() == 1
    tournament.refresh_from_db()
    assert tournament.clock_level == 1
