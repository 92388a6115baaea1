"""Two tablets race to write the same hand at the same version, on PostgreSQL, each from its own
thread and database connection, through the API.

- With the service as written (a row lock on the hand, `sql.hand_locked`): one write wins (200), the
  other waits for the lock, then sees the new version and is refused (409 `stale_version` with
  the winner's state). Only one write ever passes the version check.
- CONTROL, showing the race is real: without the row lock, and with both requests made to read
  the hand before either writes, both pass the version check; the unique (hand, seq) constraint
  is then all that stops the second, which the service still answers 409 `stale_version` with
  the current state (never a 500).
- A resent write racing its original is answered twice with the same answer, stored once.

PostgreSQL only: on SQLite (which serializes whole transactions) these tests skip, or fail when
REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from dealer import selectors, services
from dealer.models import Hand, HandEvent
from dealer.services import sql, writes
from tests.factories import DirectorFactory, seated_tournament
from tournaments.models import Table

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
WAIT = 10  # seconds before a stuck race fails the test instead of hanging it

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def hand() -> Hand:
    tournament = seated_tournament(players=4)
    return services.hand_start(table=Table.objects.get(tournament=tournament, number=1), now=T0)


@pytest.fixture
def passed_version_check(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the requests that got past the version check (`hand_write` reads the hand's state
    right after it)."""
    passed: list[str] = []
    read = writes.hand_state

    def counting(hand: Hand) -> Any:
        passed.append(threading.current_thread().name)
        return read(hand)

    monkeypatch.setattr(writes, "hand_state", counting)
    return passed


def race(hand: Hand, bodies: list[dict[str, Any]], start: threading.Barrier | None) -> list[Any]:
    """Post each body from its own thread (own connection, own signed-in client); the
    responses in the order of `bodies`."""
    clients = []
    for _ in bodies:
        client = APIClient()
        client.force_login(DirectorFactory.create())
        clients.append(client)
    answers: list[Any] = [None] * len(bodies)

    def post(index: int) -> None:
        try:
            if start is not None:
                start.wait()
            answers[index] = clients[index].post(
                f"/api/hands/{hand.pk}/actions/", bodies[index], format="json"
            )
        except BaseException as error:  # reported by the main thread
            answers[index] = error
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=post, args=(i,), name=f"tablet-{i}") for i in range(len(bodies))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT * 3)
    for answer in answers:
        if isinstance(answer, BaseException):
            raise answer
    return answers


def _backends_waiting_for_a_lock() -> int:
    with connection.cursor() as cursor:
        # The statistics views are a snapshot per transaction: take a fresh one each time.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        (count,) = cursor.fetchone()
    return int(count)


def _until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the other request never waited for the lock")
        time.sleep(0.005)


def _call(client_id: str) -> dict[str, Any]:
    return {"client_id": client_id, "version": 0, "action": {"kind": "call"}}


def _fold(client_id: str) -> dict[str, Any]:
    return {"client_id": client_id, "version": 0, "action": {"kind": "fold"}}


def _outcome(answers: list[Any]) -> tuple[Any, Any]:
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [200, 409], [a.json() for a in answers]
    won = next(a for a in answers if a.status_code == 200)
    lost = next(a for a in answers if a.status_code == 409)
    return won.json(), lost.json()


def test_with_the_row_lock_one_write_wins_and_the_other_is_stale(
    hand: Hand, passed_version_check: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = sql.hand_locked
    holder: list[str] = []
    guard = threading.Lock()

    def holding(pk: Any, **named: Any) -> Hand:
        row = locked(pk, **named)
        with guard:
            first = not holder
            holder.append(threading.current_thread().name)
        if first:  # keep the lock until the other request is seen waiting for it
            _until(lambda: _backends_waiting_for_a_lock() >= 1)
        return row

    monkeypatch.setattr(sql, "hand_locked", holding)
    answers = race(hand, [_call("a"), _fold("b")], threading.Barrier(2, timeout=WAIT))
    won, lost = _outcome(answers)
    assert lost["code"] == "stale_version"
    assert lost["state"] == won
    assert lost["state"]["version"] == 1
    assert passed_version_check == holder[:1]  # the waiting request never got past the check
    assert HandEvent.objects.filter(hand=hand).count() == 1
    assert selectors.check_hands() == []


def test_control_without_the_row_lock_both_pass_the_version_check(
    hand: Hand, passed_version_check: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    both_read = threading.Barrier(2, timeout=WAIT)

    def unlocked(pk: Any, *, at_table: int | None = None) -> Hand:
        rows = Hand.objects.select_related("table", "table__tournament")
        if at_table is not None:  # the tablet names its table: the lock's query does the same
            rows = rows.filter(table_id=at_table)
        row = rows.get(pk=getattr(pk, "pk", pk))
        both_read.wait()  # each request has read version 0 before either writes
        return row

    monkeypatch.setattr(sql, "hand_locked", unlocked)
    answers = race(hand, [_call("a"), _fold("b")], None)
    assert sorted(passed_version_check) == ["tablet-0", "tablet-1"]  # the check alone let both by
    won, lost = _outcome(answers)
    # The unique (hand, seq) constraint stopped the second insert: still a 409 with the state
    # that won, not a 500 and not the loser's own (never stored) state.
    assert lost["code"] == "stale_version"
    assert lost["state"] == won
    assert HandEvent.objects.filter(hand=hand).count() == 1
    assert selectors.check_hands() == []


def test_a_resend_racing_its_original_is_answered_alike_and_stored_once(hand: Hand) -> None:
    answers = race(hand, [_call("same"), _call("same")], threading.Barrier(2, timeout=WAIT))
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].json() == answers[1].json()
    assert HandEvent.objects.filter(hand=hand).count() == 1
