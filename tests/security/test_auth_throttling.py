"""Sign-in is throttled (issue 12): a client trying too many sign-ins, or guessing one account's
password, is refused with 429 and a sentence a director understands, before any more passwords
are hashed, on the sign-in page, the admin's sign-in and the API's token endpoint; a director
unlocks. One client is limited by a rate, not locked out: a venue's tablets behind one address
must not be locked out by one dealer's typos (devices are locked too only with
SIGN_IN_LOCK_DEVICES=1). Since issue 23 an account is locked on the failing client only, and
slowed down when it fails from many (tests/security/test_auth_lockout_policy.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.factories import DealerFactory, DirectorFactory, make

pytestmark = pytest.mark.django_db

REFUSAL = (
    "Too many failed sign-ins for this account from this device. "
    "Try again in 15 minutes, or ask a director to unlock it."
)


_USED: set[str] = set()


@pytest.fixture(autouse=True)
def _throttles_reset() -> None:
    """The throttle counts in the cache, which outlives a test: every address starts afresh."""
    cache.delete_many([f"throttle_sign_in_{address}" for address in _USED | {"127.0.0.1"}])


def token(username: str, password: str, address: str = "10.0.0.1") -> Any:
    _USED.add(address)
    return APIClient(REMOTE_ADDR=address).post(
        "/api/auth/token/", {"username": username, "password": password}, format="json"
    )


def page_sign_in(path: str, username: str, password: str, address: str = "10.0.0.1") -> Any:
    return APIClient(REMOTE_ADDR=address).post(path, {"username": username, "password": password})


def test_100_wrong_passwords_then_the_right_one_is_refused_by_the_token_endpoint():
    dealer = make(DealerFactory)
    for _ in range(100):
        assert token(dealer.username, "wrong").status_code in (400, 429)
    right = token(dealer.username, "pw")
    assert right.status_code == 429
    assert right.json()["code"] in ("too_many_attempts", "throttled")
    assert int(right["Retry-After"]) > 0


def test_one_client_guessing_many_accounts_is_stopped_by_the_rate_on_every_door():
    # 20 tries a minute from one client, whatever the accounts: then 429 on the API ...
    answers = [token(make(DealerFactory).username, "wrong").status_code for _ in range(21)]
    assert answers[:20] == [400] * 20
    assert answers[20] == 429
    other = make(DealerFactory)
    assert token(other.username, "pw").json()["code"] == "throttled"
    assert token(other.username, "pw", address="10.0.0.2").status_code == 200
    # ... and on the pages' sign-in doors, counted per client as well.
    for path in ("/login/", "/admin/login/"):
        address = f"10.0.7.{len(path)}"
        _USED.add(address)
        pages = [page_sign_in(path, f"nobody{n}", "wrong", address) for n in range(21)]
        assert [page.status_code for page in pages[:20]] == [200] * 20
        assert pages[20].status_code == 429
        assert "Too many sign-ins from this device." in pages[20].content.decode()
        assert int(pages[20]["Retry-After"]) > 0


def test_one_dealers_typos_do_not_lock_out_the_venue_behind_one_address():
    dealer, director = make(DealerFactory), make(DirectorFactory)
    for _ in range(5):
        token(dealer.username, "wrong")
    assert token(dealer.username, "pw").json()["code"] == "too_many_attempts"
    # Another account from the same address (the same NAT) still signs in.
    assert token(director.username, "pw").status_code == 200


def test_the_token_endpoint_takes_20_sign_ins_a_minute_from_one_client(settings):
    dealer = make(DealerFactory)
    answers = [token(dealer.username, "pw").status_code for _ in range(21)]
    assert answers[:20] == [200] * 20
    refused = token(dealer.username, "pw")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert refused.json()["detail"].startswith("Too many sign-ins from this device.")
    assert int(refused["Retry-After"]) > 0


def test_the_sign_in_page_refuses_a_locked_account_with_429_and_the_reason():
    director = make(DirectorFactory)
    answers = [
        page_sign_in("/login/", director.username, "wrong", "10.0.3.1").status_code
        for _ in range(5)
    ]
    assert answers == [200, 200, 200, 200, 429]
    page = page_sign_in("/login/", director.username, "pw", "10.0.3.1")
    assert page.status_code == 429
    assert REFUSAL in page.content.decode()
    assert "_auth_user_id" not in page.client.session
    # Locked on that client only: from another, the director signs in.
    assert page_sign_in("/login/", director.username, "pw", "10.0.4.1").status_code == 302


def test_the_admins_sign_in_is_locked_too():
    director = make(DirectorFactory)
    for _ in range(5):
        page_sign_in("/admin/login/", director.username, "wrong")
    page = page_sign_in("/admin/login/", director.username, "pw")
    assert page.status_code == 429
    assert REFUSAL in page.content.decode()


def test_a_director_unlocks_an_account_from_the_desk_and_the_api():
    dealer = make(DealerFactory)
    for _ in range(5):
        token(dealer.username, "wrong", address="10.0.5.1")
    desk = APIClient()
    desk.force_login(make(DirectorFactory))
    listed = desk.get("/api/auth/lockouts/").json()
    locked = f"account_device:{dealer.username}:10.0.5.1"
    assert [(row["id"], row["address"], row["failures"]) for row in listed] == [
        (locked, "10.0.5.1", 5)
    ]
    assert dealer.username in desk.get("/desk/access/").content.decode()

    answer = desk.post(f"/desk/access/lockouts/{locked}/unlock/")
    assert answer.status_code == 302
    assert token(dealer.username, "pw", address="10.0.5.1").status_code == 200
    assert desk.get("/api/auth/lockouts/").json() == []


def test_a_director_ends_an_accounts_slowdown_through_the_api():
    dealer = make(DealerFactory)
    for n in range(12):
        token(dealer.username, "wrong", address=f"10.0.8.{n}")
    assert token(dealer.username, "pw", address="10.0.8.11").json()["code"] == "slowed_down"
    desk = APIClient()
    desk.force_login(make(DirectorFactory))
    listed = desk.get("/api/auth/lockouts/").json()
    assert [(row["id"], row["kind"], row["failures"]) for row in listed] == [
        (f"account:{dealer.username}", "account", 12)
    ]
    assert desk.delete(f"/api/auth/lockouts/account:{dealer.username}/").status_code == 204
    assert token(dealer.username, "pw", address="10.0.8.11").status_code == 200


def test_with_device_lockouts_on_a_director_unlocks_a_device_through_the_api(settings):
    settings.AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]  # =1
    for _ in range(5):
        token(make(DealerFactory).username, "wrong")
    refused = token(make(DealerFactory).username, "pw")
    assert refused.json() == {
        "code": "too_many_attempts",
        "detail": "Too many failed sign-ins for this account from this device, or from this "
        "device on several accounts. Try again in 15 minutes, or ask a director to unlock it.",
    }
    desk = APIClient()
    desk.force_login(make(DirectorFactory))
    assert [row["id"] for row in desk.get("/api/auth/lockouts/").json()] == ["device:10.0.0.1"]
    assert desk.delete("/api/auth/lockouts/device:10.0.0.1/").status_code == 204
    assert token(make(DealerFactory).username, "pw").status_code == 200


def test_only_directors_see_and_unlock_lockouts():
    dealer = APIClient()
    dealer.force_login(make(DealerFactory))
    assert dealer.get("/api/auth/lockouts/").status_code == 403
    assert dealer.delete("/api/auth/lockouts/account:x/").status_code == 403
    assert dealer.get("/desk/access/").status_code == 403
