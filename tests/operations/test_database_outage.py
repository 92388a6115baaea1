"""A PostgreSQL outage answers 503 with a sentence, never 500, and ends without a restart.

The test's data is copied into a PostgreSQL cluster of the test's own, this process's database
connection is pointed at it, and the cluster is stopped at once (as a crash would). Every page
and API request then answers 503: JSON with a code under /api/, a page elsewhere, with
Retry-After; a write is not committed; `/healthz` names the database. Once the cluster is
started again, the same requests succeed in the same process (the dead connection is found by
the health check and replaced), and the refused write, sent again, is committed once. A write
cut off in the middle of its transaction answers 503 and is not committed. A task that meets the
outage in a worker is retried and does its work once PostgreSQL is back (config/retries.py).
The last test runs gunicorn as compose does, to show the same in a real server: 503 through the
outage, and served again by the same worker process.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from celery import Celery
from django.contrib.sessions.backends.cached_db import KEY_PREFIX as SESSION_CACHE_PREFIX
from django.core.cache import cache
from django.db import (
    InterfaceError,
    OperationalError,
    close_old_connections,
    connection,
    transaction,
)
from django.utils import timezone
from pytest_django import Settings
from rest_framework.test import APIClient

from tests.factories import DirectorFactory, make, seated_tournament
from tests.operations.processes import Process, need_postgres, production_env, wait_until
from tests.operations.servers import PrivateCluster, PrivateRedis, free_port, missing
from tournaments.models import AuditEvent, Entry, Table, Tournament
from tournaments.services.clocks import ANNOUNCE_TASK

NEW_PLAYER = "Outage Olga"


def _copy_test_database(cluster: PrivateCluster) -> None:
    """The test database, schema and rows, into a database of the same name on `cluster`."""
    if not (shutil.which("pg_dump") and shutil.which("psql")):
        missing("pg_dump and psql")
    db = connection.settings_dict
    source = [
        "pg_dump", "--no-owner", "--no-privileges", "-h", db.get("HOST") or "127.0.0.1",
        "-p", str(db.get("PORT") or 5432), "-U", db.get("USER") or "postgres", db["NAME"],
    ]  # fmt: skip
    target = ["psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(cluster.port),
              "-U", "postgres"]  # fmt: skip
    env = {"PATH": "/usr/bin:/bin", "PGPASSWORD": db.get("PASSWORD") or ""}
    subprocess.run([*target, "-c", f'CREATE DATABASE "{db["NAME"]}"'], check=True, env=env)
    dump = subprocess.run(source, check=True, capture_output=True, env=env).stdout
    subprocess.run([*target, "-d", db["NAME"]], input=dump, check=True, env=env,
                   capture_output=True)  # fmt: skip


@contextlib.contextmanager
def _on_private_copy() -> Iterator[PrivateCluster]:
    """This process's database connection on a private copy of the test database."""
    with PrivateCluster() as private:
        _copy_test_database(private)
        saved = {key: connection.settings_dict.get(key) for key in ("HOST", "PORT")}
        connection.close()
        connection.settings_dict.update(HOST="127.0.0.1", PORT=str(private.port))
        try:
            yield private
        finally:
            connection.close()
            connection.settings_dict.update(saved)


def _requests(tournament: Tournament, table: int) -> list[tuple[str, str, str, dict[str, Any]]]:
    """(who, method, path, data): public pages, the desk, the tablet, the API and its writes."""
    t = tournament.pk
    return [
        ("anonymous", "get", f"/t/{t}/", {}),
        ("anonymous", "get", "/", {}),
        ("anonymous", "get", "/login/", {}),
        ("anonymous", "post", "/login/", {"username": "nobody", "password": "wrong"}),
        ("anonymous", "post", "/api/auth/token/", {"username": "nobody", "password": "wrong"}),
        ("anonymous", "get", f"/api/tournaments/{t}/", {}),
        ("director", "get", "/desk/", {}),
        ("director", "post", f"/desk/t/{t}/clock/pause/", {}),
        # Its session no longer in the cache: read from the database inside a middleware.
        ("director-uncached", "get", f"/desk/t/{t}/", {}),
        ("director", "get", f"/desk/t/{t}/", {}),
        ("director", "get", f"/desk/t/{t}/entries/", {}),
        ("director", "get", f"/deal/table/{table}/", {}),
        ("director", "get", f"/api/tournaments/{t}/entries/", {}),
        ("director", "post", f"/api/tournaments/{t}/entries/", {"player_name": NEW_PLAYER}),
    ]


