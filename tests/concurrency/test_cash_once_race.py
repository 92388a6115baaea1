"""A cash API write resent while its original is still being written (a device that timed out
and sent again), on PostgreSQL, each request from its own thread and connection.

The bug found in review: the resend read "no answer stored yet", ran the write itself, waited
for the original's table lock, and was then refused by the floor rules (409 `at_maximum`: the
chips were already added) instead of getting the original's answer. The `client_id` is now
claimed before the write runs, so the resend waits for the original and answers what it
answered: a write sent twice is one write with one answer.

PostgreSQL only (SQLite serializes whole transactions): skips, or fails with REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connections
from rest_framework.test import APIClient

from common.models import ApiWrite
from dealer.cash import ledger
from dealer.cash.models import CashChips, CashSeat
from dealer.cash.seats import api as cash_api
from tests.dealer.test_rake_time import raked_table
from tests.factories import DirectorFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WAIT = 10


def test_a_top_up_resent_while_the_first_is_written_gets_the_first_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = raked_table(1, seats=1)
    seat = CashSeat.objects.get(table=table, seat=1)
    ledger.cash_chips_record(seat=seat, kind="time", delta=-30)  # room for a top-up of 30
    director = DirectorFactory.create()
    real = cash_api.services.cash_seat_top_up

    def slow(**kwargs: Any) -> Any:
        done = real(**kwargs)
        time.sleep(0.5)  # the first write holds its locks, not yet committed
        return done

    monkeypatch.setattr(cash_api.services, "cash_seat_top_up", slow)
    url = f"/api/cash-tables/{table.pk}/seats/{seat.pk}/top-up/"
    body = {"amount": 30, "client_id": "resent-top-up-0001"}
    start = threading.Barrier(2)
    answers: list[Any] = [None, None]

    def post(index: int) -> None:
        client = APIClient()
        client.force_login(director)
        try:
            start.wait()
            time.sleep(0.15 * index)  # the resend leaves a moment after the original
            answers[index] = client.post(url, body, format="json")
        except BaseException as error:
            answers[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    for answer in answers:
        if isinstance(answer, BaseException):
            raise answer
    assert [a.status_code for a in answers] == [200, 200], [a.json() for a in answers]
    assert answers[0].json() == answers[1].json()
    assert CashSeat.objects.get(pk=seat.pk).chips == 200
    assert CashChips.objects.filter(kind="top_up").count() == 1
    assert ApiWrite.objects.filter(client_id="resent-top-up-0001").count() == 1
