"""What one dealer write costs the server, in-process: CPU time and SQL statements.

The same tournament as `bench_actions` (40 tables, each with its dealer and a hand started,
PostgreSQL), the same tablets' decisions, but every request goes straight into Django's WSGI
handler (`DEBUG=0`, each dealer's API token), with no HTTP server and no other process competing
for the cores: the figure that moves least from run to run, for comparing two versions of the
write path. Reported: CPU time per
request (median of the passes; the tablets' own decisions are a few microseconds of it), the
SQL statements per request (the ones run through Django's cursors: a transaction's `BEGIN`
and `COMMIT` come on top), and the same for a trivial authenticated read through the
same stack (`GET /api/hands/<id>/`, a hand's state) as a reference in the same run.

Run: `python -m bench.bench_write_cpu` (`--requests`, `--passes`; `--profile` prints where the
time goes, ordered by `BENCH_SORT`, default cumulative, `BENCH_LINES` lines).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import time
import warnings
from typing import Any

from bench.bench_actions import BENCH_DB, DECK, Tablet, _admin, _credentials, _event, _setup_django


def _environ(method: str, path: str, headers: dict[str, str], body: bytes) -> dict[str, Any]:
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "127.0.0.1",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "HTTP_ACCEPT": "application/json",
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    for name, value in headers.items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    return environ


class Caller:
    """Calls the WSGI application as gunicorn would, and counts the SQL statements run."""

    def __init__(self) -> None:
        from django.core.wsgi import get_wsgi_application
        from django.db import connection

        self.app = get_wsgi_application()
        self.statements = 0
        connection.execute_wrappers.append(self._count)

    def _count(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.statements += 1
        return execute(sql, params, many, context)

    def __call__(
        self, headers: dict[str, str], method: str, path: str, body: Any = None
    ) -> tuple[int, Any]:
        payload = b"" if body is None else json.dumps(body).encode()
        status: list[str] = []

        def start_response(line: str, headers: Any, exc_info: Any = None) -> Any:
            status.append(line)
            return lambda data: None

        chunks = self.app(_environ(method, path, headers, payload), start_response)
        try:
            content = b"".join(chunks)
        finally:
            getattr(chunks, "close", lambda: None)()
        return int(status[0].split()[0]), json.loads(content) if content else None


class InProcessTablet(Tablet):
    """A tablet of `bench_actions` (its decisions), with its dealer's sign-in headers."""

    def __init__(self, table: int, credentials: dict[str, str], seed: int) -> None:
        super().__init__(0, table, credentials, seed)
        self.credentials = credentials


def _write(caller: Caller, tablet: InProcessTablet) -> None:
    """The tablet's next write (a new hand, or its next action), as `Tablet.begin` sends it."""
    tablet.sent += 1
    client_id = f"t{tablet.table}-{tablet.sent}"
    if tablet.state["phase"] in ("complete", "void"):
        body: dict[str, Any] = {"client_id": client_id}
        status, state = caller(
            tablet.credentials, "POST", f"/api/tables/{tablet.table}/hands/", body
        )
        tablet.deck = tablet.rng.sample(DECK, len(DECK))
    else:
        body = {
            "client_id": client_id,
            "version": tablet.state["version"],
            "action": tablet.next_action(),
        }
        status, state = caller(
            tablet.credentials, "POST", f"/api/hands/{tablet.state['hand']}/actions/", body
        )
    if status not in (200, 201):
        raise RuntimeError(f"table {tablet.table}: {status} {state}")
    tablet.state = state


def _pass(caller: Caller, tablets: list[InProcessTablet], requests: int) -> tuple[float, float]:
    """CPU ms and statements per request over `requests` writes, the tablets in turn."""
    before = caller.statements
    started = time.process_time()
    for index in range(requests):
        _write(caller, tablets[index % len(tablets)])
    cpu = time.process_time() - started
    return cpu * 1000 / requests, (caller.statements - before) / requests


def _read_pass(
    caller: Caller, tablets: list[InProcessTablet], requests: int
) -> tuple[float, float]:
    before = caller.statements
    started = time.process_time()
    for index in range(requests):
        tablet = tablets[index % len(tablets)]
        status, _ = caller(tablet.credentials, "GET", f"/api/hands/{tablet.state['hand']}/")
        assert status == 200
    cpu = time.process_time() - started
    return cpu * 1000 / requests, (caller.statements - before) / requests


def run(requests: int, passes: int, profile: bool) -> dict[str, Any]:
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    warnings.filterwarnings("ignore", "No directory at")  # whitenoise: no collectstatic here
    _setup_django()
    try:
        tables, dealers = _event()
        caller = Caller()
        tablets = [
            InProcessTablet(table, _credentials(dealers[seed], "token"), seed)
            for seed, table in enumerate(tables)
        ]
        for tablet in tablets:
            path = f"/api/tables/{tablet.table}/hands/current/"
            status, tablet.state = caller(tablet.credentials, "GET", path)
            assert status == 200
            tablet.deck = tablet.rng.sample(DECK, len(DECK))
        _pass(caller, tablets, len(tablets) * 5)  # warm up: imports, caches, the token checked
        writes = [_pass(caller, tablets, requests) for _ in range(passes)]
        reads = [_read_pass(caller, tablets, requests) for _ in range(passes)]
        if profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.runcall(_pass, caller, tablets, requests)
            stats = pstats.Stats(profiler).sort_stats(os.environ.get("BENCH_SORT", "cumulative"))
            stats.print_stats(int(os.environ.get("BENCH_LINES", "45")))
    finally:
        from django.db import connection

        connection.close()
        _admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
    return {
        "write_cpu_ms": statistics.median(w[0] for w in writes),
        "write_statements": statistics.median(w[1] for w in writes),
        "read_cpu_ms": statistics.median(r[0] for r in reads),
        "read_statements": statistics.median(r[1] for r in reads),
        "passes": passes,
        "requests": requests,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.requests, args.passes, args.profile)
    print(
        f"in-process, {result['passes']} passes of {result['requests']} requests, medians: "
        f"a write {result['write_cpu_ms']:.2f} ms CPU, "
        f"{result['write_statements']:.2f} statements; "
        f"a read of a hand's state (reference) {result['read_cpu_ms']:.2f} ms CPU, "
        f"{result['read_statements']:.2f} statements"
    )


if __name__ == "__main__":
    main()
