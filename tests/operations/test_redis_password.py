"""The Redis user that docs/operations.md gives the service is enough for it: the cache (signed
values, the fast 304s, sessions) and the Celery broker work through `REDIS_URL` with that user
and password, on a Redis of the test's own configured with the documented lines."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from kombu import Connection
from rest_framework.test import APIClient

from config.cache import circuits_reset
from tests.factories import DirectorFactory, make, seated_tournament
from tests.operations.servers import PrivateRedis

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a-long-random-password"


def documented_acl() -> str:
    """The `redis.conf` lines of docs/operations.md's Redis section (the block of `user` lines)."""
    text = (ROOT / "docs" / "operations.md").read_text()
    blocks = re.findall(r"```\n(user default off\n.*?)```", text, re.DOTALL)
    assert len(blocks) == 1, "docs/operations.md has one block of Redis user lines"
    return blocks[0]


@pytest.fixture
def server(tmp_path, settings) -> Iterator[PrivateRedis]:
    with PrivateRedis(tmp_path, config=documented_acl()) as own:
        url = f"redis://floordesk:{PASSWORD}@127.0.0.1:{own.port}/0"
        settings.CACHES = {
            "default": {
                "BACKEND": "config.cache.TolerantRedisCache",
                "LOCATION": url,
                "KEY_PREFIX": "acl",
                "OPTIONS": settings.CACHE_REDIS_OPTIONS,
            }
        }
        settings.CELERY_BROKER_URL = url
        circuits_reset()
        yield own
    circuits_reset()


@pytest.mark.redis
def test_the_documented_redis_refuses_a_client_without_the_password(server):
    stranger = redis.Redis(port=server.port)
    with pytest.raises(redis.AuthenticationError):
        stranger.set("floordesk:tournament-version:1", b"planted")
    stranger.close()


@pytest.mark.redis
@pytest.mark.django_db
def test_the_cache_works_with_the_documented_user(server, django_assert_num_queries):
    tournament = seated_tournament(players=6)
    director = APIClient()
    director.force_login(make(DirectorFactory))
    url = f"/api/tournaments/{tournament.pk}/standings/"
    tag = APIClient().get(url)["ETag"]

    with django_assert_num_queries(0):  # the fast 304, from Redis alone
        assert APIClient().get(url, headers={"If-None-Match": tag}).status_code == 304
    assert director.get(f"/desk/t/{tournament.pk}/").status_code == 200
    signed_in = redis.Redis(port=server.port, username="floordesk", password=PASSWORD)
    assert any(b"sessions" in key for key in signed_in.scan_iter(count=1000))
    signed_in.close()


@pytest.mark.redis
def test_the_broker_works_with_the_documented_user(server, settings):
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    with Connection(settings.CELERY_BROKER_URL, transport_options=options) as broker:
        queue = broker.SimpleQueue("acl-check")
        queue.put({"task": "check"})
        message = queue.get(timeout=5)
        assert message.payload == {"task": "check"}
        message.ack()
        queue.close()
