"""The test process's place in a parallel run (pytest-xdist: `pytest -n 2`, docs/operations.md).

xdist names its worker processes gw0, gw1, ... in `PYTEST_XDIST_WORKER`; a serial run (`-n 0`, or
no xdist) is worker 0. What the processes of one run share on the machine is split by this
number, so that two tests running at the same time never use the same one: the cache's key
prefix (config/settings.py), the test database (pytest-django: test_<name>_gw0, ...), the Redis
databases of the operations tests (tests/operations/processes.py) and the ports of the servers
they start (tests/operations/servers.py).
"""

from __future__ import annotations

import os


def worker_name() -> str:
    """`gw0`, `gw1`, ... in a parallel run; empty in a serial one."""
    return os.environ.get("PYTEST_XDIST_WORKER", "")


def worker_index() -> int:
    """0, 1, ... in a parallel run; 0 in a serial one."""
    name = worker_name()
    return int(name.removeprefix("gw")) if name else 0
