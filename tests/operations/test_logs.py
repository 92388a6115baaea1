"""JSON log lines with the request's id: every line a request writes names the id its answer's
`X-Request-ID` header names; a sane incoming id is kept, anything else replaced."""

from __future__ import annotations

import io
import json
import logging
import sys
from collections.abc import Iterator

import pytest
from django.test import Client
from pytest_django import Settings

from config.logs import JsonFormatter, RequestIdFilter, logging_config

MIDDLEWARE = "config.logs.RequestIdMiddleware"


@pytest.fixture
def log_lines(settings: Settings) -> Iterator[io.StringIO]:
    """The root logger's JSON lines, as the production handler writes them."""
    if MIDDLEWARE not in settings.MIDDLEWARE:
        settings.MIDDLEWARE = [MIDDLEWARE, *settings.MIDDLEWARE]
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def _lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


@pytest.mark.django_db
def test_every_line_of_a_request_carries_the_id_its_answer_names(
    client: Client, log_lines: io.StringIO
) -> None:
    response = client.get("/no-such-page/")  # Django logs "Not Found" as well as the access line
    rid = response["X-Request-ID"]
    lines = _lines(log_lines)
    assert len(lines) >= 2
    assert {line["request_id"] for line in lines} == {rid}
    access = next(line for line in lines if line["logger"] == "floordesk.access")
    assert (access["method"], access["path"], access["status"]) == ("GET", "/no-such-page/", 404)
    assert isinstance(access["duration_ms"], float)
    assert {"time", "level", "message"} <= access.keys()


@pytest.mark.django_db
def test_two_requests_get_two_ids(client: Client, log_lines: io.StringIO) -> None:
    first = client.get("/healthz")["X-Request-ID"]
    second = client.get("/healthz")["X-Request-ID"]
    assert first != second
    assert [line["request_id"] for line in _lines(log_lines)] == [first, second]


@pytest.mark.django_db
def test_a_sane_incoming_request_id_is_kept(client: Client, log_lines: io.StringIO) -> None:
    response = client.get("/healthz", HTTP_X_REQUEST_ID="proxy-7f3a.42")
    assert response["X-Request-ID"] == "proxy-7f3a.42"
    assert _lines(log_lines)[0]["request_id"] == "proxy-7f3a.42"


@pytest.mark.parametrize("incoming", ["a" * 129, "two words", 'quote"', "line\\nbreak", ""])
@pytest.mark.django_db
def test_an_insane_incoming_request_id_is_replaced(
    client: Client, log_lines: io.StringIO, incoming: str
) -> None:
    response = client.get("/healthz", HTTP_X_REQUEST_ID=incoming)
    rid = response["X-Request-ID"]
    assert rid != incoming
    assert len(rid) == 32
    assert _lines(log_lines)[0]["request_id"] == rid


def test_a_json_line_carries_the_exception() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
    RequestIdFilter().filter(record)
    line = json.loads(JsonFormatter().format(record))
    assert line["request_id"] == "-"  # outside a request
    assert line["message"] == "failed"
    assert "ValueError: boom" in line["exception"]


def test_log_format_is_json_or_text() -> None:
    json_config = logging_config(log_format="json", level="INFO")
    assert json_config["formatters"] == {"line": {"()": "config.logs.JsonFormatter"}}
    text_config = logging_config(log_format="text", level="INFO")
    assert "request_id" in str(text_config["formatters"])
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured):
        logging_config(log_format="xml", level="INFO")
