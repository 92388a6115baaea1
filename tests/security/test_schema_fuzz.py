"""The API answers what its own schema promises, whatever a client sends (issue 12).

schemathesis reads the schema the app serves (`/api/schema/`, through the WSGI application) and
sends every operation generated requests, valid and invalid, as three roles: a director, the
dealer of a table with a hand running, and the public. Path ids are drawn from a realistic
floor (a running tournament with tables and a hand in progress, a planned one, a schedule, a
cash table with players and a waiting list), or left as generated (usually no such row), so the
requests reach the code behind the 404s. Every answer must be documented: no 5xx, a status the
operation lists, its content type and its body schema.

One test per area of the API (`tournaments`, `hands`, `cash-tables`, ...) and role, on one
floor that the area's writes change as they go; it reports every operation that broke the
schema, each with its smallest failing request (curl). Bounded and derandomized (hypothesis'
`derandomize`: the same examples on every run, in CI too): 20 examples per operation and role,
`FUZZ_EXAMPLES` for a longer local run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from django.middleware.csrf import _get_new_csrf_string
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import APIOperation, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.core.result import Err
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config import request_time
from dealer.cash.models import CashSeat
from dealer.cash.seats import services as cash
from dealer.services import hand_start
from tests.dealer.test_cash_services import play_out, seated
from tests.factories import (
    BlindScheduleFactory,
    DealerFactory,
    DirectorFactory,
    TournamentFactory,
    assign_dealer,
    make,
    seated_tournament,
)
from tournaments.models import Entry, Table, Tournament

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "20"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

# The bare Django application (config/wsgi.py adds the production start checks).
SCHEMA = schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())


def _operations() -> dict[str, APIOperation]:
    """Every operation; one the schema describes wrongly fails the module at once."""
    operations = {}
    for result in SCHEMA.get_all_operations():
        if isinstance(result, Err):
            raise result.err()
        operations[result.ok().label] = result.ok()
    return operations


OPERATIONS = _operations()
ROLES = ("director", "dealer", "public")


def _area(path: str) -> str:
    """`/api/tournaments/{id}/clock/` -> `tournaments`; `/api/procedures.csv` -> `procedures`."""
    return path.removeprefix("/api/").split("/", 1)[0].removesuffix(".csv")


AREAS = sorted({_area(operation.path) for operation in OPERATIONS.values()})


@dataclass(frozen=True, slots=True)
class Floor:
    """The rows a fuzzed path may name, by the kind of id in the path."""

    ids: dict[str, list[int]]
    headers: dict[str, dict[str, str]]
    cookies: dict[str, dict[str, str]]


def _signed_in(user: Any) -> tuple[dict[str, str], dict[str, str]]:
    """A session and a CSRF token, as a browser holds them (the API's writes check CSRF)."""
    client = Client()
    client.force_login(user)
    csrf = _get_new_csrf_string()
    cookies = {"sessionid": client.cookies["sessionid"].value, "csrftoken": csrf}
    return {"X-CSRFToken": csrf}, cookies


def _floor() -> Floor:
    """A running tournament (two tables, a hand in progress at the dealer's table), a planned
    one, a schedule, and a cash table of the same dealer with a finished hand and a waiting
    list; a director and the dealer signed in."""
    tournament = seated_tournament(players=14, now=T0)
    tables = list(Table.objects.filter(tournament=tournament).order_by("number"))
    dealer = assign_dealer(tables[0], DealerFactory())
    hand = hand_start(table=tables[0], now=T0)
    planned = make(TournamentFactory, status=Tournament.Status.PLANNED)
    schedule = make(BlindScheduleFactory)
    cash_table = seated("1 2 3 4", button=1, number=50)
    assign_dealer(cash_table, dealer)
    finished = play_out(hand_start(table=cash_table))
    waiting = cash.cash_waitlist_add(table=cash_table, player_name="Wes")
    entries = list(Entry.objects.filter(tournament=tournament).values_list("pk", flat=True)[:4])
    director_headers, director_cookies = _signed_in(make(DirectorFactory))
    dealer_headers, dealer_cookies = _signed_in(dealer)
    return Floor(
        ids={
            "tournaments": [tournament.pk, planned.pk],
            "schedules": [schedule.pk],
            "entries": entries,
            "tables": [tables[0].pk, tables[-1].pk, cash_table.pk],
            "cash-tables": [cash_table.pk],
            "hands": [hand.pk, finished.pk],
            "seat_pk": list(CashSeat.objects.filter(table=cash_table).values_list("pk", flat=True)),
            "entry_pk": [waiting.pk],
        },
        headers={"director": director_headers, "dealer": dealer_headers, "public": {}},
        cookies={"director": director_cookies, "dealer": dealer_cookies, "public": {}},
    )


def _path_ids(path: str, floor: Floor) -> dict[str, list[int]]:
    """The real ids each path parameter may take: `{id}` by the path's first segment."""
    collection = path.removeprefix("/api/").split("/", 1)[0]
    choices = {"id": floor.ids.get(collection, [])}
    for name in ("seat_pk", "entry_pk"):
        if "{" + name + "}" in path:
            choices[name] = floor.ids[name]
    return choices


@pytest.fixture
def wsgi_requests() -> Iterator[None]:
    """Requests through the WSGI application inside the test's transaction: Django closes
    old connections at each request's start and end, which would end the transaction (its
    test client disconnects the same signals)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(request_time, "now", lambda: T0)


def _fuzz(operation: APIOperation, role: str, floor: Floor) -> str | None:
    """Send `operation` generated requests as `role`; the first answer that breaks the schema
    (shrunk to a small example by hypothesis), as schemathesis words it, or None."""
    choices = _path_ids(operation.path, floor)
    modes = st.sampled_from([GenerationMode.POSITIVE, GenerationMode.NEGATIVE])

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        # A request is slow next to a plain function, and some bodies are large: neither is a bug.
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        case = data.draw(operation.as_strategy(generation_mode=data.draw(modes)))
        for name, ids in choices.items():
            if ids and data.draw(st.integers(0, 4), label=f"a real {name}") > 0:
                case.path_parameters[name] = data.draw(st.sampled_from(ids), label=name)
        # The bodies as JSON, not gzip (the public answers are compressed for a client that
        # accepts it: tests/security/test_compression.py); the schema is about the JSON.
        headers = {**floor.headers[role], "Accept-Encoding": "identity"}
        response = case.call(headers=headers, cookies=floor.cookies[role])
        case.validate_response(response, checks=CHECKS, headers=headers)

    try:
        run()
    except FailureGroup as failures:
        return f"{operation.label} as {role}: {failures}"
    return None


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("area", AREAS)
def test_every_answer_is_one_the_schema_promises(area: str, role: str, wsgi_requests) -> None:
    """Every operation of one area of the API (`tournaments`, `hands`, ...) as one role, on
    one floor that the writes change as they go."""
    floor = _floor()
    findings = [
        _fuzz(operation, role, floor)
        for label, operation in sorted(OPERATIONS.items())
        if _area(operation.path) == area
    ]
    found = [finding for finding in findings if finding]
    assert not found, "\n\n".join(found)
