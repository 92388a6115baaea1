"""The Day 2 draw of a multi-flight event, on PostgreSQL: 5,000 players going on from the
survivors of three flights (Day 1A, 1B, 1C), 300 of whom survived two flights (their smaller
bag is forfeited).

Times, as medians, side by side in the same run: the whole Day 2 draw service (`day_draw`: best
stack per player, 5,000 new entries with `carried_from`, their chips through the chip ledger,
then the ordinary seat draw and button draws) and, as the reference, the one-day seat draw
(`tournament_draw_seats`) of 5,000 entries registered directly, which the Day 2 draw ends with.
The ratio says what carrying the bags over costs on top of seating the field.

Needs PostgreSQL: `BENCH_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432/postgres);
a throwaway database `floordesk_bench_day2` is created next to it and dropped at the end.
Run: `python -m bench.bench_day2` (or `make bench`).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:  # Django is set up by the bench itself, after its database is made
    from tournaments.models import Player, Tournament
    from tournaments.services.events import TournamentSettings

PLAYERS = 5_000
TWICE = 300  # players who survived two flights
FLIGHTS = ("A", "B", "C")
SEATS = 9
BENCH_DB = "floordesk_bench_day2"
NOW = datetime(2026, 5, 3, 12, 0, tzinfo=UTC)


def _admin_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def _admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(
        _admin_url().replace("postgres://", "postgresql://", 1), autocommit=True
    ) as conn:
        conn.execute(sql)


def _setup_django() -> None:
    _admin(f"DROP DATABASE IF EXISTS {BENCH_DB}")
    _admin(f"CREATE DATABASE {BENCH_DB}")
    parts = urlsplit(_admin_url())
    os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{BENCH_DB}"))
    os.environ.pop("REDIS_URL", None)  # tasks in-process: nothing is scheduled during a bench
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _median_ms(run: Callable[[], object], repeats: int, before: Callable[[], object]) -> float:
    samples = []
    for _ in range(repeats):
        before()
        started = time.perf_counter()
        run()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def _stacks(tournament: Tournament, players: list[Player], rng: random.Random) -> None:
    """Entries for `players`, their stacks written through the chip ledger (as buy-ins)."""
    from django.db import transaction

    from tournaments.models import ChipMove, Entry
    from tournaments.services.ledger import chips_moves

    entries = Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
    with transaction.atomic():
        chips_moves(
            changes=[(entry, rng.randrange(2_000, 400_000, 25)) for entry in entries],
            kind=ChipMove.Kind.BUY_IN,
            now=NOW,
        )


def _settings(name: str) -> TournamentSettings:
    """The event's and the one-day tournament's settings (the same but for the name)."""
    return {
        "name": name,
        "buy_in": Decimal("1000"),
        "seats_per_table": SEATS,
        "starting_stack": 60000,
    }


def _event() -> tuple[Tournament, Tournament]:
    """The event with three flights bagged (their survivors' stacks), its Day 2, and a one-day
    tournament with the same 5,000 players registered directly (the reference)."""
    from django.db import connection

    from tournaments.models import Player, Tournament
    from tournaments.services.events import schedule_create, tournament_create
    from tournaments.services.flights import event_create

    schedule = schedule_create(
        name="Bench", levels=[{"small_blind": 100, "big_blind": 200, "duration": 7200}]
    )
    event = event_create(schedule=schedule, flights=list(FLIGHTS), **_settings("Main Event"))
    players = Player.objects.bulk_create(Player(name=f"Player {i:05d}") for i in range(PLAYERS))
    rng = random.Random(1)
    shares = [players[i::3] for i in range(3)]
    shares[1] = shares[1] + shares[0][:TWICE]  # some of 1A's survivors bag in 1B too
    for label, share in zip(FLIGHTS, shares, strict=True):
        _stacks(event.phases.get(flight=label), share, rng)
    event.phases.filter(kind=Tournament.Kind.FLIGHT).update(status=Tournament.Status.FINISHED)
    single = tournament_create(schedule=schedule, **_settings("One day"))
    Tournament.objects.filter(pk=single.pk).update(status=Tournament.Status.REGISTERING)
    _stacks(single, players, rng)
    with connection.cursor() as cursor:  # fresh statistics, as autovacuum keeps them
        cursor.execute("ANALYZE tournaments_entry")
        cursor.execute("ANALYZE tournaments_chipmove")
    return event.phases.get(day=2), single


def run(repeats: int = 5) -> dict[str, float]:
    _setup_django()
    from django.db import connection

    from tournaments.models import ButtonDraw, ChipMove, Entry, Table, Tournament
    from tournaments.services.flights import day_draw
    from tournaments.services.tables import tournament_draw_seats

    day2, single = _event()

    def reset_day2() -> None:
        ChipMove.objects.filter(tournament=day2).delete()
        Entry.objects.filter(tournament=day2).delete()
        ButtonDraw.objects.filter(table__tournament=day2).delete()
        Table.objects.filter(tournament=day2).delete()
        Tournament.objects.filter(pk=day2.pk).update(status=Tournament.Status.PLANNED)

    def reset_single() -> None:
        Entry.objects.filter(tournament=single).update(table=None, seat=None)
        ButtonDraw.objects.filter(table__tournament=single).delete()
        Table.objects.filter(tournament=single).delete()
        Tournament.objects.filter(pk=single.pk).update(status=Tournament.Status.REGISTERING)

    draw = _median_ms(
        lambda: day_draw(day=day2, now=NOW, rng=random.Random(3)), repeats, reset_day2
    )
    carried = Entry.objects.filter(tournament=day2, table__isnull=False).count()
    assert carried == PLAYERS, carried
    reference = _median_ms(
        lambda: tournament_draw_seats(tournament=single, rng=random.Random(3)),
        repeats,
        reset_single,
    )
    connection.close()
    _admin(f"DROP DATABASE IF EXISTS {BENCH_DB}")
    return {"day2_draw_ms": draw, "one_day_draw_ms": reference, "ratio": draw / reference}


def main() -> None:
    result = run()
    bags = PLAYERS + TWICE
    print(
        f"Day 2 draw: {bags:,} bags from {len(FLIGHTS)} flights, {PLAYERS:,} players going on "
        f"({TWICE} bags forfeited), tables of {SEATS}, PostgreSQL (medians)"
    )
    print(f"  Day 2 draw (service)            {result['day2_draw_ms']:8.1f} ms  target < 5000 ms")
    print(f"  one-day seat draw, 5,000 entries {result['one_day_draw_ms']:7.1f} ms  (reference)")
    print(f"  ratio                            {result['ratio']:7.2f} x")


if __name__ == "__main__":
    main()
