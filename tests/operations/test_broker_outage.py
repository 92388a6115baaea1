"""A Redis outage ends neither the Celery worker nor the beat, and `/healthz` shows both alive.

Issue 23: the worker exited for good during a Redis outage, while beat kept queueing and
nothing restarted it. The test runs the worker and the beat as compose starts them (the prefork
pool, event heartbeats on) against a redis-server of its own, with a heartbeat every second.
`/healthz` (this process, pointed at the same Redis) must show both heartbeats recent. Then the
server is killed for a few seconds (longer than the worker's first reconnection attempts) and
started again on the same port: the same two processes must still be alive, the worker must run
the next task sent, and both heartbeats must be recent again.

Here a short outage (idle worker, or a task in hand) did not end the worker even before the
change; what did end it was Celery's limit of 100 reconnection attempts (about 45 minutes), which
the first test checks is gone.
"""

from __future__ import annotations

import sys
import time
import uuid
from datetime import datetime
from pathlib import Path

import pytest
import yaml
from celery import Celery
from django.test import Client
from pytest_django import Settings

from tests.operations.processes import ROOT, Process, need_postgres, production_env, wait_until
from tests.operations.servers import PrivateRedis

# A task of the project's that reads the database and answers a count (nothing is due: 0).
TASK = "dealer.tasks.waitlist_expire_calls_task"
# Longer than the worker's first reconnection attempts (2 s, then 4 s apart).
OUTAGE_SECONDS = 8
CACHE_PREFIX = "outage-test"


def _compose_command(service: str, *extra: str) -> list[str]:
    """A compose service's command, run with this machine's Python, plus `extra`."""
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    program, *args = services[service]["command"]
    assert program == "celery"
    return [sys.executable, "-m", "celery", *args, *extra]


def _answered(sender: Celery, queue: str) -> bool:
    """Whether a worker on `queue` runs a task and sends back its answer."""
    try:
        return sender.send_task(TASK, queue=queue).get(timeout=3) == 0
    except Exception:
        return False


def _both_beating_since(client: Client, since: datetime) -> bool:
    """Whether /healthz shows the worker's and the beat's heartbeats recent and after `since`."""
    body = client.get("/healthz").json()
    return all(
        body[process]["status"] == "ok"
        and datetime.fromisoformat(body[process]["last_heartbeat"]) > since
        for process in ("worker", "beat")
    )


def test_the_worker_never_gives_up_reconnecting_to_the_broker() -> None:
    """Celery's default gives up after 100 attempts (about 45 minutes of outage, too long to
    wait for here) and the worker exits; it must keep trying for as long as Redis is away."""
    from config.celery import app

    assert app.conf.broker_connection_retry is True
    assert app.conf.broker_connection_max_retries is None
    # A task whose connection dropped is cancelled, not run twice at once when handed out again.
    assert app.conf.worker_cancel_long_running_tasks_on_connection_loss is True


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db
def test_worker_and_beat_survive_a_broker_outage_and_healthz_shows_their_heartbeats(
    settings: Settings, client: Client, tmp_path: Path
) -> None:
    need_postgres()
    queue = f"test-outage-{uuid.uuid4().hex[:8]}"
    with PrivateRedis() as redis:
        env = production_env(
            REDIS_URL=redis.url(0),
            CACHE_KEY_PREFIX=CACHE_PREFIX,
            PYTEST_XDIST_WORKER="",
            HEARTBEAT_SECONDS="1",
            LOG_LEVEL="WARNING",
        )
        # The cache's values are signed with the key: /healthz here reads the heartbeats that
        # the worker and beat write, so it takes their (production) key.
        settings.SECRET_KEY = env["SECRET_KEY"]
        settings.CELERY_TASK_ALWAYS_EAGER = False
        settings.CELERY_BROKER_URL = redis.url(0)
        settings.HEARTBEAT_SECONDS = 1
        settings.CACHES = {
            "default": {
                # The production backend: the worker and beat write signed values.
                "BACKEND": "config.cache.TolerantRedisCache",
                "LOCATION": redis.url(0),
                "KEY_PREFIX": CACHE_PREFIX,
                "OPTIONS": settings.CACHE_REDIS_OPTIONS,
            }
        }
        worker_command = _compose_command("worker", "--concurrency", "1", "-Q", f"{queue},celery")
        beat_command = _compose_command("beat")
        beat_command[beat_command.index("--schedule") + 1] = str(tmp_path / "schedule")
        sender = Celery("sender", broker=redis.url(0), backend=redis.url(0), set_as_current=False)
        try:
            with Process(worker_command, env) as worker, Process(beat_command, env) as beat:
                started = datetime.now().astimezone()
                wait_until(lambda: _answered(sender, queue), timeout=60, what="a first task")
                wait_until(
                    lambda: _both_beating_since(client, started),
                    timeout=30,
                    what="/healthz showing the worker's and the beat's heartbeats",
                )
                pids = (worker.popen and worker.popen.pid, beat.popen and beat.popen.pid)

                redis.kill()
                deadline = time.monotonic() + OUTAGE_SECONDS
                while time.monotonic() < deadline:
                    assert worker.running(), "the worker exited during the broker outage"
                    assert beat.running(), "the beat exited during the broker outage"
                    time.sleep(0.25)
                redis.start()
                back = datetime.now().astimezone()

                wait_until(
                    lambda: _answered(sender, queue), timeout=60, what="a task after the outage"
                )
                wait_until(
                    lambda: _both_beating_since(client, back),
                    timeout=30,
                    what="the heartbeats after the outage",
                )
                assert worker.running()
                assert beat.running()
                assert (worker.popen and worker.popen.pid, beat.popen and beat.popen.pid) == pids
        finally:
            sender.close()
