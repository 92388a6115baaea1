"""What one dealer write costs the server, in-process: CPU time and SQL statements.

The same tournament as `bench_actions` (40 tables, each with its dealer and a hand started,
PostgreSQL), the same tablets' decisions, but every request goes straight into Django's WSGI
handler (`DEBUG=0`), with no HTTP server and no other process competing for the cores: the
figure that moves least from run to run, for comparing two versions of the write path.

Reported, as medians of the passes: CPU time and SQL statements (the ones run through Django's
cursors: a transaction's `BEGIN` and `COMMIT` come on top) per request for
- a write through the API, signed in with the dealer's token (what `bench_actions` sends);
- a read of a hand's state through the same stack (`GET /api/hands/<id>/`), the reference;
- an action tapped on the tablet page: the htmx form post with the dealer's session, answered
  with what the tap changed (the tablet's regions, swapped in by their ids), or the whole tablet
  when the hand ends (the new state, read back for the next decision, is not counted);
- the tap's CPU over the API write's, pass by pass: writes and taps alternate request by
  request, so that both see the machine alike (the target is 1.2 at most, issue 24).

Run: `python -m bench.bench_write_cpu` (`--requests`, `--passes`; `--profile` prints where the
time goes, ordered by `BENCH_SORT`, default cumulative, `BENCH_LINES` lines, for the API's
writes, or the tablet page's with `BENCH_PAGE=1`).
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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict
from urllib.parse import urlencode

from bench.bench_actions import BENCH_DB, DECK, Tablet, _admin, _credentials, _event, _setup_django
from bench.statements import StatementCount


def _tablet_form(tablet: InProcessTablet, client_id: str) -> Form:
    """The tablet page's form for the tablet's next action (`Tablet.next_action`, as a tap)."""
    action = tablet.next_action()
    kind = action["kind"]
    fields: dict[str, object] = {
        "client_id": client_id,
        "hand": tablet.state["hand"],
        "version": tablet.state["version"],
        "action": f"{kind}:{action['amount']}" if kind in ("bet", "raise") else kind,
    }
    if action.get("seat") is not None:
        fields["seat"] = action["seat"]
    if action.get("cards"):
        fields["cards"] = action["cards"]
    return Form(fields)


def _environ(method: str, path: str, headers: dict[str, str], body: bytes) -> dict[str, object]:
    environ: dict[str, object] = {
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
        if name.lower() == "content-type":
            environ["CONTENT_TYPE"] = value
        else:
            environ["HTTP_" + name.upper().replace("-", "_")] = value
    return environ


@dataclass(frozen=True)
class Form:
    """A form post's fields (the tablet page's writes)."""

    fields: dict[str, object]


class Caller:
    """Calls the WSGI application as gunicorn would, and counts the SQL statements run."""

    def __init__(self) -> None:
        from django.core.wsgi import get_wsgi_application
        from django.db import connection

        self.app = get_wsgi_application()
        self.counted = StatementCount()
        connection.execute_wrappers.append(self.counted)

    @property
    def statements(self) -> int:
        return self.counted.statements

    def __call__(
        self, headers: dict[str, str], method: str, path: str, body: object = None
    ) -> tuple[int, Any]:
        """JSON in and out; a `Form` body is sent form-encoded and the answer kept as bytes
        (the answer is typed `Any`: a hand's state, or the page's bytes, by the body sent)."""
        if isinstance(body, Form):
            payload = urlencode(body.fields, doseq=True).encode()
            headers = {**headers, "Content-Type": "application/x-www-form-urlencoded"}
        else:
            payload = b"" if body is None else json.dumps(body).encode()
        status: list[str] = []

        def start_response(
            line: str, headers: list[tuple[str, str]], exc_info: object = None
        ) -> Callable[[bytes], None]:
            status.append(line)
            return lambda data: None

        chunks = self.app(_environ(method, path, headers, payload), start_response)
        try:
            content = b"".join(chunks)
        finally:
            getattr(chunks, "close", lambda: None)()
        if isinstance(body, Form):
            return int(status[0].split()[0]), content
        return int(status[0].split()[0]), json.loads(content) if content else None


class InProcessTablet(Tablet):
    """A tablet of `bench_actions` (its decisions), with its dealer's sign-in headers."""

    def __init__(
        self, table: int, credentials: dict[str, str], page_credentials: dict[str, str], seed: int
    ) -> None:
        super().__init__(0, table, credentials, seed)
        self.credentials = credentials
        self.page_credentials = {**page_credentials, "HX-Request": "true"}
        self.taps = 0
        self.whole = 0  # taps answered with the whole tablet (the hand ended)


