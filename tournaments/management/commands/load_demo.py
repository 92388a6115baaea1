"""`manage.py load_demo`: a demo series and demo logins (used by `make run`): a running
deepstack (a progressive knockout, with two screens and a message to the room), and a
multi-flight main event with a satellite into its Day 1A, both open for registration.

Idempotent: when the demo tournament exists it only prints the logins again.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from decimal import Decimal

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from common.roles import DEALER_GROUP
from tournaments.models import BlindSchedule, Entry, Series, Tournament
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register, entry_set_chips
from tournaments.services.events import (
    LevelRow,
    schedule_create,
    tournament_create,
    tournament_open_registration,
)
from tournaments.services.flights import event_create
from tournaments.services.knockouts import Eliminator
from tournaments.services.screens import screen_create, tournament_set_floor_message
from tournaments.services.series import series_create
from tournaments.services.tables import tournament_draw_seats

DEMO_NAME = "FloorDesk Demo Deepstack"
SERIES_NAME = "FloorDesk Demo Series"
MAIN_EVENT = "Demo Main Event"
LOGINS = (("director", "director", True), ("dealer", "dealer", False))
FIRST = (
    "Ana",
    "Ben",
    "Chloe",
    "Dmitri",
    "Eva",
    "Farid",
    "Grace",
    "Hugo",
    "Ines",
    "Jonas",
    "Kofi",
    "Lena",
    "Marco",
    "Nadia",
    "Omar",
)
LAST = ("Alvarez", "Brooks", "Chen", "Dubois", "Eriksen", "Fischer", "Garcia")
SCHEDULE: list[LevelRow] = [
    {"small_blind": 100, "big_blind": 200, "duration": 1800},
    {"small_blind": 200, "big_blind": 400, "duration": 1800},
    {"small_blind": 300, "big_blind": 600, "ante": 600, "bb_ante": True, "duration": 1800},
    {"is_break": True, "duration": 900, "note": "Colour up the 100 chips"},
    {"small_blind": 400, "big_blind": 800, "ante": 800, "bb_ante": True, "duration": 1800},
    {"small_blind": 500, "big_blind": 1000, "ante": 1000, "bb_ante": True, "duration": 1800},
    {"small_blind": 600, "big_blind": 1200, "ante": 1200, "bb_ante": True, "duration": 1800},
    {"small_blind": 800, "big_blind": 1600, "ante": 1600, "bb_ante": True, "duration": 1800},
]


class Command(BaseCommand):
    help = "Load a running demo tournament (45 players, 5 tables) and demo logins."

    def handle(self, *args: object, **options: object) -> None:
        created = self._load() if not Tournament.objects.filter(name=DEMO_NAME).exists() else None
        tournament = Tournament.objects.get(name=DEMO_NAME)
        if created:
            self.stdout.write(self.style.SUCCESS(f"Loaded the demo tournament '{DEMO_NAME}'."))
        self.stdout.write("Demo logins (http://127.0.0.1:8000/login/):")
        for username, password, staff in LOGINS:
            role = "director" if staff else "dealer"
            self.stdout.write(f"  {role:9} user '{username}', password '{password}'")
        self.stdout.write(f"Public standings: http://127.0.0.1:8000/t/{tournament.pk}/")

    @transaction.atomic
    def _load(self) -> bool:
        rng = random.Random(2026)
        for username, password, staff in LOGINS:
            user, _ = User.objects.get_or_create(username=username)
            user.set_password(password)
            user.is_staff = staff
            user.is_superuser = staff  # the demo director may also use the admin
            user.save()
            if not staff:
                user.groups.add(Group.objects.get_or_create(name=DEALER_GROUP)[0])
        schedule = BlindSchedule.objects.filter(name="Demo deepstack").first() or schedule_create(
            name="Demo deepstack", levels=SCHEDULE
        )
        now = timezone.now()
        series = series_create(name=SERIES_NAME)
        tournament = tournament_create(
            schedule=schedule,
            name=DEMO_NAME,
            series=series,
            buy_in=Decimal("200"),
            fee=Decimal("20"),
            bounty_kind=Tournament.Bounty.PROGRESSIVE,
            bounty=Decimal("100"),
            starting_stack=20000,
            late_registration_level=4,
            max_entries_per_player=2,
        )
        tournament_open_registration(tournament=tournament)
        names = rng.sample([f"{f} {s}" for f in FIRST for s in LAST], 45)
        for name in names:
            entry_register(tournament=tournament, player_name=name, now=now)
        tournament_draw_seats(tournament=tournament, rng=rng)
        # The demo dealer deals at table 1.
        tournament.tables.filter(number=1).update(dealer=User.objects.get(username="dealer"))
        clock_start(tournament=tournament, now=now - timedelta(minutes=40))
        _forty_minutes_of_play(tournament, rng, now)
        screen_create(tournament=tournament, name="Main screen")
        screen_create(tournament=tournament, name="Bar screen", layout="sidebar")
        tournament_set_floor_message(
            tournament=tournament, message="Main Event satellite at 20:00: register at the desk"
        )
        _main_event(schedule, series)
        return True


def _main_event(schedule: BlindSchedule, series: Series) -> None:
    """A two-flight main event (Day 1A open for registration) and a satellite into Day 1A."""
    event = event_create(
        schedule=schedule,
        flights=["A", "B"],
        name=MAIN_EVENT,
        series=series,
        buy_in=Decimal("1000"),
        fee=Decimal("100"),
        starting_stack=30000,
        late_registration_level=6,
        max_entries_per_player=2,
    )
    day_1a = event.phases.get(flight="A")
    tournament_open_registration(tournament=day_1a)
    satellite = tournament_create(
        schedule=schedule,
        name=f"{MAIN_EVENT} satellite",
        series=series,
        buy_in=Decimal("110"),
        fee=Decimal("10"),
        starting_stack=10000,
        satellite_target=day_1a,
    )
    tournament_open_registration(tournament=satellite)


def _forty_minutes_of_play(tournament: Tournament, rng: random.Random, now: datetime) -> None:
    """Counts as at the first break (the chips issued, shared out at random: they add up to the
    same total), then three players out, each one's chips counted to a tablemate first, so that
    the ledger balances with nothing unaccounted."""
    entries = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
    total = sum(entry.chips for entry in entries)
    weights = [rng.uniform(0.4, 2.1) for _ in entries]
    stacks = [int(total * w / sum(weights)) // 25 * 25 for w in weights]
    stacks[0] += total - sum(stacks)
    for entry, stack in zip(entries, stacks, strict=True):
        entry_set_chips(entry=entry, chips=stack, now=now, note="at the first break")
    for entry in rng.sample(entries[1:], 3):
        entry.refresh_from_db()
        mate = (
            Entry.objects.filter(table=entry.table, status=Entry.Status.ACTIVE)
            .exclude(pk=entry.pk)
            .first()
        )
        assert mate is not None
        entry_set_chips(entry=mate, chips=mate.chips + entry.chips, now=now, note="won a pot")
        entries_bust(
            tournament=tournament,
            now=now,
            busts=[
                Bust(
                    entry_id=entry.pk,
                    starting_stack=entry.chips,
                    eliminated_by=(Eliminator(entry_id=mate.pk, share=1),),
                )
            ],
        )
