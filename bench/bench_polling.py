"""Public polling through the real web stack: gunicorn, Django, PostgreSQL (issue 11, "Speed").

What thousands of phones and the big screens cost the server at a running event: the standings
part of the public page (htmx polls it), the standings API, and the clock's feed, each asked
with the ETag of its last answer (the server should answer 304 and do almost nothing) and with
a stale one (the page changed: a 200 with the whole answer). The reference is Django's own 404
page in the same run, on the same server: what a request costs before any of our code runs.
Issue 11's targets at a 10,000-entry event: a 304 at least 0.8x the 404's requests per second,
a 200 at least 0.3x; issue 28's, at 45 entries (the demo's size) and at 10,000: a 200 at least
0.5x (the answer kept whole by version, `config.conditional.Keep`), a 304 still 0.8x.

One throwaway database holds one running tournament per size asked (`--entries 45,10000`): the
seats drawn, the clock started, stacks of every size written through the chip ledger, a few
players out. Then `gunicorn config.wsgi` (sync workers, `DEBUG=0`, Redis as the cache as in
production, emptied first) serves, and every case below is driven for `--seconds` with
`--connections` concurrent connections from one thread (a selector loop on plain sockets; the
load generator shares the cores with the server). The cases alternate, `--rounds` times, each
round starting one case further on, so noise on the machine hits them all alike; each figure is
the median over the rounds. Reported per case: requests per second, the ratio to the 404's,
latency p50 and p99 (from the connect to the whole answer: sync workers close the connection
after each answer), and the CPU per request of gunicorn's workers and of PostgreSQL's backends
(from /proc: the figure that noise on the machine moves least).

The URLs are in the tables `REFERENCE` and `POLLED` below: a path that answers 404 at set-up is
reported as missing, one that sends no ETag has no 304 case.

Needs PostgreSQL: `BENCH_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432/postgres);
a throwaway database `floordesk_bench_polling` (`BENCH_POLLING_DB`) is created next to it and
dropped at the end.
Redis: `BENCH_REDIS_URL` (default redis://127.0.0.1:6379/13), a database of its own that is
emptied before the server starts and at the end (`--no-redis`: each worker's memory cache).
Run: `python -m bench.bench_polling` (`--entries`, `--seconds`, `--rounds`, `--connections`,
`--workers`). It only uses services that exist since commit fcfd8d2, so that the same file
measures the code before issue 11.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import secrets
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import IO, TypedDict
from urllib.parse import urlsplit, urlunsplit

from bench.bench_actions import _free_port, _wait_until_up

ROOT = Path(__file__).resolve().parents[1]
# Its own name per checkout when several run on one server (`BENCH_POLLING_DB`).
BENCH_DB = os.environ.get("BENCH_POLLING_DB", "floordesk_bench_polling")
SEATS = 9
LEDGER_SLICE = 250
STALE_ETAG = '"an-answer-from-before"'

# The reference: what a request costs Django before any view of ours runs.
REFERENCE: tuple[str, str, dict[str, str]] = ("Django's 404 page", "/no-such-page/", {})
# What the public polls: (label, path with {pk} for the tournament, headers a real client sends).
# Change the paths here when the URLs move.
POLLED: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("phone standings poll (page part)", "/t/{pk}/state/", {"HX-Request": "true"}),
    (
        "standings API, top 100",
        "/api/tournaments/{pk}/standings/?limit=100",
        {"Accept": "application/json"},
    ),
    ("clock feed, API", "/api/tournaments/{pk}/clock/", {"Accept": "application/json"}),
)


def _admin_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def _bench_url() -> str:
    return urlunsplit(urlsplit(_admin_url())._replace(path=f"/{BENCH_DB}"))


def _redis_url() -> str:
    return os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")


def _admin(sql: str) -> None:
    import psycopg

    url = _admin_url().replace("postgres://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


def _empty_redis() -> None:
    import redis

    redis.Redis.from_url(_redis_url()).flushdb()


def _setup_django() -> None:
    _admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
    _admin(f"CREATE DATABASE {BENCH_DB}")
    os.environ["DATABASE_URL"] = _bench_url()
    os.environ.pop("REDIS_URL", None)  # set-up tasks in-process, as the other benches
    os.environ.setdefault("SECRET_KEY", secrets.token_hex(32))  # DEBUG=0 needs one
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


# --- the events ------------------------------------------------------------------------------


def _event(entries: int, rng: random.Random) -> int:
    """A running tournament of `entries` players: seats drawn, the clock started on a 4-hour
    level, stacks of every size, a few players out (one in a thousand, at least one). Its pk."""
    from django.db import transaction
    from django.utils import timezone

    from tournaments.models import ChipMove, Entry, Player
    from tournaments.services.busts import Bust, entries_bust
    from tournaments.services.clocks import clock_start
    from tournaments.services.events import (
        schedule_create,
        tournament_create,
        tournament_open_registration,
    )
    from tournaments.services.ledger import chips_moves
    from tournaments.services.tables import tournament_draw_seats

    levels = [
        {"small_blind": 100, "big_blind": 200, "duration": 4 * 3600},
        {"small_blind": 200, "big_blind": 400, "duration": 4 * 3600},
    ]
    schedule = schedule_create(name=f"Bench {entries}", levels=levels)
    tournament = tournament_create(
        schedule=schedule,
        name=f"Polling bench, {entries} entries",
        buy_in=Decimal("10000"),
        seats_per_table=SEATS,
        starting_stack=60000,
    )
    tournament = tournament_open_registration(tournament=tournament)
    players = Player.objects.bulk_create(
        Player(name=f"Player {entries}-{i:05d}") for i in range(entries)
    )
    rows = Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
    changes = [(entry, rng.randrange(1000, 400000, 25)) for entry in rows]
    with transaction.atomic():
        # In slices: the ledger's one UPDATE for all the entries grows with their square.
        for start in range(0, len(changes), LEDGER_SLICE):
            chips_moves(
                changes=changes[start : start + LEDGER_SLICE],
                kind=ChipMove.Kind.BUY_IN,
                now=timezone.now(),
            )
    tournament.refresh_from_db()
    tournament_draw_seats(tournament=tournament, rng=rng)
    tournament = clock_start(tournament=tournament, now=timezone.now())
    smallest = sorted(rows, key=lambda entry: entry.chips)[: max(1, entries // 1000)]
    for entry in smallest:  # one hand each: places of their own
        entries_bust(
            tournament=tournament,
            busts=[Bust(entry_id=entry.pk, starting_stack=entry.chips)],
            now=timezone.now(),
        )
    return int(tournament.pk)


def _analyze() -> None:
    """Fresh statistics after the bulk load, as autovacuum gathers them on a live server."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


