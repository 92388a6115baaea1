"""Multi-flight events (issue 14, "Flights and days"): a two-flight event played to a winner on
Day 2 through the services, with the refusals the floor needs (bagging during a hand, drawing
Day 2 before every flight has ended, entering a flight after surviving one when the event does
not allow it)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from common.errors import FloorError
from dealer.services import hand_start
from tournaments.models import AuditEvent, ChipMove, Entry, Table, Tournament
from tournaments.selectors.flights import bag_list, event_results, event_summary
from tournaments.selectors.prizes import prize_table
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register, entry_set_chips
from tournaments.services.events import (
    schedule_create,
    tournament_finish,
    tournament_open_registration,
)
from tournaments.services.flights import (
    day_draw,
    event_add_day,
    event_add_flight,
    event_create,
    phase_bag,
)
from tournaments.services.tables import tournament_draw_seats

pytestmark = pytest.mark.django_db

NOW = datetime.now(UTC)


def main_event(flights: tuple[str, ...] = ("A", "B"), **settings: Any) -> Tournament:
    schedule = schedule_create(
        name=f"Flights {random.random()}",
        levels=[{"small_blind": 50, "big_blind": 100, "ante": 0, "duration": 3600}],
    )
    values: dict[str, Any] = {
        "name": "Main Event",
        "buy_in": Decimal("100"),
        "fee": Decimal("10"),
        "starting_stack": 10000,
        "payout_percentages": [50, 30, 20],
        "max_entries_per_player": 2,
    } | settings
    return event_create(schedule=schedule, flights=list(flights), **values)


def phase(event: Tournament, label: str) -> Tournament:
    return next(p for p in event.phases.all() if f"Day {p.day}{p.flight}" == label)


def run_flight(flight: Tournament, names: list[str], at: datetime = NOW) -> dict[str, Entry]:
    """Open registration, register `names`, draw seats and start the clock."""
    tournament_open_registration(tournament=flight)
    entries = {n: entry_register(tournament=flight, player_name=n, now=at) for n in names}
    tournament_draw_seats(tournament=flight, rng=random.Random(3))
    clock_start(tournament=flight, now=at)
    return entries


def bust(flight: Tournament, entry: Entry, at: datetime) -> None:
    entry.refresh_from_db()
    entries_bust(
        tournament=flight, busts=[Bust(entry_id=entry.pk, starting_stack=entry.chips)], now=at
    )


def test_event_create_makes_the_flights_and_day_2_with_the_events_settings_and_levels() -> None:
    event = main_event(flights=("a", "B", "C"))

    phases = list(event.phases.order_by("day", "flight"))
    assert event.kind == Tournament.Kind.EVENT
    assert [(p.name, p.kind, p.day, p.flight) for p in phases] == [
        ("Main Event Day 1A", "flight", 1, "A"),
        ("Main Event Day 1B", "flight", 1, "B"),
        ("Main Event Day 1C", "flight", 1, "C"),
        ("Main Event Day 2", "day", 2, ""),
    ]
    for p in phases:
        assert (p.buy_in, p.fee, p.starting_stack, p.payout_percentages) == (
            Decimal("100"),
            Decimal("10"),
            10000,
            [50, 30, 20],
        )
        assert list(p.levels.values_list("big_blind", "duration")) == [(100, 3600)]
    assert AuditEvent.objects.filter(tournament=event, action="event_create").exists()


def test_a_flight_and_a_day_are_added_later_and_a_flight_letter_is_used_once() -> None:
    event = main_event()

    added = event_add_flight(event=event, flight="c")
    day3 = event_add_day(event=event)
    with pytest.raises(FloorError) as twice:
        event_add_flight(event=event, flight="A")

    assert (added.name, added.flight, added.parent_id) == ("Main Event Day 1C", "C", event.pk)
    assert (day3.name, day3.kind, day3.day) == ("Main Event Day 3", "day", 3)
    assert twice.value.code == "flight_exists"


def test_worked_example_two_flights_to_a_winner_on_day_2_paying_the_whole_events_pool() -> None:
    """Day 1A: five players, Cy and Dee out, Ann's count corrected before bagging 12,000. Day 1B:
    Cy re-enters after busting in 1A, Ann enters again after surviving 1A (allowed here) and bags
    25,000; Fay and Hal out. Day 2 draws Ann's bigger bag only (1A's is forfeited), Bob and Eve
    from 1A, Cy and Gus from 1B, and is played to a winner. The pool is the ten flight entries'
    (re-entries count): 1,000 paid 500 / 300 / 200 on Day 2."""
    event = main_event()
    day1a, day1b, day2 = phase(event, "Day 1A"), phase(event, "Day 1B"), phase(event, "Day 2")

    a = run_flight(day1a, ["Ann", "Bob", "Cy", "Dee", "Eve"])
    bust(day1a, a["Cy"], NOW + timedelta(minutes=10))
    bust(day1a, a["Dee"], NOW + timedelta(minutes=20))
    entry_set_chips(entry=a["Ann"], chips=12000, note="end of day 1A")
    assert [row.state for row in bag_list(day1a)] == ["to bag"] * 3
    phase_bag(phase=day1a, now=NOW + timedelta(hours=1), confirm=True)

    later = NOW + timedelta(days=1)
    b = run_flight(day1b, ["Cy", "Ann", "Fay", "Gus", "Hal"], at=later)
    bust(day1b, b["Fay"], later + timedelta(minutes=10))
    bust(day1b, b["Hal"], later + timedelta(minutes=20))
    entry_set_chips(entry=b["Ann"], chips=25000, note="end of day 1B")
    with pytest.raises(FloorError) as early:
        day_draw(day=day2, now=later, rng=random.Random(5))
    assert early.value.code == "flights_running"
    phase_bag(phase=day1b, now=later + timedelta(hours=1), confirm=True)

    day1a.refresh_from_db()
    assert day1a.status == Tournament.Status.FINISHED
    assert not Entry.objects.filter(tournament__in=[day1a, day1b], finishing_place=1).exists()
    assert prize_table(day1a) == ()  # flights pay nothing

    day2_at = later + timedelta(days=1)
    day_draw(day=day2, now=day2_at, rng=random.Random(5))
    carried = {
        e.player.name: e for e in Entry.objects.filter(tournament=day2).select_related("player")
    }
    assert {n: e.chips for n, e in carried.items()} == {
        "Ann": 25000,
        "Bob": 10000,
        "Cy": 10000,
        "Eve": 10000,
        "Gus": 10000,
    }
    assert carried["Ann"].carried_from_id == b["Ann"].pk
    assert carried["Bob"].carried_from_id == a["Bob"].pk
    assert all(e.table_id is not None and e.seat for e in carried.values())
    moves = ChipMove.objects.filter(tournament=day2, kind=ChipMove.Kind.BUY_IN)
    assert sorted(moves.values_list("note", flat=True)) == [
        "bagged on Day 1A",
        "bagged on Day 1A",
        "bagged on Day 1B",
        "bagged on Day 1B",
        "bagged on Day 1B",
    ]
    draw_audit = AuditEvent.objects.get(tournament=day2, action="day_draw")
    assert draw_audit.detail["forfeited"] == [
        {"player": "Ann", "forfeited": "Day 1A with 12,000", "kept": "Day 1B with 25,000"}
    ]
    states = {row.name: row.state for row in bag_list(day1a)}
    assert states == {"Ann": "forfeited", "Bob": "carried", "Eve": "carried"}

    clock_start(tournament=day2, now=day2_at)
    for minutes, name in enumerate(["Gus", "Eve", "Cy", "Bob"], start=1):
        bust(day2, carried[name], day2_at + timedelta(minutes=minutes))
    tournament_finish(tournament=day2)

    assert prize_table(day2) == (Decimal("500"), Decimal("300"), Decimal("200"))
    rows = event_results(event)
    assert [(r.place, r.name, r.phase, r.prize) for r in rows] == [
        (1, "Ann", "Day 2", Decimal("500")),
        (2, "Bob", "Day 2", Decimal("300")),
        (3, "Cy", "Day 2", Decimal("200")),
        (4, "Eve", "Day 2", None),
        (5, "Gus", "Day 2", None),
        (6, "Hal", "Day 1B", None),
        (7, "Fay", "Day 1B", None),
        (8, "Dee", "Day 1A", None),
    ]
    paid = sum((r.prize or Decimal(0) for r in rows), Decimal(0))
    summary = event_summary(event)
    assert (summary.entries, summary.players, summary.prize_pool) == (10, 8, Decimal("1000"))
    assert paid == summary.prize_pool
    assert summary.status == Tournament.Status.FINISHED


def test_entering_another_flight_after_surviving_one_is_refused_when_the_event_forbids_it() -> None:
    event = main_event(reentry_across_flights=False)
    day1a, day1b = phase(event, "Day 1A"), phase(event, "Day 1B")
    a = run_flight(day1a, ["Ann", "Bob", "Cy"])
    bust(day1a, a["Cy"], NOW + timedelta(minutes=5))
    phase_bag(phase=day1a, now=NOW + timedelta(hours=1), confirm=True)
    tournament_open_registration(tournament=day1b)

    with pytest.raises(FloorError) as refused:
        entry_register(tournament=day1b, player_name="Ann", now=NOW)
    busted_again = entry_register(tournament=day1b, player_name="Cy", now=NOW)

    assert refused.value.code == "survived_flight"
    assert refused.value.detail == (
        "Ann survived Day 1A with 10,000 chips: Main Event does not allow a player who bagged "
        "chips to enter another flight."
    )
    assert busted_again.tournament_id == day1b.pk  # out of 1A: a new entry in 1B is fine


def test_a_player_still_playing_a_flight_cannot_enter_another_at_the_same_time() -> None:
    event = main_event()
    run_flight(phase(event, "Day 1A"), ["Ann", "Bob"])
    day1b = phase(event, "Day 1B")
    tournament_open_registration(tournament=day1b)

    with pytest.raises(FloorError) as refused:
        entry_register(tournament=day1b, player_name="Ann", now=NOW)

    assert refused.value.code == "playing_another_flight"


def test_players_enter_through_a_flight_not_the_event_or_a_later_day() -> None:
    event = main_event()
    day2 = phase(event, "Day 2")
    for target in (event, day2):
        Tournament.objects.filter(pk=target.pk).update(status=Tournament.Status.REGISTERING)

    for target in (event, day2):
        with pytest.raises(FloorError) as refused:
            entry_register(tournament=target, player_name="Ann", now=NOW)
        assert refused.value.code == "enter_a_flight"


def test_bagging_is_refused_while_a_hand_is_in_progress() -> None:
    event = main_event()
    day1a = phase(event, "Day 1A")
    run_flight(day1a, ["Ann", "Bob", "Cy"])
    table = Table.objects.get(tournament=day1a, number=1)
    hand_start(table=table, now=NOW)

    with pytest.raises(FloorError) as refused:
        phase_bag(phase=day1a, now=NOW)

    day1a.refresh_from_db()
    assert refused.value.code == "hands_in_progress"
    assert refused.value.detail.startswith("Table 1 is still playing a hand")
    assert day1a.status == Tournament.Status.RUNNING


def test_bagging_is_refused_before_the_start_and_twice() -> None:
    event = main_event()
    day1a = phase(event, "Day 1A")
    with pytest.raises(FloorError) as before:
        phase_bag(phase=day1a, now=NOW)
    run_flight(day1a, ["Ann", "Bob"])
    phase_bag(phase=day1a, now=NOW, confirm=True)
    with pytest.raises(FloorError) as again:
        phase_bag(phase=day1a, now=NOW)

    assert (before.value.code, again.value.code) == ("not_running", "not_running")
    assert AuditEvent.objects.filter(tournament=day1a, action="phase_bag").count() == 1


def test_the_last_day_is_not_bagged_and_day_2_is_drawn_once() -> None:
    event = main_event(flights=("A",))
    day1a, day2 = phase(event, "Day 1A"), phase(event, "Day 2")
    run_flight(day1a, ["Ann", "Bob", "Cy"])
    phase_bag(phase=day1a, now=NOW, confirm=True)
    day_draw(day=day2, now=NOW, rng=random.Random(1))
    clock_start(tournament=day2, now=NOW)

    with pytest.raises(FloorError) as last_day:
        phase_bag(phase=day2, now=NOW)
    with pytest.raises(FloorError) as twice:
        day_draw(day=day2, now=NOW)
    with pytest.raises(FloorError) as late_flight:
        event_add_flight(event=event, flight="B")

    assert last_day.value.code == "no_next_day"
    assert twice.value.code == "day_drawn"
    assert late_flight.value.code == "day_drawn"


def test_registration_opens_on_a_flight_never_on_the_event_itself() -> None:
    """The event row deals no cards: opening its registration is refused, in words that say
    where to go; its flights open as any tournament does."""
    event = main_event(flights=("A",))

    with pytest.raises(FloorError) as refused:
        tournament_open_registration(tournament=event)

    assert refused.value.code == "enter_a_flight"
    event.refresh_from_db()
    assert event.status == "planned"
    flight = tournament_open_registration(tournament=event.phases.get(flight="A"))
    assert flight.status == "registering"
