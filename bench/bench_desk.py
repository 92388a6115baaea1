"""The registration desk at 50 and at 1,000 entries, in-process (issue 26, "The registration
desk at 1,000 entries").

Two running tournaments on one throwaway PostgreSQL database, 50 and 1,000 players (seats drawn,
the clock started on a 4-hour level, late registration open, stacks of every size). A director
signed in with Django's test client (`DEBUG=0`, no HTTP server) does what the desk does, on each
tournament in turn, request by request:

- **register**: a new name typed and sent by the desk's htmx form (`POST .../entries/`), which
  is answered with the form, the new row and the counts (a late entry: it takes a seat);
- **bust**: then one player out (the shortest stack) recorded on the eliminations form
  (`POST .../busts/`), the answer a redirect, plus the eliminations page it leads to
  (`GET .../busts/`): what the director waits for. One in, one out: the field keeps its size;
- **bust search**: "jose"-like typing in the bust picker (`GET .../busts/search/?q=`);
- for reference, **the whole entries page** (`GET .../entries/`), which no registration reloads.

Each pass runs inside a transaction that is rolled back at its end, so that every pass sees the
same field (exactly 50 and 1,000 entries) however many players it registers and busts. Reported
per case and size: the median over the passes of the median server time per request (wall
clock around the test client's call), the part of it that is this process's CPU (Django's
work; the rest is PostgreSQL's and waiting for a core), SQL statements per request and the
answer's size; then the ratio 1,000 / 50. Issue 26's targets: register and bust under 150 ms
each at 1,000 entries, and at most 2x their time at 50.

Run: `python -m bench.bench_desk` (`--requests` per pass and case, `--passes`; `--profile`
prints where the time of the 1,000-entry registrations and busts goes, `BENCH_LINES` lines).
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial
from typing import TYPE_CHECKING, Protocol, TypeVar
from urllib.parse import urlsplit, urlunsplit

from bench.statements import StatementCount

if TYPE_CHECKING:  # Django is set up by the bench itself, after its database is made
    from django.test import Client


class Answered(Protocol):
    """A test client's answer, as far as the bench reads it."""

    @property
    def content(self) -> bytes: ...


Answer = TypeVar("Answer", bound=Answered)
Row = tuple[float, int, int, float]  # one request: ms, statements, bytes, CPU ms

BENCH_DB = "floordesk_bench_desk"
SIZES = (50, 1000)
SEATS = 9
HTMX = {"HX-Request": "true"}
CASES = ("register", "bust", "bust search", "whole entries page")


