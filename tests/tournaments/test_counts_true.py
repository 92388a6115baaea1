"""Issue 26, "the director's money is right to the chip": a count cannot be above the chips in
play, a day is not bagged over a table nobody counted without the director saying so, the event
and the flight say the same chips in play, and a colour-up raises the smallest chip."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from common.errors import FloorError
from config.exceptions import status_of
from tests.factories import seated_tournament
from tournaments.models import Entry, Table, Tournament
from tournaments.selectors.books import chips_in_play
from tournaments.selectors.flights import event_summary, tables_not_counted
from tournaments.selectors.standings import tournament_standings
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import clock_start
from tournaments.services.counts import ChipCount, table_record_counts
from tournaments.services.entries import entry_register, entry_set_chips
from tournaments.services.events import schedule_create, tournament_open_registration
from tournaments.services.flights import event_create, phase_bag
from tournaments.services.tables import tournament_draw_seats

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


def seated(table: Table) -> list[Entry]:
    return list(
        Entry.objects.filter(table=table, status=Entry.Status.ACTIVE)
        .select_related("player")
        .order_by("seat")
    )


# --- a count is at most the chips in play ------------------------------------------------------


def test_bug_a_count_above_the_chips_in_play_is_refused() -> None:
    event = seated_tournament(players=5, starting_stack=250_000)  # 1,250,000 in play
    table = Table.objects.get(tournament=event, number=1)
    first = seated(table)[0]

    with pytest.raises(FloorError) as refused:
        table_record_counts(
            table=table, counts=[ChipCount(entry_id=first.pk, chips=3_100_000)], now=T0
        )

    assert (refused.value.code, status_of(refused.value)) == ("count_over_chips_in_play", 409)
    assert "3,100,000" in refused.value.detail
    assert "1,250,000 chips in play" in refused.value.detail
    first.refresh_from_db()
    assert first.chips == 250_000


def test_a_single_count_above_the_chips_in_play_is_refused_too() -> None:
    event = seated_tournament(players=4, starting_stack=10_000)
    entry = Entry.objects.filter(tournament=event).first()
    assert entry is not None

    with pytest.raises(FloorError) as refused:
        entry_set_chips(entry=entry, chips=40_001, now=T0)

    assert refused.value.code == "count_over_chips_in_play"
    assert entry_set_chips(entry=entry, chips=40_000, now=T0).chips == 40_000  # all of them


def test_a_sheet_whose_counts_add_up_above_the_chips_in_play_is_refused() -> None:
    event = seated_tournament(players=4, starting_stack=10_000)  # 40,000 in play, one table
    table = Table.objects.get(tournament=event, number=1)
    players = seated(table)

    with pytest.raises(FloorError) as refused:
        table_record_counts(
            table=table,
            counts=[ChipCount(entry_id=e.pk, chips=20_000) for e in players[:3]],
            now=T0,
        )

    assert refused.value.code == "count_over_chips_in_play"
    assert refused.value.detail == (
        "The counts at Table 1 add up to 60,000, more than the 40,000 chips in play: "
        "count the table again."
    )


# --- one figure of chips in play ---------------------------------------------------------------


def two_flights() -> Tournament:
    levels = [
        {"small_blind": 50, "big_blind": 100, "duration": 3600},
        {"small_blind": 100, "big_blind": 200, "duration": 3600},
    ]
    return event_create(
        schedule=schedule_create(name="Counts", levels=levels),
        flights=["A", "B"],
        name="Main",
        buy_in=100,
        starting_stack=20_000,
    )


def run(flight: Tournament, names: list[str]) -> dict[str, Entry]:
    tournament_open_registration(tournament=flight)
    entries = {n: entry_register(tournament=flight, player_name=n, now=T0) for n in names}
    tournament_draw_seats(tournament=flight, rng=random.Random(3))
    clock_start(tournament=flight, now=T0)
    return entries


def test_bug_the_event_and_the_flight_say_the_same_chips_in_play() -> None:
    event = two_flights()
    flight = event.phases.get(flight="A")
    entries = run(flight, ["Ann", "Bob", "Cy"])
    cy = entries["Cy"]
    cy.refresh_from_db()
    # A bust typed on the desk takes Cy's count off the tables; the chips went to someone.
    entries_bust(
        tournament=flight,
        busts=[Bust(entry_id=cy.pk, starting_stack=cy.chips)],
        now=T0 + timedelta(minutes=5),
    )

    row = next(p for p in event_summary(event).phases if p.id == flight.pk)

    assert row.chips_in_play == tournament_standings(flight).total_chips == 60_000
    assert chips_in_play(flight) == 60_000


# --- bagging names the tables nobody counted ---------------------------------------------------


def test_bug_bagging_with_a_table_never_counted_is_refused_naming_it() -> None:
    event = two_flights()
    flight = event.phases.get(flight="A")
    run(flight, [f"P{n}" for n in range(12)])  # two tables
    one, two = Table.objects.filter(tournament=flight).order_by("number")
    table_record_counts(
        table=one, counts=[ChipCount(entry_id=e.pk, chips=e.chips) for e in seated(one)], now=T0
    )

    assert tables_not_counted(flight) == [two.number]
    with pytest.raises(FloorError) as refused:
        phase_bag(phase=flight, now=T0)

    assert (refused.value.code, status_of(refused.value)) == ("tables_not_counted", 409)
    assert refused.value.detail == (
        f"Table {two.number} has not been counted: record its count sheet, or confirm to bag "
        "with the chips the ledger has."
    )
    flight.refresh_from_db()
    assert flight.status == Tournament.Status.RUNNING

    phase_bag(phase=flight, now=T0, confirm=True)

    flight.refresh_from_db()
    assert flight.status == Tournament.Status.FINISHED


def test_a_day_whose_tables_are_all_counted_bags_without_asking() -> None:
    event = two_flights()
    flight = event.phases.get(flight="A")
    run(flight, ["Ann", "Bob", "Cy"])
    table = Table.objects.get(tournament=flight)
    table_record_counts(
        table=table,
        counts=[ChipCount(entry_id=e.pk, chips=e.chips) for e in seated(table)],
        now=T0,
    )

    phase_bag(phase=flight, now=T0)

    assert Tournament.objects.get(pk=flight.pk).status == Tournament.Status.FINISHED


# --- a colour-up raises the smallest chip ------------------------------------------------------

CHIPS: list[dict[str, Any]] = [
    {"small_blind": 25, "big_blind": 50, "smallest_chip": 25, "duration": 1200},
    {"is_break": True, "duration": 600, "note": "Colour up the 25s", "smallest_chip": 25},
    {"small_blind": 100, "big_blind": 200, "smallest_chip": 25, "duration": 1200},
    {"small_blind": 200, "big_blind": 400, "ante": 400, "smallest_chip": 25, "duration": 1200},
]


def smallest_chips(event: Tournament) -> list[int]:
    return list(event.levels.order_by("order").values_list("smallest_chip", flat=True))


def colour_up(event: Tournament, chip: int, at: datetime) -> None:
    table = Table.objects.get(tournament=event, number=1)
    first = seated(table)[0]
    table_record_counts(
        table=table,
        counts=[ChipCount(entry_id=first.pk, chips=first.chips)],
        kind="colour_up",
        smallest_chip=chip,
        now=at,
    )


def test_bug_recording_a_colour_up_raises_the_smallest_chip_from_the_level_in_play() -> None:
    event = seated_tournament(players=3, levels=CHIPS, now=T0)
    on_break = T0 + timedelta(minutes=25)  # level 1 is over: the break is in play

    colour_up(event, 100, on_break)

    assert smallest_chips(event) == [25, 100, 100, 100]  # level 1 was played with 25s


def test_a_colour_up_to_a_chip_a_later_level_cannot_be_made_of_is_refused() -> None:
    rows = [*CHIPS[:3], dict(CHIPS[3], small_blind=150, big_blind=300, ante=0)]
    event = seated_tournament(players=3, levels=rows, now=T0)

    with pytest.raises(FloorError) as refused:
        colour_up(event, 100, T0 + timedelta(minutes=25))

    assert (refused.value.code, status_of(refused.value)) == ("not_in_smallest_chips", 400)
    assert refused.value.detail == (
        "Level 3: the small blind (150) is not a multiple of the smallest chip (100): "
        "the colour-up to 100 cannot come before it."
    )
    assert smallest_chips(event) == [25, 25, 25, 25]


def test_the_smallest_chip_never_goes_down_and_a_second_table_repeats_it() -> None:
    event = seated_tournament(players=3, levels=CHIPS, now=T0)
    on_break = T0 + timedelta(minutes=25)
    colour_up(event, 100, on_break)

    colour_up(event, 100, on_break)  # the next table's sheet of the same colour-up
    with pytest.raises(FloorError) as refused:
        colour_up(event, 25, on_break)

    assert (refused.value.code, status_of(refused.value)) == ("smallest_chip_lower", 400)
    assert smallest_chips(event) == [25, 100, 100, 100]
