"""Multi-flight events through the API (issue 14): the two-flight worked example from the
schedule to Day 2's winner and the event's results, and the refusals with their codes."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from config import request_time
from dealer.services import hand_start
from tests.factories import level_rows
from tournaments.models import Table, Tournament

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch):
    """The API's `now`, moved by hand."""
    moment = {"now": T0}
    monkeypatch.setattr(request_time, "now", lambda: moment["now"])
    return moment


def _ok(response, status=200):
    assert response.status_code == status, response.content
    return response.json() if response.content else None


def _refused(response, status, code):
    assert (response.status_code, response.json()["code"]) == (status, code), response.content
    return response.json()["detail"]


def create_event(director, **settings):
    schedule = _ok(
        director.post(
            "/api/schedules/", {"name": "Flights", "levels": level_rows()}, format="json"
        ),
        201,
    )
    body = {
        "schedule": schedule["id"],
        "name": "Main Event",
        "buy_in": "100",
        "fee": "10",
        "starting_stack": 10000,
        "payout_percentages": [50, 30, 20],
        "max_entries_per_player": 2,
        "flights": ["A", "B"],
    } | settings
    return _ok(director.post("/api/events/", body, format="json"), 201)


def phase_id(event, label):
    return next(p["id"] for p in event["phases"] if p["phase"] == label)


def start_flight(director, pk, names):
    _ok(director.post(f"/api/tournaments/{pk}/open-registration/"))
    entries = {
        name: _ok(
            director.post(f"/api/tournaments/{pk}/entries/", {"player_name": name}, format="json"),
            201,
        )
        for name in names
    }
    _ok(director.post(f"/api/tournaments/{pk}/seat-draw/"), 201)
    _ok(director.post(f"/api/tournaments/{pk}/clock/start/"))
    return entries


def bust(director, pk, entry):
    body = [{"entry_id": entry["id"], "starting_stack": entry["chips"]}]
    _ok(director.post(f"/api/tournaments/{pk}/busts/", body, format="json"))


CONFIRM = {"confirm": True}  # bag with tables never counted (issue 26)


@pytest.mark.django_db
def test_two_flight_event_through_the_api_to_a_winner_on_day_2(director, clock):
    event = create_event(director)
    assert [(p["phase"], p["kind"], p["status"]) for p in event["phases"]] == [
        ("Day 1A", "flight", "planned"),
        ("Day 1B", "flight", "planned"),
        ("Day 2", "day", "planned"),
    ]
    day1a, day1b, day2 = (phase_id(event, label) for label in ("Day 1A", "Day 1B", "Day 2"))

    a = start_flight(director, day1a, ["Ann", "Bob", "Cy", "Dee", "Eve"])
    clock["now"] += timedelta(minutes=10)
    bust(director, day1a, a["Cy"])
    clock["now"] += timedelta(minutes=10)
    bust(director, day1a, a["Dee"])
    _ok(
        director.put(
            f"/api/entries/{a['Ann']['id']}/chips/",
            {"chips": 12000, "note": "end of day 1A"},
            format="json",
        )
    )
    bags = _ok(director.post(f"/api/tournaments/{day1a}/bag/", CONFIRM, format="json"))
    assert (bags["status"], bags["players"], bags["chips"]) == ("finished", 3, 32000)
    assert {b["name"]: (b["chips"], b["state"]) for b in bags["bags"]} == {
        "Ann": (12000, "bagged"),
        "Bob": (10000, "bagged"),
        "Eve": (10000, "bagged"),
    }

    clock["now"] += timedelta(days=1)
    b = start_flight(director, day1b, ["Cy", "Ann", "Fay", "Gus", "Hal"])
    assert b["Cy"]["number"] == 1  # a new player in 1B, though out of 1A
    clock["now"] += timedelta(minutes=10)
    bust(director, day1b, b["Fay"])
    clock["now"] += timedelta(minutes=10)
    bust(director, day1b, b["Hal"])
    _ok(
        director.put(
            f"/api/entries/{b['Ann']['id']}/chips/",
            {"chips": 25000, "note": "end of day 1B"},
            format="json",
        )
    )
    _refused(director.post(f"/api/tournaments/{day2}/day-draw/"), 409, "flights_running")
    _ok(director.post(f"/api/tournaments/{day1b}/bag/", CONFIRM, format="json"))

    clock["now"] += timedelta(days=1)
    drawn = _ok(director.post(f"/api/tournaments/{day2}/day-draw/"))
    row = next(p for p in drawn["phases"] if p["phase"] == "Day 2")
    assert (row["entries"], row["players_left"], row["chips_in_play"]) == (5, 5, 65000)
    assert (drawn["entries"], drawn["players"], drawn["prize_pool"]) == (10, 8, "1000.00")
    assert drawn["prizes"] == ["500.00", "300.00", "200.00"]
    forfeited = _ok(director.get(f"/api/tournaments/{day1a}/bag/"))
    assert {b["name"]: b["state"] for b in forfeited["bags"]} == {
        "Ann": "forfeited",
        "Bob": "carried",
        "Eve": "carried",
    }

    _ok(director.post(f"/api/tournaments/{day2}/clock/start/"))
    seated = {e["player_name"]: e for e in _ok(director.get(f"/api/tournaments/{day2}/entries/"))}
    assert seated["Ann"]["chips"] == 25000
    for name in ("Gus", "Eve", "Cy", "Bob"):
        clock["now"] += timedelta(minutes=5)
        bust(director, day2, seated[name])
    _ok(director.post(f"/api/tournaments/{day2}/finish/"))

    results = _ok(APIClient().get(f"/api/events/{event['id']}/results/"))
    assert [(r["place"], r["name"], r["phase"], r["prize"]) for r in results] == [
        (1, "Ann", "Day 2", "500.00"),
        (2, "Bob", "Day 2", "300.00"),
        (3, "Cy", "Day 2", "200.00"),
        (4, "Eve", "Day 2", None),
        (5, "Gus", "Day 2", None),
        (6, "Hal", "Day 1B", None),
        (7, "Fay", "Day 1B", None),
        (8, "Dee", "Day 1A", None),
    ]
    assert sum(Decimal(r["prize"] or 0) for r in results) == Decimal("1000")
    summary = _ok(APIClient().get(f"/api/events/{event['id']}/"))
    assert summary["status"] == "finished"
    flight_payouts = _ok(APIClient().get(f"/api/tournaments/{day1a}/payouts/"))
    day2_payouts = _ok(APIClient().get(f"/api/tournaments/{day2}/payouts/"))
    assert (flight_payouts["prize_pool"], flight_payouts["places"]) == ("0.00", [])
    assert day2_payouts["prize_pool"] == "1000.00"
    assert [(p["place"], p["players"][0]["name"]) for p in day2_payouts["places"]] == [
        (1, "Ann"),
        (2, "Bob"),
        (3, "Cy"),
    ]


