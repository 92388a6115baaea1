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
def _sign_in_throttle_reset() -> None:
    """The API's sign-in throttle (20 a minute from one client) counts in the cache, which
    outlives a test: each test starts with the test client's address unthrottled."""
    from django.core.cache import cache

    cache.delete("throttle_sign_in_127.0.0.1")
