"""Dealer actions through the real web stack: gunicorn, the API, the services, PostgreSQL.

A running tournament of 360 players on 40 tables, a hand started at each; then `gunicorn
config.wsgi -w 4` serves and one tablet per table (a thread with its own HTTP connection, signed
in as a director with a session cookie and the CSRF token) records the hand's actions as a dealer
would: it reads the legal actions from the last answer and checks, calls, folds or raises, deals
the board when due, shows down, and starts the next hand when one ends.

Two runs: paced at 200 actions per second in all (5 per table: far above human pace) for 30
seconds, then unpaced (each tablet sends its next action as soon as it has the answer) for 15
seconds. Reported: requests per second achieved, and the latency of the action requests (p50,
p99; from the request's send to its answer). Target: p99 < 25 ms at 200 actions/s on 2 cores.

Needs PostgreSQL: `BENCH_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432/postgres);
a throwaway database `floordesk_bench_actions` is created next to it and dropped at the end.
Run: `python -m bench.bench_actions` (`--rate`, `--seconds`, `--unpaced-seconds`, `--workers`).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

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


def _event() -> tuple[list[int], str]:
    """A running tournament on 40 full tables, a hand started at each; the table ids and the
    cookie header of a director's session with its CSRF token."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from dealer.services import hand_start
    from tournaments.models import Entry, Player, Table, Tournament
    from tournaments.services.clocks import clock_start
    from tournaments.services.events import schedule_create, tournament_create
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
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, chips=1_000_000) for p in players
    )
    tournament.refresh_from_db()
    tournament_draw_seats(tournament=tournament, rng=random.Random(1))
    clock_start(tournament=tournament, now=timezone.now())
    director = get_user_model().objects.create_user("bench-director", is_staff=True)
    tables = list(Table.objects.filter(tournament=tournament).order_by("number"))
    for table in tables:
        hand_start(table=table, actor=director)
    return [table.pk for table in tables], _session_cookie(director)


def _session_cookie(user: Any) -> str:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
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
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, what: str, status: int, ms: float) -> None:
        with self.lock:
            self.latencies.setdefault(what, []).append(ms)
            self.statuses[status] += 1


class Tablet:
    """One table's tablet: one HTTP connection, the last state, the cards of the hand."""

    def __init__(self, port: int, table: int, cookie: str, seed: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.table = table
        self.headers = {
            "Cookie": cookie,
            "X-CSRFToken": cookie.rsplit("=", 1)[1],
            "Content-Type": "application/json",
            "Accept": "application/json",
        }
        self.rng = random.Random(seed)
        self.state: dict[str, Any] = {}
        self.deck: list[str] = []
        self.sent = 0

    def send(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        payload = None if body is None else json.dumps(body)
        started = time.perf_counter()
        try:
            self.connection.request(method, path, payload, self.headers)
            response = self.connection.getresponse()
            data = response.read()
        except (http.client.HTTPException, OSError):
            self.connection.close()  # the server closed the connection: open a new one
            self.connection.request(method, path, payload, self.headers)
            response = self.connection.getresponse()
            data = response.read()
        elapsed = (time.perf_counter() - started) * 1000
        return response.status, json.loads(data) if data else None, elapsed

    def load(self) -> None:
        status, data, _ = self.send("GET", f"/api/tables/{self.table}/hands/current/")
        assert status == 200, data
        self.state = data
        self.deck = self.rng.sample(DECK, len(DECK))

    def next_action(self) -> dict[str, Any]:
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
        if legal["call"] > 0 and roll < 0.25:
            return {"kind": "fold", "seat": legal["actor"]}
        if legal["min_raise_to"] is not None and roll < 0.4:
            kind = "bet" if legal["is_bet"] else "raise"
            return {"kind": kind, "seat": legal["actor"], "amount": legal["min_raise_to"]}
        return {"kind": "check" if legal["can_check"] else "call", "seat": legal["actor"]}

    def step(self, tally: Tally) -> None:
        """Send the next write: a new hand when the last one ended, else the next action."""
        self.sent += 1
        client_id = f"t{self.table}-{self.sent}-{self.rng.getrandbits(32)}"
        body: dict[str, Any]
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
        status, data, ms = self.send("POST", path, body)
        tally.add(what, status, ms)
        if status in (200, 201):
            self.state = data
            if what == "start":
                self.deck = self.rng.sample(DECK, len(DECK))
        else:
            raise RuntimeError(f"table {self.table}: {status} {data} for {body}")


def _drive(tablet: Tablet, tally: Tally, start: float, end: float, interval: float | None) -> None:
    due = start
    while True:
        if interval is not None:
            due += interval
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
        if time.perf_counter() >= end:
            return
        tablet.step(tally)


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


def run_load(
    tablets: list[Tablet], rate: float | None, seconds: float, server: int
) -> dict[str, Any]:
    """Every tablet in its own thread, paced to `rate` writes per second in all (None: as fast as
    the answers come) for `seconds`."""
    tally = Tally()
    cpu_before = _cpu_seconds(server)
    interval = None if rate is None else len(tablets) / rate
    start = time.perf_counter() + 0.2
    end = start + seconds
    threads = []
    for index, tablet in enumerate(tablets):
        # Spread the tablets' sends evenly over one interval.
        offset = 0.0 if interval is None else interval * index / len(tablets)
        thread = threading.Thread(
            target=_drive, args=(tablet, tally, start + offset - (interval or 0), end, interval)
        )
        threads.append(thread)
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    server_cpu = _cpu_seconds(server) - cpu_before
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
    }


def run(
    rate: float, seconds: float, unpaced_seconds: float, workers: int, extra: list[str]
) -> dict[str, Any]:
    _setup_django()
    from django.db import connection

    tables, cookie = _event()
    connection.close()
    port = _free_port()
    server = _serve(port, workers, extra)
    try:
        _wait_until_up(port, server)
        tablets = [Tablet(port, table, cookie, seed) for seed, table in enumerate(tables)]
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


def _line(name: str, result: dict[str, Any]) -> str:
    errors = {k: v for k, v in result["statuses"].items() if k not in (200, 201)}
    return (
        f"  {name:24} {result['per_second']:7.1f} req/s   action p50 {result['p50_ms']:5.1f} ms  "
        f"p99 {result['p99_ms']:6.1f} ms  max {result['max_ms']:6.1f} ms   "
        f"{result['actions']} actions, {result['hands_started']} hands started; "
        f"gunicorn CPU {result['server_cpu_ms']:.1f} ms/request"
        + (f", errors {errors}" if errors else "")
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--unpaced-seconds", type=float, default=15.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--gunicorn", default="", help="more gunicorn options, as one string")
    args = parser.parse_args(argv)
    extra = args.gunicorn.split()
    result = run(args.rate, args.seconds, args.unpaced_seconds, args.workers, extra)
    print(
        f"{TABLES} tables, gunicorn -w {args.workers} {args.gunicorn or '(sync)'}, PostgreSQL, "
        f"{os.cpu_count()} CPUs; "
        "one tablet thread per table in the same process"
    )
    print(_line(f"paced at {args.rate:.0f}/s", result["paced"]) + "   target p99 < 25 ms")
    print(_line("unpaced (max)", result["unpaced"]))


if __name__ == "__main__":
    main()
