"""The director's "Sign-ins and devices" (/desk/access/ and /api/auth/devices/): every device
signed in with a token, revoked one by one or all of a user's at once, by directors only."""

from __future__ import annotations

from typing import Any

import pytest
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests.factories import DealerFactory, DirectorFactory, make
from tournaments.models import AuditEvent

pytestmark = pytest.mark.django_db


def tablet(user: Any, device: str) -> tuple[APIClient, int]:
    answer = APIClient().post(
        "/api/auth/token/",
        {"username": user.username, "password": "pw", "device": device},
        format="json",
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client, answer.json()["device"]


@pytest.fixture
def desk() -> APIClient:
    client = APIClient()
    client.force_login(make(DirectorFactory))
    return client


def test_the_desk_lists_each_device_with_its_label_and_revokes_one(desk):
    dealer = make(DealerFactory)
    first, first_id = tablet(dealer, "Table 3 tablet")
    second, _ = tablet(dealer, "Spare tablet")

    listed = desk.get("/api/auth/devices/").json()
    assert [(row["username"], row["label"]) for row in listed] == [
        (dealer.username, "Table 3 tablet"),
        (dealer.username, "Spare tablet"),
    ]
    assert all(row["expires"] and row["last_used"] for row in listed)
    page = desk.get("/desk/access/").content.decode()
    assert "Table 3 tablet" in page
    assert f"Revoke all of {dealer.username}" in page

    assert desk.post(f"/desk/access/devices/{first_id}/revoke/").status_code == 302
    assert first.delete("/api/auth/token/").status_code == 403  # that token is gone
    assert second.delete("/api/auth/token/").status_code == 204  # the other one still works
    assert AuditEvent.objects.filter(action="device_revoke").count() == 1


def test_the_api_revokes_a_device_and_all_of_a_users(desk):
    dealer = make(DealerFactory)
    _, device_id = tablet(dealer, "a")
    tablet(dealer, "b")
    tablet(dealer, "c")
    assert desk.delete(f"/api/auth/devices/{device_id}/").status_code == 204
    again = desk.delete(f"/api/auth/devices/{device_id}/")
    assert (again.status_code, again.json()["code"]) == (404, "no_such_device")
    answer = desk.delete(f"/api/auth/users/{dealer.pk}/devices/")
    assert (answer.status_code, answer.json()) == (200, {"revoked": 2})
    assert not AuthToken.objects.filter(user=dealer).exists()


def test_the_desk_revokes_all_of_a_users_devices(desk):
    dealer = make(DealerFactory)
    tablet(dealer, "a")
    tablet(dealer, "b")
    assert desk.post(f"/desk/access/users/{dealer.pk}/revoke/").status_code == 302
    assert not AuthToken.objects.filter(user=dealer).exists()


def test_only_directors_see_and_revoke_devices():
    dealer = make(DealerFactory)
    client, device_id = tablet(dealer, "mine")
    assert client.get("/api/auth/devices/").status_code == 403
    assert client.delete(f"/api/auth/devices/{device_id}/").status_code == 403
    assert client.delete(f"/api/auth/users/{dealer.pk}/devices/").status_code == 403
    page = APIClient()
    page.force_login(dealer)
    assert page.post(f"/desk/access/devices/{device_id}/revoke/").status_code == 403
    assert AuthToken.objects.filter(user=dealer).count() == 1
