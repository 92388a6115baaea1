"""A kept database connection is checked before each request without a round trip
(config/postgresql/base.py): an idle connection with nothing to read is live; one the server
has terminated is found dead and replaced before the request uses it.

PostgreSQL only: skipped on SQLite, failed when REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import os
import select
from typing import Any

import psycopg
import pytest
from django.db import connection

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def _new_request() -> None:
    """What Django does between requests: the next request's first query checks the connection."""
    connection.health_check_done = False  # type: ignore[attr-defined]


class _NoQueries:
    """Stands in for the raw connection's `cursor`: any query fails the test."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the health check sent a query")


def test_live_idle_connection_passes_the_check_without_a_query(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pid = _backend_pid()
    raw = connection.connection
    monkeypatch.setattr(raw, "cursor", _NoQueries())
    _new_request()

    connection.close_if_health_check_failed()

    assert connection.connection is raw  # kept
    monkeypatch.undo()
    assert _backend_pid() == pid


def test_connection_terminated_by_the_server_is_replaced_before_the_request_uses_it() -> None:
    pid = _backend_pid()
    raw = connection.connection
    with psycopg.connect(
        **{k: v for k, v in connection.get_connection_params().items() if k != "context"},
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    # The server's goodbye reaches the idle socket.
    assert select.select([raw.fileno()], [], [], 5)[0]
    _new_request()

    connection.close_if_health_check_failed()

    assert connection.connection is None  # closed: the next query opens a new one
    assert _backend_pid() != pid  # and the request goes on without an error


def test_a_connection_past_descriptor_1023_is_checked_like_any_other() -> None:
    # select() cannot watch descriptors past 1023; a busy process has them.
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip("this machine allows too few open files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    # Closed first: a connection an earlier test left open would free its low descriptor once
    # the 1,100 are held, and the new connection would take that one.
    connection.close()
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        pid = _backend_pid()
        assert connection.connection.fileno() > 1023
        _new_request()
        connection.close_if_health_check_failed()
        assert _backend_pid() == pid  # kept
    finally:
        connection.close()
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
