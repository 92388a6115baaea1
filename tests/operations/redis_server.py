"""A Redis server of the test's own (the machine's `redis-server`), on a free port in a
temporary directory, that the test stops, starts and freezes as an outage would: no other test
or person uses it. Stopped, it saves its data as a production Redis does, and starts again from
it (the keys written before the outage come back). On CI (REQUIRE_SERVICES=1) a missing
`redis-server` fails the test instead of skipping it."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis

from tests.required import REQUIRED

BINARY = "redis-server"
START_SECONDS = 10.0


def redis_binary() -> str:
    found = shutil.which(BINARY) or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
    )
    if found is None:
        if REQUIRED:
            pytest.fail(f"REQUIRE_SERVICES=1 but {BINARY} is not installed")
        pytest.skip(f"{BINARY} is not installed")
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    def __init__(self, directory: Path, config: str = "") -> None:
        """`config`: lines of `redis.conf` (users, passwords) on top of the test's own."""
        self.binary = redis_binary()
        self.directory = directory
        self.port = _free_port()
        self.config = directory / "redis.conf"
        self.config.write_text(config)
        self.popen: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [
            self.binary,
            str(self.config),
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.directory),
            "--save", "3600 1",  # saved when stopped, loaded when started: keys outlive a stop
            "--appendonly", "no",
            "--logfile", str(self.directory / "redis.log"),
        ]  # fmt: skip
        self.popen = subprocess.Popen(command, stdout=subprocess.DEVNULL, start_new_session=True)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + START_SECONDS
        try:
            while True:
                try:
                    client.ping()
                    return
                except (redis.AuthenticationError, redis.ResponseError):
                    return  # up, and asks for a user and password
                except (redis.BusyLoadingError, redis.ConnectionError):
                    pass
                if time.monotonic() > deadline or self.popen.poll() is not None:
                    pytest.fail(f"redis-server did not start on port {self.port}")
                time.sleep(0.05)
        finally:
            client.close()

    def stop(self) -> None:
        """SIGTERM: Redis saves its data and exits, as `docker compose stop redis` does."""
        if self.popen is not None and self.popen.poll() is None:
            self.popen.send_signal(signal.SIGCONT)
            self.popen.terminate()
            self.popen.wait(timeout=START_SECONDS)

    def freeze(self) -> None:
        """SIGSTOP: the port still takes connections, nothing answers (a hung server or a
        network that drops packets)."""
        assert self.popen is not None
        self.popen.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.popen is not None
        self.popen.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.send_signal(signal.SIGCONT)
            self.popen.kill()
            self.popen.wait()
