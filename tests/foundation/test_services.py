"""The real services, when configured.

On CI ``REQUIRE_SERVICES=1``: then PostgreSQL and Redis must be there, and these tests fail
(never skip) when they are not. Elsewhere they skip when the service is not configured.
"""

import uuid

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from tests.required import REQUIRED


@pytest.mark.postgres
@pytest.mark.django_db
def test_database_is_postgresql_when_required() -> None:
    if connection.vendor != "postgresql":
        if REQUIRED:
            pytest.fail(
                f"REQUIRE_SERVICES=1 but the database is {connection.vendor}: set DATABASE_URL "
                "to PostgreSQL (postgres://user@host:5432/name)."
            )
        pytest.skip("DATABASE_URL is not PostgreSQL")

    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    assert version.startswith("PostgreSQL")


@pytest.mark.redis
def test_redis_answers_ping_when_required() -> None:
    if not settings.REDIS_URL:
        if REQUIRED:
            pytest.fail("REQUIRE_SERVICES=1 but REDIS_URL is not set.")
        pytest.skip("REDIS_URL is not set")

    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=5)
    try:
        assert client.ping() is True
    finally:
        client.close()

    key = f"foundation-check-{uuid.uuid4()}"
    cache.set(key, "ok", timeout=30)
    assert cache.get(key) == "ok"
    cache.delete(key)
