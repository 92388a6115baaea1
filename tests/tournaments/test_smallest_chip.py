"""Issue 26: the smallest chip is part of each level (the schedule's, the tournament's copy, the
clock feed), the blinds and ante are made of it, and a tournament hand splits its pots in it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from common.errors import FloorError
from config.exceptions import status_of
from dealer.services import hand_start
from tests.factories import seated_tournament
from tournaments.models import Table
from tournaments.selectors.clock import clock_feed
from tournaments.services.events import schedule_create

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)

# Level 1 and 2 play with 25s; the 25s are coloured up on the break, so level 3 starts at 100.
CHIPS: list[dict[str, Any]] = [
    {"small_blind": 25, "big_blind": 50, "smallest_chip": 25, "duration": 1200},
    {"small_blind": 50, "big_blind": 100, "smallest_chip": 25, "duration": 1200},
    {"is_break": True, "duration": 600, "note": "Colour up the 25s", "smallest_chip": 100},
    {"small_blind": 100, "big_blind": 200, "ante": 200, "smallest_chip": 100, "duration": 1200},
]


def test_bug_a_tournament_hand_is_dealt_with_the_levels_smallest_chip() -> None:
    event = seated_tournament(players=3, levels=CHIPS)

    hand = hand_start(table=Table.objects.get(tournament=event, number=1), now=T0)

    assert hand.stakes["unit"] == 25  # not 1: the pot's odd chip is a 25


def test_the_clock_feed_shows_the_smallest_chip_of_the_level() -> None:
    event = seated_tournament(players=3, levels=CHIPS)

    feed = clock_feed(event, T0).as_dict()

    assert feed["level"]["smallest_chip"] == 25


def test_a_level_whose_blinds_the_smallest_chip_cannot_make_is_refused() -> None:
    rows = [dict(CHIPS[0], small_blind=30, big_blind=60)]

    with pytest.raises(FloorError) as refused:
        schedule_create(name="Odd", levels=rows)

    assert (refused.value.code, status_of(refused.value)) == ("not_in_smallest_chips", 400)
    assert refused.value.detail == (
        "Level 1: the small blind (30) is not a multiple of the smallest chip (25)."
    )


def test_a_schedule_carries_its_smallest_chips_into_the_tournament() -> None:
    schedule = schedule_create(name="With chips", levels=CHIPS)

    assert list(schedule.levels.values_list("smallest_chip", flat=True)) == [25, 25, 100, 100]
