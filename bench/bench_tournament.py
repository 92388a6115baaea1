"""The floor at the largest scale, on PostgreSQL: a 10,000-entry event on about 1,100 tables.

Times, as medians: the seat draw (the whole service: draw, tables, 10,000 seat writes, button
draws), a balancing plan after a bust (the service: loading the tables and planning), and the
standings query (ranked rows with totals), each next to a reference measured in the same run: the
plain SQL that any implementation needs at least (inserting the same seat assignments; reading
the same rows in chip order).

Needs PostgreSQL: `BENCH_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432/postgres);
a throwaway database `floordesk_bench` is created next to it and dropped at the end.
Run: `python -m bench.bench_tournament` (or `make bench`).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    from tournaments.models import Tournament

ENTRIES = 10_000
SEATS = 9
BENCH_DB = "floordesk_bench"


def _admin_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def _bench_url() -> str:
    parts = urlsplit(_admin_url())
    return urlunsplit(parts._replace(path=f"/{BENCH_DB}"))


def _admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(
        _admin_url().replace("postgres://", "postgresql://", 1), autocommit=True
    ) as conn:
        conn.execute(sql)


def _setup_django() -> None:
    _admin(f"DROP DATABASE IF EXISTS {BENCH_DB}")
    _admin(f"CREATE DATABASE {BENCH_DB}")
    os.environ["DATABASE_URL"] = _bench_url()
    os.environ.pop("REDIS_URL", None)  # tasks in-process: nothing is scheduled during a bench
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _median_ms(
    run: Callable[[], object], repeats: int, before: Callable[[], object] | None = None
) -> float:
    samples = []
    for _ in range(repeats):
        if before is not None:
            before()
        started = time.perf_counter()
        run()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def _event() -> Tournament:
    from django.db import connection, transaction
    from django.utils import timezone

    from tournaments.models import ChipMove, Entry, Player, Tournament
    from tournaments.services.events import schedule_create, tournament_create
    from tournaments.services.ledger import chips_moves

    schedule = schedule_create(
        name="Bench", levels=[{"small_blind": 100, "big_blind": 200, "duration": 7200}]
    )
    tournament = tournament_create(
        schedule=schedule,
        name="Main Event",
        buy_in=Decimal("10000"),
        seats_per_table=SEATS,
        starting_stack=60000,
    )
    Tournament.objects.filter(pk=tournament.pk).update(status="registering")
    players = Player.objects.bulk_create(Player(name=f"Player {i:05d}") for i in range(ENTRIES))
    rng = random.Random(1)
    entries = Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
    # Stacks of every size, written through the chip ledger as buy-ins (the chips issued).
    with transaction.atomic():
        chips_moves(
            changes=[(entry, rng.randrange(1000, 400000, 25)) for entry in entries],
            kind=ChipMove.Kind.BUY_IN,
            now=timezone.now(),
        )
    # Fresh statistics after the bulk load, as autovacuum gathers them on a live server: without
    # them the planner takes the 10,000 freshly updated entries for one row and sorts them all.
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE tournaments_entry")
        cursor.execute("ANALYZE tournaments_chipmove")
    tournament.refresh_from_db()
    return tournament


def run(repeats: int = 5) -> dict[str, float]:
    _setup_django()
    from django.db import connection
    from django.utils import timezone

    from tournaments.models import ButtonDraw, Entry, Table, Tournament
    from tournaments.selectors import tournament_standings
    from tournaments.services.busts import Bust, entries_bust
    from tournaments.services.tables import tournament_balance_plan, tournament_draw_seats

    tournament = _event()

    def reset() -> None:
        Entry.objects.filter(tournament=tournament).update(table=None, seat=None)
        ButtonDraw.objects.all().delete()
        Table.objects.filter(tournament=tournament).delete()
        Tournament.objects.filter(pk=tournament.pk).update(status="registering")

    draw = _median_ms(
        lambda: tournament_draw_seats(tournament=tournament, rng=random.Random(3)), repeats, reset
    )
    seats = list(Entry.objects.filter(tournament=tournament).values_list("pk", "table_id", "seat"))

    def reference_insert() -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                "CREATE TEMP TABLE IF NOT EXISTS seat_copy (entry int, tab int, seat int)"
            )
            cursor.execute("TRUNCATE seat_copy")
            cursor.executemany("INSERT INTO seat_copy VALUES (%s, %s, %s)", seats)

    draw_reference = _median_ms(reference_insert, repeats)
    Tournament.objects.filter(pk=tournament.pk).update(status="running")
    victim = Entry.objects.filter(tournament=tournament).order_by("chips").first()
    assert victim is not None
    entries_bust(
        tournament=tournament,
        busts=[Bust(entry_id=victim.pk, starting_stack=1)],
        now=timezone.now(),
    )
    plan = _median_ms(lambda: tournament_balance_plan(tournament), repeats * 4)
    standings = _median_ms(lambda: tournament_standings(tournament), repeats * 4)
    top = _median_ms(lambda: tournament_standings(tournament, limit=100), repeats * 4)

    def reference_rows() -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT e.id, p.name, e.chips, t.number, e.seat FROM tournaments_entry e "
                "JOIN tournaments_player p ON p.id = e.player_id "
                "LEFT JOIN tournaments_table t ON t.id = e.table_id "
                "WHERE e.tournament_id = %s AND e.status = 'active' ORDER BY e.chips DESC",
                [tournament.pk],
            )
            cursor.fetchall()

    rows_reference = _median_ms(reference_rows, repeats * 4)
    connection.close()
    _admin(f"DROP DATABASE IF EXISTS {BENCH_DB}")
    return {
        "seat_draw_ms": draw,
        "seat_insert_reference_ms": draw_reference,
        "balance_plan_ms": plan,
        "standings_all_ms": standings,
        "standings_top100_ms": top,
        "rows_reference_ms": rows_reference,
    }


def main() -> None:
    result = run()
    print(f"10,000 entries on {-(-ENTRIES // SEATS)} tables of {SEATS}, PostgreSQL (medians)")
    rows = (
        (
            "seat draw (service)",
            result["seat_draw_ms"],
            "target < 2000 ms",
            f"reference: INSERT of the same seats {result['seat_insert_reference_ms']:.0f} ms",
        ),
        ("balancing plan after a bust", result["balance_plan_ms"], "target < 50 ms", ""),
        (
            "standings, all 9,999 rows",
            result["standings_all_ms"],
            "target < 100 ms",
            f"reference: plain SELECT of the rows {result['rows_reference_ms']:.0f} ms",
        ),
        ("standings, top 100 + totals", result["standings_top100_ms"], "", ""),
    )
    for name, ms, target, note in rows:
        print(f"  {name:30} {ms:8.1f} ms  {target:16} {note}")


if __name__ == "__main__":
    main()
