"""The level-change task through a real Celery worker process on Redis, against PostgreSQL.

The worker is started by the test with the test database's address, consumes a queue of its own
and is stopped afterwards. On CI (REQUIRE_SERVICES=1) a missing PostgreSQL or Redis fails the test.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from tests.operations.processes import need_services, production_env
from tournaments.models import AuditEvent
from tournaments.services.clocks import announce_horizon, clock_start
from tournaments.services.entries import entry_register
from tournaments.services.events import (
    schedule_create,
    tournament_create,
    tournament_open_registration,
)
from tournaments.services.tables import tournament_draw_seats
from tournaments.tasks import clock_announce_level_task

ROOT = Path(__file__).resolve().parents[2]


def seated_three_levels(name: str, players: tuple[str, ...] = ("Ann", "Bob")) -> Any:
    """A tournament of three 20-minute levels, its players seated, the clock not started."""
    schedule = schedule_create(
        name=name,
        levels=[
            {"small_blind": 100, "big_blind": 200, "duration": 1200},
            {"small_blind": 200, "big_blind": 400, "duration": 1200},
            {"small_blind": 300, "big_blind": 600, "duration": 1200},
        ],
    )
    tournament = tournament_create(schedule=schedule, name=f"{name} test", buy_in=Decimal("10"))
    tournament_open_registration(tournament=tournament)
    for player in players:
        entry_register(tournament=tournament, player_name=player, now=timezone.now())
    tournament_draw_seats(tournament=tournament, rng=random.Random(1))
    return tournament


@pytest.fixture
def worker_queue() -> Iterator[str]:
    """A Celery worker process on a queue of its own, using the test database."""
    need_services()
    queue = f"test-{uuid.uuid4().hex[:8]}"
    # A worker is a production process: it refuses the development key (config/production.py).
    env = production_env(REDIS_URL=settings.REDIS_URL)
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
    tournament = seated_three_levels("Worker", ("Ann", "Bob", "Cy"))
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
    tournament = seated_three_levels("Enqueue")
    start = timezone.now()
    with django_capture_on_commit_callbacks() as callbacks:  # type: ignore[operator]
        clock_start(tournament=tournament, now=start)
    assert sent == []  # nothing is sent before the commit
    for callback in callbacks:
        callback()
    # Sent half a visibility timeout ahead, not at the level's end 20 minutes away: Redis would
    # hand a task waiting that long out again every timeout (tournaments.services.clocks).
    assert sent == [(ANNOUNCE_TASK, (tournament.pk, 1), start + announce_horizon())]
    assert announce_horizon() < timedelta(minutes=20)
    assert clock_announce_level_task.name == ANNOUNCE_TASK


@pytest.mark.django_db
def test_an_announcement_woken_before_the_levels_end_sends_the_next_hop(
    settings: object,
    django_capture_on_commit_callbacks: object,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from celery import current_app

    from tournaments.services.clocks import ANNOUNCE_TASK, clock_announce_level

    settings.CELERY_TASK_ALWAYS_EAGER = False  # type: ignore[attr-defined]
    sent: list[tuple[str, tuple[int, int], object]] = []
    monkeypatch.setattr(
        current_app, "send_task", lambda name, args, eta: sent.append((name, args, eta))
    )
    tournament = seated_three_levels("Hops")
    start = timezone.now()
    clock_start(tournament=tournament, now=start)
    woken = start + announce_horizon()
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        assert (
            clock_announce_level(tournament_id=tournament.pk, expected_index=1, now=woken) is False
        )
    assert sent[-1] == (ANNOUNCE_TASK, (tournament.pk, 1), woken + announce_horizon())
    assert not AuditEvent.objects.filter(tournament=tournament, action="level_change").exists()
    # At the level's end the change is recorded, and the next level's first hop is sent.
    end = start + timedelta(minutes=20)
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        assert clock_announce_level(tournament_id=tournament.pk, expected_index=1, now=end) is True
    assert AuditEvent.objects.filter(tournament=tournament, action="level_change").count() == 1
    assert sent[-1] == (ANNOUNCE_TASK, (tournament.pk, 2), end + announce_horizon())