def _write(caller: Caller, tablet: InProcessTablet, page: bool = False) -> float:
    """The tablet's next write (a new hand, or its next action), as `Tablet.begin` sends it, over
    the API, or with `page` as the tablet page posts an action (the new state, read from the
    database after, is not counted); the CPU seconds of the request."""
    tablet.sent += 1
    client_id = f"tablet-{tablet.table}-{tablet.sent}"
    started = time.process_time()
    if page and tablet.state["phase"] not in ("complete", "void"):
        path = f"/deal/table/{tablet.table}/action/"
        status, _ = caller(tablet.page_credentials, "POST", path, _tablet_form(tablet, client_id))
        cpu = time.process_time() - started
        if status != 200:
            raise RuntimeError(f"table {tablet.table}: {status} from the tablet page: {_!r:.3000}")
        tablet.taps += 1
        tablet.whole += b'id="tablet"' in _  # answered with the whole tablet, not its regions
        from dealer.models import Hand

        tablet.state = Hand.objects.values_list("state", flat=True).get(pk=tablet.state["hand"])
        return cpu
    if tablet.state["phase"] in ("complete", "void"):
        body: dict[str, object] = {"client_id": client_id}
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
    cpu = time.process_time() - started
    if status not in (200, 201):
        raise RuntimeError(f"table {tablet.table}: {status} {state}")
    tablet.state = state
    return cpu


def _pass(
    caller: Caller, tablets: list[InProcessTablet], requests: int, page: bool = False
) -> tuple[float, float]:
    """CPU ms and statements per request over `requests` writes, the tablets in turn."""
    before = caller.statements
    cpu = sum(_write(caller, tablets[index % len(tablets)], page) for index in range(requests))
    statements = caller.statements - before
    if page:
        statements -= requests  # the state read back after each tap is not the tablet's
    return cpu * 1000 / requests, statements / requests


def _paired_pass(
    caller: Caller, tablets: list[InProcessTablet], requests: int
) -> tuple[tuple[float, float], tuple[float, float]]:
    """`requests` writes through the API and as many taps, one of each in turn (the tablets in
    turn), so that a machine whose load changes meanwhile weighs on both alike: CPU ms and
    statements per request, of the writes and of the taps."""
    cpu, statements = [0.0, 0.0], [0, 0]
    for index in range(2 * requests):
        page = index % 2
        before = caller.statements
        cpu[page] += _write(caller, tablets[(index // 2) % len(tablets)], bool(page))
        statements[page] += caller.statements - before - page  # a tap's state read back: not its
    write, tap = ((cpu[i] * 1000 / requests, statements[i] / requests) for i in (0, 1))
    return write, tap


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


class WriteFigures(TypedDict):
    """`run`'s medians: CPU in ms and SQL statements per request, for each kind of request."""

    write_cpu_ms: float
    write_statements: float
    read_cpu_ms: float
    read_statements: float
    tap_cpu_ms: float
    tap_statements: float
    tap_ratio: float
    tap_whole: float
    passes: int
    requests: int


def run(requests: int, passes: int, profile: bool) -> WriteFigures:
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    warnings.filterwarnings("ignore", "No directory at")  # whitenoise: no collectstatic here
    _setup_django()
    try:
        tables, dealers = _event()
        caller = Caller()
        tablets = [
            InProcessTablet(
                table,
                _credentials(dealers[seed], "token"),
                _credentials(dealers[seed], "session"),
                seed,
            )
            for seed, table in enumerate(tables)
        ]
        for tablet in tablets:
            path = f"/api/tables/{tablet.table}/hands/current/"
            status, tablet.state = caller(tablet.credentials, "GET", path)
            assert status == 200
            tablet.deck = tablet.rng.sample(DECK, len(DECK))
        _pass(caller, tablets, len(tablets) * 5)  # warm up: imports, caches, the token checked
        _pass(caller, tablets, len(tablets) * 5, page=True)  # warm up the page's templates
        paired = [_paired_pass(caller, tablets, requests) for _ in range(passes)]
        writes, taps = [w for w, _ in paired], [t for _, t in paired]
        whole = sum(t.whole for t in tablets) / max(1, sum(t.taps for t in tablets))
        reads = [_read_pass(caller, tablets, requests) for _ in range(passes)]
        if profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            page = bool(os.environ.get("BENCH_PAGE"))
            profiler.runcall(_pass, caller, tablets, requests, page)
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
        "tap_cpu_ms": statistics.median(t[0] for t in taps),
        "tap_statements": statistics.median(t[1] for t in taps),
        "tap_ratio": statistics.median(t[0] / w[0] for w, t in zip(writes, taps, strict=True)),
        "tap_whole": whole,
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
        f"{result['read_statements']:.2f} statements; "
        f"an action tapped on the tablet page (htmx, session) {result['tap_cpu_ms']:.2f} ms CPU, "
        f"{result['tap_statements']:.2f} statements, {result['tap_ratio']:.2f}x the write's CPU "
        f"(median of the passes), {result['tap_whole']:.0%} of the taps answered with "
        "the whole tablet"
    )


if __name__ == "__main__":
    main()
