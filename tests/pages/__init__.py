"""Tests of the floor's pages (director dashboard and public pages), with the Django test client.

Helpers shared by the test modules: tournaments are built through the services, at a fixed time
(`NOW`); the tests set the pages' time with `freeze_pages(monkeypatch, when)`.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from dealer.models import Hand
from dealer.services import hand_record_action, hand_start
from tournaments.models import BlindSchedule, Entry, Table, Tournament
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register
from tournaments.services.events import (
    schedule_create,
    tournament_create,
    tournament_open_registration,
)
from tournaments.services.tables import tournament_draw_seats

NOW = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)

LEVELS: list[dict[str, Any]] = [
    {"small_blind": 100, "big_blind": 200, "duration": 1200},
    {"small_blind": 200, "big_blind": 400, "duration": 1200},
    {"is_break": True, "duration": 600, "note": "Colour up"},
    {"small_blind": 300, "big_blind": 600, "ante": 600, "bb_ante": True, "duration": 1200},
]

NAMES = [
    "Ann Lee",
    "Bruno Costa",
    "Chen Wei",
    "Dana Kowalski",
    "Eli Cohen",
    "Fatima Zahra",
    "Gus Olsen",
    "Hana Sato",
    "Ivan Petrov",
    "Jade Brown",
    "Kofi Mensah",
    "Lena Fischer",
]


def freeze_pages(monkeypatch: pytest.MonkeyPatch, when: datetime) -> None:
    """Make every page act at `when`."""
    monkeypatch.setattr("config.request_time.now", lambda: when)


def schedule(name: str = "Standard") -> BlindSchedule:
    """The schedule of that name, created with `LEVELS` the first time."""
    found = BlindSchedule.objects.filter(name=name).first()
    return found or schedule_create(name=name, levels=LEVELS)


def tournament(
    *,
    players: Sequence[str] = (),
    status: str = "registering",
    draw: bool = False,
    start: bool = False,
    seed: int = 1,
    **settings: Any,
) -> Tournament:
    """A tournament (registration open unless `status="planned"`), with `players` registered,
    seats drawn (`draw`) and the clock started at NOW (`start`)."""
    found = schedule()
    settings.setdefault("name", "Friday Deepstack")
    settings.setdefault("buy_in", 100)
    event = tournament_create(schedule=found, **settings)
    if status == "planned":
        return event
    event = tournament_open_registration(tournament=event)
    for name in players:
        entry_register(tournament=event, player_name=name, now=NOW)
    if draw or start:
        tournament_draw_seats(tournament=event, rng=random.Random(seed))
    if start:
        event = clock_start(tournament=event, now=NOW)
    return Tournament.objects.get(pk=event.pk)


def once(**data: Any) -> dict[str, Any]:
    """A desk form's data with a fresh one-time token (`form_token`), as the page draws it."""
    return {**data, "form_token": uuid.uuid4().hex}


def entry_of(event: Tournament, name: str) -> Entry:
    return Entry.objects.get(tournament=event, player__name=name, status=Entry.Status.ACTIVE)


def table_of(entry: Entry) -> int:
    """The number of the table the entry sits at (it must be seated)."""
    assert entry.table is not None, f"{entry} is not seated"
    return entry.table.number


def staff_client(client: Client, username: str = "director") -> Client:
    user = get_user_model().objects.create_user(
        username, email=f"{username}@example.org", password="x", is_staff=True
    )
    client.force_login(user)
    return client


def deal(event: Tournament, number: int, when: datetime = NOW) -> Hand:
    """Start the next hand at the tournament's table `number`, as its tablet does."""
    return hand_start(table=Table.objects.get(tournament=event, number=number), now=when)


def fold_to_end(hand: Hand) -> Hand:
    """Everyone folds in turn until one player is left: the hand ends (its result is the
    blinds, to the last player in)."""
    state = hand.state
    while state["phase"] not in ("complete", "void"):
        result = hand_record_action(
            hand=hand,
            action={"kind": "fold", "seat": state["legal"]["actor"]},
            client_id=uuid.uuid4().hex,
            version=state["version"],
        )
        hand, state = result.hand, result.answer
    return hand