def _admin_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def _admin(sql: str) -> None:
    import psycopg

    url = _admin_url().replace("postgres://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


def _setup_django() -> None:
    _admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
    _admin(f"CREATE DATABASE {BENCH_DB}")
    os.environ["DATABASE_URL"] = urlunsplit(urlsplit(_admin_url())._replace(path=f"/{BENCH_DB}"))
    os.environ.pop("REDIS_URL", None)  # tasks in-process: nothing is scheduled here
    os.environ["DEBUG"] = "0"
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.setdefault("LOG_LEVEL", "ERROR")  # no access log line per request
    os.environ.setdefault("SECRET_KEY", secrets.token_hex(32))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    warnings.filterwarnings("ignore", "No directory at")  # whitenoise: no collectstatic here
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _event(entries: int, rng: random.Random) -> int:
    """A running tournament of `entries` players, late registration open: its pk."""
    from django.db import transaction
    from django.utils import timezone

    from tournaments.models import ChipMove, Entry, Player
    from tournaments.names import fold
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
    tournament = tournament_create(
        schedule=schedule_create(name=f"Desk bench {entries}", levels=levels),
        name=f"Desk bench, {entries} entries",
        buy_in=Decimal("100"),
        seats_per_table=SEATS,
        starting_stack=20000,
        late_registration_level=1,
    )
    tournament = tournament_open_registration(tournament=tournament)
    names = [f"Player {entries}-{i:05d}" for i in range(entries)]
    players = Player.objects.bulk_create(Player(name=n, search_name=fold(n)) for n in names)
    rows = Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
    with transaction.atomic():
        for start in range(0, len(rows), 250):  # the ledger's one UPDATE, in slices
            chips_moves(
                changes=[(e, rng.randrange(5000, 60000, 25)) for e in rows[start : start + 250]],
                kind=ChipMove.Kind.BUY_IN,
                now=timezone.now(),
            )
    tournament.refresh_from_db()
    tournament_draw_seats(tournament=tournament, rng=rng)
    clock_start(tournament=tournament, now=timezone.now())
    return int(tournament.pk)


@dataclass
class Desk:
    """A director's test client, counting the SQL statements its requests run."""

    client: Client
    counted: StatementCount = field(default_factory=StatementCount)

    @property
    def statements(self) -> int:
        return self.counted.statements

    def timed(self, call: Callable[[], Answer]) -> tuple[float, int, int, float, Answer]:
        """Milliseconds, statements, bytes and CPU milliseconds (of this process: Django's
        part, not PostgreSQL's) of one request (`call`), and its answer."""
        before = self.statements
        started, cpu = time.perf_counter(), time.process_time()
        response = call()
        elapsed = (time.perf_counter() - started) * 1000
        cpu = (time.process_time() - cpu) * 1000
        return elapsed, self.statements - before, len(response.content), cpu, response


@contextmanager
def _rolled_back() -> Iterator[None]:
    """A pass's writes, undone at its end: every pass sees the same field."""
    from django.db import transaction

    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def _pass(
    desk: Desk, pk: int, requests: int, serial: Iterator[int], cases: tuple[str, ...] = CASES
) -> dict[str, list[Row]]:
    """One pass of the cases on tournament `pk`: the figures of each request."""
    from tournaments.models import Entry

    client = desk.client
    out: dict[str, list[Row]] = {case: [] for case in CASES}
    with _rolled_back():
        seated = Entry.objects.filter(
            tournament_id=pk, status=Entry.Status.ACTIVE, table__isnull=False
        ).order_by("chips", "pk")
        for _ in range(requests):  # one in, one out: the field keeps its size and open seats
            name = f"Late Player {next(serial):06d}"
            data = {"name": name, "form_token": uuid.uuid4().hex}
            figures = desk.timed(partial(client.post, f"/desk/t/{pk}/entries/", data, headers=HTMX))
            assert figures[-1].status_code == 200, figures[-1].content[:3000]
            assert b"Registered " in figures[-1].content
            out["register"].append(figures[:4])
            entry, chips = seated.exclude(player__name=name).values_list("pk", "chips")[0]
            data = {"entry": str(entry), "stack": str(chips), "form_token": uuid.uuid4().hex}
            post = desk.timed(partial(client.post, f"/desk/t/{pk}/busts/", data))
            assert post[-1].status_code == 302, post[-1].content[:3000]
            page = desk.timed(lambda: client.get(f"/desk/t/{pk}/busts/", headers=HTMX))
            assert b" out in place " in page[-1].content
            out["bust"].append((post[0] + page[0], post[1] + page[1], page[2], post[3] + page[3]))
        if cases != CASES:
            return out
        for query in ("player 1", "#77", "12-3", "t4", "zzz")[: max(1, requests)]:
            path = f"/desk/t/{pk}/busts/search/"
            figures = desk.timed(partial(client.get, path, {"q": query}, headers=HTMX))
            out["bust search"].append(figures[:4])
        figures = desk.timed(lambda: client.get(f"/desk/t/{pk}/entries/"))
        out["whole entries page"].append(figures[:4])
    return out


Figures = tuple[float, float, float, float]  # ms, statements, bytes, CPU ms


def _medians(passes: list[dict[str, list[Row]]]) -> dict[str, Figures]:
    """Per case: the median over the passes of the median ms, statements, bytes and CPU ms."""
    result: dict[str, Figures] = {}
    for case in CASES:
        per_pass = [
            tuple(statistics.median(r[i] for r in one[case]) for i in range(4)) for one in passes
        ]
        ms, statements, size, cpu = (statistics.median(p[i] for p in per_pass) for i in range(4))
        result[case] = (ms, statements, size, cpu)
    return result


def run(requests: int, passes: int, profile: bool) -> dict[int, dict[str, Figures]]:
    _setup_django()
    try:
        from django.contrib.auth import get_user_model
        from django.core import signals
        from django.db import close_old_connections, connection
        from django.test import Client

        # As Django's own tests do: a request's end must not close the connection that holds
        # the pass's transaction.
        signals.request_started.disconnect(close_old_connections)
        signals.request_finished.disconnect(close_old_connections)
        rng = random.Random(26)
        events = {size: _event(size, rng) for size in SIZES}
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        director = get_user_model().objects.create_user("bench-director", is_staff=True)
        client = Client(raise_request_exception=True)
        client.force_login(director)
        desk = Desk(client)
        connection.execute_wrappers.append(desk.counted)
        serial = iter(range(10**6))
        for pk in events.values():  # warm up: imports, templates, the plans' caches
            _pass(desk, pk, 2, serial)
        figures: dict[int, list[dict[str, list[Row]]]] = {size: [] for size in SIZES}
        for _ in range(passes):
            for size, pk in events.items():  # the sizes alternate: noise hits both alike
                figures[size].append(_pass(desk, pk, requests, serial))
        if profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            cases = ("register", "bust")  # what the targets are about
            profiler.runcall(_pass, desk, events[max(SIZES)], requests, serial, cases)
            stats = pstats.Stats(profiler).sort_stats("cumulative")
            stats.print_stats(int(os.environ.get("BENCH_LINES", "40")))
        connection.close()
    finally:
        _admin(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
    return {size: _medians(figures[size]) for size in SIZES}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=10)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.requests, args.passes, args.profile)
    small, big = (result[size] for size in SIZES)
    print(
        f"in-process, {args.passes} passes of {args.requests} requests a case, medians "
        f"(server ms, of it Django's CPU ms / SQL statements / answer bytes), "
        f"{SIZES[0]} vs {SIZES[1]:,} entries, and the ratio of the server times:"
    )
    for case in CASES:
        a, b = small[case], big[case]
        print(
            f"  {case:20} {a[0]:7.1f} ms ({a[3]:5.1f} CPU) {a[1]:3.0f} stmts {a[2]:8,.0f} B |"
            f" {b[0]:7.1f} ms ({b[3]:5.1f} CPU) {b[1]:3.0f} stmts {b[2]:8,.0f} B |"
            f" {b[0] / a[0]:5.2f}x"
        )
    verdict = all(big[c][0] < 150 and big[c][0] / small[c][0] <= 2 for c in ("register", "bust"))
    print(
        "  targets (register and bust < 150 ms at 1,000 entries, <= 2x the same at 50): "
        + ("met" if verdict else "NOT met")
    )


if __name__ == "__main__":
    main()
