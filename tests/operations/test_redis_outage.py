"""Redis away (issue 23: every tournament write and signed-in page answered 500 for 30 s, and
one write committed and then answered 500).

The app's cache points at a Redis server of the test's own (`servers.PrivateRedis`), which
the test stops and starts again. While it is away: the public pages and their polls answer from
the database, a director's writes are committed and answered 2xx (or not committed and 503:
checked in the database either way), signed-in pages answer, nothing answers 500; a Redis that
hangs costs one short timeout, not one per request. When it is back, a poll that holds the
current tag gets its fast 304 again, and a tag made stale by a write during the outage never
does.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.core.cache import cache
from django.test import RequestFactory
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError
from rest_framework.test import APIClient

import config.cache
from config.cache import BREAKER_SECONDS, circuits_reset
from config.conditional import version_key
from config.exceptions import floor_exception_handler
from config.outage import OutageMiddleware
from dealer.models import Hand
from tests.factories import DirectorFactory, assign_dealer, make, seated_tournament
from tests.operations.processes import wait_until
from tests.operations.servers import PrivateRedis
from tests.pages import once
from tournaments.models import Entry, Table, Tournament

# A request with Redis away may wait for one connection timeout, never for many.
SLOW_SECONDS = 2.0


@pytest.fixture
def circuit_clock(monkeypatch) -> dict[str, float]:
    """The circuit's clock, moved on by the test instead of waiting (`later`)."""
    moment = {"now": 1000.0}
    monkeypatch.setattr(config.cache, "clock", lambda: moment["now"])
    return moment


def later(moment: dict[str, float]) -> None:
    """Past the circuit's pause: the next cache call tries Redis again."""
    moment["now"] += BREAKER_SECONDS + 0.1


@pytest.fixture
def server(tmp_path, settings, circuit_clock) -> Iterator[PrivateRedis]:
    """The app's cache on a Redis of the test's own, with the production options. The tests
    stop it gracefully (`stop()`: it saves its data and comes back with it)."""
    with PrivateRedis(tmp_path) as own:
        settings.CACHES = {
            "default": {
                "BACKEND": "config.cache.TolerantRedisCache",
                "LOCATION": own.url(),
                "KEY_PREFIX": "outage",
                "OPTIONS": settings.CACHE_REDIS_OPTIONS,
            }
        }
        circuits_reset()
        yield own
    circuits_reset()


def _get(url: str, etag: str | None = None) -> Any:
    return APIClient().get(url, headers={"If-None-Match": etag} if etag else None)


def _timed(request: Any) -> Any:
    start = time.monotonic()
    answer = request()
    assert time.monotonic() - start < SLOW_SECONDS
    return answer


@pytest.mark.redis
@pytest.mark.django_db
def test_public_pages_answer_from_the_database_while_redis_is_down_and_fast_304s_come_back(
    server, circuit_clock, django_assert_num_queries
):
    tournament = seated_tournament(players=9)
    standings = f"/api/tournaments/{tournament.pk}/standings/"
    state = f"/t/{tournament.pk}/state/"
    tags = {url: _get(url)["ETag"] for url in (standings, state)}
    expected = _get(standings).json()

    server.stop()

    assert _timed(lambda: _get(f"/t/{tournament.pk}/")).status_code == 200
    assert _timed(lambda: _get(f"/t/{tournament.pk}/", tags[state])).status_code == 200
    assert _timed(lambda: _get(standings)).json() == expected
    for url, tag in tags.items():  # the poll goes the whole way, and is still answered
        polled = _timed(lambda url=url, tag=tag: _get(url, tag))
        assert polled.status_code == 304, url
        assert polled["ETag"] == tag
    later(circuit_clock)
    assert _timed(lambda: _get(state, tags[state])).status_code == 304

    server.start()
    later(circuit_clock)

    for url, tag in tags.items():
        with django_assert_num_queries(0):
            fast = _get(url, tag)
        assert fast.status_code == 304, url


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_directors_writes_while_redis_is_down_are_committed_and_answered_2xx(
    server, circuit_clock
):
    tournament = seated_tournament(players=9)
    director = APIClient()
    director.force_login(make(DirectorFactory))
    standings = f"/api/tournaments/{tournament.pk}/standings/"
    tag = _get(standings)["ETag"]
    assert _get(standings, tag).status_code == 304  # remembered, and saved with Redis's data
    entry = Entry.objects.filter(tournament=tournament, status="active").first()
    assert entry is not None

    server.stop()

    through_api = _timed(
        lambda: director.put(
            f"/api/entries/{entry.pk}/chips/", {"chips": entry.chips + 500}, format="json"
        )
    )
    assert through_api.status_code == 200
    entry.refresh_from_db()
    assert entry.chips == through_api.json()["chips"]
    version = Tournament.objects.get(pk=tournament.pk).version
    later(circuit_clock)
    through_page = _timed(lambda: director.post(f"/desk/t/{tournament.pk}/clock/pause/", once()))
    assert through_page.status_code == 302
    paused = Tournament.objects.get(pk=tournament.pk)
    assert paused.version > version
    assert paused.clock_remaining is not None  # paused: the time its level had left is kept

    # Redis comes back from its saved data: the tag remembered before the writes is still in it,
    # with the version before them. It is never answered 304 again.
    server.start()
    later(circuit_clock)
    changed = _get(standings, tag)
    assert changed.status_code == 200
    assert changed["ETag"] != tag
    fresh = changed["ETag"]
    assert _get(standings, fresh).status_code == 304


