"""Issue 26, "The director's money is right to the chip": the money settings lock once an entry
has paid (a mistake is corrected by an audited repricing), the add-on, rebuy and late
registration windows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from common.errors import FloorError
from config.exceptions import status_of
from tests.factories import TournamentFactory, make, seated_tournament
from tournaments.models import AuditEvent, Entry, Tournament
from tournaments.selectors.prizes import prize_table
from tournaments.services.entries import entry_addon, entry_rebuy
from tournaments.services.events import tournament_update
from tournaments.services.prices import tournament_reprice

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)  # when `seated_tournament` starts the clock


def money(text: str) -> Decimal:
    return Decimal(text)


def first_entry(event: Tournament) -> Entry:
    return Entry.objects.filter(tournament=event).order_by("pk")[0]


# --- 1. the money settings lock once an entry has paid ---------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("buy_in", Decimal("150"), "buy-in"),
        ("fee", Decimal("20"), "fee"),
        ("rebuy_price", Decimal("50"), "rebuy price"),
        ("addon_price", Decimal("50"), "add-on price"),
        ("bounty", Decimal("50"), "bounty"),
    ],
)
def test_bug_a_money_setting_is_refused_once_an_entry_has_paid(
    field: str, value: Any, words: str
) -> None:
    event = seated_tournament(players=4, buy_in=100, rebuy_chips=10000, addon_chips=10000)
    before = prize_table(event)

    with pytest.raises(FloorError) as refused:
        tournament_update(tournament=event, now=T0, **{field: value})

    assert (refused.value.code, status_of(refused.value)) == ("money_locked", 409)
    assert refused.value.detail.startswith(f"The {words} cannot change: 4 entries have paid")
    assert "Reprice" in refused.value.detail
    assert prize_table(event) == before
    assert not AuditEvent.objects.filter(action="tournament_update").exists()


def test_the_money_settings_change_before_anyone_has_paid() -> None:
    event: Tournament = make(TournamentFactory, buy_in=100)

    tournament_update(tournament=event, buy_in=Decimal("150"), fee=Decimal("15"), now=T0)

    event.refresh_from_db()
    assert (event.buy_in, event.fee) == (money("150"), money("15"))


def test_the_money_settings_sent_unchanged_with_other_settings_are_fine() -> None:
    event = seated_tournament(players=4, buy_in=100)

    tournament_update(tournament=event, buy_in=Decimal("100.00"), name="Renamed", now=T0)

    event.refresh_from_db()
    assert event.name == "Renamed"


def test_a_repricing_corrects_the_buy_in_and_names_each_entry_in_the_audit_log() -> None:
    event = seated_tournament(players=3, buy_in=100, fee=10)
    first = Entry.objects.filter(tournament=event).order_by("pk").first()
    assert first is not None

    changes = tournament_reprice(
        tournament=event, buy_in=Decimal("150"), reason="the poster said 150 + 10"
    )

    event.refresh_from_db()
    assert event.buy_in == money("150")
    assert sum(prize_table(event)) == money("450")
    assert changes.entries[0].entry_id == first.pk
    assert [(c.paid, c.now) for c in changes.entries] == [(money("110"), money("160"))] * 3
    audit = AuditEvent.objects.get(action="tournament_reprice")
    assert audit.detail["reason"] == "the poster said 150 + 10"
    assert audit.detail["changes"] == ["buy-in: 100.00 -> 150.00"]
    assert audit.detail["entries"][0] == f"{first.player.name} (entry {first.pk}): 110.00 -> 160.00"
    assert len(audit.detail["entries"]) == 3
    assert audit.detail["prize_pool"] == "300.00 -> 450.00"
    assert not AuditEvent.objects.filter(action="tournament_update").exists()


def test_a_repricing_counts_each_entrys_rebuys_and_add_on() -> None:
    event = seated_tournament(
        players=2,
        buy_in=100,
        rebuy_price=100,
        rebuy_chips=10000,
        rebuy_until_level=2,
        addon_price=50,
        addon_chips=10000,
    )
    ann, bob = Entry.objects.filter(tournament=event).order_by("pk")
    entry_rebuy(entry=ann, now=T0)
    Entry.objects.filter(pk=ann.pk).update(rebuys=2)  # a second rebuy after losing the first
    entry_addon(entry=bob, now=T0 + timedelta(minutes=45))  # on the break after level 2

    changes = tournament_reprice(tournament=event, rebuy_price=Decimal("80"), reason="typo")

    by_entry = {c.entry_id: (c.paid, c.now) for c in changes.entries}
    assert by_entry == {
        ann.pk: (money("300"), money("260")),
        bob.pk: (money("150"), money("150")),
    }


@pytest.mark.parametrize(
    ("values", "code"),
    [
        ({"buy_in": Decimal("100")}, "nothing_to_reprice"),
        ({}, "nothing_to_reprice"),
        ({"buy_in": Decimal("-1")}, "bad_amount"),
    ],
)
def test_a_repricing_that_changes_nothing_or_is_negative_is_refused(
    values: dict[str, Decimal], code: str
) -> None:
    event = seated_tournament(players=2, buy_in=100)

    with pytest.raises(FloorError) as refused:
        tournament_reprice(tournament=event, reason="check", **values)  # type: ignore[arg-type]

    assert (refused.value.code, status_of(refused.value)) == (code, 400)
    assert not AuditEvent.objects.filter(action="tournament_reprice").exists()


def test_a_repricing_needs_a_reason() -> None:
    event = seated_tournament(players=2, buy_in=100)

    with pytest.raises(FloorError) as refused:
        tournament_reprice(tournament=event, buy_in=Decimal("150"), reason="  ")

    assert (refused.value.code, status_of(refused.value)) == ("reason_required", 400)


def test_a_finished_tournament_is_not_repriced() -> None:
    event = seated_tournament(players=2, buy_in=100)
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.FINISHED)

    with pytest.raises(FloorError) as refused:
        tournament_reprice(tournament=event, buy_in=Decimal("150"), reason="late")

    assert (refused.value.code, status_of(refused.value)) == ("tournament_finished", 409)


# --- 3. the windows ----------------------------------------------------------------------------

# The standard levels: level 1 (0-20 min), level 2 (20-40), a break (40-50), level 3 (50-70),
# level 4 (70-90).
IN_LEVEL_1 = T0 + timedelta(minutes=5)
ON_THE_BREAK = T0 + timedelta(minutes=45)
IN_LEVEL_3 = T0 + timedelta(minutes=55)
IN_LEVEL_4 = T0 + timedelta(minutes=75)

REBUYS: dict[str, Any] = {
    "rebuy_price": 100,
    "rebuy_chips": 10000,
    "rebuy_until_level": 2,
    "addon_price": 100,
    "addon_chips": 20000,
}


def test_bug_an_add_on_is_refused_after_its_window() -> None:
    event = seated_tournament(players=2, **REBUYS)
    entry = first_entry(event)

    with pytest.raises(FloorError) as refused:
        entry_addon(entry=entry, now=IN_LEVEL_4)

    assert (refused.value.code, status_of(refused.value)) == ("addon_closed", 409)
    assert refused.value.detail == (
        "The add-on is taken on the break after level 2; it is now level 4."
    )


def test_the_add_on_is_refused_before_its_window() -> None:
    event = seated_tournament(players=2, **REBUYS)
    entry = first_entry(event)

    with pytest.raises(FloorError) as refused:
        entry_addon(entry=entry, now=IN_LEVEL_1)

    assert refused.value.code == "addon_not_yet"
    assert refused.value.detail == (
        "The add-on is taken on the break after level 2; it is now level 1."
    )


def test_the_add_on_is_taken_on_the_break_after_the_last_rebuy_level() -> None:
    event = seated_tournament(players=2, **REBUYS)
    entry = first_entry(event)

    taken = entry_addon(entry=entry, now=ON_THE_BREAK)

    assert taken.addon is True


def test_the_director_sets_the_add_on_level() -> None:
    event = seated_tournament(players=2, addon_level=3, **REBUYS)
    entry = first_entry(event)

    with pytest.raises(FloorError) as refused:
        entry_addon(entry=entry, now=ON_THE_BREAK)
    taken = entry_addon(entry=entry, now=IN_LEVEL_3)

    assert refused.value.detail == (
        "The add-on is taken during level 3; it is now the break after level 2."
    )
    assert taken.addon is True


def test_a_freezeout_add_on_without_rebuys_is_taken_on_the_first_break() -> None:
    event = seated_tournament(players=2, addon_price=100, addon_chips=20000)
    entry = first_entry(event)

    with pytest.raises(FloorError):
        entry_addon(entry=entry, now=IN_LEVEL_1)
    assert entry_addon(entry=entry, now=ON_THE_BREAK).addon is True


def test_a_rebuy_after_its_window_is_refused_with_the_level() -> None:
    event = seated_tournament(players=2, **REBUYS)
    entry = first_entry(event)

    with pytest.raises(FloorError) as refused:
        entry_rebuy(entry=entry, now=IN_LEVEL_3)

    assert (refused.value.code, status_of(refused.value)) == ("rebuys_closed", 409)
    assert refused.value.detail == "Rebuys ended with level 2; it is now level 3."


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("late_registration_level", 99, "bad_late_registration_level"),
        ("rebuy_until_level", 5, "bad_rebuy_until_level"),
        ("addon_level", 9, "bad_addon_level"),
    ],
)
def test_bug_a_window_must_end_at_a_level_the_schedule_has(
    field: str, value: Any, code: str
) -> None:
    event: Tournament = make(TournamentFactory)

    with pytest.raises(FloorError) as refused:
        tournament_update(tournament=event, now=T0, **{field: value})

    assert (refused.value.code, status_of(refused.value)) == (code, 400)
    assert "the schedule has 4 playing levels" in refused.value.detail


def test_late_registration_may_end_at_the_last_playing_level() -> None:
    event: Tournament = make(TournamentFactory)

    tournament_update(tournament=event, late_registration_level=4, now=T0)

    event.refresh_from_db()
    assert event.late_registration_level == 4