# --- the server --------------------------------------------------------------------------------


def _server_env(redis_on: bool) -> dict[str, str]:
    env = os.environ | {
        "DATABASE_URL": _bench_url(),
        "DEBUG": "0",
        "PYTHONWARNINGS": "ignore:No directory at",  # whitenoise: no collectstatic here
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "ERROR",
        # The code under test is this file's checkout, whatever the virtualenv installed.
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env.pop("REDIS_URL", None)
    if redis_on:
        env["REDIS_URL"] = _redis_url()
    return env


def _serve(port: int, workers: int, env: dict[str, str], log: IO[bytes]) -> subprocess.Popen[bytes]:
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        "config.wsgi",
        "--chdir",
        str(ROOT),
        "-w",
        str(workers),
        "-b",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
    ]
    # Its output to a file: Django logs every 404 ("Not Found: ...") on the console.
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def _server_said(log: IO[bytes]) -> list[str]:
    """What the server wrote, without Django's line for each 404 of the reference (plain or in
    the JSON log lines)."""
    log.seek(0)
    lines = log.read().decode(errors="replace").splitlines()
    return [line for line in lines if line.strip() and "Not Found: " not in line]


def _server_code(env: dict[str, str]) -> str:
    """Where the server's interpreter finds the `tournaments` package (same env and directory)."""
    probe = "import tournaments; print(tournaments.__file__)"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True
    )
    return done.stdout.strip() or done.stderr.strip()


