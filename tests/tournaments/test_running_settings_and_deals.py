"""Issue 10: a running tournament's settings and levels can be edited (only what would change a
hand in progress is locked), and a tournament finishes with one player left or by a deal among
the players left (ICM or chip chop), which writes the places and prizes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from common.errors import FloorError
from config.exceptions import status_of
from dealer.services import hand_start
from tests.factories import level_rows, seated_tournament
from tournaments.models import AuditEvent, Entry, Table, Tournament
from tournaments.selectors import deal_offer
from tournaments.selectors.clock import LEVEL_FIELDS
from tournaments.selectors.prizes import DealMethod, prize_table
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.deals import tournament_accept_deal
from tournaments.services.entries import entry_set_chips
from tournaments.services.events import tournament_finish, tournament_update

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)  # when `seated_tournament` starts the clock
IN_LEVEL_2 = T0 + timedelta(minutes=25)  # level 1 played, level 2 (row 1) in play


def levels_of(tournament: Tournament) -> list[dict[str, Any]]:
    return list(tournament.levels.values(*LEVEL_FIELDS))


def active(tournament: Tournament) -> list[Entry]:
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).order_by("pk")
    )


def with_stacks(tournament: Tournament, *stacks: int) -> list[Entry]:
    """The active entries (in registration order) given these counts."""
    entries = active(tournament)
    for entry, chips in zip(entries, stacks, strict=True):
        entry_set_chips(entry=entry, chips=chips, now=T0, note="final table")
    return active(tournament)


# --- bug 1: a running tournament's settings ---------------------------------------------------


@pytest.mark.django_db
def test_bug_a_running_tournament_is_renamed_with_its_unchanged_settings_sent_along() -> None:
    tournament = seated_tournament(players=4)

    # What the settings page posts: every field, the locked ones with their stored values.
    tournament_update(
        tournament=tournament,
        name="Renamed",
        game=tournament.game,
        structure=tournament.structure,
        starting_stack=tournament.starting_stack,
        guarantee=Decimal("5000.00"),
        now=IN_LEVEL_2,
    )

    tournament.refresh_from_db()
    assert (tournament.name, tournament.guarantee) == ("Renamed", Decimal("5000"))
    event = AuditEvent.objects.filter(action="tournament_update").latest("pk")
    assert event.detail["fields"] == ["guarantee", "name"]  # what really changed


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("starting_stack", 20000, "starting stack"),
        ("game", "sixplus", "game"),
        ("structure", "pot_limit", "betting structure"),
        ("rule_overrides", {"no_limit_min_raise": "full"}, "rule options"),
    ],
)
def test_a_new_value_for_a_locked_setting_is_refused_while_running(
    field: str, value: Any, words: str
) -> None:
    tournament = seated_tournament(players=4)

    with pytest.raises(FloorError) as refused:
        tournament_update(tournament=tournament, now=IN_LEVEL_2, **{field: value})

    assert (refused.value.code, status_of(refused.value)) == ("tournament_started", 409)
    assert refused.value.detail == (
        f"The {words} cannot change once the tournament has started: "
        "it would change the hands being played."
    )


@pytest.mark.django_db
def test_payouts_late_registration_and_rebuys_change_while_paused() -> None:
    tournament = seated_tournament(players=4)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.PAUSED)

    tournament_update(
        tournament=tournament,
        payout_percentages=[60, 40],
        late_registration_level=3,
        rebuy_until_level=2,
        now=IN_LEVEL_2,
    )

    tournament.refresh_from_db()
    assert tournament.payout_percentages == [60, 40]
    assert (tournament.late_registration_level, tournament.rebuy_until_level) == (3, 2)


@pytest.mark.django_db
def test_later_levels_and_breaks_change_while_running_but_not_the_played_ones() -> None:
    tournament = seated_tournament(players=4)
    rows = level_rows()
    rows[2]["note"] = "Colour up the 25s"  # the break after level 2
    rows[3]["duration"] = 1800  # level 3
    rows.insert(4, {"duration": 900, "is_break": True, "note": "Dinner"})

    tournament_update(tournament=tournament, levels=rows, now=IN_LEVEL_2)

    stored = levels_of(tournament)
    assert len(stored) == 6
    assert stored[2]["note"] == "Colour up the 25s"
    assert stored[3]["duration"] == 1800
    assert stored[4] == {**stored[4], "is_break": True, "note": "Dinner", "duration": 900}
    assert stored[5]["big_blind"] == 800


@pytest.mark.django_db
@pytest.mark.parametrize(("row", "name"), [(0, "Level 1"), (1, "Level 2")])
def test_a_level_played_or_in_play_does_not_change(row: int, name: str) -> None:
    tournament = seated_tournament(players=4)
    before = levels_of(tournament)
    rows = level_rows()
    rows[row]["duration"] = 2400

    with pytest.raises(FloorError) as refused:
        tournament_update(tournament=tournament, levels=rows, now=IN_LEVEL_2)

    assert (refused.value.code, status_of(refused.value)) == ("level_played", 409)
    assert refused.value.detail.startswith(f"{name} has been played or is in play")
    assert levels_of(tournament) == before


@pytest.mark.django_db
def test_the_level_in_play_cannot_be_removed() -> None:
    tournament = seated_tournament(players=4)

    with pytest.raises(FloorError) as refused:
        tournament_update(tournament=tournament, levels=level_rows()[:1], now=IN_LEVEL_2)

    assert refused.value.code == "level_played"


@pytest.mark.django_db
def test_before_the_start_every_setting_and_level_may_change() -> None:
    tournament = seated_tournament(players=4, start=False)

    tournament_update(
        tournament=tournament, starting_stack=20000, levels=level_rows()[:2], now=IN_LEVEL_2
    )

    tournament.refresh_from_db()
    assert tournament.starting_stack == 20000
    assert len(levels_of(tournament)) == 2


# --- bug 2: finishing, and deals ----------------------------------------------------------


@pytest.mark.django_db
def test_bug_finish_with_three_players_left_is_refused() -> None:
    tournament = seated_tournament(players=3)

    with pytest.raises(FloorError) as refused:
        tournament_finish(tournament=tournament)

    assert (refused.value.code, status_of(refused.value)) == ("players_left", 409)
    assert refused.value.detail == (
        "3 players are still in: finish when one is left, or accept a deal."
    )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


@pytest.mark.django_db
def test_finish_with_one_player_left_gives_first_place() -> None:
    tournament = seated_tournament(players=3, payout_percentages=[70, 30])
    for entry in active(tournament)[:2]:
        entries_bust(
            tournament=tournament,
            busts=[Bust(entry_id=entry.pk, starting_stack=entry.chips)],
            now=T0,
        )

    tournament_finish(tournament=tournament)

    winner = active(tournament)[0]
    assert (winner.finishing_place, winner.prize) == (1, Decimal("210"))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["icm", "chip_chop"])
def test_a_deal_writes_places_by_chips_and_prizes_adding_up_to_the_prizes_in_play(
    method: DealMethod,
) -> None:
    # 10 entries of 100, five paid; 3 left share the first three prizes in units of 5.
    tournament = seated_tournament(
        players=10, payout_percentages=[40, 25, 15, 12, 8], payout_unit=Decimal("5")
    )
    for entry in active(tournament)[:7]:
        entries_bust(
            tournament=tournament,
            busts=[Bust(entry_id=entry.pk, starting_stack=entry.chips)],
            now=T0,
        )
    small, big, middle = with_stacks(tournament, 21000, 52000, 27000)
    expected = {row["entry_id"]: row[method] for row in deal_offer(tournament)}

    tournament_accept_deal(tournament=tournament, method=method)

    places = {e.pk: (e.finishing_place, e.prize or Decimal(0)) for e in active(tournament)}
    assert [places[e.pk][0] for e in (big, middle, small)] == [1, 2, 3]
    assert {pk: prize for pk, (_, prize) in places.items()} == expected
    assert all(prize % 5 == 0 for _, prize in places.values())
    assert sum(prize for _, prize in places.values()) == sum(prize_table(tournament)[:3])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.clock_ends_at is None
    assert tournament.deal["method"] == method
    assert [p["place"] for p in tournament.deal["players"]] == [1, 2, 3]
    assert Decimal(tournament.deal["total"]) == sum(prize_table(tournament)[:3])
    audit = AuditEvent.objects.get(tournament=tournament, action="deal_accept")
    assert audit.detail["method"] == method


@pytest.mark.django_db
def test_a_deal_is_refused_while_a_player_left_is_in_a_hand() -> None:
    tournament = seated_tournament(players=3)
    hand_start(table=Table.objects.get(tournament=tournament, number=1), now=T0)

    with pytest.raises(FloorError) as refused:
        tournament_accept_deal(tournament=tournament, method="icm")

    assert (refused.value.code, status_of(refused.value)) == ("in_hand", 409)
    assert refused.value.detail.endswith("accept the deal when the hand is over.")
    assert not Entry.objects.filter(tournament=tournament, finishing_place__isnull=False).exists()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.deal == {}


@pytest.mark.django_db
def test_a_second_deal_or_an_unknown_method_is_refused() -> None:
    tournament = seated_tournament(players=3)
    with pytest.raises(FloorError) as unknown:
        tournament_accept_deal(tournament=tournament, method="coin_flip")
    tournament_accept_deal(tournament=tournament, method="icm")

    with pytest.raises(FloorError) as again:
        tournament_accept_deal(tournament=tournament, method="icm")

    assert (unknown.value.code, status_of(unknown.value)) == ("bad_method", 400)
    assert (again.value.code, status_of(again.value)) == ("tournament_finished", 409)
    assert AuditEvent.objects.filter(tournament=tournament, action="deal_accept").count() == 1
