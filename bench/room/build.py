"""Builds the room the load runs against, through the services, and writes `room.json`.

What is built (in the database `DATABASE_URL` names, already migrated):

- the day's event: `tables` full tables of nine (deep stacks: nobody busts during a run), the
  seats drawn, the clock running on a 4-hour level; each table with a dealer of its own (the
  dealer group), the table assigned to them, a hand started, and for the dealer's tablet an API
  token (the bench reads the hand's legal actions with it) and a session cookie with its CSRF
  token (the tablet page's taps and polls, as the browser sends them);
- the desk's event: a second tournament of 1,000 entries, seated, late registration open, 200
  of them out already (open seats): the desk registers new names into it and busts the seated
  entries listed here (one each), while the day's event is dealt by the tablets;
- a director (staff) with a session, for the desk;
- a cash game with `waiting` players on its list, each with the code a phone follows.

Run alone: `python -m bench.room.build --tables 20 --out /tmp/room.json` (DATABASE_URL set).
"""

from __future__ import annotations

import argparse
import json
import os
import random
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, Unpack

if TYPE_CHECKING:
    from tournaments.models import Tournament
    from tournaments.services.events import TournamentSettings

SEATS = 9
DESK_ENTRIES = 1000
DESK_FREED = 200  # out at set-up: open seats for the desk's late entries
LEVELS = [
    {"small_blind": 100, "big_blind": 200, "duration": 4 * 3600},
    {"small_blind": 200, "big_blind": 400, "duration": 4 * 3600},
]


class RoomTablet(TypedDict):
    """A table's tablet: its table, and its dealer's API token and session."""

    table: int
    token: str
    cookie: str
    csrf: str


class RoomDesk(TypedDict):
    """The desk's event, the seated entries it busts (entry, chips) and the director's session."""

    tournament: int
    busts: Sequence[Sequence[int]]  # pairs: tuples here, lists once read back from the file
    cookie: str
    csrf: str


class Room(TypedDict):
    """`room.json`: what the room's clients need to know of it."""

    tournament: int
    paths: dict[str, str]
    players: list[str]
    tablets: list[RoomTablet]
    desk: RoomDesk
    waiting_codes: list[str]


def _tournament(
    name: str,
    entries: int,
    stack: int,
    rng: random.Random,
    /,
    **values: Unpack[TournamentSettings],
) -> Tournament:
    """A running tournament of `entries` players: stacks through the chip ledger (in slices: its
    one UPDATE grows with the square of the entries), seats drawn, the clock started."""
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

    settings: TournamentSettings = {
        "name": name,
        "buy_in": Decimal("1000"),
        "seats_per_table": SEATS,
        "starting_stack": stack,
        **values,
    }
    tournament = tournament_create(
        schedule=schedule_create(name=f"{name} levels", levels=LEVELS), **settings
    )
    tournament = tournament_open_registration(tournament=tournament)
    names = [f"{name[:4]} Player {i:05d}" for i in range(entries)]
    players = Player.objects.bulk_create(Player(name=n, search_name=fold(n)) for n in names)
    rows = Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
    with transaction.atomic():
        for start in range(0, len(rows), 250):
            chips_moves(
                changes=[(entry, stack) for entry in rows[start : start + 250]],
                kind=ChipMove.Kind.BUY_IN,
                now=timezone.now(),
            )
    tournament.refresh_from_db()
    tournament_draw_seats(tournament=tournament, rng=rng)
    return clock_start(tournament=tournament, now=timezone.now())


def _seats_freed(tournament: Tournament, count: int) -> list[tuple[int, int]]:
    """`count` entries of the tournament out (seats for the desk's late entries); the others,
    seated, with their stacks: the ones the desk busts."""
    from django.utils import timezone

    from tournaments.models import Entry
    from tournaments.services.busts import Bust, entries_bust

    seated = list(
        Entry.objects.filter(tournament=tournament, table__isnull=False)
        .order_by("pk")
        .values_list("pk", "chips")
    )
    out = [Bust(entry_id=pk, starting_stack=chips) for pk, chips in seated[:count]]
    entries_bust(tournament=tournament, busts=out, now=timezone.now())
    return seated[count:]


def _dealers(tournament: Tournament) -> list[RoomTablet]:
    """Every table's dealer, assigned, with a hand started, and the tablet's credentials."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from bench.bench_actions import _credentials, _session_cookie
    from common.roles import DEALER_GROUP
    from dealer.services import hand_start
    from tournaments.models import Table
    from tournaments.services.tables import table_assign_dealer

    group = Group.objects.get_or_create(name=DEALER_GROUP)[0]
    tablets: list[RoomTablet] = []
    for table in Table.objects.filter(tournament=tournament).order_by("number"):
        dealer = get_user_model().objects.create_user(f"room-dealer-{table.number}")
        dealer.groups.add(group)
        table = table_assign_dealer(table=table, dealer_id=dealer.pk)
        hand_start(table=table, actor=dealer)
        cookie = _session_cookie(dealer)
        tablets.append(
            {
                "table": table.pk,
                "token": _credentials(dealer, "token")["Authorization"],
                "cookie": cookie,
                "csrf": cookie.rsplit("=", 1)[1],
            }
        )
    return tablets


def _director() -> dict[str, str]:
    from django.contrib.auth import get_user_model

    from bench.bench_actions import _session_cookie

    user = get_user_model().objects.create_user("room-director", is_staff=True)
    cookie = _session_cookie(user)
    return {"cookie": cookie, "csrf": cookie.rsplit("=", 1)[1]}


def _waiting_list(waiting: int) -> list[str]:
    """A cash game with `waiting` players on its list: their codes."""
    from dealer.cash.games.services import cash_game_create
    from dealer.cash.games.waitlist import game_waitlist_join

    game = cash_game_create(name="1/2 NL room", small_blind=1, big_blind=2)
    return [
        game_waitlist_join(game=game, player_name=f"Cash Player {i:04d}").code
        for i in range(waiting)
    ]


def room_build(*, tables: int, waiting: int, seed: int = 1) -> Room:
    """The room (see the module's docstring) and what its clients need to know of it."""
    from django.db import connection
    from django.urls import reverse

    from tournaments.models import Entry

    rng = random.Random(seed)
    day = _tournament("Room day", tables * SEATS, 1_000_000, rng)
    desk = _tournament("Desk flight", DESK_ENTRIES, 20_000, rng, late_registration_level=1)
    busts = _seats_freed(desk, DESK_FREED)
    director = _director()
    room: Room = {
        "tournament": day.pk,
        "paths": {
            "standings": reverse("public-standings", args=[day.pk]),
            "state": reverse("public-state", args=[day.pk]),
            "seat": reverse("public-seat-lookup", args=[day.pk]),
            "clock": reverse("api-clock", args=[day.pk]),
            "screen": reverse("public-clock", args=[day.pk]),
            "board": reverse("api-screen-board", args=[day.pk]),
        },
        "players": list(
            Entry.objects.filter(tournament=day).values_list("player__name", flat=True)
        ),
        "tablets": _dealers(day),
        "desk": {
            "tournament": desk.pk,
            "busts": busts,
            "cookie": director["cookie"],
            "csrf": director["csrf"],
        },
        "waiting_codes": _waiting_list(waiting),
    }
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # as autovacuum would have by now on a live server
    return room


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--waiting", type=int, default=40)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    room = room_build(tables=args.tables, waiting=args.waiting)
    args.out.write_text(json.dumps(room))
    print(f"room of {args.tables} tables written to {args.out}")


if __name__ == "__main__":
    main()
