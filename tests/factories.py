"""factory_boy factories for the floor's models (tournaments app).

`TournamentFactory` copies a short standard structure into the tournament's own levels
(`levels=[...]` to give others); `EntryFactory` starts with the tournament's starting stack.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.cache import cache
from factory.django import DjangoModelFactory

from config.conditional import version_key
from tournaments.models import (
    BlindLevel,
    BlindSchedule,
    ChipMove,
    Entry,
    Player,
    Table,
    Tournament,
    TournamentLevel,
)
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register
from tournaments.services.ledger import chips_move
from tournaments.services.tables import tournament_draw_seats

# (small blind, big blind, ante, duration in seconds); None is a 10-minute break.
STANDARD_LEVELS: tuple[tuple[int, int, int, int] | None, ...] = (
    (100, 200, 0, 1200),
    (200, 400, 0, 1200),
    None,
    (300, 600, 600, 1200),
    (400, 800, 800, 1200),
)


def level_rows(levels: Any = STANDARD_LEVELS) -> list[dict[str, Any]]:
    """Level dicts (as the services and the API take them) from compact tuples."""
    rows: list[dict[str, Any]] = []
    for level in levels:
        if isinstance(level, dict):  # a row as the services take it (a level's smallest chip)
            rows.append(dict(level))
        elif level is None:
            rows.append({"duration": 600, "is_break": True})
        else:
            small, big, ante, duration = level
            rows.append(
                {
                    "small_blind": small,
                    "big_blind": big,
                    "ante": ante,
                    "bb_ante": bool(ante),
                    "duration": duration,
                }
            )
    return rows


class UserFactory(DjangoModelFactory[Any]):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw")


class DirectorFactory(UserFactory):
    username = factory.Sequence(lambda n: f"director{n}")
    is_staff = True


class DealerFactory(UserFactory):
    username = factory.Sequence(lambda n: f"dealer{n}")

    @factory.post_generation
    def dealer_group(self: Any, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create:
            group, _ = Group.objects.get_or_create(name="dealer")
            self.groups.add(group)


class BlindScheduleFactory(DjangoModelFactory[BlindSchedule]):
    class Meta:
        model = BlindSchedule
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Schedule {n}")

    @factory.post_generation
    def levels(self: Any, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create:
            rows = level_rows(STANDARD_LEVELS if extracted is None else extracted)
            BlindLevel.objects.bulk_create(
                BlindLevel(schedule=self, order=i, **row) for i, row in enumerate(rows)
            )


class TournamentFactory(DjangoModelFactory[Tournament]):
    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Tournament {n}")
    status = Tournament.Status.REGISTERING
    buy_in = 100
    starting_stack = 10000

    @factory.post_generation
    def levels(self: Any, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create:
            rows = level_rows(STANDARD_LEVELS if extracted is None else extracted)
            TournamentLevel.objects.bulk_create(
                TournamentLevel(tournament=self, order=i, **row) for i, row in enumerate(rows)
            )
            # As `tournament_open` does by its audit entry: the version the fast answers
            # compare with may be another test's tournament of the same id (ids start again).
            cache.delete(version_key(self.pk))


class PlayerFactory(DjangoModelFactory[Player]):
    class Meta:
        model = Player
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Player {n}")


class TableFactory(DjangoModelFactory[Table]):
    class Meta:
        model = Table

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)
    seat_count = factory.LazyAttribute(lambda o: o.tournament.seats_per_table)


class EntryFactory(DjangoModelFactory[Entry]):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    chips = factory.LazyAttribute(lambda o: o.tournament.starting_stack)

    @classmethod
    def _create(cls, model_class: Any, *args: Any, **kwargs: Any) -> Entry:
        # The chips are written through the ledger, as the registration desk does.
        chips = kwargs.pop("chips")
        entry = super()._create(model_class, *args, chips=0, **kwargs)
        if chips:
            chips_move(
                entry=entry,
                kind=ChipMove.Kind.BUY_IN,
                delta=chips,
                now=datetime(2025, 6, 1, 18, 0, tzinfo=UTC),
            )
        return entry


def seated_tournament(
    *, players: int = 20, now: Any = None, start: bool = True, seed: int = 7, **fields: Any
) -> Tournament:
    """A tournament with `players` registered through the services, seats drawn and, with
    `start`, the clock running from `now`."""
    now = now or datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
    tournament = TournamentFactory.create(**fields)
    for n in range(players):
        entry_register(tournament=tournament, player_name=f"Player {n:02}", now=now)
    tournament_draw_seats(tournament=tournament, rng=random.Random(seed))
    if start:
        clock_start(tournament=tournament, now=now)
    tournament.refresh_from_db()
    return tournament


def assign_dealer(table: Table, dealer: Any = None) -> Any:
    """Assign a dealer to the table: the one given, or a new member of the dealer group."""
    dealer = dealer or DealerFactory()
    table.dealer = dealer
    table.save(update_fields=["dealer"])
    return dealer


def make(factory: Any, **fields: Any) -> Any:
    """An object from a factory, typed loosely: factory_boy gives mypy no model type, so a test
    with annotations uses `make(DirectorFactory)` where it would call `DirectorFactory()`."""
    return factory(**fields)


class HandClient:
    """A dealer's tablet over the API: keeps the hand's latest state and sends every write
    with a fresh client id and the version it last saw. `act` and `undo` return the response."""

    def __init__(self, client: Any, state: dict[str, Any]) -> None:
        self.client = client
        self.state = state
        self.sent = 0

    @property
    def url(self) -> str:
        return f"/api/hands/{self.state['hand']}/"

    def client_id(self) -> str:
        self.sent += 1
        return f"tablet-{self.state['hand']}-{self.sent}"

    def write(self, path: str, body: dict[str, Any]) -> Any:
        response = self.client.post(self.url + path, body, format="json")
        if response.status_code == 200:
            data = response.json()
            self.state = data.get("state", data) if "procedure" in data else data
        return response

    def act(self, **action: Any) -> Any:
        body = {"client_id": self.client_id(), "version": self.state["version"], "action": action}
        return self.write("actions/", body)

    def undo(self, reason: str = "wrong entry") -> Any:
        body = {"client_id": self.client_id(), "version": self.state["version"], "reason": reason}
        return self.write("undo/", body)

    def ok(self, **action: Any) -> dict[str, Any]:
        """`act`, asserting it was accepted."""
        response = self.act(**action)
        assert response.status_code == 200, response.json()
        return self.state