@pytest.mark.django_db
def test_entering_a_flight_after_surviving_one_is_409_when_the_event_forbids_it(director, clock):
    event = create_event(director, reentry_across_flights=False)
    day1a, day1b = phase_id(event, "Day 1A"), phase_id(event, "Day 1B")
    start_flight(director, day1a, ["Ann", "Bob"])
    _ok(director.post(f"/api/tournaments/{day1a}/bag/", CONFIRM, format="json"))
    _ok(director.post(f"/api/tournaments/{day1b}/open-registration/"))

    detail = _refused(
        director.post(f"/api/tournaments/{day1b}/entries/", {"player_name": "Ann"}, format="json"),
        409,
        "survived_flight",
    )
    assert "Ann survived Day 1A with 10,000 chips" in detail


@pytest.mark.django_db
def test_bagging_with_a_hand_in_progress_is_409_and_changes_nothing(director, clock):
    event = create_event(director)
    day1a = phase_id(event, "Day 1A")
    start_flight(director, day1a, ["Ann", "Bob", "Cy"])
    hand_start(table=Table.objects.get(tournament_id=day1a, number=1), now=T0)

    _refused(director.post(f"/api/tournaments/{day1a}/bag/"), 409, "hands_in_progress")

    assert Tournament.objects.get(pk=day1a).status == Tournament.Status.RUNNING


@pytest.mark.django_db
def test_flights_and_days_are_added_and_refused_with_codes(director, clock):
    event = create_event(director)

    added = _ok(
        director.post(f"/api/events/{event['id']}/flights/", {"flight": "c"}, format="json"), 201
    )
    day3 = _ok(director.post(f"/api/events/{event['id']}/days/"), 201)
    again = director.post(f"/api/events/{event['id']}/flights/", {"flight": "C"}, format="json")
    last = director.post(f"/api/tournaments/{day3['id']}/bag/")

    assert (added["phase"], added["status"]) == ("Day 1C", "planned")
    assert (day3["phase"], day3["kind"]) == ("Day 3", "day")
    _refused(again, 409, "flight_exists")
    _refused(last, 409, "no_next_day")


@pytest.mark.django_db
def test_event_create_refuses_bad_flights_and_the_public_sees_no_planned_event(director, clock):
    schedule = _ok(
        director.post("/api/schedules/", {"name": "S", "levels": level_rows()}, format="json"), 201
    )
    body = {"schedule": schedule["id"], "name": "Main", "flights": ["A", "a"]}

    _refused(director.post("/api/events/", body, format="json"), 400, "bad_flights")
    event = create_event(director)
    assert APIClient().get(f"/api/events/{event['id']}/").status_code == 404
    assert APIClient().post("/api/events/", body, format="json").status_code == 403
    day1a = phase_id(event, "Day 1A")
    _ok(director.post(f"/api/tournaments/{day1a}/open-registration/"))
    public = _ok(APIClient().get(f"/api/events/{event['id']}/"))
    assert public["status"] == "registering"
    entry = director.post(
        f"/api/tournaments/{event['id']}/entries/", {"player_name": "Ann"}, format="json"
    )
    assert entry.status_code == 409  # the event itself is planned: registration closed