def _send(clients: dict[str, APIClient], who: str, method: str, path: str, data: dict) -> Any:
    # What a server does as each request starts (Django's test client leaves it out): a kept
    # connection that failed, or that the server closed, is dropped, and the request opens a
    # new one.
    close_old_connections()
    client = clients[who]
    if method == "get":
        return client.get(path)
    if path.startswith("/api/"):
        return client.post(path, data, format="json")
    return client.post(path, data)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_database_outage_answers_503_with_a_sentence_and_ends_without_a_restart(
    settings: Settings,
) -> None:
    need_postgres()
    settings.CELERY_TASK_ALWAYS_EAGER = True
    tournament = seated_tournament(players=4, start=False)
    table = Table.objects.filter(tournament=tournament).first()
    assert table is not None
    director = APIClient(raise_request_exception=False)
    director.force_login(make(DirectorFactory))
    uncached = APIClient(raise_request_exception=False)
    uncached.force_login(make(DirectorFactory))
    uncached_key = SESSION_CACHE_PREFIX + str(uncached.session.session_key)
    clients = {
        "anonymous": APIClient(raise_request_exception=False),
        "director": director,
        "director-uncached": uncached,
    }
    requests = _requests(tournament, table.pk)

    with _on_private_copy() as private:
        for who, method, path, data in requests:  # the control: all served
            answer = _send(clients, who, method, path, data)
            assert answer.status_code < 500, (path, answer.status_code)
        assert Entry.objects.filter(player__name=NEW_PLAYER).count() == 1
        Entry.objects.filter(player__name=NEW_PLAYER).delete()

        private.stop()
        cache.delete(uncached_key)
        refused = []
        for who, method, path, data in requests:
            answer = _send(clients, who, method, path, data)
            refused.append((path, answer.status_code))
            if answer.status_code != 503:
                continue
            assert answer["Retry-After"]
            if path.startswith("/api/"):
                assert answer.json()["code"] == "unavailable"
                assert answer.json()["detail"].endswith(".")
            else:
                assert "Try again" in answer.content.decode()
        # The sign-in form needs no database: it is served.
        assert [item for item in refused if item[1] != 503] == [("/login/", 200)]
        health = clients["anonymous"].get("/healthz")
        assert health.status_code == 503
        assert health.json()["checks"]["database"] == "failed"

        private.start()
        cache.delete(uncached_key)
        for who, method, path, data in requests:
            answer = _send(clients, who, method, path, data)
            assert answer.status_code < 500, (path, answer.status_code)
        # The write refused during the outage was not committed; sent again, it is, once.
        assert Entry.objects.filter(player__name=NEW_PLAYER).count() == 1
        assert clients["anonymous"].get("/healthz").json()["checks"]["database"] == "ok"


