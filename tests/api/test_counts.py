"""A table's count sheet through the API (`POST /api/tables/{table}/counts/`): the desk's count
sheet twin, through the same service (`table_record_counts`): every count into the ledger with
the occasion, or nothing when a row is refused."""

import json
from datetime import UTC, datetime

import pytest
from rest_framework.test import APIClient

from config import request_time
from dealer.services import hand_start
from tests.api.test_robustness import JUNK_JSON, JUNK_LISTS, JUNK_OBJECTS
from tests.factories import DealerFactory, seated_tournament
from tournaments.models import AuditEvent, ChipMove, Entry, Table
from tournaments.selectors.books import chips_check
from tournaments.services.counts import ChipCount, CountsRefusedError, table_record_counts

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


def table_one(players: int = 6) -> tuple[Table, list[Entry]]:
    tournament = seated_tournament(players=players)
    table = Table.objects.get(tournament=tournament, number=1)
    return table, list(Entry.objects.filter(table=table).select_related("player").order_by("seat"))


def post_counts(client: APIClient, table: Table, body: object):
    return client.post(f"/api/tables/{table.pk}/counts/", body, format="json")


@pytest.mark.django_db
def test_counts_are_recorded_in_the_ledger_with_the_occasion(director):
    table, seated = table_one()
    first, second = seated[:2]

    response = post_counts(
        director,
        table,
        {
            "note": "end of day 1",
            "counts": [
                {"entry_id": first.pk, "chips": 13000},
                {"entry_id": second.pk, "chips": 7000},
            ],
        },
    )

    assert response.status_code == 200, response.json()
    assert [(e["id"], e["chips"]) for e in response.json()] == [
        (first.pk, 13000),
        (second.pk, 7000),
    ]
    rows = ChipMove.objects.filter(kind="count").order_by("pk")
    assert [(r.entry_id, r.delta, r.note, r.created_at) for r in rows] == [
        (first.pk, 3000, "end of day 1", T0),
        (second.pk, -3000, "end of day 1", T0),
    ]
    first.refresh_from_db()
    assert first.chips_source == "counted (end of day 1)"
    assert AuditEvent.objects.filter(action="table_counts").count() == 1
    assert chips_check(table.tournament) == []


@pytest.mark.django_db
def test_a_colour_up_is_recorded_as_chips_removed(director):
    table, seated = table_one()

    response = post_counts(
        director,
        table,
        {"kind": "colour_up", "note": "25s", "counts": [{"entry_id": seated[0].pk, "chips": 9950}]},
    )

    assert response.status_code == 200
    assert ChipMove.objects.get(kind="colour_up").delta == -50
    assert chips_check(table.tournament) == []


@pytest.mark.django_db
def test_a_player_in_a_hand_is_409_in_hand_and_nothing_is_written(director):
    table, seated = table_one()
    hand = hand_start(table=table, now=T0)
    dealt = {row["entry"] for row in hand.seats}
    in_hand = next(e for e in seated if e.pk in dealt)
    counts = [{"entry_id": e.pk, "chips": 10500} for e in seated[:2]]

    response = post_counts(director, table, {"counts": counts})

    assert response.status_code == 409
    assert response.json()["code"] == "in_hand"
    assert (
        f"{in_hand.player.name} is in hand 1 at table 1: record the count when it ends."
        in response.json()["detail"]
    )
    assert not ChipMove.objects.filter(kind="count").exists()


@pytest.mark.django_db
def test_a_count_below_one_chip_is_400_bad_chips_and_nothing_is_written(director):
    table, seated = table_one()
    counts = [{"entry_id": seated[0].pk, "chips": 12000}, {"entry_id": seated[1].pk, "chips": 0}]

    response = post_counts(director, table, {"counts": counts})

    assert (response.status_code, response.json()["code"]) == (400, "bad_chips")
    assert response.json()["detail"] == (
        f"{seated[1].player.name}: A playing entry has at least one chip: record a bust instead."
    )
    assert not ChipMove.objects.filter(kind="count").exists()


@pytest.mark.django_db
def test_a_player_from_another_table_is_409_not_at_table(director):
    table, _ = table_one(players=12)
    elsewhere = Entry.objects.filter(tournament=table.tournament, table__number=2).first()
    assert elsewhere is not None

    response = post_counts(director, table, {"counts": [{"entry_id": elsewhere.pk, "chips": 1}]})

    assert (response.status_code, response.json()["code"]) == (409, "not_at_table")
    assert response.json()["detail"] == (
        f"{elsewhere.player.name} is not playing at Table 1: count them there."
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"counts": []}, "invalid"),
        ({"kind": "bust", "counts": [{"entry_id": 1, "chips": 5}]}, "invalid"),
        ({"counts": [{"entry_id": 1, "chips": 2**31}]}, "invalid"),
        ({"counts": [{"entry_id": 1, "chips": 5}] * 11}, "invalid"),
    ],
)
def test_bad_input_is_400(director, body, code):
    table, _ = table_one()

    response = post_counts(director, table, body)

    assert (response.status_code, response.json()["code"]) == (400, code)


@pytest.mark.django_db
def test_the_same_player_twice_is_400_bad_counts(director):
    table, seated = table_one()
    row = {"entry_id": seated[0].pk, "chips": 500}

    response = post_counts(director, table, {"counts": [row, row]})

    assert (response.status_code, response.json()["code"]) == (400, "bad_counts")


@pytest.mark.django_db
def test_a_cash_table_or_no_table_is_404(director):
    cash = Table.objects.create(number=90, small_blind=1, big_blind=2, max_buy_in=200)

    assert post_counts(director, cash, {"counts": [{"entry_id": 1, "chips": 5}]}).status_code == 404
    assert (
        director.post("/api/tables/999999/counts/", {"counts": []}, format="json").status_code
        == 404
    )


@pytest.mark.django_db
def test_a_dealer_may_not_record_counts():
    table, seated = table_one()
    client = APIClient()
    client.force_login(DealerFactory())

    response = post_counts(client, table, {"counts": [{"entry_id": seated[0].pk, "chips": 5}]})

    assert (response.status_code, response.json()["code"]) == (403, "permission_denied")


@pytest.mark.django_db
def test_junk_is_answered_without_a_server_error(director):
    table, _ = table_one()
    url = f"/api/tables/{table.pk}/counts/"
    for raw in JUNK_JSON:
        assert director.post(url, raw, content_type="application/json").status_code < 500
    for body in [*JUNK_OBJECTS, *JUNK_LISTS]:
        response = director.post(url, json.dumps(body), content_type="application/json")
        assert response.status_code < 500, body


@pytest.mark.django_db
def test_the_service_names_every_refused_row():
    table, seated = table_one()
    hand_start(table=table, now=T0)

    with pytest.raises(CountsRefusedError) as refused:
        table_record_counts(
            table=table, counts=[ChipCount(entry_id=e.pk, chips=9000) for e in seated[:3]]
        )

    assert set(refused.value.rows) == {e.pk for e in seated[:3]}
    assert all(error.code == "in_hand" for error in refused.value.rows.values())
