"""Dealer actions through the real web stack: gunicorn, the API, the services, PostgreSQL.

A running tournament of 360 players on 40 tables, each with its own dealer and a hand started;
then `gunicorn config.wsgi -w 4` serves and one tablet per table records the hand's actions as
its dealer would: it reads the legal actions from the last answer and checks, calls, folds or
raises, deals the board when due, shows down, and starts the next hand when one ends. Each
tablet signs in as its table's dealer with the dealer's API token (`--auth session`: a session
cookie and its CSRF token, as the browser); every write is a real request through
authentication, the role and table checks, the service and PostgreSQL.

All the tablets are driven from one thread (a selector loop on plain sockets: the load generator
shares the machine's cores with the server, so it is kept cheap; its CPU per request is
reported). Two runs: paced at 200 actions per second in all (5 per table: far above human pace)
for 30 seconds, then unpaced (each tablet sends its next action as soon as it has the answer)
for 15 seconds. Reported: requests per second achieved, the latency of the action requests
(p50, p99; from the request's send to its whole answer), and the CPU per request of gunicorn's
workers, of PostgreSQL's backends for the bench database, and of the load generator (from /proc:
the figures that noise on the machine moves least). Target: p99 < 25 ms at 200 actions/s on 2
cores.

Needs PostgreSQL: `BENCH_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432/postgres);
a throwaway database `floordesk_bench_actions` is created next to it and dropped at the end.
Run: `python -m bench.bench_actions` (`--rate`, `--seconds`, `--unpaced-seconds`, `--workers`,
`--gunicorn`, `--auth`).
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import secrets
import selectors
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:  # Django is set up by the bench itself, after its database is made
    from django.contrib.auth.models import User

    from dealer.codec import HandSnapshot

ROOT = Path(__file__).resolve().parents[1]
BENCH_DB = "floordesk_bench_actions"
TABLES = 40
SEATS = 9
DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


def _admin_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def _bench_url() -> str:
    parts = urlsplit(_admin_url())
    return urlunsplit(parts._replace(path=f"/{BENCH_DB}"))


def _admin(sql: str) -> None:
    import psycopg

    url = _admin_url().replace("postgres://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


def _setup_django() -> None:
    _admin(f"DROP DATABASE IF EXISTS {BENCH_DB}")
    _admin(f"CREATE DATABASE {BENCH_DB}")
    os.environ["DATABASE_URL"] = _bench_url()
    os.environ.pop("REDIS_URL", None)  # tasks in-process: nothing is scheduled during a bench
    # The server must read the sessions made here: the same key on both sides.
    os.environ.setdefault("SECRET_KEY", secrets.token_hex(32))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


# --- the event ---------------------------------------------------------------------------------


def _event() -> tuple[list[int], list[User]]:
    """A running tournament on 40 full tables, each with its own dealer assigned and a hand
    started; the table ids and their dealers."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import transaction
    from django.utils import timezone

    from dealer.services import hand_start
    from tournaments.models import ChipMove, Entry, Player, Table, Tournament
    from tournaments.services.clocks import clock_start
    from tournaments.services.events import schedule_create, tournament_create
    from tournaments.services.ledger import chips_moves
    from tournaments.services.tables import tournament_draw_seats

    schedule = schedule_create(
        name="Bench", levels=[{"small_blind": 100, "big_blind": 200, "duration": 4 * 3600}]
    )
    tournament = tournament_create(
        schedule=schedule,
        name="Dealer bench",
        buy_in=Decimal("1000"),
        seats_per_table=SEATS,
        starting_stack=1_000_000,  # deep: nobody busts during the bench
    )
    Tournament.objects.filter(pk=tournament.pk).update(status="registering")
    players = Player.objects.bulk_create(
        Player(name=f"Player {i:03d}") for i in range(TABLES * SEATS)
    )
    entries = Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
    # The stacks go in through the chip ledger, as registration writes them (a few statements).
    with transaction.atomic():
        chips_moves(
            changes=[(entry, 1_000_000) for entry in entries],
            kind=ChipMove.Kind.BUY_IN,
            now=timezone.now(),
        )
    tournament.refresh_from_db()
    tournament_draw_seats(tournament=tournament, rng=random.Random(1))
    clock_start(tournament=tournament, now=timezone.now())
    tables = list(Table.objects.filter(tournament=tournament).order_by("number"))
    dealers = []
    for table in tables:
        dealer = get_user_model().objects.create_user(f"bench-dealer-{table.number}")
        dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
        Table.objects.filter(pk=table.pk).update(dealer=dealer)
        table.dealer = dealer
        hand_start(table=table, actor=dealer)
        dealers.append(dealer)
    return [table.pk for table in tables], dealers


