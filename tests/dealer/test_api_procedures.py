"""Dealer-error procedures through the API: the preview changes nothing, carrying one out is an
event of the hand and a line in the floor's log (resent: answered once), the log for directors
as JSON pages and CSV."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest
from rest_framework.test import APIClient

from config import request_time
from dealer.models import Hand, HandEvent, ProcedureLog
from tests.factories import HandClient, assign_dealer, seated_tournament
from tournaments.models import Table

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


@pytest.fixture
def table():
    return Table.objects.get(tournament=seated_tournament(players=4), number=1)


@pytest.fixture
def tablet(table):
    client = APIClient()
    client.force_login(assign_dealer(table))
    response = client.post(f"/api/tables/{table.pk}/hands/", {"client_id": "s"}, format="json")
    assert response.status_code == 201
    return HandClient(client, response.json())


def run(tablet, trigger, client_id="p-1", **body):
    body = {"client_id": client_id, "version": tablet.state["version"], "trigger": trigger, **body}
    return tablet.write("procedures/", body)


def test_preview_reads_the_steps_and_changes_nothing(tablet):
    response = tablet.client.get(
        tablet.url + "procedures/preview/", {"trigger": "first_hole_card_exposed"}
    )
    assert response.status_code == 200
    remedy = response.json()
    assert remedy["trigger"] == "first_hole_card_exposed"
    assert remedy["effect"] == "void_hand"
    assert remedy["title"].startswith("Misdeal")
    assert remedy["steps"]
    assert remedy["rule"] == "S4"
    assert "early_exposed_misdeal=first" in remedy["option"]
    assert Hand.objects.get(pk=tablet.state["hand"]).version == 0
    unknown = tablet.client.get(tablet.url + "procedures/preview/", {"trigger": "spilled_drink"})
    assert (unknown.status_code, unknown.json()["code"]) == (400, "unknown_trigger")
    who = tablet.client.get(tablet.url + "procedures/preview/", {"trigger": "joker_face_down"})
    assert (who.status_code, who.json()["code"]) == (409, "player_required")
    seat = tablet.state["players"][0]["seat"]
    count = tablet.client.get(
        tablet.url + "procedures/preview/",
        {"trigger": "wrong_hole_card_count", "seat": seat, "details": '{"count": "too_many"}'},
    )
    assert count.status_code == 200, count.json()


def test_a_procedure_is_an_event_and_a_log_line_and_a_resend_is_answered_once(table, tablet):
    first = run(tablet, "two_or_more_exposed_on_deal")
    assert first.status_code == 200, first.json()
    body = first.json()
    assert body["state"]["phase"] == "void"
    assert body["state"]["status"] == "void"
    assert body["procedure"]["effect"] == "void_hand"
    assert body["procedure"]["trigger"] == "two_or_more_exposed_on_deal"
    again = run(tablet, "two_or_more_exposed_on_deal")
    assert again.json() == body
    assert HandEvent.objects.filter(hand_id=tablet.state["hand"], kind="procedure").count() == 1
    (log,) = ProcedureLog.objects.all()
    assert (log.table_id, log.dealer, log.effect) == (table.pk, table.dealer, "void_hand")
    events = tablet.client.get(tablet.url + "events/").json()
    assert [e["kind"] for e in events] == ["procedure"]


def test_a_procedure_for_a_player_and_a_stale_one(tablet):
    seat = tablet.state["players"][1]["seat"]
    done = run(tablet, "joker_face_down", seat=seat, details={"acted": False})
    assert done.status_code == 200, done.json()
    assert done.json()["procedure"]["player_seat"] == seat
    stale = tablet.client.post(
        tablet.url + "procedures/",
        {"client_id": "p-2", "version": 0, "trigger": "boxed_card"},
        format="json",
    )
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_version")
    assert stale.json()["state"]["version"] == 1
    bad = run(tablet, "wrong_hole_card_count", "p-3", seat=seat, details={"count": 5})
    assert bad.status_code == 409
    assert bad.json()["code"] == "bad_details"


def test_the_log_for_directors_with_filters_pages_and_csv(table, tablet, director):
    run(tablet, "boxed_card", "p-1")
    run(tablet, "player_exposed_own_card", "p-2")
    page = director.get("/api/procedures/", {"table": table.pk, "limit": 1}).json()
    (newest,) = page["results"]
    assert newest["trigger"] == "player_exposed_own_card"
    assert newest["table"] == table.number
    assert newest["tournament"] == table.tournament_id
    assert newest["hand_number"] == 1
    assert newest["dealer"] == table.dealer.username
    older = director.get("/api/procedures/", {"before": page["next_before"]}).json()
    assert [row["trigger"] for row in older["results"]] == ["boxed_card"]
    assert older["next_before"] is None
    assert director.get("/api/procedures/", {"tournament": table.tournament_id + 1}).json() == {
        "results": [],
        "next_before": None,
    }
    assert director.get("/api/procedures/", {"dealer": table.dealer_id}).json()["results"]
    response = director.get("/api/procedures.csv", {"tournament": table.tournament_id})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:4] == ["when", "tournament", "table", "hand"]
    assert [row[5] for row in rows[1:]] == ["player_exposed_own_card", "boxed_card"]
