"""A pickle planted in Redis is never run (issue 23: an anonymous `GET /t/1/` with
`If-None-Match` ran one).

The keys are not listed by hand: a first round of requests (the public pages and their polls,
the API's standings and clock, a director signing in and walking the desk, the token endpoint's
throttle) records every key the app reads from Redis; a pickle whose unpickling would make a
directory is then planted at each of them, and the same requests run again. None may run it,
and each answers what the database says (the same status, the same JSON).
"""

from __future__ import annotations

import os
import pickle
import re
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient

from config.cache import SignedSerializer, UnsignedValueError
from tests.factories import DirectorFactory, make, seated_tournament
from tests.required import REQUIRED

ROOT = Path(__file__).resolve().parents[2]
CACHED_CALL = re.compile(r"\bcached\(\s*tournament,\s*f?\"([\w-]+)")


class Planted:
    """Unpickling it makes the directory `marker`."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.mkdir, (str(self.marker),))


@pytest.fixture
def redis_client() -> Iterator[redis.Redis]:
    if not settings.REDIS_URL:
        if REQUIRED:
            pytest.fail("REQUIRE_SERVICES=1 but REDIS_URL is not set.")
        pytest.skip("REDIS_URL is not set")
    client = redis.Redis.from_url(settings.REDIS_URL)
    yield client
    client.close()


@pytest.fixture
def keys_read(monkeypatch) -> set[str]:
    """Every key read through redis-py while the test runs (GET, MGET, EXISTS)."""
    seen: set[str] = set()

    def recording(name: str) -> None:
        original = getattr(redis.Redis, name)

        def read(self, *keys: Any, **options: Any) -> Any:
            for named in keys:
                for key in [named] if isinstance(named, str | bytes) else named:
                    seen.add(key.decode() if isinstance(key, bytes) else str(key))
            return original(self, *keys, **options)

        monkeypatch.setattr(redis.Redis, name, read)

    for name in ("get", "mget", "exists"):
        recording(name)
    return seen


def _round(tournament_pk: int, director: APIClient, tags: dict[str, str]) -> dict[str, Any]:
    """The requests of one round: status (and JSON where there is) by request name."""
    anonymous = APIClient()
    answers: dict[str, Any] = {}
    for url in (
        f"/t/{tournament_pk}/",
        f"/t/{tournament_pk}/state/",
        f"/t/{tournament_pk}/payouts/",
        f"/api/tournaments/{tournament_pk}/standings/",
        f"/api/tournaments/{tournament_pk}/clock/",
        f"/api/tournaments/{tournament_pk}/board/",
        f"/t/{tournament_pk}/live/state/",
        f"/t/{tournament_pk}/live.atom",
        f"/api/tournaments/{tournament_pk}/live/",
    ):
        first = anonymous.get(url, headers={"If-None-Match": tags.get(url, '"none"')})
        if first.status_code == 200 and first.has_header("ETag"):
            tags.setdefault(url, first["ETag"])
        again = anonymous.get(url, headers={"If-None-Match": tags.get(url, '"none"')})
        answers[url] = (again.status_code, _json(again))
    for url in ("/desk/", f"/desk/t/{tournament_pk}/", f"/api/tournaments/{tournament_pk}/"):
        answer = director.get(url)
        answers[url] = (answer.status_code, _json(answer))
    refused = APIClient().post(
        "/api/auth/token/", {"username": "nobody", "password": "wrong"}, format="json"
    )
    answers["token"] = refused.status_code
    return answers


def cached_names() -> set[str]:
    """The names the runtime code keeps answers under with `cached(tournament, name, ...)`
    (an f-string's up to its first brace)."""
    names: set[str] = set()
    for package in ("common", "config", "dealer", "tournaments"):
        for path in (ROOT / package).rglob("*.py"):
            names |= set(CACHED_CALL.findall(path.read_text(encoding="utf-8")))
    return names


def _json(response: Any) -> Any:
    if response.get("Content-Type", "").startswith("application/json"):
        return response.json()
    return None


@pytest.mark.redis
@pytest.mark.django_db
def test_a_pickle_planted_at_every_key_the_app_reads_is_never_run(
    redis_client, keys_read, tmp_path
):
    tournament = seated_tournament(players=9, bounty_kind="fixed", bounty=Decimal("20"))
    director = APIClient()
    director.force_login(make(DirectorFactory))
    tags: dict[str, str] = {}
    prefix = cache.make_key("")

    before = _round(tournament.pk, director, tags)
    ours = {key for key in keys_read if key.startswith(prefix)}
    # The enumeration reached every kind of key the app keeps in Redis.
    kinds = {
        "tournament-version": "a tournament's version",
        "not-modified": "a remembered ETag",
        "floordesk:t.": "an answer kept by `cached`",
        "django.contrib.sessions": "a session",
        "throttle_sign_in": "a throttle",
    }
    for part, what in kinds.items():
        assert any(part in key for key in ours), f"no {what} was read: {sorted(ours)}"
    assert "public-state" in cached_names()  # the search finds the calls
    for name in cached_names():
        assert any(f".{name}" in key for key in ours), f"`cached` {name!r} was not read"

    marker = tmp_path / "planted-pickle-ran"
    planted = pickle.dumps(Planted(marker))
    for key in ours:
        redis_client.set(key, planted, ex=60)
    keys_read.clear()
    after = _round(tournament.pk, director, tags)

    assert not marker.exists()
    assert after == before
    # The planted values read again were thrown away, or replaced by signed ones.
    assert keys_read & ours
    for key in keys_read & ours:
        assert redis_client.get(key) != planted, key


def test_a_signed_value_reads_back_and_an_int_stays_raw_for_incr():
    serializer = SignedSerializer()

    assert serializer.dumps(7) == 7
    assert serializer.loads(b"7") == 7
    assert serializer.loads(serializer.dumps({"etag": '"t.1"', "n": [1, 2]})) == {
        "etag": '"t.1"',
        "n": [1, 2],
    }


def test_an_unsigned_pickle_is_refused_without_being_unpickled(tmp_path):
    marker = tmp_path / "ran"

    with pytest.raises(UnsignedValueError):
        SignedSerializer().loads(pickle.dumps(Planted(marker)))

    assert not marker.exists()


def test_a_pickle_signed_with_another_key_is_refused_and_a_retired_key_still_reads(
    settings, tmp_path
):
    marker = tmp_path / "ran"
    retired = "retired-deployment-key-" + "k" * 40
    settings.SECRET_KEY = retired
    foreign = SignedSerializer().dumps(Planted(marker))
    kept = SignedSerializer().dumps("kept")
    settings.SECRET_KEY = "this-deployment-key-" + "k" * 40

    with pytest.raises(UnsignedValueError):
        SignedSerializer().loads(foreign)
    assert not marker.exists()

    settings.SECRET_KEY_FALLBACKS = [retired]
    assert SignedSerializer().loads(kept) == "kept"
