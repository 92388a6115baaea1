"""Fixtures every test package shares. A module that needs something else (a director at a
frozen time, a page client with its own set-up) defines its own fixture of the same name."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import DirectorFactory, make


@pytest.fixture
def director() -> APIClient:
    """A client signed in as a tournament director, for the API and the pages alike (an
    `APIClient` is Django's test client with JSON helpers)."""
    client = APIClient()
    client.force_login(make(DirectorFactory))
    return client


@pytest.fixture(autouse=True)
def _throttles_reset() -> None:
    """The rates per client (sign-ins, 20 a minute; joining a waiting list, 60 an hour) count in
    the cache, which outlives a test: each test starts with the test client's address (the
    live server's too) unthrottled."""
    from django.core.cache import cache

    cache.delete_many([f"throttle_{scope}_127.0.0.1" for scope in ("sign_in", "list_join")])