def _commit() -> str:
    done = subprocess.run(
        ["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
        capture_output=True,
        text=True,
    )
    return done.stdout.strip() or "unknown"


# --- the cases -----------------------------------------------------------------------------------


class Rates(TypedDict):
    """The rate, the latencies and the CPU per request of a case."""

    per_second: float
    p50_ms: float
    p99_ms: float
    server_cpu_ms: float
    database_cpu_ms: float
    client_cpu_ms: float


class Figures(Rates):
    """One round of one case, with its statuses."""

    statuses: Counter[int]


class Summary(Rates):
    """A case over its rounds: the medians of `Figures`, the statuses summed, each round's rate."""

    statuses: dict[int, int]
    rounds: list[float]


class RunResult(TypedDict):
    code: str
    server_code: str
    commit: str
    setup_seconds: float
    load: tuple[tuple[float, float, float], tuple[float, float, float]]
    notes: list[str]
    missing: list[tuple[int, str]]
    cases: list[Case]


@dataclass
class Case:
    """One endpoint asked one way. `follow`: a 200 with a new ETag becomes the If-None-Match of
    the next requests, as a phone keeps the tag of its last answer."""

    label: str
    entries: int | None
    path: str
    headers: dict[str, str]
    variant: str  # "" (the reference), "304" or "200"
    etag: str | None = None
    follow: bool = False
    request: bytes = b""
    results: list[Figures] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.build()

    def build(self) -> None:
        headers = {"Host": "127.0.0.1", **self.headers, "Connection": "close"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        lines = [f"GET {self.path} HTTP/1.1", *(f"{k}: {v}" for k, v in headers.items())]
        self.request = ("\r\n".join(lines) + "\r\n\r\n").encode()

    def seen(self, etag: str) -> None:
        if self.follow and etag != self.etag:
            self.etag = etag
            self.build()


def _get(port: int, path: str, headers: dict[str, str]) -> tuple[int, str | None, int]:
    """One request at set-up: the status, the ETag, the body's length."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, response.getheader("ETag"), len(response.read())
    finally:
        conn.close()


def _cases(
    port: int, events: dict[int, int]
) -> tuple[list[Case], list[str], list[tuple[int, str]]]:
    """Every case to drive, what was found at set-up (statuses, ETags, sizes), and the
    endpoints missing (404) by event size."""
    label, path, headers = REFERENCE
    cases = [Case(label, None, path, headers, "")]
    notes, missing = [], []
    for entries, pk in events.items():
        for label, template, headers in POLLED:
            path = template.format(pk=pk)
            status, etag, size = _get(port, path, headers)
            if status == 404:
                notes.append(f"{entries:>6} entries  {path}: missing (404)")
                missing.append((entries, f"{label} ({path})"))
                continue
            if status != 200:
                raise RuntimeError(f"{path}: {status} at set-up")
            again = _get(port, path, {**headers, "If-None-Match": etag}) if etag else None
            stale = _get(port, path, {**headers, "If-None-Match": STALE_ETAG})
            notes.append(
                f"{entries:>6} entries  {path}: 200, {size:,} bytes, ETag {etag or 'none'}; "
                f"with it: {again[0] if again else '-'}; with a stale one: {stale[0]}"
            )
            if etag:
                cases.append(Case(label, entries, path, headers, "304", etag=etag, follow=True))
            cases.append(Case(label, entries, path, headers, "200", etag=STALE_ETAG))
    return cases, notes, missing


# --- the load ------------------------------------------------------------------------------------


def _ticks(process: Path) -> int:
    """User + system CPU ticks of one process so far (fields 14 and 15 of its stat)."""
    fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def _cpu_by_process(server: int) -> dict[str, dict[int, int]]:
    """CPU ticks so far of each gunicorn worker (the children of `server`) and of each
    PostgreSQL backend of the bench's database (a local server), by process id."""
    found: dict[str, dict[int, int]] = {"server": {}, "database": {}}
    for process in Path("/proc").glob("[0-9]*"):
        try:
            title = (process / "cmdline").read_bytes()
            if title.startswith(b"postgres: ") and f" {BENCH_DB} ".encode() in title:
                found["database"][int(process.name)] = _ticks(process)
            elif (process / "stat").read_text().rsplit(")", 1)[1].split()[1] == str(server):
                found["server"][int(process.name)] = _ticks(process)
        except (OSError, IndexError):
            continue
    return found


def _cpu_used(before: dict[int, int], after: dict[int, int]) -> float:
    """Seconds of CPU between two samples. A process that started in between counts from its
    start; one that ended in between (a database connection past its CONN_MAX_AGE) is lost."""
    ticks = sum(total - before.get(pid, 0) for pid, total in after.items())
    return ticks / os.sysconf("SC_CLK_TCK")


def _parse(raw: bytes) -> tuple[int, str | None]:
    """The status and ETag of a whole answer (read until the server closed); 0 if cut short."""
    head, found, _ = raw.partition(b"\r\n\r\n")
    if not found:
        return 0, None
    lines = head.decode("latin-1").split("\r\n")
    etag = None
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "etag":
            etag = value.strip()
    return int(lines[0].split(" ", 2)[1]), etag


@dataclass
class Pending:
    sock: socket.socket
    started: float
    data: bytearray = field(default_factory=bytearray)


def drive(port: int, case: Case, connections: int, seconds: float, server: int) -> Figures:
    """`connections` requests in flight at all times for `seconds`, from one thread; each on
    a new connection, answered in full when the server closes it."""
    selector = selectors.DefaultSelector()
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    cpu, own = _cpu_by_process(server), time.process_time()
    start = time.perf_counter()
    end = start + seconds

    def begin() -> None:
        started = time.perf_counter()
        try:
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(case.request)
        except OSError:
            statuses[0] += 1
            return
        selector.register(sock, selectors.EVENT_READ, Pending(sock, started))

    for _ in range(connections):
        begin()
    while selector.get_map():
        ready = selector.select(timeout=30)
        if not ready:
            raise RuntimeError(f"{case.path}: no answer for 30 s")
        for key, _ in ready:
            pending = key.data
            try:
                chunk = pending.sock.recv(65536)
            except ConnectionError:
                chunk = b""
            if chunk:
                pending.data += chunk
                continue
            selector.unregister(pending.sock)
            pending.sock.close()
            now = time.perf_counter()
            status, etag = _parse(bytes(pending.data))
            statuses[status] += 1
            if status:
                latencies.append((now - pending.started) * 1000)
            if status == 200 and etag:
                case.seen(etag)
            if now < end:
                begin()
    selector.close()
    elapsed = time.perf_counter() - start
    done = max(len(latencies), 1)
    used = _cpu_by_process(server)
    cuts = statistics.quantiles(latencies, n=100, method="inclusive") if latencies else [0] * 99
    return {
        "per_second": len(latencies) / elapsed,
        "p50_ms": cuts[49],
        "p99_ms": cuts[98],
        "server_cpu_ms": _cpu_used(cpu["server"], used["server"]) * 1000 / done,
        "database_cpu_ms": _cpu_used(cpu["database"], used["database"]) * 1000 / done,
        "client_cpu_ms": (time.process_time() - own) * 1000 / done,
        "statuses": statuses,
    }


def _rounds(port: int, cases: list[Case], args: argparse.Namespace, server: int) -> None:
    for case in cases:  # warm up: every worker has imported, connected and rendered once
        drive(port, case, args.connections, 0.5, server)
    for number in range(args.rounds):
        shift = number % len(cases)
        for case in cases[shift:] + cases[:shift]:
            case.results.append(drive(port, case, args.connections, args.seconds, server))


# --- the report ----------------------------------------------------------------------------------


def summary(case: Case) -> Summary:
    """Medians over the rounds; the answers' statuses summed."""
    results = case.results
    statuses: Counter[int] = Counter()
    for result in results:
        statuses.update(result["statuses"])
    return {
        "per_second": statistics.median(r["per_second"] for r in results),
        "p50_ms": statistics.median(r["p50_ms"] for r in results),
        "p99_ms": statistics.median(r["p99_ms"] for r in results),
        "server_cpu_ms": statistics.median(r["server_cpu_ms"] for r in results),
        "database_cpu_ms": statistics.median(r["database_cpu_ms"] for r in results),
        "client_cpu_ms": statistics.median(r["client_cpu_ms"] for r in results),
        "statuses": dict(statuses),
        "rounds": [r["per_second"] for r in results],
    }


def _server_cpu(figures: Summary) -> float:
    return float(figures["server_cpu_ms"] + figures["database_cpu_ms"])


def _line(case: Case, figures: Summary, reference: Summary) -> str:
    """One case: its rate and its ratio to the 404's; its CPU per request, and the 404's CPU
    per request over it (the rate two cores would reach if only the server used them)."""
    answers = ", ".join(
        f"{status or 'failed'}: {n}" for status, n in sorted(figures["statuses"].items())
    )
    name = f"{case.label}{' ' + case.variant if case.variant else ''}"
    rate = figures["per_second"] / reference["per_second"]
    cpu = _server_cpu(reference) / max(_server_cpu(figures), 1e-9)
    return (
        f"  {name:38} {figures['per_second']:6.1f} req/s {rate:5.2f}x"
        f"  p50 {figures['p50_ms']:6.1f} ms  p99 {figures['p99_ms']:6.1f} ms"
        f"  CPU ms/req: gunicorn {figures['server_cpu_ms']:5.2f} PostgreSQL "
        f"{figures['database_cpu_ms']:5.2f} ({cpu:4.2f}x) generator {figures['client_cpu_ms']:4.2f}"
        f"  ({answers})"
    )


def run(args: argparse.Namespace) -> RunResult:
    started = time.perf_counter()
    _setup_django()
    from django.db import connection

    import tournaments

    rng = random.Random(1)
    events = {entries: _event(entries, rng) for entries in args.entries}
    _analyze()
    connection.close()
    setup_seconds = time.perf_counter() - started
    env = _server_env(not args.no_redis)
    if not args.no_redis:
        _empty_redis()
    port = _free_port()
    load_before = os.getloadavg()
    with tempfile.TemporaryFile() as log:
        server = _serve(port, args.workers, env, log)
        try:
            _wait_until_up(port, server)
            cases, notes, missing = _cases(port, events)
            _rounds(port, cases, args, server.pid)
        finally:
            server.terminate()
            server.wait(timeout=30)
            _admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
            if not args.no_redis:
                _empty_redis()
            said = _server_said(log)
            if said:
                print("gunicorn said:", *said[:20], sep="\n  ")
    return {
        "code": tournaments.__file__,
        "server_code": _server_code(env),
        "commit": _commit(),
        "setup_seconds": setup_seconds,
        "load": (load_before, os.getloadavg()),
        "notes": notes,
        "missing": missing,
        "cases": cases,
    }


def _entries(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=_entries, default=[45, 10_000], help="e.g. 45,10000")
    parser.add_argument("--seconds", type=float, default=3.0, help="per case and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8, help="requests in flight")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--no-redis", action="store_true", help="no Redis: per-worker cache")
    args = parser.parse_args(argv)
    result = run(args)
    cache = "each worker's memory cache" if args.no_redis else "Redis cache"
    print(
        f"gunicorn config.wsgi -w {args.workers} (sync), DEBUG=0, PostgreSQL, {cache}; "
        f"{os.cpu_count()} CPUs; {args.connections} connections from one thread; "
        f"{args.rounds} rounds of {args.seconds:g} s per case, alternating (medians)"
    )
    print(
        f"code under test: {result['code']} (server: {result['server_code']}), {result['commit']}"
    )
    (before, after) = result["load"]
    print(
        f"set-up (events, seats, ANALYZE): {result['setup_seconds']:.1f} s; machine load "
        f"(1-min average) {before[0]:.1f} at the start of the rounds, {after[0]:.1f} at the end"
    )
    for note in result["notes"]:
        print(f"  {note}")
    print(
        "Per case: requests/s and their ratio to the 404 page's; latency; CPU per request of "
        "gunicorn's workers and PostgreSQL's backends (the 404's over it), of the load generator."
        "\nTargets (issue 28) at the demo's size and at 10,000 entries: a 304 at >= 0.80x the "
        "404's requests/s, a 200 at >= 0.50x (issue 11's was 0.30x)."
    )
    cases: list[Case] = result["cases"]
    reference = summary(cases[0])
    print(_line(cases[0], reference, reference))
    for entries in args.entries:
        tables = -(-entries // SEATS)
        print(f" {entries:,} entries ({tables:,} tables); ratio to the 404 page in the same run")
        for case in cases[1:]:
            if case.entries == entries:
                print(_line(case, summary(case), reference))
        for size, what in result["missing"]:
            if size == entries:
                print(f"  {what}: missing (404 at set-up)")


if __name__ == "__main__":
    main()
