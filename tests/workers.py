"""The test process's place in a parallel run (pytest-xdist: `pytest -n 2`, docs/operations.md).

xdist names its worker processes gw0, gw1, ... in `PYTEST_XDIST_WORKER`; a serial run (`-n 0`, or
no xdist) is worker 0. What the processes of one run share on the machine is split by this
number, so that two tests running at the same time never use the same one: the cache's key
prefix (config/settings.py), the test database (pytest-django: test_<name>_gw0, ...), the Redis
databases of the operations tests (tests/operations/processes.py) and the ports of the servers
they start (tests/operations/servers.py).

It also hands the tests out (`LaneScheduling`, from tests/conftest.py): the tests that mostly wait
run in lanes of their own.
"""

from __future__ import annotations

import os
from typing import Any

from xdist.scheduler import LoadGroupScheduling

# Tests that mostly wait, on Chromium or on the gunicorn, Celery, Redis and PostgreSQL processes
# they start: in a parallel run each directory is one unit of work, its tests run one after
# another in one process, while the other processes keep the cores busy with the tests that
# compute. Handed out one at a time in collection order, the 61 browser tests came together and
# ran side by side in both processes, the cores mostly idle for minutes (docs/performance.md,
# "2026-12-03: lanes for the tests that wait").
WAITING_LANES = {"tests/browser/": "browser", "tests/operations/": "processes"}


def worker_name() -> str:
    """`gw0`, `gw1`, ... in a parallel run; empty in a serial one."""
    return os.environ.get("PYTEST_XDIST_WORKER", "")


def worker_index() -> int:
    """0, 1, ... in a parallel run; 0 in a serial one."""
    name = worker_name()
    return int(name.removeprefix("gw")) if name else 0


def lane(nodeid: str) -> str:
    """The waiting lane a test runs in, or "" for a test handed out on its own."""
    return next((name for path, name in WAITING_LANES.items() if nodeid.startswith(path)), "")


class LaneScheduling(LoadGroupScheduling):
    """pytest-xdist's `loadgroup`, with each waiting lane one unit of work. xdist hands out the
    largest units first (the lanes, then one test at a time in collection order) and gives a
    process more only when it has two tests or fewer left. Its own `xdist_group` marks are read
    from a suffix it adds to the test's id, which pytest 9.2 no longer lets it add
    (pytest-dev/pytest-xdist#1386); the lanes do not depend on it."""

    def _split_scope(self, nodeid: str) -> Any:
        return lane(nodeid) or super()._split_scope(nodeid)
