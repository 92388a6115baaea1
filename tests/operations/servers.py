"""A Redis and a PostgreSQL of the test's own, to stop and start in the middle of a test.

The machine's servers are shared: an outage test never touches them. `PrivateRedis` runs
`redis-server` on a free port with nothing kept on disk; `PrivateCluster` makes a PostgreSQL
cluster in a temporary directory (trust authentication, a free port) and runs it as the
`postgres` system user when the tests run as root (PostgreSQL refuses to run as root). Both
keep their port across a restart, so clients pointed at them find them again.

Without the binaries the test skips, and fails on CI (REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

import pytest

from tests.required import REQUIRED

POSTGRES_BINARIES = (Path("/usr/local/bin"), Path("/usr/lib/postgresql/15/bin"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def missing(what: str) -> None:
    """Skip, or fail on CI, for a server the test cannot start."""
    if REQUIRED:
        pytest.fail(f"REQUIRE_SERVICES=1 but {what} is missing")
    pytest.skip(f"{what} is missing")


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _wait(condition: object, what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.05)


class PrivateRedis:
    """`redis-server` on a free port of 127.0.0.1; `stop()` and `start()` keep the port."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not Path(binary).exists():
            missing("redis-server")
        self.binary = binary
        self.port = free_port()
        self.popen: subprocess.Popen[bytes] | None = None

    def url(self, database: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        self.popen = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        _wait(lambda: _listening(self.port), "the private redis-server listening")

    def stop(self) -> None:
        """Kill it at once, as a crash or a pulled cable would: no goodbye to the clients."""
        if self.popen is not None and self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait()
        _wait(lambda: not _listening(self.port), "the private redis-server gone")

    def __enter__(self) -> PrivateRedis:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()


def _postgres_binary(name: str) -> str:
    for folder in POSTGRES_BINARIES:
        if (folder / name).exists():
            return str(folder / name)
    missing(f"PostgreSQL's {name}")
    raise AssertionError  # unreachable: missing() skips or fails


class PrivateCluster:
    """A PostgreSQL cluster of the test's own: superuser `postgres`, trust authentication."""

    def __init__(self) -> None:
        self.initdb = _postgres_binary("initdb")
        self.pg_ctl = _postgres_binary("pg_ctl")
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="outage-pg-"))
        self.data = self.folder / "data"
        self.user = "postgres" if os.geteuid() == 0 else ""
        if self.user:
            shutil.chown(self.folder, self.user)

    def _run(self, *argv: str) -> None:
        command = ["runuser", "-u", self.user, "--", *argv] if self.user else list(argv)
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def url(self, name: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def start(self) -> None:
        self._run(
            self.pg_ctl,
            "-D",
            str(self.data),
            "-w",
            "-l",
            str(self.folder / "log"),
            "-o",
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        )

    def stop(self) -> None:
        """Stop it at once (`immediate`: the clients' connections are cut, as in a crash)."""
        self._run(self.pg_ctl, "-D", str(self.data), "-w", "-m", "immediate", "stop")

    def __enter__(self) -> PrivateCluster:
        self._run(self.initdb, "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