# The pages a signed-in director walks, by kind: the desk, the tournament's pages, the API.
SIGNED_IN_PAGES = (
    "/desk/",
    "/desk/t/{pk}/",
    "/desk/t/{pk}/entries/",
    "/desk/t/{pk}/tables/",
    "/desk/t/{pk}/clock/",
    "/desk/t/{pk}/busts/",
    "/desk/t/{pk}/payouts/",
    "/desk/t/{pk}/audit/",
    "/desk/schedules/",
    "/deal/",
    "/api/tournaments/{pk}/",
    "/api/tournaments/{pk}/entries/",
)


@pytest.mark.redis
@pytest.mark.django_db
def test_signed_in_pages_answer_while_redis_is_down(server, circuit_clock):
    tournament = seated_tournament(players=9)
    make(DirectorFactory, username="floor", password="a-long-director-password")
    signed_in_before = APIClient()
    signed_in_before.force_login(make(DirectorFactory))

    server.stop()

    signing_in = APIClient()
    answer = signing_in.post(
        "/login/", {"username": "floor", "password": "a-long-director-password"}
    )
    assert answer.status_code == 302
    for client in (signed_in_before, signing_in):
        for page in SIGNED_IN_PAGES:
            url = page.format(pk=tournament.pk)
            later(circuit_clock)
            shown = _timed(lambda url=url, client=client: client.get(url))
            assert shown.status_code == 200, url


@pytest.mark.redis
@pytest.mark.django_db
def test_a_hung_redis_costs_one_short_timeout_not_one_per_request(server, settings, monkeypatch):
    tournament = seated_tournament(players=9)
    director = APIClient()
    director.force_login(make(DirectorFactory))

    def ten_requests() -> None:
        for _ in range(5):
            assert _get(f"/t/{tournament.pk}/").status_code == 200
            assert director.get(f"/desk/t/{tournament.pk}/").status_code == 200

    # Every wait of the requests for an answer from Redis, and how long it took. Counted rather
    # than read off the requests' total time, which a busy machine (another test process
    # running Chromium) stretches by more than a timeout. The cache's own thread that retries
    # deleting stale keys is not a request's wait.
    requests = threading.current_thread()
    waits: list[float] = []
    read = redis.connection.AbstractConnection.read_response

    def timed_read(connection: Any, *args: Any, **kwargs: Any) -> Any:
        start = time.monotonic()
        try:
            return read(connection, *args, **kwargs)
        finally:
            if threading.current_thread() is requests:
                waits.append(time.monotonic() - start)

    ten_requests()  # with Redis answering: its connections made, the pages' queries warm
    with monkeypatch.context() as patch:
        patch.setattr(redis.connection.AbstractConnection, "read_response", timed_read)
        server.freeze()
        try:
            ten_requests()
        finally:
            server.thaw()

    # One timeout opens the circuit: of the ten requests, one waits for Redis, for one short
    # timeout; the others do not ask it.
    timeout = settings.CACHE_REDIS_OPTIONS["socket_timeout"]
    assert len(waits) == 1, waits
    assert timeout * 0.9 <= waits[0] < SLOW_SECONDS


