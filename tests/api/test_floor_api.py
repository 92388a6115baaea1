"""The desk at scale through the API: a manual seat move, seat locks, a table added and closed;
status codes and error codes, and who may call them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from config import request_time
from tests.factories import DealerFactory, make, seated_tournament
from tournaments.models import AuditEvent, Entry, Table, Tournament

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(request_time, "now", lambda: T0)


def seats(tournament: Tournament, number: int) -> dict[int, Entry]:
    return {
        e.seat: e
        for e in Entry.objects.filter(tournament=tournament, table__number=number, status="active")
        if e.seat is not None
    }


def free_seat(tournament: Tournament, number: int) -> int:
    table = Table.objects.get(tournament=tournament, number=number)
    taken = set(seats(tournament, number)) | set(table.locked_seats)
    return next(s for s in range(1, table.seat_count + 1) if s not in taken)


def table_id(tournament: Tournament, number: int) -> int:
    return Table.objects.get(tournament=tournament, number=number).pk


@pytest.mark.django_db
def test_a_move_by_table_id_or_number_answers_the_entry(director: APIClient) -> None:
    tournament = seated_tournament(players=12)
    entry = next(iter(seats(tournament, 1).values()))
    came_from, seat = entry.seat, free_seat(tournament, 2)

    response = director.post(
        f"/api/entries/{entry.pk}/move/", {"table": table_id(tournament, 2), "seat": seat}
    )
    back = director.post(f"/api/entries/{entry.pk}/move/", {"table_number": 1, "seat": came_from})

    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["table"], body["seat"], body["moves_to"]) == (2, seat, None)
    assert back.status_code == 200
    assert (back.json()["table"], back.json()["seat"]) == (1, came_from)
    assert AuditEvent.objects.filter(tournament=tournament, action="seat_move").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"seat": 3}, 400, "invalid"),
        ({"table_number": 2, "seat": 0}, 400, "invalid"),
        ({"table_number": 2, "seat": 11}, 400, "invalid"),
        ({"table_number": 7, "seat": 1}, 404, "not_found"),
        ({"table_number": 2, "seat": 10}, 400, "no_such_seat"),
        ({"table_number": 2, "seat": "taken"}, 409, "seat_taken"),
        ({"table_number": 2, "seat": "locked"}, 409, "seat_locked"),
    ],
)
def test_a_refused_move_says_why(
    director: APIClient, body: dict[str, Any], status: int, code: str
) -> None:
    tournament = seated_tournament(players=12)
    entry = next(iter(seats(tournament, 1).values()))
    if body["seat"] == "taken":
        body["seat"] = next(iter(seats(tournament, 2)))
    elif body["seat"] == "locked":
        body["seat"] = free_seat(tournament, 2)
        locked = director.post(
            f"/api/tables/{table_id(tournament, 2)}/seat-locks/",
            {"seat": body["seat"], "locked": True},
        )
        assert locked.status_code == 200

    response = director.post(f"/api/entries/{entry.pk}/move/", body, format="json")

    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    entry.refresh_from_db()
    assert entry.table is not None
    assert entry.table.number == 1


@pytest.mark.django_db
def test_a_move_to_another_tournaments_table_is_400(director: APIClient) -> None:
    tournament = seated_tournament(players=6)
    other = seated_tournament(players=4, name="Other")
    entry = next(iter(seats(tournament, 1).values()))

    response = director.post(
        f"/api/entries/{entry.pk}/move/", {"table": table_id(other, 1), "seat": 9}
    )

    assert response.status_code == 400
    assert response.json()["code"] == "other_tournament"


@pytest.mark.django_db
def test_seat_locks_lock_unlock_and_refuse_an_occupied_seat(director: APIClient) -> None:
    tournament = seated_tournament(players=12)
    url = f"/api/tables/{table_id(tournament, 1)}/seat-locks/"
    seat = free_seat(tournament, 1)

    locked = director.post(url, {"seat": seat, "locked": True}, format="json")
    taken = director.post(
        url, {"seat": next(iter(seats(tournament, 1))), "locked": True}, format="json"
    )
    unlocked = director.post(url, {"seat": seat, "locked": False}, format="json")
    no_seat = director.post(url, {"seat": 10, "locked": True}, format="json")

    assert locked.status_code == 200
    assert locked.json()["locked_seats"] == [seat]
    assert taken.status_code == 409
    assert taken.json()["code"] == "seat_taken"
    assert unlocked.json()["locked_seats"] == []
    assert no_seat.status_code == 400
    assert no_seat.json()["code"] == "no_such_seat"
    tables = director.get(f"/api/tournaments/{tournament.pk}/tables/").json()
    assert tables[0]["locked_seats"] == []
    assert all(s["locked"] is False for s in tables[0]["seats"])


@pytest.mark.django_db
def test_adding_a_table_answers_201_and_a_taken_number_409(director: APIClient) -> None:
    tournament = seated_tournament(players=12)
    url = f"/api/tournaments/{tournament.pk}/tables/"

    added = director.post(url, {}, format="json")
    sized = director.post(url, {"number": 12, "seat_count": 6}, format="json")
    taken = director.post(url, {"number": 1}, format="json")
    too_big = director.post(url, {"seat_count": 11}, format="json")

    assert added.status_code == 201
    assert (added.json()["number"], added.json()["seat_count"]) == (3, 9)
    assert (sized.json()["number"], sized.json()["seat_count"]) == (12, 6)
    assert taken.status_code == 409
    assert taken.json()["code"] == "table_number_taken"
    assert too_big.status_code == 400


@pytest.mark.django_db
def test_closing_a_table_answers_the_moves(director: APIClient) -> None:
    tournament = seated_tournament(players=12)  # 6 and 6
    director.post(f"/api/tournaments/{tournament.pk}/tables/", {}, format="json")
    director.post(f"/api/tournaments/{tournament.pk}/balancing/confirm/")  # 4, 4, 4

    response = director.post(f"/api/tables/{table_id(tournament, 3)}/close/")
    again = director.post(f"/api/tables/{table_id(tournament, 3)}/close/")

    assert response.status_code == 200, response.json()
    plan = response.json()
    assert plan["broken_tables"] == [3]
    assert len(plan["moves"]) == 4
    assert all(m["reason"] == "break" and m["player_name"] for m in plan["moves"])
    assert again.status_code == 409
    assert again.json()["code"] == "table_broken"


@pytest.mark.django_db
def test_closing_with_nowhere_to_go_is_409(director: APIClient) -> None:
    tournament = seated_tournament(players=18)  # two full tables

    response = director.post(f"/api/tables/{table_id(tournament, 2)}/close/")

    assert response.status_code == 409
    assert response.json()["code"] == "no_open_seat"
    assert not Table.objects.get(pk=table_id(tournament, 2)).is_broken


@pytest.mark.django_db
def test_only_a_director_may_move_lock_add_or_close(client: Any) -> None:
    tournament = seated_tournament(players=12)
    dealer = APIClient()
    dealer.force_login(make(DealerFactory))
    entry = next(iter(seats(tournament, 1).values()))
    table = table_id(tournament, 1)

    answers = [
        dealer.post(f"/api/entries/{entry.pk}/move/", {"table_number": 2, "seat": 1}),
        dealer.post(f"/api/tables/{table}/seat-locks/", {"seat": 1, "locked": True}),
        dealer.post(f"/api/tournaments/{tournament.pk}/tables/", {}),
        dealer.post(f"/api/tables/{table}/close/"),
        APIClient().post(f"/api/tables/{table}/close/"),
    ]

    assert [a.status_code for a in answers] == [403] * 5
    assert dealer.get(f"/api/tournaments/{tournament.pk}/tables/").status_code == 200


@pytest.mark.django_db
def test_a_cash_table_has_no_seat_locks_here(director: APIClient) -> None:
    cash = Table.objects.create(number=77, big_blind=2, small_blind=1, max_buy_in=200)

    response = director.post(f"/api/tables/{cash.pk}/seat-locks/", {"seat": 1, "locked": True})
    missing = director.post("/api/tables/999999/close/")

    assert response.status_code == 400
    assert response.json()["code"] == "cash_table"
    assert missing.status_code == 404
