"""What the API answers when something goes wrong outside the floor's rules (issue 12): every
answer under /api/ is JSON (an unknown address: 404 `not_found`), a database outage is a 503
with Retry-After for the API and the pages alike, and every 400 has the `errors` the schema
promises."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import LazySettings
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpResponse
from django.test import RequestFactory
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from config.outage import OutageMiddleware
from tests.factories import (
    BlindScheduleFactory,
    DirectorFactory,
    TournamentFactory,
    level_rows,
    make,
)

pytestmark = pytest.mark.django_db

OUTAGE = "config.outage.OutageMiddleware"


def _json_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == code
    assert body["detail"]
    return body


# --- 404 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/api/hands/abc/", "/api/nope/", "/api/tournaments/1/nothing/", "/api/", "/api/hands/abc"],
)
def test_an_unknown_address_under_api_is_a_json_404_not_found(path: str) -> None:
    body = _json_error(APIClient().get(path), 404, "not_found")
    assert set(body) == {"code", "detail"}


def test_an_unknown_page_keeps_the_html_404() -> None:
    response = APIClient().get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


# --- 503 ------------------------------------------------------------------------------------


@pytest.fixture
def outage_middleware(settings: LazySettings) -> None:
    """The middleware as the settings install it (added here if they do not yet)."""
    if OUTAGE not in settings.MIDDLEWARE:
        settings.MIDDLEWARE = [*settings.MIDDLEWARE, OUTAGE]


def _down(error: type[Exception]) -> Callable[..., Any]:
    def execute(*args: Any) -> Any:
        raise error("connection to server at 127.0.0.1, port 5432 failed: Connection refused")

    return execute


@pytest.fixture(params=[OperationalError, InterfaceError])
def database_down(request: pytest.FixtureRequest, outage_middleware: None) -> Iterator[None]:
    """Every query from here on fails as when PostgreSQL is down."""
    with connection.execute_wrapper(_down(request.param)):
        yield


def _signed_in_director() -> APIClient:
    client = APIClient()
    client.force_login(make(DirectorFactory))
    return client


def _outage_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    loud = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert len(loud) == 1, [record.getMessage() for record in loud]
    assert "database is not answering" in loud[0].getMessage()


@pytest.mark.parametrize(
    ("method", "path", "signed_in"),
    [
        ("get", "/api/tournaments/", False),
        ("get", "/api/schedules/", True),
        ("post", "/api/schedules/", True),
    ],
    ids=["public read", "director read", "director write"],
)
def test_the_api_answers_a_database_outage_with_a_json_503_and_retry_after(
    method: str, path: str, signed_in: bool, caplog: pytest.LogCaptureFixture
) -> None:
    client = _signed_in_director() if signed_in else APIClient()
    body = {"name": "Turbo", "levels": level_rows()}
    with connection.execute_wrapper(_down(OperationalError)):
        response = getattr(client, method)(path, body, format="json")

    assert _json_error(response, 503, "unavailable") == {
        "code": "unavailable",
        "detail": "The floor's database is not answering; try again in a few seconds.",
    }
    assert response["Retry-After"] == "5"
    _outage_logged_once(caplog)


def test_a_page_answers_a_database_outage_with_a_503_page_and_retry_after(
    database_down: None, caplog: pytest.LogCaptureFixture
) -> None:
    response = APIClient().get("/")

    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert response["Retry-After"] == "5"
    assert b"try again in a few seconds" in response.content
    _outage_logged_once(caplog)


def test_an_outage_met_inside_a_middleware_is_a_503_too(settings: LazySettings) -> None:
    # A signed-in page reads its session and user in the middlewares, before any view: the
    # outage reaches Django's 500 handler, which answers the 503 (config.exceptions).
    client = _signed_in_director()
    client.raise_request_exception = False
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"  # read from the database
    with connection.execute_wrapper(_down(OperationalError)):
        page = client.get("/desk/")
        api = client.get("/api/schedules/")
    assert page.status_code == 503
    assert page["Retry-After"] == "5"
    _json_error(api, 503, "unavailable")


def test_a_request_django_refuses_before_any_view_is_a_json_400_with_errors(director) -> None:
    # More fields than DATA_UPLOAD_MAX_NUMBER_FIELDS: Django refuses to read the body.
    fields = "&".join(f"f{n}=1" for n in range(1100))
    response = director.post(
        "/api/tournaments/", fields, content_type="application/x-www-form-urlencoded"
    )
    body = _json_error(response, 400, "bad_request")
    assert body["errors"] == {"non_field_errors": [body["detail"]]}


def test_the_middleware_answers_json_under_api_and_leaves_other_errors_alone() -> None:
    middleware = OutageMiddleware(lambda request: HttpResponse())
    api = RequestFactory().get("/api/hands/1/phh/")

    response = middleware.process_exception(api, InterfaceError("connection already closed"))
    assert response is not None
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response["Retry-After"] == "5"
    assert middleware.process_exception(api, ValueError("a bug")) is None


def test_the_api_answers_normally_once_the_database_is_back(outage_middleware: None) -> None:
    TournamentFactory(name="Back again")
    with connection.execute_wrapper(_down(OperationalError)):
        assert APIClient().get("/api/tournaments/").status_code == 503
    response = APIClient().get("/api/tournaments/")
    assert response.status_code == 200
    assert [row["name"] for row in response.json()] == ["Back again"]


# --- 400 ------------------------------------------------------------------------------------


def test_a_rule_refusal_of_the_request_carries_errors_as_the_schema_says(director) -> None:
    levels = level_rows()
    levels[1] = {"small_blind": 500, "big_blind": 400, "duration": 1200}

    response = director.post("/api/schedules/", {"name": "Bad", "levels": levels}, format="json")

    body = _json_error(response, 400, "small_blind_above_big_blind")
    assert body["errors"] == {"non_field_errors": [body["detail"]]}


def test_malformed_json_carries_errors_as_the_schema_says(director) -> None:
    schedule = make(BlindScheduleFactory)
    response = director.put(
        f"/api/schedules/{schedule.pk}/levels/", '{"levels": [', content_type="application/json"
    )

    body = _json_error(response, 400, "parse_error")
    assert body["errors"] == {"non_field_errors": [body["detail"]]}


def test_field_errors_keep_their_fields(director) -> None:
    response = director.post("/api/schedules/", {"levels": "many"}, format="json")

    body = _json_error(response, 400, "invalid")
    assert set(body["errors"]) == {"name", "levels"}


def test_an_unknown_export_format_is_a_field_error(director) -> None:
    tournament = make(TournamentFactory)
    response = director.get(f"/api/tournaments/{tournament.pk}/results.csv", {"format": "xml"})

    body = _json_error(response, 400, "invalid")
    assert body["errors"] == {"format": ["Choose csv or json."]}


# --- the schema -----------------------------------------------------------------------------


def test_the_schema_lists_503_for_every_operation_and_415_for_every_body() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = [
        (method, path, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    ]

    assert len(operations) > 60
    for method, path, operation in operations:
        answers = operation["responses"]
        assert answers["503"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Error"
        }, (method, path)
        assert ("415" in answers) == ("requestBody" in operation), (method, path)
    assert schema["components"]["schemas"]["ValidationError"]["required"] == [
        "code",
        "detail",
        "errors",
    ]
