"""The registration desk through the API: register, late register, re-enter, unregister,
rebuy, add-on, chip counts, and the entry list with its filters."""

from datetime import UTC, datetime, timedelta

import pytest

from config import request_time
from tests.factories import TournamentFactory, seated_tournament
from tournaments.models import Entry, Tournament

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch):
    moment = {"now": T0}
    monkeypatch.setattr(request_time, "now", lambda: moment["now"])
    return moment


def _register(director, tournament, name):
    return director.post(
        f"/api/tournaments/{tournament.pk}/entries/", {"player_name": name}, format="json"
    )


def _bust(director, tournament, entry):
    return director.post(
        f"/api/tournaments/{tournament.pk}/busts/",
        [{"entry_id": entry.pk, "starting_stack": entry.chips}],
        format="json",
    )


@pytest.mark.django_db
def test_register_before_the_start_is_201_without_a_seat(clock, director):
    tournament = TournamentFactory()
    response = _register(director, tournament, "  Ann   Lee ")

    assert response.status_code == 201
    body = response.json()
    assert body["player_name"] == "Ann Lee"
    assert (body["number"], body["status"], body["late"]) == (1, "active", False)
    assert (body["table"], body["seat"], body["chips"]) == (None, None, 10000)


@pytest.mark.django_db
def test_late_registration_takes_a_seat_at_a_shortest_table(clock, director):
    tournament = seated_tournament(players=10, late_registration_level=2)
    clock["now"] = T0 + timedelta(minutes=25)  # level 2

    body = _register(director, tournament, "Late Larry").json()

    assert body["late"] is True
    assert body["table"] is not None
    counts = Entry.objects.filter(tournament=tournament, table__number=body["table"]).count()
    assert counts == 6  # the draw made two tables of 5


@pytest.mark.django_db
def test_registration_after_late_registration_is_409_registration_closed(clock, director):
    tournament = seated_tournament(players=4, late_registration_level=1)
    clock["now"] = T0 + timedelta(minutes=21)

    response = _register(director, tournament, "Too Late")

    assert response.status_code == 409
    assert response.json()["code"] == "registration_closed"


@pytest.mark.django_db
def test_reentry_is_the_same_operation_and_numbers_the_entry(clock, director):
    tournament = seated_tournament(players=4, late_registration_level=2, max_entries_per_player=2)
    first = Entry.objects.filter(tournament=tournament).select_related("player").first()
    assert _bust(director, tournament, first).status_code == 200

    again = _register(director, tournament, first.player.name)
    assert _bust(director, tournament, Entry.objects.get(pk=again.json()["id"])).status_code == 200
    third = _register(director, tournament, first.player.name)

    assert again.status_code == 201
    assert again.json()["number"] == 2
    assert third.status_code == 409
    assert third.json()["code"] == "no_reentry"


@pytest.mark.django_db
def test_unregister_before_the_start_and_not_after(clock, director):
    tournament = TournamentFactory()
    entry_id = _register(director, tournament, "Ann").json()["id"]

    response = director.post(f"/api/entries/{entry_id}/unregister/")
    again = director.post(f"/api/entries/{entry_id}/unregister/")

    assert response.status_code == 200
    assert response.json()["status"] == "unregistered"
    assert again.status_code == 409
    assert again.json()["code"] == "entry_not_active"

    started = seated_tournament(players=4)
    seated = Entry.objects.filter(tournament=started).first()
    refused = director.post(f"/api/entries/{seated.pk}/unregister/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "tournament_started"


@pytest.mark.django_db
def test_rebuy_adds_the_rebuy_chips_during_the_rebuy_period(clock, director):
    tournament = seated_tournament(players=4, rebuy_chips=5000, rebuy_until_level=1)
    entry = Entry.objects.filter(tournament=tournament).first()

    response = director.post(f"/api/entries/{entry.pk}/rebuy/")
    assert response.status_code == 200
    assert (response.json()["chips"], response.json()["rebuys"]) == (15000, 1)

    too_many_chips = director.post(f"/api/entries/{entry.pk}/rebuy/")
    assert too_many_chips.json()["code"] == "rebuy_not_allowed"

    clock["now"] = T0 + timedelta(minutes=21)
    other = Entry.objects.filter(tournament=tournament).exclude(pk=entry.pk).first()
    closed = director.post(f"/api/entries/{other.pk}/rebuy/")
    assert closed.status_code == 409
    assert closed.json()["code"] == "rebuys_closed"


@pytest.mark.django_db
def test_no_rebuys_is_409_no_rebuys(clock, director):
    tournament = seated_tournament(players=4)
    entry = Entry.objects.filter(tournament=tournament).first()

    response = director.post(f"/api/entries/{entry.pk}/rebuy/")

    assert response.status_code == 409
    assert response.json()["code"] == "no_rebuys"


@pytest.mark.django_db
def test_addon_once_per_entry(clock, director):
    tournament = seated_tournament(players=4, addon_chips=3000)
    entry = Entry.objects.filter(tournament=tournament).first()
    clock["now"] = T0 + timedelta(minutes=45)  # the add-on's break, after level 2 (issue 26)

    first = director.post(f"/api/entries/{entry.pk}/addon/")
    second = director.post(f"/api/entries/{entry.pk}/addon/")

    assert first.status_code == 200
    assert (first.json()["chips"], first.json()["addon"]) == (13000, True)
    assert second.status_code == 409
    assert second.json()["code"] == "addon_taken"


@pytest.mark.django_db
def test_set_chips_and_refuse_zero(clock, director):
    tournament = seated_tournament(players=4)
    entry = Entry.objects.filter(tournament=tournament).first()

    counted = director.put(f"/api/entries/{entry.pk}/chips/", {"chips": 12345}, format="json")
    zero = director.put(f"/api/entries/{entry.pk}/chips/", {"chips": 0}, format="json")

    assert counted.json()["chips"] == 12345
    assert zero.status_code == 400
    assert zero.json()["code"] == "bad_chips"


@pytest.mark.django_db
def test_entry_list_filters_by_status_name_and_table(clock, director):
    tournament = seated_tournament(players=12)
    out = Entry.objects.filter(tournament=tournament, player__name="Player 03").get()
    _bust(director, tournament, out)
    url = f"/api/tournaments/{tournament.pk}/entries/"

    everyone = director.get(url).json()
    busted = director.get(url, {"status": "busted"}).json()
    named = director.get(url, {"q": "layer 1"}).json()
    table = director.get(url, {"table": 1}).json()

    assert [e["player_name"] for e in everyone] == [f"Player {n:02}" for n in range(12)]
    assert [e["player_name"] for e in busted] == ["Player 03"]
    assert busted[0]["finishing_place"] == 12
    assert [e["player_name"] for e in named] == ["Player 10", "Player 11"]
    assert {e["table"] for e in table} == {1}
    assert director.get(url, {"status": "gone"}).json()["code"] == "invalid"


@pytest.mark.django_db
def test_finished_tournament_refuses_registration(clock, director):
    tournament = TournamentFactory(status=Tournament.Status.FINISHED)

    response = _register(director, tournament, "Ann")

    assert response.status_code == 409
    assert response.json()["code"] == "registration_closed"
