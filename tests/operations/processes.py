"""Production processes (gunicorn, Celery worker and beat) started by the operations tests.

Each runs in a process group of its own, with the production settings a deployment has (DEBUG
off, a real SECRET_KEY) pointed at the test database and at a Redis database of the test's
own, so that no other test's worker takes its tasks and it takes no one else's. On CI
(REQUIRE_SERVICES=1) a missing PostgreSQL or Redis fails the test instead of skipping it.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection

from tests.required import REQUIRED
from tests.workers import worker_index

ROOT = Path(__file__).resolve().parents[2]


def need_services() -> None:
    """Skip (or fail on CI) unless the test database is PostgreSQL and Redis is configured."""
    missing = []
    if connection.vendor != "postgresql":
        missing.append("PostgreSQL (DATABASE_URL)")
    if not settings.REDIS_URL:
        missing.append("Redis (REDIS_URL)")
    if missing:
        message = f"production processes need {' and '.join(missing)}"
        if REQUIRED:
            pytest.fail(f"REQUIRE_SERVICES=1 but {message} is not configured")
        pytest.skip(message)


def need_postgres() -> None:
    """Skip (or fail on CI) unless the test database is PostgreSQL (a test that brings a Redis
    of its own)."""
    if connection.vendor != "postgresql":
        message = "production processes need PostgreSQL (DATABASE_URL)"
        if REQUIRED:
            pytest.fail(f"REQUIRE_SERVICES=1 but {message} is not configured")
        pytest.skip(message)


def database_url() -> str:
    """The address of the database pytest-django made for this test run."""
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


# The operations tests' Redis databases on the configured server (0, REDIS_URL's, holds the
# cache, under a prefix per test process, and the broker of the tests themselves): two per test
# process of a parallel run, 15 and 14 for the first (or a serial run), 13 and 12 for the second,
# and so on, so that a worker's tasks, its unacknowledged messages and its control pings stay
# among the processes of one test.
BROKER_DATABASES = 2
FIRST_BROKER_DATABASE = 15


def broker_database(slot: int) -> int:
    """The Redis database `slot` (0 or 1) of this test process: 15 or 14 in a serial run."""
    assert 0 <= slot < BROKER_DATABASES
    database = FIRST_BROKER_DATABASE - BROKER_DATABASES * worker_index() - slot
    if database < 1:
        pytest.fail(
            f"test process {worker_index()} has no Redis database of its own: Redis has 16, "
            f"enough for {FIRST_BROKER_DATABASE // BROKER_DATABASES} test processes (-n)"
        )
    return database


def redis_url(database: int) -> str:
    """The configured Redis server, with another database number (`broker_database()`)."""
    parts = urlsplit(settings.REDIS_URL)
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", parts.query, ""))


def production_env(**overrides: str) -> dict[str, str]:
    """The environment of a production process: DEBUG off, a real key, JSON logs."""
    return (
        dict(os.environ)
        | {
            "DATABASE_URL": database_url(),
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "LOG_FORMAT": "json",
            "LOG_LEVEL": "INFO",
        }
        | overrides
    )


class Process:
    """A command in a process group of its own, its output kept in a file to read and print."""

    def __init__(self, command: Sequence[str], env: Mapping[str, str]) -> None:
        self.command = list(command)
        self.env = dict(env)
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in __exit__
        self.popen: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Process:
        self.popen = subprocess.Popen(
            self.command,
            cwd=ROOT,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped with all its children
        )
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
        output = self.output().strip()
        if output:
            print(f"--- {' '.join(self.command[:4])} ...\n{output[-6000:]}")
        self._log.close()

    def output(self) -> str:
        self._log.flush()
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    def _signal_group(self, number: int) -> None:
        assert self.popen is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, number)

    def kill(self) -> None:
        """SIGKILL the whole group at once: nothing gets to acknowledge or give back a task."""
        assert self.popen is not None
        self._signal_group(signal.SIGKILL)
        self.popen.wait()

    def stop(self, timeout: float = 15) -> None:
        """SIGTERM the process, and SIGKILL its group once it has stopped or after `timeout`."""
        assert self.popen is not None
        if self.popen.poll() is None:
            self.popen.terminate()  # the main process stops its own children
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=timeout)
        self._signal_group(signal.SIGKILL)  # children that outlived their parent
        self.popen.wait()

    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None


def wait_until(condition: Callable[[], object], *, timeout: float, what: str) -> float:
    """Poll `condition` until it is true; the seconds it took. Fails the test at `timeout`."""
    start = time.monotonic()
    while True:
        if condition():
            return time.monotonic() - start
        if time.monotonic() - start > timeout:
            pytest.fail(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.1)


def celery_worker(queue: str) -> list[str]:
    """A worker as compose starts it (the default prefork pool), on a queue of the test's own."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--concurrency",
        "1",
        "-Q",
        queue,
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]
