"""The level-change task through a real Celery worker process on Redis, against PostgreSQL.

The worker is started by the test with the test database's address, consumes a queue of its own
and is stopped afterwards. On CI (REQUIRE_SERVICES=1) a missing PostgreSQL or Redis fails the test.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from tests.required import REQUIRED
from tournaments.models import AuditEvent
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register
from tournaments.services.events import (
    schedule_create,
    tournament_create,
    tournament_open_registration,
)
from tournaments.services.tables import tournament_draw_seats
from tournaments.tasks import clock_announce_level_task

ROOT = Path(__file__).resolve().parents[2]


def _need_services() -> None:
    missing = []
    if connection.vendor != "postgresql":
        missing.append("PostgreSQL (DATABASE_URL)")
    if not settings.REDIS_URL:
        missing.append("Redis (REDIS_URL)")
    if missing:
        message = f"a real Celery worker needs {' and '.join(missing)}"
        if REQUIRED:
            pytest.fail(f"REQUIRE_SERVICES=1 but {message} is not configured")
        pytest.skip(message)


def _database_url() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


@pytest.fixture
def worker_queue() -> Iterator[str]:
    """A Celery worker process on a queue of its own, using the test database."""
    _need_services()
    queue = f"test-{uuid.uuid4().hex[:8]}"
    env = os.environ | {"DATABASE_URL": _database_url(), "REDIS_URL": settings.REDIS_URL}
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-P",
                "solo",
                "-c",
                "1",
                "-Q",
                queue,
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-l",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            yield queue
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.seek(0)
            output = log.read().decode(errors="replace").strip()
            if output:
                print(f"celery worker output:\n{output}")


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_level_change_task_in_a_real_worker_runs_once_and_ignores_stale_levels(
    worker_queue: str,
) -> None:
    schedule = schedule_create(
        name="Worker",
        levels=[
            {"small_blind": 100, "big_blind": 200, "duration": 1200},
            {"small_blind": 200, "big_blind": 400, "duration": 1200},
            {"small_blind": 300, "big_blind": 600, "duration": 1200},
        ],
    )
    tournament = tournament_create(schedule=schedule, name="Worker test", buy_in=Decimal("10"))
    tournament_open_registration(tournament=tournament)
    for name in ("Ann", "Bob", "Cy"):
        entry_register(tournament=tournament, player_name=name, now=timezone.now())
    tournament_draw_seats(tournament=tournament, rng=random.Random(1))
    # Started 21 minutes ago: level 2 (row 1) is in force and its announcement is due.
    clock_start(tournament=tournament, now=timezone.now() - timedelta(minutes=21))

    def run(expected: int) -> bool:
        result = clock_announce_level_task.apply_async(
            args=(tournament.pk, expected), queue=worker_queue
        )
        return bool(result.get(timeout=90))

    assert run(1) is True
    assert run(1) is False  # repeated: already announced
    assert run(2) is False  # stale: the clock does not expect row 2 yet
    tournament.refresh_from_db()
    assert tournament.clock_level == 1
    assert AuditEvent.objects.filter(tournament=tournament, action="level_change").count() == 1


@pytest.mark.django_db
def test_clock_start_enqueues_the_announcement_at_the_levels_end_after_commit(
    settings: object,
    django_capture_on_commit_callbacks: object,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from celery import current_app

    from tournaments.services.clocks import ANNOUNCE_TASK

    settings.CELERY_TASK_ALWAYS_EAGER = False  # type: ignore[attr-defined]
    sent: list[tuple[str, tuple[int, int], object]] = []
    monkeypatch.setattr(
        current_app, "send_task", lambda name, args, eta: sent.append((name, args, eta))
    )
    schedule = schedule_create(
        name="Enqueue",
        levels=[
            {"small_blind": 100, "big_blind": 200, "duration": 1200},
            {"small_blind": 200, "big_blind": 400, "duration": 1200},
        ],
    )
    tournament = tournament_create(schedule=schedule, name="Enqueue test")
    tournament_open_registration(tournament=tournament)
    for name in ("Ann", "Bob"):
        entry_register(tournament=tournament, player_name=name, now=timezone.now())
    tournament_draw_seats(tournament=tournament, rng=random.Random(1))
    start = timezone.now()
    with django_capture_on_commit_callbacks() as callbacks:  # type: ignore[operator]
        clock_start(tournament=tournament, now=start)
    assert sent == []  # nothing is sent before the commit
    for callback in callbacks:
        callback()
    assert sent == [(ANNOUNCE_TASK, (tournament.pk, 1), start + timedelta(minutes=20))]
    assert clock_announce_level_task.name == ANNOUNCE_TASK
