"""Sign-in that a stranger cannot use against staff (issue 23). Failures lock an account on one
client only (django-axes, keyed on the account and the address together); an account failing
from many clients is slowed down, never locked: each client that has failed on it waits longer
and longer before it may try again (429 with Retry-After), while a client that has not failed
signs in at once with the right password. Tokens already given keep working throughout."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import DirectorFactory, make

pytestmark = pytest.mark.django_db

STRANGER, DIRECTORS_DESK = "10.6.0.66", "10.6.0.1"


@pytest.fixture(autouse=True)
def _throttles_reset() -> None:
    """The per-client sign-in rate counts in the cache, which outlives a test."""
    cache.delete_many(
        [f"throttle_sign_in_10.6.{a}.{b}" for a in range(0, 3) for b in range(0, 100)]
    )


def token(username: str, password: str, address: str) -> Any:
    return APIClient(REMOTE_ADDR=address).post(
        "/api/auth/token/", {"username": username, "password": password}, format="json"
    )


def page(username: str, password: str, address: str) -> Any:
    return APIClient(REMOTE_ADDR=address).post(
        "/login/", {"username": username, "password": password}
    )


def time_passes(seconds: float) -> None:
    """The failures recorded so far happened `seconds` earlier (axes reads the real clock)."""
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(seconds=seconds))


@pytest.mark.parametrize("door", [token, page])
def test_a_strangers_failures_do_not_lock_the_director_out_of_another_client(door: Any) -> None:
    director = make(DirectorFactory)
    failures = [door(director.username, "wrong", STRANGER).status_code for _ in range(6)]

    assert failures[-1] == 429  # the stranger's client is locked on this account
    assert door(director.username, "pw", STRANGER).status_code == 429
    signed_in = door(director.username, "pw", DIRECTORS_DESK)
    assert signed_in.status_code == (200 if door is token else 302)


def test_the_locked_client_is_told_why_and_when_to_retry() -> None:
    director = make(DirectorFactory)
    for _ in range(5):
        token(director.username, "wrong", STRANGER)

    refused = token(director.username, "pw", STRANGER)

    assert refused.status_code == 429
    assert refused.json() == {
        "code": "too_many_attempts",
        "detail": "Too many failed sign-ins for this account from this device. "
        "Try again in 15 minutes, or ask a director to unlock it.",
    }
    assert refused["Retry-After"] == "900"


def test_failures_from_many_clients_slow_the_account_down_without_locking_it() -> None:
    director = make(DirectorFactory)
    # Twelve clients fail once each: past the tenth failure the account is slowed.
    for n in range(12):
        assert token(director.username, "wrong", f"10.6.1.{n}").status_code == 400
    time_passes(0)  # all of them just now: 8 s to wait for each (2 s at ten, doubling)
    again = token(director.username, "wrong", "10.6.1.0")  # a client that failed: it waits
    assert again.status_code == 429
    assert again.json()["code"] == "slowed_down"
    wait = int(again["Retry-After"])
    assert wait >= 1
    assert token(director.username, "pw", "10.6.1.1").status_code == 429  # even the right one
    # A client that has not failed signs in at once: the account is not locked.
    assert token(director.username, "pw", "10.6.2.1").status_code == 200
    assert wait <= 8
    # Once the wait is over, the failed clients may try again.
    time_passes(wait + 1)
    assert token(director.username, "pw", "10.6.1.0").status_code == 200
    assert token(director.username, "pw", "10.6.1.1").status_code == 200


def test_the_wait_grows_with_the_accounts_failures() -> None:
    director = make(DirectorFactory)
    for n in range(10):
        token(director.username, "wrong", f"10.6.1.{n}")
    waits = []
    for n in range(10, 15):
        assert token(director.username, "wrong", f"10.6.1.{n}").status_code == 400
        slowed = token(director.username, "wrong", f"10.6.1.{n}")
        assert slowed.status_code == 429
        waits.append(int(slowed["Retry-After"]))

    assert waits == sorted(waits)
    assert waits[-1] > waits[0] >= 1


def test_a_token_keeps_working_while_the_account_is_locked_and_slowed() -> None:
    director = make(DirectorFactory)
    key = token(director.username, "pw", DIRECTORS_DESK).json()["token"]
    for n in range(12):
        for _ in range(5):
            token(director.username, "wrong", f"10.6.1.{n}")

    tablet = APIClient(HTTP_AUTHORIZATION=f"Token {key}", REMOTE_ADDR=DIRECTORS_DESK)

    assert tablet.get("/api/auth/devices/").status_code == 200
