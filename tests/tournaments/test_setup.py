"""Recurring work (issue 26): the generator's service, copies of a schedule and a tournament,
archiving events and players, deleting a test event."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import pytest

from common.errors import FloorConflict, FloorInvalid
from tests.factories import (
    BlindScheduleFactory,
    EntryFactory,
    TournamentFactory,
    make,
)
from tournaments.models import AuditEvent, BlindSchedule, Entry, Player, Tournament
from tournaments.selectors import tournament_list
from tournaments.selectors.clock import LEVEL_FIELDS
from tournaments.selectors.players import player_search
from tournaments.services.archive import player_archive, tournament_archive, tournament_delete
from tournaments.services.players import player_get_or_create
from tournaments.services.setup import schedule_copy, schedule_generate, tournament_copy
from tournaments.structures import BlindPlan, template_get

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


# --- the generator ---------------------------------------------------------------------------


def test_an_18_level_schedule_is_one_call() -> None:
    template = template_get("standard-20")
    assert template is not None

    schedule = schedule_generate(name="Monday", plan=template.plan)

    levels = list(schedule.levels.all())
    assert sum(1 for lv in levels if not lv.is_break) == 18
    assert sum(1 for lv in levels if lv.is_break) == 4
    assert all(lv.smallest_chip == 25 for lv in levels)
    assert all(lv.big_blind % 25 == 0 and lv.small_blind % 25 == 0 for lv in levels)
    assert AuditEvent.objects.filter(action="schedule_create").count() == 1


def test_a_generated_plan_the_clock_cannot_use_is_refused_as_invalid() -> None:
    plan = BlindPlan(small_blind=30, big_blind=60, level_minutes=20, smallest_chip=25)

    with pytest.raises(FloorInvalid) as refused:
        schedule_generate(name="Odd", plan=plan)
    assert refused.value.code == "not_in_smallest_chips"
    assert not BlindSchedule.objects.exists()


def test_a_generated_schedule_with_a_name_in_use_is_a_conflict() -> None:
    BlindScheduleFactory(name="Monday")
    plan = BlindPlan(small_blind=25, big_blind=50, level_minutes=20, smallest_chip=25)

    with pytest.raises(FloorConflict) as refused:
        schedule_generate(name="Monday", plan=plan)
    assert refused.value.code == "duplicate_schedule"


# --- copies ----------------------------------------------------------------------------------


def test_a_schedule_copy_has_the_same_levels_and_a_new_name() -> None:
    original = make(BlindScheduleFactory, name="Deep")

    copy = schedule_copy(schedule=original, name="Deep Friday")

    assert copy.pk != original.pk
    assert list(copy.levels.values(*LEVEL_FIELDS)) == list(original.levels.values(*LEVEL_FIELDS))


def test_a_schedule_copy_needs_a_name() -> None:
    with pytest.raises(FloorInvalid) as refused:
        schedule_copy(schedule=make(BlindScheduleFactory), name="  ")
    assert refused.value.code == "name_required"


def test_a_tournament_copy_has_the_settings_levels_payouts_and_rules_not_the_entries() -> None:
    original = make(
        TournamentFactory,
        name="Sunday 100",
        status=Tournament.Status.FINISHED,
        buy_in=Decimal("100"),
        fee=Decimal("15"),
        guarantee=Decimal("5000"),
        payout_percentages=[50, 30, 20],
        payout_unit=Decimal("5"),
        rule_overrides={"odd_chip": "high_card_by_suit"},
        late_registration_level=3,
        levels=[(50, 100, 0, 900), (100, 200, 0, 900), None, (200, 400, 400, 900)],
    )
    EntryFactory(tournament=original)
    original.levels.filter(order=3).update(note="Antes")

    copy = tournament_copy(tournament=original, name="Sunday 100 #2")

    assert copy.status == Tournament.Status.PLANNED
    assert copy.entries.count() == 0
    for field in ("buy_in", "fee", "guarantee", "payout_percentages", "payout_unit"):
        assert getattr(copy, field) == getattr(original, field), field
    assert copy.rule_overrides == {"odd_chip": "high_card_by_suit"}
    assert copy.late_registration_level == 3
    assert list(copy.levels.values(*LEVEL_FIELDS)) == list(original.levels.values(*LEVEL_FIELDS))
    assert AuditEvent.objects.get(tournament=copy).detail["copy_of"] == original.pk


def test_a_flight_is_not_copied() -> None:
    event = make(TournamentFactory, kind=Tournament.Kind.EVENT)
    flight = make(TournamentFactory, kind=Tournament.Kind.FLIGHT, parent=event)

    with pytest.raises(FloorConflict) as refused:
        tournament_copy(tournament=flight, name="Again")
    assert refused.value.code == "copy_single_only"


# --- archive and delete ----------------------------------------------------------------------


def test_a_finished_event_is_archived_out_of_the_lists_and_restored() -> None:
    event = make(TournamentFactory, status=Tournament.Status.FINISHED)
    EntryFactory(tournament=event)

    tournament_archive(tournament=event)

    assert event not in tournament_list()
    assert event in tournament_list(archived=True)
    assert Entry.objects.filter(tournament=event).count() == 1  # the data is kept
    tournament_archive(tournament=event, archived=False)
    assert event in tournament_list()
    actions = list(AuditEvent.objects.values_list("action", flat=True))
    assert {"tournament_archive", "tournament_restore"} <= set(actions)


def test_a_test_event_nobody_paid_into_is_archived() -> None:
    event = make(TournamentFactory, status=Tournament.Status.REGISTERING)

    assert tournament_archive(tournament=event).is_archived


def test_an_event_with_paid_entries_is_archived_only_once_finished() -> None:
    event = make(TournamentFactory, status=Tournament.Status.REGISTERING)
    EntryFactory(tournament=event)

    with pytest.raises(FloorConflict) as refused:
        tournament_archive(tournament=event)
    assert refused.value.code == "paid_entries"
    assert not Tournament.objects.get(pk=event.pk).is_archived


def test_an_event_in_play_is_not_archived() -> None:
    event = make(TournamentFactory, status=Tournament.Status.RUNNING)

    with pytest.raises(FloorConflict) as refused:
        tournament_archive(tournament=event)
    assert refused.value.code == "tournament_running"


def test_an_event_is_archived_with_its_flights_and_a_flight_alone_is_not() -> None:
    event = make(TournamentFactory, kind=Tournament.Kind.EVENT, status=Tournament.Status.PLANNED)
    flight = make(TournamentFactory, kind=Tournament.Kind.FLIGHT, parent=event)

    with pytest.raises(FloorConflict) as refused:
        tournament_archive(tournament=flight)
    assert refused.value.code == "archive_the_event"
    tournament_archive(tournament=event)
    assert Tournament.objects.get(pk=flight.pk).is_archived


def test_a_test_event_with_no_entries_is_deleted_and_the_log_keeps_its_name() -> None:
    event = make(TournamentFactory, name="Test please ignore")

    tournament_delete(tournament=event)

    assert not Tournament.objects.filter(pk=event.pk).exists()
    logged = AuditEvent.objects.get(action="tournament_delete")
    assert logged.detail == {"tournament_id": event.pk, "name": "Test please ignore"}


@pytest.mark.parametrize(
    ("status", "entry", "code"),
    [
        (Tournament.Status.FINISHED, False, "tournament_finished"),
        (Tournament.Status.REGISTERING, True, "has_entries"),
        (Tournament.Status.FINISHED, True, "tournament_finished"),
    ],
)
def test_a_finished_or_entered_event_is_not_deleted(status: str, entry: bool, code: str) -> None:
    event = make(TournamentFactory, status=status)
    if entry:
        EntryFactory(tournament=event, status=Entry.Status.UNREGISTERED)

    with pytest.raises(FloorConflict) as refused:
        tournament_delete(tournament=event)
    assert refused.value.code == code
    assert Tournament.objects.filter(pk=event.pk).exists()


def test_a_junk_player_is_archived_out_of_the_search() -> None:
    junk = player_get_or_create(name="Asdf Qwer")

    player_archive(player=junk)

    assert player_search("asdf").count == 0
    assert player_search("asdf", archived=True).rows[0].is_archived
    player_archive(player=junk, archived=False)
    assert player_search("asdf").count == 1


def test_a_player_with_entries_is_not_archived() -> None:
    entry = make(EntryFactory)

    with pytest.raises(FloorConflict) as refused:
        player_archive(player=entry.player)
    assert refused.value.code == "player_has_entries"
    assert not Player.objects.get(pk=entry.player.pk).is_archived


def test_an_event_whose_flights_and_days_are_all_finished_is_archived_despite_its_entries() -> None:
    event = make(TournamentFactory, kind=Tournament.Kind.EVENT, status=Tournament.Status.PLANNED)
    day1 = make(
        TournamentFactory,
        kind=Tournament.Kind.FLIGHT,
        parent=event,
        status=Tournament.Status.FINISHED,
    )
    day2 = make(
        TournamentFactory, kind=Tournament.Kind.DAY, parent=event, status=Tournament.Status.RUNNING
    )
    EntryFactory(tournament=day1)

    with pytest.raises(FloorConflict) as refused:
        tournament_archive(tournament=event)
    assert refused.value.code == "tournament_running"
    Tournament.objects.filter(pk=day2.pk).update(status=Tournament.Status.FINISHED)
    assert tournament_archive(tournament=event).is_archived


def test_archiving_twice_changes_nothing_the_second_time() -> None:
    event = make(TournamentFactory, status=Tournament.Status.FINISHED)

    tournament_archive(tournament=event)
    tournament_archive(tournament=event)

    assert AuditEvent.objects.filter(action="tournament_archive").count() == 1
