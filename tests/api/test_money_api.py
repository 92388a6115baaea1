"""Issue 26 through the API: a price entries paid is refused (409 money_locked) and corrected by
POST .../reprice/; the add-on and rebuy windows; late registration within the schedule."""

from datetime import UTC, datetime, timedelta

import pytest

from config import request_time
from tests.factories import TournamentFactory, seated_tournament
from tournaments.models import AuditEvent, Entry

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    moment = {"now": T0}
    monkeypatch.setattr(request_time, "now", lambda: moment["now"])
    return moment


def test_bug_a_new_buy_in_is_409_money_locked_once_entries_have_paid(clock, director):
    event = seated_tournament(players=35, buy_in=100)

    response = director.patch(f"/api/tournaments/{event.pk}/", {"buy_in": "150"}, format="json")

    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "money_locked"
    assert body["detail"].startswith("The buy-in cannot change: 35 entries have paid it")
    event.refresh_from_db()
    assert event.buy_in == 100
    assert not AuditEvent.objects.filter(action="tournament_update").exists()


def test_reprice_names_each_entrys_change_and_a_repeat_changes_nothing(clock, director):
    event = seated_tournament(players=2, buy_in=100, fee=10)
    url = f"/api/tournaments/{event.pk}/reprice/"

    first = director.post(url, {"buy_in": "90", "reason": "the flyer said 90"}, format="json")
    again = director.post(url, {"buy_in": "90", "reason": "the flyer said 90"}, format="json")

    assert first.status_code == 200
    body = first.json()
    assert body["changes"] == {"buy_in": ["100.00", "90.00"]}
    assert [(e["paid"], e["now"]) for e in body["entries"]] == [("110.00", "100.00")] * 2
    assert (body["prize_pool_before"], body["prize_pool_after"]) == ("200.00", "180.00")
    assert (again.status_code, again.json()["code"]) == (400, "nothing_to_reprice")
    assert AuditEvent.objects.filter(action="tournament_reprice").count() == 1


def test_reprice_without_a_reason_is_400(clock, director):
    event = seated_tournament(players=2, buy_in=100)

    response = director.post(
        f"/api/tournaments/{event.pk}/reprice/", {"buy_in": "90"}, format="json"
    )

    assert response.status_code == 400


REBUYS = {
    "rebuy_price": 100,
    "rebuy_chips": 10000,
    "rebuy_until_level": 2,
    "addon_price": 100,
    "addon_chips": 20000,
}


def test_bug_an_add_on_after_its_window_is_409_addon_closed(clock, director):
    event = seated_tournament(players=2, **REBUYS)
    entry = Entry.objects.filter(tournament=event).first()
    clock["now"] = T0 + timedelta(minutes=75)  # level 4

    response = director.post(f"/api/entries/{entry.pk}/addon/")

    assert response.status_code == 409
    assert response.json()["code"] == "addon_closed"
    assert "break after level 2" in response.json()["detail"]


def test_the_add_on_on_its_break_is_200(clock, director):
    event = seated_tournament(players=2, **REBUYS)
    entry = Entry.objects.filter(tournament=event).first()
    clock["now"] = T0 + timedelta(minutes=45)  # the break after level 2

    response = director.post(f"/api/entries/{entry.pk}/addon/")

    assert response.status_code == 200


def test_a_rebuy_after_its_window_is_409_rebuys_closed(clock, director):
    event = seated_tournament(players=2, **REBUYS)
    entry = Entry.objects.filter(tournament=event).first()
    clock["now"] = T0 + timedelta(minutes=55)  # level 3

    response = director.post(f"/api/entries/{entry.pk}/rebuy/")

    assert (response.status_code, response.json()["code"]) == (409, "rebuys_closed")


def test_bug_late_registration_past_the_schedule_is_400(clock, director):
    event = TournamentFactory()

    response = director.patch(
        f"/api/tournaments/{event.pk}/", {"late_registration_level": 99}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "bad_late_registration_level"
    assert "the schedule has 4 playing levels" in response.json()["detail"]


def test_the_add_on_level_is_set_and_read_through_the_api(clock, director):
    event = TournamentFactory()

    response = director.patch(f"/api/tournaments/{event.pk}/", {"addon_level": 3}, format="json")

    assert response.status_code == 200
    assert response.json()["addon_level"] == 3
