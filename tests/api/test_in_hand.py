"""Issue 10: the floor waits for the hand. A rebuy, add-on or chip count for a player dealt in a
hand in progress on a tablet is refused (409 `in_hand`, with a sentence saying which hand and
what to do); once the hand has ended it is added to the hand's result, never overwritten by it.

The bug: "a rebuy from 20,000 to 25,000 ended at 20,425 instead of 25,425" (the hand's end wrote
its finishing stack as an absolute value over the rebuy made while it was played)."""

from datetime import UTC, datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from config import request_time
from tests.factories import HandClient, seated_tournament
from tournaments.models import ChipMove, Entry, Table, Tournament
from tournaments.selectors.books import chips_check
from tournaments.services.entries import entry_set_chips

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
# One level, blinds 425 / 850: the big blind wins exactly 425 when everyone folds to them.
LEVELS = [(425, 850, 0, 3600)]


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


def three_at_twenty_thousand(**fields: Any) -> tuple[Tournament, Table]:
    """Three players at table 1 of a running tournament, each counted at 20,000 chips."""
    fields.setdefault("starting_stack", 30000)
    tournament = seated_tournament(players=3, levels=LEVELS, **fields)
    table = Table.objects.get(tournament=tournament, number=1)
    for entry in Entry.objects.filter(table=table):
        entry_set_chips(entry=entry, chips=20000, note="re-count")
    return tournament, table


def start_hand(director: APIClient, table: Table) -> HandClient:
    response = director.post(
        f"/api/tables/{table.pk}/hands/", {"client_id": "start"}, format="json"
    )
    assert response.status_code == 201, response.json()
    return HandClient(director, response.json())


def fold_to_the_big_blind(tablet: HandClient) -> dict[str, Any]:
    while tablet.state["phase"] not in ("complete", "void"):
        tablet.ok(kind="fold", seat=tablet.state["legal"]["actor"])
    return tablet.state


def big_blind(tablet: HandClient, table: Table) -> Entry:
    return Entry.objects.select_related("player").get(
        table=table, seat=tablet.state["big_blind_seat"]
    )


@pytest.mark.django_db
def test_bug_rebuy_in_a_hand_is_refused_then_added_to_the_hands_result(director):
    tournament, table = three_at_twenty_thousand(rebuy_chips=5000, rebuy_until_level=1)
    tablet = start_hand(director, table)
    ana = big_blind(tablet, table)

    during = director.post(f"/api/entries/{ana.pk}/rebuy/", format="json")
    fold_to_the_big_blind(tablet)
    after = director.post(f"/api/entries/{ana.pk}/rebuy/", format="json")

    assert during.status_code == 409
    assert during.json() == {
        "code": "in_hand",
        "detail": f"{ana.player.name} is in hand 1 at table 1: record the rebuy when it ends.",
    }
    assert after.status_code == 200, after.json()
    assert after.json()["chips"] == 20000 + 425 + 5000 == 25425
    assert after.json()["rebuys"] == 1
    assert list(ChipMove.objects.filter(entry=ana).order_by("pk").values_list("kind", "delta")) == [
        ("buy_in", 30000),
        ("count", -10000),
        ("hand", 425),
        ("rebuy", 5000),
    ]
    assert chips_check(tournament) == []


@pytest.mark.django_db
def test_add_on_in_a_hand_is_refused_then_added_to_the_hands_result(director):
    tournament, table = three_at_twenty_thousand(addon_chips=8000)
    tablet = start_hand(director, table)
    ana = big_blind(tablet, table)

    during = director.post(f"/api/entries/{ana.pk}/addon/", format="json")
    fold_to_the_big_blind(tablet)
    after = director.post(f"/api/entries/{ana.pk}/addon/", format="json")

    assert (during.status_code, during.json()["code"]) == (409, "in_hand")
    assert during.json()["detail"] == (
        f"{ana.player.name} is in hand 1 at table 1: record the add-on when it ends."
    )
    assert after.json()["chips"] == 20000 + 425 + 8000
    assert chips_check(tournament) == []


@pytest.mark.django_db
def test_chip_count_in_a_hand_is_refused_and_the_hands_result_stands(director):
    tournament, table = three_at_twenty_thousand()
    tablet = start_hand(director, table)
    ana = big_blind(tablet, table)

    during = director.put(f"/api/entries/{ana.pk}/chips/", {"chips": 21000}, format="json")
    fold_to_the_big_blind(tablet)
    ana.refresh_from_db()

    assert (during.status_code, during.json()["code"]) == (409, "in_hand")
    assert during.json()["detail"] == (
        f"{ana.player.name} is in hand 1 at table 1: record the count when it ends."
    )
    assert (ana.chips, ana.chips_source) == (20425, "after hand 1 at table 1")
    assert chips_check(tournament) == []


@pytest.mark.django_db
def test_a_player_not_in_the_hand_gets_a_rebuy_while_it_is_played(director):
    """The control case: the refusal is for players in the hand only."""
    tournament = seated_tournament(players=12, levels=LEVELS, rebuy_chips=5000, rebuy_until_level=1)
    start_hand(director, Table.objects.get(tournament=tournament, number=1))
    elsewhere = Entry.objects.filter(tournament=tournament, table__number=2).first()
    assert elsewhere is not None

    response = director.post(f"/api/entries/{elsewhere.pk}/rebuy/", format="json")

    assert response.status_code == 200
    assert response.json()["chips"] == 10000 + 5000
