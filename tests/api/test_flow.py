"""A director's whole tournament through the API, from the schedule to the results export."""

import csv
import io
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from config import request_time
from tests.factories import level_rows

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


@pytest.mark.django_db
def test_director_runs_a_tournament_from_schedule_to_results(director, clock):
    schedule = _ok(
        director.post(
            "/api/schedules/",
            {"name": "Deepstack", "levels": level_rows()},
            format="json",
        ),
        201,
    )
    assert len(schedule["levels"]) == 5

    tournament = _ok(
        director.post(
            "/api/tournaments/",
            {
                "schedule": schedule["id"],
                "name": "Sunday 100",
                "buy_in": "100.00",
                "fee": "10.00",
                "starting_stack": 20000,
                "seats_per_table": 9,
                "payout_percentages": [50, 30, 20],
            },
            format="json",
        ),
        201,
    )
    pk = tournament["id"]
    assert tournament["status"] == "planned"
    assert [lv["big_blind"] for lv in tournament["levels"]] == [200, 400, 0, 600, 800]
    assert _ok(director.post(f"/api/tournaments/{pk}/open-registration/"))["status"] == (
        "registering"
    )

    for n in range(20):
        entry = _ok(
            director.post(
                f"/api/tournaments/{pk}/entries/", {"player_name": f"Player {n:02}"}, format="json"
            ),
            201,
        )
        assert entry["chips"] == 20000
        assert entry["table"] is None

    tables = _ok(director.post(f"/api/tournaments/{pk}/seat-draw/"), 201)
    assert sorted(t["players"] for t in tables) == [6, 7, 7]
    assert all(t["button_draw"]["winner_seat"] == t["button_seat"] for t in tables)

    running = _ok(director.post(f"/api/tournaments/{pk}/clock/start/"))
    assert running["status"] == "running"
    assert running["label"] == "Level 1"
    assert running["ends_at"] == "2025-06-01T18:20:00Z"

    # Five players out of one of the tables with 7: the tables are now 2, 6 and 7 players.
    clock["now"] = T0 + timedelta(minutes=5)
    table = next(t for t in tables if t["players"] == 7)
    out = [seat for seat in table["seats"] if seat["entry_id"]][:5]
    busted = _ok(
        director.post(
            f"/api/tournaments/{pk}/busts/",
            [
                {"entry_id": seat["entry_id"], "starting_stack": 20000 - i}
                for i, seat in enumerate(out)
            ],
            format="json",
        )
    )
    assert sorted(e["finishing_place"] for e in busted) == [16, 17, 18, 19, 20]

    plan = _ok(director.get(f"/api/tournaments/{pk}/balancing/"))
    assert plan["moves"] or plan["broken_tables"]
    confirmed = _ok(director.post(f"/api/tournaments/{pk}/balancing/confirm/"))
    assert confirmed["lines"] == plan["lines"]
    assert _ok(director.get(f"/api/tournaments/{pk}/balancing/"))["is_empty"] is True
    counts = sorted(
        t["players"]
        for t in _ok(director.get(f"/api/tournaments/{pk}/tables/"))
        if not t["is_broken"]
    )
    assert max(counts) - min(counts) <= 1
    assert sum(counts) == 15

    standings = _ok(director.get(f"/api/tournaments/{pk}/standings/"))
    assert standings["players_left"] == 15
    assert standings["entries"] == 20
    assert standings["prize_pool"] == "2000.00"
    assert len(standings["rows"]) == 15

    payouts = _ok(director.get(f"/api/tournaments/{pk}/payouts/"))
    assert [p["prize"] for p in payouts["places"]] == ["1000.00", "600.00", "400.00"]

    export = director.get(f"/api/tournaments/{pk}/results.csv")
    assert export.status_code == 200
    assert export["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(export.content.decode())))
    assert rows[0] == ["place", "name", "entry_number", "prize"]
    # The players still in first (no place yet), then everyone out by place.
    assert [row[0] for row in rows[1:]] == [""] * 15 + ["16", "17", "18", "19", "20"]
    assert all(row[2] == "1" and row[3] == "" for row in rows[1:])
    assert Decimal(payouts["prize_pool"]) == Decimal("2000")

    # Play down to a winner, one player out at a time, balancing as the plan asks.
    while standings["players_left"] > 1:
        clock["now"] += timedelta(minutes=1)
        last = standings["rows"][-1]
        _ok(
            director.post(
                f"/api/tournaments/{pk}/busts/",
                [{"entry_id": last["entry_id"], "starting_stack": last["chips"]}],
                format="json",
            )
        )
        if not _ok(director.get(f"/api/tournaments/{pk}/balancing/"))["is_empty"]:
            _ok(director.post(f"/api/tournaments/{pk}/balancing/confirm/"))
        standings = _ok(director.get(f"/api/tournaments/{pk}/standings/"))
    final = [t for t in _ok(director.get(f"/api/tournaments/{pk}/tables/")) if not t["is_broken"]]
    assert len(final) == 1

    finished = _ok(director.post(f"/api/tournaments/{pk}/finish/"))
    assert finished["status"] == "finished"
    assert _ok(director.get(f"/api/tournaments/{pk}/clock/"))["tournament_status"] == "finished"
    rows = list(csv.reader(io.StringIO(director.get(f"/api/tournaments/{pk}/results.csv").text)))
    assert [row[0] for row in rows[1:]] == [str(place) for place in range(1, 21)]
    assert [row[3] for row in rows[1:4]] == ["1000.00", "600.00", "400.00"]
    assert rows[1][1] == standings["rows"][0]["name"]
