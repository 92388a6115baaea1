"""A Redis and a PostgreSQL of the test's own, to stop, start and freeze in the middle of a test.

The machine's servers are shared: an outage test never touches them. `PrivateRedis` runs
`redis-server` on a free port, with its data and its `redis.conf` in a directory of its own: it
can be stopped gracefully (it saves its data and starts again from it, as a production Redis
does), killed at once (as in a crash), or frozen (it takes connections, nothing answers).
`PrivateCluster` makes a PostgreSQL cluster in a temporary directory (trust authentication, a
free port) and runs it as the `postgres` system user when the tests run as root (PostgreSQL
refuses to run as root). Both keep their port across a restart, so clients pointed at them find
them again.

Without the binaries the test skips, and fails on CI (REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

import pytest
import redis

from tests.required import REQUIRED
from tests.workers import worker_index

POSTGRES_BINARIES = (Path("/usr/local/bin"), Path("/usr/lib/postgresql/15/bin"))
EPHEMERAL_PORTS = 32768  # the first port of Linux's default ip_local_port_range

# The ports of the servers the tests start (gunicorn, a private Redis or PostgreSQL): a block of
# each test process's own (tests/workers.py), below the kernel's ephemeral range (32768-60999
# on Linux), so that a port the kernel hands out meanwhile (a live server's, an outgoing
# connection's: Chromium's, another test process's) is never one of them, not even while a
# stopped server waits to start again on its port. A port is handed out once per process.
FIRST_PORT = 20000
PORTS_PER_PROCESS = 1000
_handed_out: set[int] = set()


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on, from this test process's block."""
    first = FIRST_PORT + PORTS_PER_PROCESS * worker_index()
    if first + PORTS_PER_PROCESS > EPHEMERAL_PORTS:
        pytest.fail(f"test process {worker_index()} has no block of ports below {EPHEMERAL_PORTS}")
    offset = secrets.randbelow(PORTS_PER_PROCESS)  # two runs at once rarely start at one port
    for step in range(PORTS_PER_PROCESS):
        port = first + (offset + step) % PORTS_PER_PROCESS
        if port in _handed_out:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use (or in TIME_WAIT)
        _handed_out.add(port)
        return port
    raise RuntimeError(f"no free port in {first}-{first + PORTS_PER_PROCESS - 1}")


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
    """`redis-server` on a free port of 127.0.0.1, with its data in a directory of its own.

    `directory`: where it keeps its data and its log; without one it makes a temporary one and
    removes it at the end of a `with` block. `config`: lines of `redis.conf` (users, passwords)
    on top of the test's own. `stop()` and `start()` keep the port, so clients pointed at it
    find it again; `stop()` lets it save its data first, `kill()` does not.
    """

    def __init__(self, directory: Path | None = None, config: str = "") -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not Path(binary).exists():
            missing("redis-server")
        self.binary = binary
        self.port = free_port()
        self.temporary = directory is None
        self.directory = directory or Path(tempfile.mkdtemp(prefix="outage-redis-"))
        self.config = self.directory / "redis.conf"
        self.config.write_text(config)
        self.popen: subprocess.Popen[bytes] | None = None

    def url(self, database: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        """Start it, from the data saved by the last `stop()` if there is any."""
        command = [
            self.binary,
            str(self.config),
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--protected-mode", "no",
            "--dir", str(self.directory),
            "--save", "3600 1",  # saved when stopped, loaded when started: keys outlive a stop
            "--appendonly", "no",
            "--logfile", str(self.directory / "redis.log"),
        ]  # fmt: skip
        self.popen = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        _wait(self._answering, "the private redis-server answering")

    def _answering(self) -> bool:
        """Whether it answers a PING, or asks for a user and password first."""
        if self.popen is not None and self.popen.poll() is not None:
            log = self.directory / "redis.log"
            pytest.fail(f"redis-server on port {self.port} exited at start (its log: {log})")
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        try:
            client.ping()
        except (redis.AuthenticationError, redis.ResponseError):
            return True  # up, and asks for a user and password
        except (redis.BusyLoadingError, redis.ConnectionError):
            return False  # not listening yet, or still loading its saved data
        finally:
            client.close()
        return True

    def stop(self) -> None:
        """SIGTERM: it saves its data and exits, as `docker compose stop redis` does."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL: it ends at once, as a crash or a pulled cable would: nothing saved since
        the last `stop()`, no goodbye to the clients."""
        self._end(signal.SIGKILL)

    def _end(self, how: signal.Signals) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.send_signal(signal.SIGCONT)  # a frozen server cannot act on SIGTERM
            self.popen.send_signal(how)
            self.popen.wait(timeout=20)
        _wait(lambda: not _listening(self.port), "the private redis-server gone")

    def freeze(self) -> None:
        """SIGSTOP: the port still takes connections, nothing answers (a hung server or a
        network that drops packets)."""
        assert self.popen is not None
        self.popen.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.popen is not None
        self.popen.send_signal(signal.SIGCONT)

    def __enter__(self) -> PrivateRedis:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.kill()
        if self.temporary:
            shutil.rmtree(self.directory, ignore_errors=True)


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
