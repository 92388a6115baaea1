"""The dealer API's writes and reads: starting a hand, resent writes answered once, stale
versions refused with the current state, undo, seats for players, the event log, ETag polling,
who may write, and how many queries each costs."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from config import request_time
from dealer.models import Hand, HandEvent
from tests.factories import (
    DealerFactory,
    DirectorFactory,
    HandClient,
    UserFactory,
    assign_dealer,
    seated_tournament,
)
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
def dealer(table):
    client = APIClient()
    client.force_login(assign_dealer(table))
    return client


def start(client, table, client_id="start"):
    return client.post(f"/api/tables/{table.pk}/hands/", {"client_id": client_id}, format="json")


@pytest.fixture
def tablet(dealer, table):
    response = start(dealer, table)
    assert response.status_code == 201
    return HandClient(dealer, response.json())


def test_start_answers_the_new_hand_and_a_second_start_the_hand_in_progress(dealer, table):
    first = start(dealer, table)
    assert first.status_code == 201
    state = first.json()
    assert (state["number"], state["version"], state["phase"]) == (1, 0, "betting")
    assert state["legal"]["actor"] == state["actor_seat"]
    again = start(dealer, table)  # the tablet resends: its answer was lost
    assert again.status_code == 409
    assert again.json()["code"] == "hand_in_progress"
    assert again.json()["state"] == state
    assert Hand.objects.filter(table=table).count() == 1


def test_current_hand_and_history(dealer, table):
    assert dealer.get(f"/api/tables/{table.pk}/hands/current/").status_code == 404
    tablet = HandClient(dealer, start(dealer, table).json())
    current = dealer.get(f"/api/tables/{table.pk}/hands/current/")
    assert current.json() == tablet.state
    for _ in range(3):
        tablet.ok(kind="fold")
    assert dealer.get(f"/api/tables/{table.pk}/hands/current/").status_code == 404
    HandClient(dealer, start(dealer, table, "second").json())
    history = dealer.get(f"/api/tables/{table.pk}/hands/", {"limit": 1}).json()
    assert [(h["number"], h["status"]) for h in history["results"]] == [(2, "in_progress")]
    assert history["next_before"] == 2
    older = dealer.get(f"/api/tables/{table.pk}/hands/", {"before": 2}).json()
    (first,) = older["results"]
    assert (first["number"], first["status"], older["next_before"]) == (1, "complete", None)
    big_blind = tablet.state["big_blind_seat"]
    assert first["winners"] == [
        {"seat": big_blind, "name": first["winners"][0]["name"], "amount": 200}
    ]
    assert first["button_seat"] == tablet.state["button_seat"]  # the big blind's 100 came back


def test_a_resent_action_gets_the_original_answer_and_is_stored_once(tablet):
    body = {"client_id": "c-1", "version": 0, "action": {"kind": "call"}}
    first = tablet.client.post(tablet.url + "actions/", body, format="json")
    again = tablet.client.post(tablet.url + "actions/", body, format="json")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert HandEvent.objects.filter(hand_id=tablet.state["hand"]).count() == 1
    tablet.state = first.json()
    tablet.ok(kind="call")
    late = tablet.client.post(tablet.url + "actions/", body, format="json")
    assert late.json() == first.json()  # still the original answer, the hand moved on
    assert HandEvent.objects.filter(hand_id=tablet.state["hand"]).count() == 2


def test_a_stale_version_is_refused_with_the_current_state(tablet):
    tablet.ok(kind="call")
    stale = tablet.client.post(
        tablet.url + "actions/",
        {"client_id": "other-tablet", "version": 0, "action": {"kind": "fold"}},
        format="json",
    )
    assert stale.status_code == 409
    body = stale.json()
    assert body["code"] == "stale_version"
    assert body["state"] == tablet.state
    assert body["state"]["version"] == 1
    assert HandEvent.objects.filter(hand_id=tablet.state["hand"]).count() == 1


def test_an_illegal_action_is_409_with_the_engine_code_and_nothing_stored(tablet):
    low = tablet.act(kind="raise", amount=300)
    assert low.status_code == 409
    assert low.json() == {
        "code": "below_minimum",
        "detail": "Raise to 300 is below the minimum raise to 400.",
    }
    wrong = [p["seat"] for p in tablet.state["players"] if p["seat"] != tablet.state["actor_seat"]]
    assert tablet.act(kind="call", seat=wrong[0]).json()["code"] == "not_your_turn"
    assert HandEvent.objects.filter(hand_id=tablet.state["hand"]).count() == 0


def test_seat_is_read_as_the_engine_index_of_that_player(tablet):
    seats = [p["seat"] for p in tablet.state["players"]]
    actor = tablet.state["actor_seat"]
    tablet.ok(kind="call", seat=actor, player=seats.index(actor))
    event = HandEvent.objects.get(hand_id=tablet.state["hand"])
    assert event.payload["actions"] == [{"kind": "call", "player": seats.index(actor)}]
    empty = next(seat for seat in range(1, 10) if seat not in seats)
    assert tablet.act(kind="call", seat=empty).json()["code"] == "not_in_hand"
    assert tablet.act(kind="call", player=len(seats)).json()["code"] == "not_in_hand"
    actor = tablet.state["actor_seat"]
    mismatch = tablet.act(kind="call", seat=actor, player=(seats.index(actor) + 1) % len(seats))
    assert (mismatch.status_code, mismatch.json()["code"]) == (400, "seat_player_mismatch")


def test_undo_cancels_the_latest_entry_by_a_correction_event(table, tablet):
    before = tablet.state
    tablet.ok(kind="raise", amount=600)
    undone = tablet.undo("entered a raise, the player called")
    assert undone.status_code == 200
    state = undone.json()
    assert state["version"] == 2
    assert {k: v for k, v in state.items() if k != "version"} == {
        k: v for k, v in before.items() if k != "version"
    }
    events = tablet.client.get(tablet.url + "events/").json()
    assert [(e["seq"], e["kind"]) for e in events] == [(1, "action"), (2, "undo")]
    assert events[1]["payload"]["reason"] == "entered a raise, the player called"
    assert events[1]["payload"]["undone"] == [{"kind": "raise", "amount": 600}]
    assert events[0]["actor"] == Table.objects.get(pk=table.pk).dealer.username
    assert tablet.undo().json()["code"] == "nothing_to_undo"
    blank = tablet.undo(" ")
    assert (blank.status_code, blank.json()["code"]) == (400, "invalid")


def test_state_polling_answers_304_until_the_version_changes(tablet):
    first = tablet.client.get(tablet.url)
    assert first.status_code == 200
    assert first.json() == tablet.state
    etag = first.headers["ETag"]
    assert tablet.client.get(tablet.url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    tablet.ok(kind="call")
    moved = tablet.client.get(tablet.url, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200
    assert moved.json()["version"] == 1
    assert moved.headers["ETag"] != etag


def test_only_a_director_or_the_tables_dealer_may_write(table, tablet):
    other = APIClient()
    other.force_login(DealerFactory())  # a dealer, of another table
    refused = other.post(
        tablet.url + "actions/",
        {"client_id": "x", "version": 0, "action": {"kind": "call"}},
        format="json",
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "permission_denied")
    assert other.post(tablet.url + "undo/", {}, format="json").status_code == 403
    assert start(other, Table.objects.get(pk=table.pk)).status_code == 403
    assert other.get(tablet.url).status_code == 200  # every dealer may read
    assert other.get(tablet.url + "events/").status_code == 200
    director = APIClient()
    director.force_login(DirectorFactory())
    assert HandClient(director, tablet.state).act(kind="call").status_code == 200
    for reader in (APIClient(), _signed_in(UserFactory())):
        response = reader.get(tablet.url)
        assert response.status_code == 403
        assert reader.get(f"/api/tables/{table.pk}/hands/").status_code == 403
    assert HandEvent.objects.filter(hand_id=tablet.state["hand"]).count() == 1


def test_procedure_log_is_for_directors_only(dealer):
    assert dealer.get("/api/procedures/").status_code == 403
    assert dealer.get("/api/procedures.csv").status_code == 403


def _signed_in(user):
    client = APIClient()
    client.force_login(user)
    return client


def test_query_counts(tablet, django_assert_max_num_queries):
    # Session, user, dealer group; in the service's transaction: the locked hand with its table
    # (may this dealer write?), the event, the hand's update (with a savepoint on SQLite). No
    # resend check on a first try.
    with django_assert_max_num_queries(10):
        tablet.ok(kind="call")
    director = HandClient(_signed_in(DirectorFactory()), tablet.state)
    director.sent = 100  # ids of its own
    with django_assert_max_num_queries(10):  # a director may write anywhere: no lookup
        director.ok(kind="call")
    with django_assert_max_num_queries(4):
        assert tablet.client.get(tablet.url).status_code == 200


def test_a_dealers_write_reads_the_table_only_with_the_hands_lock(tablet):
    table = Table._meta.db_table
    with CaptureQueriesContext(connection) as captured:
        tablet.ok(kind="call")
    reads = [q["sql"] for q in captured if f'"{table}"' in q["sql"]]
    assert len(reads) == 1, reads
    assert "FOR UPDATE" in reads[0] or connection.vendor != "postgresql"


def test_a_dealer_of_another_table_may_not_run_a_procedure_even_with_bad_input(tablet):
    other = _signed_in(DealerFactory())
    body = {"client_id": "p", "version": 0, "trigger": "two_or_more_exposed_on_deal"}
    for sent in (body, {**body, "trigger": 5}, {}):
        refused = other.post(tablet.url + "procedures/", sent, format="json")
        assert (refused.status_code, refused.json()["code"]) == (403, "permission_denied")
    as_text = other.generic(
        "POST", tablet.url + "actions/", "call", content_type="text/plain"
    )  # a body the API cannot read: still 403 first
    assert (as_text.status_code, as_text.json()["code"]) == (403, "permission_denied")
    missing = other.post("/api/hands/999999/procedures/", {}, format="json")
    assert missing.status_code == 404
    assert not HandEvent.objects.filter(hand_id=tablet.state["hand"]).exists()


def test_a_client_id_used_again_at_the_current_version_gets_its_first_answer(tablet):
    first = tablet.ok(kind="call")
    reused = tablet.client.post(
        tablet.url + "actions/",
        {"client_id": f"tablet-{first['hand']}-1", "version": 1, "action": {"kind": "fold"}},
        format="json",
    )
    assert reused.status_code == 200
    assert reused.json() == first
    assert HandEvent.objects.filter(hand_id=first["hand"]).count() == 1


def test_expected_seat_binds_an_action_to_the_seat_seen_to_act(tablet):
    """`expected_seat` is optional: a client that sends it is refused 409 `stale_tap`, with the
    hand's state and nothing stored, when another seat is to act; a resend of a recorded write
    still gets its first answer."""
    hand = tablet.state["hand"]
    actor = tablet.state["actor_seat"]
    other = next(p["seat"] for p in tablet.state["players"] if p["seat"] != actor)
    body = {"client_id": "bound-1", "version": 0, "action": {"kind": "call"}}
    refused = tablet.client.post(
        tablet.url + "actions/", {**body, "expected_seat": other}, format="json"
    )
    assert refused.status_code == 409
    assert refused.json()["code"] == "stale_tap"
    assert f"drawn for seat {other}" in refused.json()["detail"]
    assert refused.json()["state"] == tablet.state
    assert HandEvent.objects.filter(hand_id=hand).count() == 0

    first = tablet.client.post(
        tablet.url + "actions/", {**body, "expected_seat": actor}, format="json"
    )
    assert first.status_code == 200
    again = tablet.client.post(
        tablet.url + "actions/", {**body, "expected_seat": actor}, format="json"
    )
    assert (again.status_code, again.json()) == (200, first.json())
    tablet.state = first.json()
    assert tablet.ok(kind="call")["version"] == 2  # without `expected_seat`, as before
    assert HandEvent.objects.filter(hand_id=hand).count() == 2