@pytest.mark.parametrize("error", [redis.ConnectionError("refused"), redis.TimeoutError("slow")])
def test_a_redis_error_that_reaches_a_view_answers_503_with_a_sentence(error):
    page = OutageMiddleware(lambda request: None).process_exception(
        RequestFactory().get("/desk/"), error
    )
    api = floor_exception_handler(error, {"request": RequestFactory().get("/api/tournaments/")})

    assert page is not None
    assert page.status_code == 503
    assert b"Try again" in page.content
    assert api is not None
    assert api.status_code == 503
    assert api.data["code"] == "unavailable"


@pytest.mark.django_db(transaction=True)
def test_a_task_the_broker_refuses_after_commit_leaves_the_write_answered_2xx(
    settings, monkeypatch, director
):
    from celery import current_app

    tournament = seated_tournament(players=9, now=timezone.now())
    director.post(f"/desk/t/{tournament.pk}/clock/pause/", once())
    settings.CELERY_TASK_ALWAYS_EAGER = False  # the clock sends its next level to the broker

    def refused(*args: Any, **kwargs: Any) -> None:
        raise BrokerError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setattr(current_app, "send_task", refused)
    answer = director.post(f"/api/tournaments/{tournament.pk}/clock/resume/", {}, format="json")

    assert answer.status_code == 200
    assert Tournament.objects.get(pk=tournament.pk).clock_ends_at is not None  # running again


@pytest.mark.redis
@pytest.mark.django_db
def test_healthz_still_names_the_cache_failed_while_redis_is_down(server, client):
    server.stop()

    answer = client.get("/healthz")

    assert answer.status_code == 503
    assert answer.json()["checks"]["cache"] == "failed"


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_dealers_tablet_reads_and_starts_a_hand_while_redis_is_down(server, circuit_clock):
    tournament = seated_tournament(players=6)
    table = Table.objects.get(tournament=tournament, number=1)
    dealer = APIClient()
    dealer.force_login(assign_dealer(table))

    server.stop()

    for url in ("/deal/", f"/deal/table/{table.pk}/", f"/deal/table/{table.pk}/state/"):
        later(circuit_clock)
        assert _timed(lambda url=url: dealer.get(url)).status_code == 200, url
    started = _timed(
        lambda: dealer.post(f"/api/tables/{table.pk}/hands/", {"client_id": "s"}, format="json")
    )
    assert started.status_code == 201
    assert Hand.objects.filter(table=table).count() == 1
    # The tablet resends (its answer was lost): the hand it started, as with Redis up.
    again = dealer.post(f"/api/tables/{table.pk}/hands/", {"client_id": "s"}, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "hand_in_progress"
    assert again.json()["state"] == started.json()
    assert Hand.objects.filter(table=table).count() == 1


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_version_a_write_left_in_redis_is_deleted_once_it_is_back_without_another_request(
    server,
):
    tournament = seated_tournament(players=6)
    director = APIClient()
    director.force_login(make(DirectorFactory))
    standings = f"/api/tournaments/{tournament.pk}/standings/"
    tag = _get(standings)["ETag"]
    assert _get(standings, tag).status_code == 304
    key = cache.make_key(version_key(tournament.pk))
    entry = Entry.objects.filter(tournament=tournament, status="active").first()
    assert entry is not None

    server.stop()
    answer = director.put(f"/api/entries/{entry.pk}/chips/", {"chips": 1234}, format="json")
    assert answer.status_code == 200
    server.start()

    # Another web process would read the old version from here: this one deletes it by itself.
    raw = redis.Redis(port=server.port)
    try:
        wait_until(lambda: not raw.exists(key), timeout=10, what="the stale version deleted")
    finally:
        raw.close()
