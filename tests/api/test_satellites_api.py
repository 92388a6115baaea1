"""A satellite through the API (issue 14's worked example): 23 entries at 110 make a pool of
2,530; at a seat value of 440 it buys 5 seats, and 330 goes to 6th. From the schedule and
registration to the five winners registered in the target, each entry paid with its seat."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from config import request_time
from tests.factories import PlayerFactory, TournamentFactory, level_rows, make
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(request_time, "now", lambda: T0)


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.content
    return response.json()


def refused(response: Any, status: int, code: str) -> str:
    assert (response.status_code, response.json()["code"]) == (status, code), response.content
    return str(response.json()["detail"])


def create(director: APIClient, schedule: int, **settings: Any) -> dict[str, Any]:
    body = {"schedule": schedule, "starting_stack": 10000, **settings}
    return ok(director.post("/api/tournaments/", body, format="json"), 201)


def test_a_satellite_pays_five_seats_and_the_remainder_from_registration_to_the_target(
    director: APIClient,
) -> None:
    schedule = ok(
        director.post("/api/schedules/", {"name": "Sat", "levels": level_rows()}, format="json"),
        201,
    )["id"]
    main = create(director, schedule, name="Main Event", buy_in="400", fee="40")
    sat = create(
        director,
        schedule,
        name="Mega Satellite",
        buy_in="110",
        satellite_target=main["id"],
        seat_value="440",
    )
    assert (sat["satellite_target"], sat["seat_value"]) == (main["id"], "440.00")
    pk = sat["id"]
    for event in (main["id"], pk):
        ok(director.post(f"/api/tournaments/{event}/open-registration/"))
    for n in range(23):
        body = {"player_name": f"Qualifier {n:02}"}
        ok(director.post(f"/api/tournaments/{pk}/entries/", body, format="json"), 201)
    ok(director.post(f"/api/tournaments/{pk}/seat-draw/"), 201)
    ok(director.post(f"/api/tournaments/{pk}/clock/start/"))

    payouts = ok(director.get(f"/api/tournaments/{pk}/payouts/"))
    assert payouts["prize_pool"] == "2530.00"
    assert [p["prize"] for p in payouts["places"]] == ["440.00"] * 5 + ["330.00"]
    early = director.post(f"/api/tournaments/{pk}/satellite/register-winners/")
    assert "23 are still playing" in refused(early, 409, "seats_not_won")

    # One player out per hand until five are left: the sixth out takes the 330.
    while len(left := Entry.objects.filter(tournament_id=pk, status="active")) > 5:
        entry = left.order_by("pk").first()
        assert entry is not None
        out = [{"entry_id": entry.pk, "starting_stack": entry.chips}]
        ok(director.post(f"/api/tournaments/{pk}/busts/", out, format="json"))
    sixth = Entry.objects.get(tournament_id=pk, finishing_place=6)
    assert str(sixth.prize) == "330.00"
    last = Entry.objects.filter(tournament_id=pk, status="active").order_by("pk").first()
    assert last is not None
    more = [{"entry_id": last.pk, "starting_stack": last.chips}]
    too_many = director.post(f"/api/tournaments/{pk}/busts/", more, format="json")
    refused(too_many, 409, "satellite_over")

    view = ok(director.get(f"/api/tournaments/{pk}/satellite/"))
    assert (view["seats"], view["remainder"], view["remainder_place"]) == (5, "330.00", 6)
    assert (view["over"], view["registered"]) == (True, False)
    assert [w["place"] for w in view["winners"]] == [1, 2, 3, 4, 5]
    assert {w["state"] for w in view["winners"]} == {"waiting"}

    done = ok(director.post(f"/api/tournaments/{pk}/satellite/register-winners/"))
    assert len(done["registered"]) == 5
    assert done["satellite"]["registered"] is True
    winners = {w["entry_id"]: w["name"] for w in view["winners"]}
    assert {e["ticket_from"]: e["player_name"] for e in done["registered"]} == winners

    again = ok(director.post(f"/api/tournaments/{pk}/satellite/register-winners/"))
    assert (again["registered"], again["skipped"]) == ([], [])
    entries = ok(director.get(f"/api/tournaments/{main['id']}/entries/"))
    assert sorted(e["player_name"] for e in entries) == sorted(winners.values())
    ok(director.post(f"/api/tournaments/{pk}/finish/"))


def test_the_satellite_endpoints_are_for_directors(director: APIClient) -> None:
    sat = make(TournamentFactory, satellite_target=make(TournamentFactory), seat_value=440)
    public = APIClient()

    assert public.get(f"/api/tournaments/{sat.pk}/satellite/").status_code == 403
    post = public.post(f"/api/tournaments/{sat.pk}/satellite/register-winners/")
    assert post.status_code == 403
    assert director.get("/api/tournaments/999999/satellite/").status_code == 404


def test_an_event_with_no_target_is_not_a_satellite(director: APIClient) -> None:
    plain = make(TournamentFactory)

    view = director.get(f"/api/tournaments/{plain.pk}/satellite/")
    detail = refused(view, 409, "not_a_satellite")
    assert "choose its target event" in detail
    post = director.post(f"/api/tournaments/{plain.pk}/satellite/register-winners/")
    refused(post, 409, "not_a_satellite")


def test_a_bad_target_is_a_400_with_its_code(director: APIClient) -> None:
    sat = make(TournamentFactory)
    done = make(TournamentFactory, status=Tournament.Status.FINISHED, name="Last Week")
    url = f"/api/tournaments/{sat.pk}/"

    itself = director.patch(url, {"satellite_target": sat.pk}, format="json")
    finished = director.patch(url, {"satellite_target": done.pk}, format="json")
    missing = director.patch(url, {"satellite_target": 999999}, format="json")

    refused(itself, 400, "bad_satellite_target")
    assert "Last Week is finished" in refused(finished, 400, "bad_satellite_target")
    assert missing.status_code == 400


def test_a_closed_target_refuses_the_winners_with_409(director: APIClient) -> None:
    target = make(TournamentFactory, name="Main Event", status=Tournament.Status.PLANNED)
    sat = make(TournamentFactory, satellite_target=target, seat_value=100, buy_in=100)
    for n in range(2):
        winner = make(PlayerFactory, name=f"Winner {n}")
        Entry.objects.create(tournament=sat, player=winner, finishing_place=n + 1, prize=100)

    response = director.post(f"/api/tournaments/{sat.pk}/satellite/register-winners/")

    assert "Registration for Main Event is closed" in refused(response, 409, "registration_closed")
    assert not Entry.objects.filter(tournament=target).exists()
