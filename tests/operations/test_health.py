"""`/healthz`: 200 when the database, the cache and the broker answer; 503 naming the one that
does not, without its address or error text; no sign-in, no session, one query."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import OperationalError, connection
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries, Settings

from config.health import CHECKS, probe_host
from config.heartbeat import (
    KEYS,
    TASK,
    _beat_sends_heartbeat,
    heartbeat_task,
    last_heartbeats,
    stale_after,
)
from tests.required import REQUIRED

# Nothing listens on port 1: connecting is refused at once.
DEAD_REDIS = "redis://:s3cret@127.0.0.1:1/0"


@pytest.fixture(autouse=True)
def _tasks_in_process(settings: Settings) -> None:
    """The broker is "embedded" unless a test points it somewhere."""
    settings.CELERY_TASK_ALWAYS_EAGER = True


def _get(client: Client) -> tuple[int, dict[str, Any], str]:
    response = client.get("/healthz")
    return response.status_code, response.json(), response.content.decode()


@pytest.mark.django_db
def test_healthz_answers_200_when_every_check_passes_without_sign_in_or_session(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(1):  # SELECT 1, no session
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "cache": "ok", "broker": "embedded"},
        "worker": {"status": "embedded", "last_heartbeat": None},
        "beat": {"status": "embedded", "last_heartbeat": None},
    }
    assert "no-store" in response["Cache-Control"]
    assert "sessionid" not in response.cookies


@pytest.mark.django_db
def test_healthz_answers_503_naming_the_database_without_its_error(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse() -> None:
        raise OperationalError('connection to "db.internal" failed: password s3cret refused')

    monkeypatch.setattr(connection, "cursor", refuse)
    status, body, text = _get(client)
    assert status == 503
    assert body["status"] == "unavailable"
    assert body["checks"] == {"database": "failed", "cache": "ok", "broker": "embedded"}
    assert "s3cret" not in text
    assert "db.internal" not in text


@pytest.mark.django_db
def test_healthz_answers_503_naming_the_cache_when_redis_is_down(
    client: Client, settings: Settings
) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": DEAD_REDIS,
        }
    }
    status, body, text = _get(client)
    assert status == 503
    assert body["checks"] == {"database": "ok", "cache": "failed", "broker": "embedded"}
    assert "s3cret" not in text


@pytest.mark.django_db
def test_healthz_answers_503_naming_the_broker_when_redis_is_down(
    client: Client, settings: Settings
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = DEAD_REDIS
    status, body, text = _get(client)
    assert status == 503
    assert body["checks"] == {"database": "ok", "cache": "ok", "broker": "failed"}
    assert "s3cret" not in text
    assert "127.0.0.1" not in text


@pytest.mark.redis
@pytest.mark.django_db
def test_healthz_reaches_a_real_broker(client: Client, settings: Settings) -> None:
    if not settings.REDIS_URL:
        if REQUIRED:
            pytest.fail("REQUIRE_SERVICES=1 but REDIS_URL is not set")
        pytest.skip("REDIS_URL is not set")
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = settings.REDIS_URL
    status, body, _ = _get(client)
    assert (status, body["checks"]["broker"]) == (200, "ok")


@pytest.fixture
def _with_a_worker(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tasks go to a broker (taken as reachable here): the worker and beat are reported."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.HEARTBEAT_SECONDS = 30
    monkeypatch.setitem(CHECKS, "broker", lambda: "ok")


@pytest.mark.usefixtures("_with_a_worker")
@pytest.mark.django_db
def test_healthz_reports_a_recent_worker_ok_and_a_silent_beat_stale_and_stays_200(
    client: Client,
) -> None:
    worker_seen = timezone.now() - timedelta(seconds=20)
    beat_seen = timezone.now() - timedelta(seconds=stale_after() + 1)
    cache.set(KEYS["worker"], worker_seen.isoformat())
    cache.set(KEYS["beat"], beat_seen.isoformat())
    status, body, _ = _get(client)
    assert status == 200  # the web process serves: a stale beat is reported, not failed
    assert body["status"] == "ok"
    assert body["worker"] == {"status": "ok", "last_heartbeat": worker_seen.isoformat()}
    assert body["beat"] == {"status": "stale", "last_heartbeat": beat_seen.isoformat()}


@pytest.mark.usefixtures("_with_a_worker")
@pytest.mark.django_db
def test_healthz_reports_a_worker_and_beat_never_seen_as_stale(client: Client) -> None:
    cache.delete_many(list(KEYS.values()))
    status, body, _ = _get(client)
    assert status == 200
    assert body["worker"] == body["beat"] == {"status": "stale", "last_heartbeat": None}


@pytest.mark.django_db
def test_the_heartbeat_task_records_the_worker_and_its_sending_records_the_beat() -> None:
    cache.delete_many(list(KEYS.values()))
    before = timezone.now()
    _beat_sends_heartbeat(sender=TASK)
    heartbeat_task()
    times = last_heartbeats()
    assert all(when is not None and when >= before for when in times.values())


def test_healthz_refuses_writes(client: Client) -> None:
    assert client.post("/healthz").status_code == 405


@pytest.mark.parametrize(
    ("allowed_hosts", "host"),
    [
        ("floor.example.com,localhost", "floor.example.com"),
        (" .example.com", "example.com"),
        ("*", "localhost"),
        ("", "localhost"),
    ],
)
def test_probe_sends_a_host_name_the_service_answers_to(allowed_hosts: str, host: str) -> None:
    assert probe_host(allowed_hosts) == host