def _credentials(user: User, auth: str) -> dict[str, str]:
    """The headers a tablet signs in with: an API token (`token`), or a session cookie with its
    CSRF token as the browser sends them (`session`)."""
    if auth == "token":
        from django.utils import timezone

        from tournaments.services.access import device_sign_in

        _, key = device_sign_in(user=user, label="bench tablet", now=timezone.now())
        return {"Authorization": f"Token {key}"}
    cookie = _session_cookie(user)
    return {"Cookie": cookie, "X-CSRFToken": cookie.rsplit("=", 1)[1]}


def _session_cookie(user: User) -> str:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "config.authentication.FloorBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    token = secrets.token_hex(16)  # a 32-character CSRF secret, sent back as X-CSRFToken
    cookie = f"{settings.SESSION_COOKIE_NAME}={session.session_key}; "
    return cookie + f"{settings.CSRF_COOKIE_NAME}={token}"


# --- the server ----------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve(port: int, workers: int, extra: list[str]) -> subprocess.Popen[bytes]:
    env = os.environ | {
        "DATABASE_URL": _bench_url(),
        "DEBUG": "0",
        "PYTHONWARNINGS": "ignore:No directory at",  # whitenoise: no collectstatic for an API
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "ERROR",
    }
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        "config.wsgi",
        "-w",
        str(workers),
        "-b",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
        *extra,
    ]
    return subprocess.Popen(command, cwd=ROOT, env=env)


def _wait_until_up(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn exited")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("gunicorn did not start")


# --- the tablets ---------------------------------------------------------------------------------


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    statuses: Counter[int] = field(default_factory=Counter)

    def add(self, what: str, status: int, ms: float) -> None:
        self.latencies.setdefault(what, []).append(ms)
        self.statuses[status] += 1


def _response(buffer: bytes) -> tuple[int, bytes, bool, bytes] | None:
    """The status, body and `Connection: close` of the first whole HTTP response in `buffer`,
    with what follows it; None while it is incomplete."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = buffer[:end].decode("latin-1").split("\r\n")
    status, length, close = int(lines[0].split(" ", 2)[1]), 0, False
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "content-length":
            length = int(value)
        elif name == "connection":
            close = value.strip().lower() == "close"
    if len(buffer) < end + 4 + length:
        return None
    return status, buffer[end + 4 : end + 4 + length], close, buffer[end + 4 + length :]


class Tablet:
    """One table's tablet: its HTTP connection (kept alive when the server allows, else one per
    request), the last state, the cards of the hand. Requests are written and answers read on
    plain sockets, so that one thread drives every tablet cheaply."""

    def __init__(self, port: int, table: int, credentials: dict[str, str], seed: int) -> None:
        self.address = ("127.0.0.1", port)
        self.table = table
        headers = {**credentials, "Content-Type": "application/json", "Accept": "application/json"}
        self.headers = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        self.sock: socket.socket | None = None
        self.reused = False  # the connection has answered before (the server may have closed it)
        self.buffer = b""
        self.rng = random.Random(seed)
        self.state: HandSnapshot  # the hand's state as the last answer gave it (`load`)
        self.deck: list[str] = []
        self.sent = 0
        self.due = 0.0
        self.pending: tuple[str, dict[str, object], bytes, float] | None = None

    def _request(self, method: str, path: str, body: object) -> bytes:
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{self.headers}"
        return f"{head}Content-Length: {len(payload)}\r\n\r\n".encode() + payload

    def _send(self, request: bytes) -> None:
        for attempt in (1, 2):
            if self.sock is None:
                self.sock = socket.create_connection(self.address)
                self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self.reused, self.buffer = False, b""
            try:
                self.sock.sendall(request)
                return
            except OSError:
                self._close()  # the server closed a kept-alive connection: open a new one
                if attempt == 2:
                    raise

    def _close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock = None

    def _answered(self, close: bool) -> None:
        if close:
            self._close()
        self.reused = not close

    def send(self, method: str, path: str, body: object = None) -> tuple[int, HandSnapshot | None]:
        """One request, waiting for its answer (to set up): the hand's state."""
        self._send(self._request(method, path, body))
        assert self.sock is not None
        while (answer := _response(self.buffer)) is None:
            self.buffer += self.sock.recv(65536)
        status, data, close, self.buffer = answer
        self._answered(close)
        return status, json.loads(data) if data else None

    def load(self) -> None:
        status, data = self.send("GET", f"/api/tables/{self.table}/hands/current/")
        assert status == 200, data
        assert data is not None
        self.state = data
        self.deck = self.rng.sample(DECK, len(DECK))

    def next_action(self) -> dict[str, object]:
        state, rng = self.state, self.rng
        if state["phase"] == "dealing":
            return {
                "kind": "deal_board",
                "cards": [self.deck.pop() for _ in range(state["board_cards_due"])],
            }
        if state["phase"] == "showdown":
            return {
                "kind": "show",
                "seat": state["next_to_show"],
                "cards": [self.deck.pop(), self.deck.pop()],
            }
        legal, roll = state["legal"], rng.random()
        assert legal is not None, "betting: a player is to act"
        if legal["call"] > 0 and roll < 0.25:
            return {"kind": "fold", "seat": legal["actor"]}
        if legal["min_raise_to"] is not None and roll < 0.4:
            kind = "bet" if legal["is_bet"] else "raise"
            return {"kind": kind, "seat": legal["actor"], "amount": legal["min_raise_to"]}
        return {"kind": "check" if legal["can_check"] else "call", "seat": legal["actor"]}

    def begin(self, selector: selectors.BaseSelector) -> None:
        """Send the next write (a new hand when the last one ended, else the next action); its
        answer is read by `readable` when the selector reports it."""
        self.sent += 1
        client_id = f"t{self.table}-{self.sent}-{self.rng.getrandbits(32)}"
        body: dict[str, object]
        if self.state["phase"] in ("complete", "void"):
            path, body, what = f"/api/tables/{self.table}/hands/", {"client_id": client_id}, "start"
        else:
            path = f"/api/hands/{self.state['hand']}/actions/"
            body = {
                "client_id": client_id,
                "version": self.state["version"],
                "action": self.next_action(),
            }
            what = "action"
        request = self._request("POST", path, body)
        started = time.perf_counter()
        self._send(request)
        assert self.sock is not None
        self.pending = (what, body, request, started)
        selector.register(self.sock, selectors.EVENT_READ, self)

    def readable(self, selector: selectors.BaseSelector, tally: Tally) -> bool:
        """Read what came; True once the answer is whole (and counted)."""
        assert self.sock is not None
        assert self.pending is not None
        what, body, request, started = self.pending
        try:
            data = self.sock.recv(65536)
        except ConnectionError:
            data = b""
        if not data:  # closed before answering: a kept-alive connection the server dropped
            selector.unregister(self.sock)
            if not self.reused or self.buffer:
                raise RuntimeError(f"table {self.table}: the server closed the connection")
            self._close()
            self._send(request)
            selector.register(self.sock, selectors.EVENT_READ, self)
            return False
        self.buffer += data
        answer = _response(self.buffer)
        if answer is None:
            return False
        status, content, close, self.buffer = answer
        tally.add(what, status, (time.perf_counter() - started) * 1000)
        selector.unregister(self.sock)
        self._answered(close)
        self.pending = None
        if status not in (200, 201):
            raise RuntimeError(f"table {self.table}: {status} {content!r} for {body}")
        self.state = json.loads(content)
        if what == "start":
            self.deck = self.rng.sample(DECK, len(DECK))
        return True