def _a_session_waits_for_a_lock() -> bool:
    """Whether another session of this database waits for a row lock (the write under test)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        )
        (waiting,) = cursor.fetchone()
    return bool(waiting)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_write_cut_off_by_the_outage_answers_503_and_is_not_committed(
    settings: Settings,
) -> None:
    need_postgres()
    settings.CELERY_TASK_ALWAYS_EAGER = True
    tournament = seated_tournament(players=4, start=False)
    director = APIClient(raise_request_exception=False)
    director.force_login(make(DirectorFactory))
    answers: list[Any] = []

    def register() -> None:  # a request of its own thread, with its own connection
        try:
            close_old_connections()
            path = f"/api/tournaments/{tournament.pk}/entries/"
            answers.append(director.post(path, {"player_name": NEW_PLAYER}, format="json"))
        finally:
            connection.close()

    with _on_private_copy() as private:
        writer = threading.Thread(target=register)
        # The tournament's row held here: the registration waits for it inside its transaction
        # when the server stops.
        with contextlib.suppress(OperationalError, InterfaceError), transaction.atomic():
            Tournament.objects.select_for_update().get(pk=tournament.pk)
            writer.start()
            wait_until(_a_session_waits_for_a_lock, timeout=30, what="the write waiting")
            private.stop()
        writer.join(timeout=30)
        assert not writer.is_alive()
        assert [answer.status_code for answer in answers] == [503]
        assert answers[0].json()["code"] == "unavailable"

        private.start()
        close_old_connections()
        connection.close()
        assert not Entry.objects.filter(player__name=NEW_PLAYER).exists()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_level_change_met_by_the_outage_is_recorded_once_postgresql_is_back(
    settings: Settings,
) -> None:
    need_postgres()
    settings.CELERY_TASK_ALWAYS_EAGER = True  # set-up sends nothing
    # Two 20-minute levels, started 21 minutes ago: the change to the second level is due.
    tournament = seated_tournament(
        players=3,
        now=timezone.now() - timedelta(minutes=21),
        levels=[(100, 200, 0, 1200), (200, 400, 0, 1200)],
    )
    queue = f"test-db-outage-{uuid.uuid4().hex[:8]}"
    with _on_private_copy() as private, PrivateRedis() as redis:
        name = connection.settings_dict["NAME"]
        env = production_env(
            DATABASE_URL=private.url(name), REDIS_URL=redis.url(0), LOG_LEVEL="INFO"
        )
        worker = [
            *(sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO"),
            *("--concurrency", "1", "-Q", queue, "--without-gossip", "--without-mingle"),
        ]
        sender = Celery("sender", broker=redis.url(0), set_as_current=False)
        try:
            with Process(worker, env) as process:
                wait_until(lambda: "ready" in process.output(), timeout=60, what="the worker")
                private.stop()
                sender.send_task(ANNOUNCE_TASK, args=(tournament.pk, 1), queue=queue)
                wait_until(
                    lambda: "OperationalError" in process.output(),
                    timeout=30,
                    what="the task meeting the outage",
                )
                private.start()
                close_old_connections()
                connection.close()
                wait_until(
                    lambda: AuditEvent.objects.filter(
                        tournament_id=tournament.pk, action="level_change"
                    ).exists(),
                    timeout=60,
                    what="the level change recorded after the outage",
                )
            levels = AuditEvent.objects.filter(tournament_id=tournament.pk, action="level_change")
            assert levels.count() == 1  # on the private cluster, still in use here
        finally:
            sender.close()


def _status(url: str) -> tuple[int, str]:
    """The status and body of a GET, whatever the status."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError:
        return 0, ""


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_gunicorn_answers_503_through_the_outage_and_serves_again_without_a_restart(
    settings: Settings,
) -> None:
    need_postgres()
    settings.CELERY_TASK_ALWAYS_EAGER = True
    tournament = seated_tournament(players=4, start=False)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    pages = [f"{base}/t/{tournament.pk}/", f"{base}/api/tournaments/{tournament.pk}/"]
    with _on_private_copy() as private, PrivateRedis() as redis:
        env = production_env(
            DATABASE_URL=private.url(connection.settings_dict["NAME"]),
            REDIS_URL=redis.url(0),
            PORT=str(port),
            WEB_CONCURRENCY="1",
        )
        web = [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"]
        with Process(web, env) as gunicorn:
            wait_until(lambda: _status(f"{base}/healthz")[0] == 200, timeout=60, what="gunicorn")
            assert [_status(page)[0] for page in pages] == [200, 200]

            private.stop()
            answers = [_status(page) for page in pages]
            assert [status for status, _ in answers] == [503, 503]
            assert "Try again" in answers[0][1]
            assert json.loads(answers[1][1])["code"] == "unavailable"
            assert _status(f"{base}/healthz")[0] == 503

            private.start()
            wait_until(
                lambda: [_status(page)[0] for page in pages] == [200, 200],
                timeout=30,
                what="the pages served again",
            )
            assert gunicorn.running()
            assert gunicorn.output().count("Booting worker") == 1  # the same worker throughout
