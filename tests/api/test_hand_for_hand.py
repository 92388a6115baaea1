"""Hand-for-hand (RP-8) through the API and the clock page."""

from datetime import UTC, datetime

import pytest
from django.test import Client
from rest_framework.test import APIClient

from config import request_time
from tests.factories import DirectorFactory, seated_tournament

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


@pytest.mark.django_db
def test_hand_for_hand_api_stops_the_clock_and_refuses_a_second_start():
    tournament = seated_tournament(players=6)
    director = APIClient()
    director.force_login(DirectorFactory())
    url = f"/api/tournaments/{tournament.pk}/hand-for-hand/"

    started = director.post(url, {"on": True}, format="json")
    assert started.status_code == 200
    assert started.json()["status"] == "paused"
    again = director.post(url, {"on": True}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "hand_for_hand_unchanged")
    hand = director.post(f"{url}hand/")
    assert hand.status_code == 200
    assert hand.json()["remaining_seconds"] == started.json()["remaining_seconds"] - 60
    assert director.post(url, {"on": "maybe"}, format="json").status_code == 400
    assert APIClient().post(url, {"on": False}, format="json").status_code in (401, 403)


@pytest.mark.django_db
def test_clock_page_offers_hand_for_hand_and_its_hand_button():
    tournament = seated_tournament(players=6)
    client = Client()
    client.force_login(DirectorFactory())
    page = f"/desk/t/{tournament.pk}/clock/"
    assert "Start hand-for-hand" in client.get(page).content.decode()
    client.post(f"{page}hand-for-hand/", {"on": "1"})
    content = client.get(page).content.decode()
    assert "Hand complete" in content
    assert "End hand-for-hand" in content


@pytest.mark.django_db
def test_rp8_a_stale_hand_complete_does_not_end_the_next_hand_for_hand_hand():
    """A director who loaded the desk during hand-for-hand hand 1 presses Hand complete after the
    tablets have ended it: hand 2 must not be ended unplayed (nor the clock lose another 60 s)."""
    tournament = seated_tournament(players=6, payout_percentages=[50, 30, 20])
    director = APIClient()
    director.force_login(DirectorFactory())
    url = f"/api/tournaments/{tournament.pk}/hand-for-hand/"
    started = director.post(url, {"on": True}, format="json").json()
    assert started["hand_for_hand_hand"] == 1

    first = director.post(f"{url}hand/", {"hand": 1}, format="json")
    stale = director.post(f"{url}hand/", {"hand": 1}, format="json")
    bad = director.post(f"{url}hand/", {"hand": "x"}, format="json")

    assert first.status_code == 200
    assert first.json()["hand_for_hand_hand"] == 2
    assert stale.status_code == 409
    assert stale.json() == {
        "code": "hand_for_hand_moved_on",
        "detail": "Hand-for-hand hand 1 is over already: the tables are playing hand 2. "
        "Press Hand complete when that one is over.",
    }
    assert bad.status_code == 400
    clock = director.get(f"/api/tournaments/{tournament.pk}/clock/").json()
    assert clock["remaining_seconds"] == started["remaining_seconds"] - 60


@pytest.mark.django_db
def test_rp8_the_desks_hand_complete_form_carries_the_hand_it_was_drawn_for():
    from tests.pages import once

    tournament = seated_tournament(players=6, payout_percentages=[50, 30, 20])
    client = Client()
    client.force_login(DirectorFactory())
    page = f"/desk/t/{tournament.pk}/clock/"
    client.post(f"{page}hand-for-hand/", {"on": "1"})
    assert 'name="hand" value="1"' in client.get(page).content.decode()

    client.post(f"{page}hand-for-hand/hand/", once(hand="1"))
    stale = client.post(f"{page}hand-for-hand/hand/", once(hand="1"), follow=True)

    tournament.refresh_from_db()
    assert tournament.hand_for_hand_round == 2
    assert "Hand-for-hand hand 1 is over already" in stale.content.decode()
