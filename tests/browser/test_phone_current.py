"""An open phone follows the floor (issue 27, "always current"): the player found their seat,
the floor moves them through the API, and the phone shows the new table and seat at its next
poll, in the search result as in the standings below it."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tournaments.models import Entry, Table, Tournament
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register
from tournaments.services.events import (
    schedule_create,
    tournament_create,
    tournament_open_registration,
)
from tournaments.services.tables import tournament_draw_seats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL = 1  # seconds: the test's poll (the page's is `tournaments.views.public.POLL_SECONDS`)
NAMES = ["Chen Wei", "Ann Lee", "Bruno Costa", "Dana Kowalski", "Eli Cohen"] + [
    f"Player {n}" for n in range(1, 6)
]


def _running() -> Tournament:
    schedule = schedule_create(
        name="Phone levels", levels=[{"small_blind": 100, "big_blind": 200, "duration": 1200}]
    )
    event = tournament_create(
        schedule=schedule, name="Friday Deepstack", buy_in=Decimal(100), seats_per_table=6
    )
    tournament_open_registration(tournament=event)
    for name in NAMES:
        entry_register(tournament=event, player_name=name, now=datetime.now(UTC))
    tournament_draw_seats(tournament=event, rng=random.Random(3))
    return clock_start(tournament=event, now=datetime.now(UTC))


def _move_elsewhere(entry: Entry) -> tuple[int, int]:
    """The floor moves the player to a free seat at the other table, through the API."""
    assert entry.table is not None
    others = Table.objects.filter(tournament_id=entry.tournament_id)
    table = others.exclude(number=entry.table.number)[0]
    taken = set(Entry.objects.filter(table=table).values_list("seat", flat=True))
    seat = min(set(range(1, table.seat_count + 1)) - taken)
    desk = Client()
    desk.force_login(get_user_model().objects.create_user("floor", is_staff=True))
    answer = desk.post(
        f"/api/entries/{entry.pk}/move/",
        {"table": table.pk, "seat": seat},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    return table.number, seat


def test_the_found_seat_follows_a_move_within_one_poll(
    phone: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tournaments.views.public.POLL_SECONDS", POLL)
    event = _running()
    chen = Entry.objects.select_related("table").get(tournament=event, player__name="Chen Wei")
    phone.goto(f"{live_server.url}/t/{event.pk}/")
    phone.fill("#seat-q", "chen")
    result = phone.locator("#seat-results .seat-result__where")
    result.wait_for()
    assert result.inner_text() == f"Table {chen.table.number} · Seat {chen.seat}"  # type: ignore[union-attr]
    # Two polls answered 304 meanwhile: nothing changed, the result stays.
    phone.wait_for_timeout(2 * POLL * 1000 + 200)
    assert result.inner_text() == f"Table {chen.table.number} · Seat {chen.seat}"  # type: ignore[union-attr]

    table, seat = _move_elsewhere(chen)
    moved = time.monotonic()

    where = "document.querySelector('#seat-results .seat-result__where')"
    phone.wait_for_function(
        f"(want) => {where}?.innerText === want",
        arg=f"Table {table} · Seat {seat}",
        timeout=(POLL + 1.5) * 1000,
    )
    assert time.monotonic() - moved < POLL + 1.5
    row = phone.locator(".standings-table tr", has_text="Chen Wei")
    row.get_by_text(f"{table} / {seat}").wait_for(timeout=(POLL + 1.5) * 1000)
