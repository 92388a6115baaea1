"""Issue 26 through the API: a count above the chips in play is 409 `count_over_chips_in_play`
(the count sheet and a single entry's count), a colour-up's `smallest_chip` raises the levels
(400 when a later level cannot be made of it), and bagging over a table never counted is 409
`tables_not_counted` until `confirm`."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from config import request_time
from tests.factories import seated_tournament
from tournaments.models import Entry, Table, Tournament
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register
from tournaments.services.events import schedule_create, tournament_open_registration
from tournaments.services.flights import event_create
from tournaments.services.tables import tournament_draw_seats

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
BREAK = T0 + timedelta(minutes=25)  # level 1 (20 minutes) is over: the break is in play

CHIPS: list[dict[str, Any]] = [
    {"small_blind": 25, "big_blind": 50, "smallest_chip": 25, "duration": 1200},
    {"is_break": True, "duration": 600, "note": "Colour up the 25s", "smallest_chip": 25},
    {"small_blind": 100, "big_blind": 200, "smallest_chip": 25, "duration": 1200},
]


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch) -> dict[str, datetime]:
    now = {"now": T0}
    monkeypatch.setattr(request_time, "now", lambda: now["now"])
    return now


def table_one(**fields: Any) -> tuple[Table, list[Entry]]:
    event = seated_tournament(players=4, now=T0, **fields)
    table = Table.objects.get(tournament=event, number=1)
    return table, list(Entry.objects.filter(table=table).order_by("seat"))


def test_bug_a_count_above_the_chips_in_play_is_409(director, at) -> None:
    table, players = table_one(starting_stack=10000)  # 40,000 in play

    sheet = director.post(
        f"/api/tables/{table.pk}/counts/",
        {"counts": [{"entry_id": players[0].pk, "chips": 3_100_000}]},
        format="json",
    )
    single = director.put(f"/api/entries/{players[0].pk}/chips/", {"chips": 40_001}, format="json")

    assert (sheet.status_code, sheet.json()["code"]) == (409, "count_over_chips_in_play")
    assert "3,100,000" in sheet.json()["detail"]
    assert "40,000 chips in play" in sheet.json()["detail"]
    assert (single.status_code, single.json()["code"]) == (409, "count_over_chips_in_play")
    players[0].refresh_from_db()
    assert players[0].chips == 10000


def test_a_colour_up_with_its_smallest_chip_raises_the_levels_from_now_on(director, at) -> None:
    table, players = table_one(levels=CHIPS)
    at["now"] = BREAK

    response = director.post(
        f"/api/tables/{table.pk}/counts/",
        {
            "kind": "colour_up",
            "smallest_chip": 100,
            "counts": [{"entry_id": players[0].pk, "chips": players[0].chips}],
        },
        format="json",
    )

    assert response.status_code == 200, response.json()
    levels = Tournament.objects.get(tables=table).levels.order_by("order")
    assert list(levels.values_list("smallest_chip", flat=True)) == [25, 100, 100]


def test_a_colour_up_a_later_level_cannot_be_made_of_is_400(director, at) -> None:
    table, players = table_one(levels=[*CHIPS[:2], dict(CHIPS[2], small_blind=150, big_blind=300)])
    at["now"] = BREAK

    response = director.post(
        f"/api/tables/{table.pk}/counts/",
        {
            "kind": "colour_up",
            "smallest_chip": 100,
            "counts": [{"entry_id": players[0].pk, "chips": players[0].chips}],
        },
        format="json",
    )

    assert (response.status_code, response.json()["code"]) == (400, "not_in_smallest_chips")
    assert response.json()["detail"] == (
        "Level 2: the small blind (150) is not a multiple of the smallest chip (100): "
        "the colour-up to 100 cannot come before it."
    )


def test_bug_bagging_over_a_table_never_counted_is_409_until_confirmed(director, at) -> None:
    event = event_create(
        schedule=schedule_create(name="Bag", levels=CHIPS),
        flights=["A"],
        name="Main",
        starting_stack=20000,
    )
    flight = event.phases.get(flight="A")
    tournament_open_registration(tournament=flight)
    for name in ("Ann", "Bob", "Cy"):
        entry_register(tournament=flight, player_name=name, now=T0)
    tournament_draw_seats(tournament=flight, rng=random.Random(1))
    clock_start(tournament=flight, now=T0)

    refused = director.post(f"/api/tournaments/{flight.pk}/bag/")
    bagged = director.post(f"/api/tournaments/{flight.pk}/bag/", {"confirm": True}, format="json")

    assert (refused.status_code, refused.json()["code"]) == (409, "tables_not_counted")
    assert refused.json()["detail"].startswith("Table 1 has not been counted")
    assert (bagged.status_code, bagged.json()["status"]) == (200, "finished")
    assert Tournament.objects.get(pk=flight.pk).status == Tournament.Status.FINISHED