def _cpu_seconds(parent: int) -> float:
    """CPU time (user + system) used so far by the children of `parent` (gunicorn's workers)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:  # fields from the state on: ppid is the second
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def _database_cpu_seconds() -> float:
    """CPU time used so far by the PostgreSQL backends serving the bench's database (local
    server only: read from /proc; backends that ended are not counted)."""
    total = 0
    for process in Path("/proc").glob("[0-9]*"):
        try:
            title = (process / "cmdline").read_bytes()
            if not title.startswith(b"postgres: ") or f" {BENCH_DB} ".encode() not in title:
                continue
            fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


class LoadFigures(TypedDict):
    """One run of `run_load`: the counts, the latencies in ms and the CPU per request."""

    requests: int
    per_second: float
    actions: int
    hands_started: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    start_p50_ms: float | None
    statuses: dict[int, int]
    server_cpu_ms: float
    client_cpu_ms: float
    database_cpu_ms: float


class BenchResult(TypedDict):
    paced: LoadFigures
    unpaced: LoadFigures
    rate: float
    workers: int


def run_load(tablets: list[Tablet], rate: float | None, seconds: float, server: int) -> LoadFigures:
    """Every tablet from one thread (a selector loop), paced to `rate` writes per second in all
    (None: each tablet sends as soon as it has its answer) for `seconds`. A tablet sends its next
    write one interval after its last was due, or at once when that time has passed."""
    tally = Tally()
    cpu_before = _cpu_seconds(server)
    own_before = time.process_time()
    database_before = _database_cpu_seconds()
    interval = None if rate is None else len(tablets) / rate
    start = time.perf_counter() + 0.2
    end = start + seconds
    queue: list[tuple[float, int]] = []
    for index, tablet in enumerate(tablets):
        # Spread the tablets' sends evenly over one interval.
        tablet.due = start + (0.0 if interval is None else interval * index / len(tablets))
        heapq.heappush(queue, (tablet.due, index))
    selector = selectors.DefaultSelector()
    index_of = {id(tablet): index for index, tablet in enumerate(tablets)}
    waiting = 0
    while queue or waiting:
        now = time.perf_counter()
        while queue and queue[0][0] <= now:
            _, index = heapq.heappop(queue)
            if now < end:
                tablets[index].begin(selector)
                waiting += 1
        if not (queue or waiting):
            break
        timeout = max(0.0, queue[0][0] - now) if queue else None
        for key, _ in selector.select(timeout):
            tablet = key.data
            if tablet.readable(selector, tally):
                waiting -= 1
                tablet.due = time.perf_counter() if interval is None else tablet.due + interval
                heapq.heappush(queue, (tablet.due, index_of[id(tablet)]))
    selector.close()
    elapsed = time.perf_counter() - start
    server_cpu = _cpu_seconds(server) - cpu_before
    own_cpu = time.process_time() - own_before
    database_cpu = _database_cpu_seconds() - database_before
    actions = sorted(tally.latencies.get("action", []))
    starts = sorted(tally.latencies.get("start", []))
    every = actions + starts
    cuts = statistics.quantiles(actions, n=100, method="inclusive")
    return {
        "requests": len(every),
        "per_second": len(every) / elapsed,
        "actions": len(actions),
        "hands_started": len(starts),
        "p50_ms": cuts[49],
        "p99_ms": cuts[98],
        "max_ms": actions[-1],
        "start_p50_ms": statistics.median(starts) if starts else None,
        "statuses": dict(tally.statuses),
        "server_cpu_ms": server_cpu * 1000 / len(every),
        "client_cpu_ms": own_cpu * 1000 / len(every),
        "database_cpu_ms": database_cpu * 1000 / len(every),
    }


def run(
    rate: float,
    seconds: float,
    unpaced_seconds: float,
    workers: int,
    extra: list[str],
    auth: str = "token",
) -> BenchResult:
    _setup_django()
    from django.db import connection

    tables, dealers = _event()
    credentials = [_credentials(dealer, auth) for dealer in dealers]
    connection.close()
    port = _free_port()
    server = _serve(port, workers, extra)
    try:
        _wait_until_up(port, server)
        tablets = [
            Tablet(port, table, credentials[seed], seed) for seed, table in enumerate(tables)
        ]
        for tablet in tablets:
            tablet.load()
        run_load(tablets, None, 2, server.pid)  # warm up: every worker imported and connected
        paced = run_load(tablets, rate, seconds, server.pid)
        unpaced = run_load(tablets, None, unpaced_seconds, server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
        _admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
    return {"paced": paced, "unpaced": unpaced, "rate": rate, "workers": workers}


def _line(name: str, result: LoadFigures) -> str:
    errors = {k: v for k, v in result["statuses"].items() if k not in (200, 201)}
    return (
        f"  {name:24} {result['per_second']:7.1f} req/s   action p50 {result['p50_ms']:5.1f} ms  "
        f"p99 {result['p99_ms']:6.1f} ms  max {result['max_ms']:6.1f} ms   "
        f"{result['actions']} actions, {result['hands_started']} hands started; "
        f"gunicorn CPU {result['server_cpu_ms']:.1f} ms/request, "
        f"PostgreSQL {result['database_cpu_ms']:.1f}, load generator {result['client_cpu_ms']:.1f}"
        + (f", errors {errors}" if errors else "")
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--unpaced-seconds", type=float, default=15.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--gunicorn", default="", help="more gunicorn options, as one string")
    parser.add_argument(
        "--auth",
        choices=("token", "session"),
        default="token",
        help="the tablets' sign-in: an API token, or a session cookie with its CSRF token",
    )
    args = parser.parse_args(argv)
    extra = args.gunicorn.split()
    result = run(args.rate, args.seconds, args.unpaced_seconds, args.workers, extra, args.auth)
    print(
        f"{TABLES} tables, gunicorn -w {args.workers} {args.gunicorn or '(sync)'}, PostgreSQL, "
        f"{os.cpu_count()} CPUs; "
        f"{args.auth} auth; one tablet per table, signed in as its dealer, all driven from one "
        "thread of this process"
    )
    print(_line(f"paced at {args.rate:.0f}/s", result["paced"]) + "   target p99 < 25 ms")
    print(_line("unpaced (max)", result["unpaced"]))


if __name__ == "__main__":
    main()
