"""API tokens: a tablet signs in once (`POST /api/auth/token/`) and sends `Authorization: Token
<key>` after, with no session and no CSRF token; the permissions are the session's. One token per
sign-in (per device), stored as a digest, expiring when unused, checked on every request."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.crypto import hash_token
from knox.models import AuthToken
from rest_framework.test import APIClient

from config import request_time
from dealer.models import HandEvent
from tests.factories import (
    DealerFactory,
    DirectorFactory,
    UserFactory,
    assign_dealer,
    seated_tournament,
)
from tournaments.models import Device, Table

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


@pytest.fixture
def tables():
    tournament = seated_tournament(players=12)
    return list(Table.objects.filter(tournament=tournament).order_by("number")[:2])


def sign_in(username: str, password: str = "pw") -> APIClient:
    response = APIClient(enforce_csrf_checks=True).post(
        "/api/auth/token/", {"username": username, "password": password}, format="json"
    )
    assert response.status_code == 200, response.json()
    client = APIClient(enforce_csrf_checks=True)  # a token needs no CSRF token
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client


def start(client: APIClient, table: Table) -> tuple[int, dict]:
    response = client.post(f"/api/tables/{table.pk}/hands/", {"client_id": "s"}, format="json")
    return response.status_code, response.json()


def act(client: APIClient, state: dict, client_id: str = "a") -> tuple[int, dict]:
    body = {"client_id": client_id, "version": state["version"], "action": {"kind": "fold"}}
    response = client.post(f"/api/hands/{state['hand']}/actions/", body, format="json")
    return response.status_code, response.json()


def test_a_dealers_token_writes_to_their_table_and_is_refused_on_another(tables):
    mine, other = tables
    dealer = assign_dealer(mine)
    tablet = sign_in(dealer.username)
    status, state = start(tablet, mine)
    assert status == 201
    status, answer = act(tablet, state)
    assert status == 200
    assert answer["version"] == 1
    assert HandEvent.objects.get(hand=state["hand"]).actor == dealer

    director = APIClient()
    director.force_login(DirectorFactory())
    status, theirs = start(director, other)
    assert status == 201
    status, refused = act(tablet, theirs)
    assert status == 403
    assert refused["code"] == "permission_denied"
    assert start(tablet, other)[0] == 403
    assert not HandEvent.objects.filter(hand=theirs["hand"]).exists()


def test_each_sign_in_gets_a_token_of_its_own_with_its_device_and_expiry(tables):
    dealer = assign_dealer(tables[0])
    first = APIClient().post(
        "/api/auth/token/",
        {"username": dealer.username, "password": "pw", "device": "Table 1 tablet"},
        format="json",
    )
    again = APIClient().post(
        "/api/auth/token/", {"username": dealer.username, "password": "pw"}, format="json"
    )
    assert first.status_code == again.status_code == 200
    assert first.json()["token"] != again.json()["token"]  # one per device
    assert first.json()["expires"] is not None
    assert Device.objects.get(pk=first.json()["device"]).label == "Table 1 tablet"
    tablet = sign_in(dealer.username)
    assert tablet.get(f"/api/tables/{tables[0].pk}/hands/").status_code == 200


def test_only_a_digest_of_the_token_is_stored(tables):
    dealer = assign_dealer(tables[0])
    answer = APIClient().post(
        "/api/auth/token/", {"username": dealer.username, "password": "pw"}, format="json"
    )
    key = answer.json()["token"]
    stored = AuthToken.objects.get(user=dealer)
    assert key not in (stored.digest, stored.token_key)
    assert stored.digest == hash_token(key)


def test_a_token_unused_for_its_lifetime_is_refused(tables, settings):
    tablet = sign_in(assign_dealer(tables[0]).username)
    AuthToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))
    response = tablet.get(f"/api/tables/{tables[0].pk}/hands/")
    assert (response.status_code, response.json()["code"]) == (403, "authentication_failed")
    assert not AuthToken.objects.exists()


def test_an_active_token_moves_its_expiry_on_at_most_every_refresh_interval(tables):
    tablet = sign_in(assign_dealer(tables[0]).username)
    url = f"/api/tables/{tables[0].pk}/hands/"
    issued = AuthToken.objects.get().expiry
    with CaptureQueriesContext(connection) as context:
        assert tablet.get(url).status_code == 200
    assert not [q for q in context if q["sql"].startswith("UPDATE")]  # just issued: no write
    AuthToken.objects.update(expiry=issued - timedelta(hours=1))
    assert tablet.get(url).status_code == 200
    assert AuthToken.objects.get().expiry > issued - timedelta(minutes=1)


def test_signing_out_revokes_only_the_token_that_signs_out(tables):
    dealer = assign_dealer(tables[0])
    first, second = sign_in(dealer.username), sign_in(dealer.username)
    assert first.delete("/api/auth/token/").status_code == 204
    url = f"/api/tables/{tables[0].pk}/hands/"
    assert first.get(url).status_code == 403
    assert second.get(url).status_code == 200
    session = APIClient()
    session.force_login(dealer)
    assert session.delete("/api/auth/token/").status_code == 403  # a session has no token


def test_without_a_token_or_with_a_wrong_one_the_api_answers_403(tables):
    table = tables[0]
    status, body = start(APIClient(enforce_csrf_checks=True), table)
    assert (status, body["code"]) == (403, "not_authenticated")
    forged = APIClient(enforce_csrf_checks=True)
    forged.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    status, body = start(forged, table)
    assert (status, body["code"]) == (403, "authentication_failed")
    assert body["detail"] == "Invalid token."
    empty = APIClient()
    empty.credentials(HTTP_AUTHORIZATION="Token")
    assert start(empty, table)[0] == 403


def test_a_wrong_password_gets_no_token_and_an_inactive_users_token_stops_working(tables):
    dealer = assign_dealer(tables[0])
    wrong = APIClient().post(
        "/api/auth/token/", {"username": dealer.username, "password": "nope"}, format="json"
    )
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "invalid"
    tablet = sign_in(dealer.username)
    dealer.is_active = False
    dealer.save()
    status, body = start(tablet, tables[0])
    assert (status, body["code"]) == (403, "authentication_failed")


def test_a_token_carries_the_users_role_not_more(tables):
    plain = sign_in(UserFactory().username)  # neither director nor dealer
    assert plain.get(f"/api/tables/{tables[0].pk}/hands/").status_code == 403
    dealer = sign_in(DealerFactory().username)  # a dealer, but of no table
    assert start(dealer, tables[0])[0] == 403
    director = sign_in(DirectorFactory().username)
    assert start(director, tables[0])[0] == 201


def test_the_session_still_needs_its_csrf_token_on_writes(tables):
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(DirectorFactory())
    status, body = start(browser, tables[0])
    assert status == 403
    assert "CSRF" in body["detail"]


def sign_in_queries(client: APIClient, url: str) -> list[str]:
    """The queries that read the user, the token or the groups while `client` gets `url`."""
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return [q["sql"] for q in context if "auth_" in q["sql"] or "knox_" in q["sql"]]


def test_a_token_and_its_users_role_cost_one_query_on_every_request(tables):
    tablet = sign_in(assign_dealer(tables[0]).username)
    url = f"/api/tables/{tables[0].pk}/hands/"
    assert len(sign_in_queries(tablet, url)) == 1
    assert len(sign_in_queries(tablet, url)) == 1  # nothing remembered between requests
    plain = sign_in(UserFactory().username)  # the role is still checked: not a dealer
    assert plain.get(url).status_code == 403


def test_a_session_and_its_users_role_cost_one_query_too(tables):
    dealer = assign_dealer(tables[0])
    browser = APIClient()
    browser.force_login(dealer)
    url = f"/api/tables/{tables[0].pk}/hands/"
    assert len(sign_in_queries(browser, url)) == 1


def test_a_revoked_token_is_refused_at_once(tables):
    director = DirectorFactory()
    tablet = sign_in(director.username)
    assert start(tablet, tables[0])[0] == 201
    AuthToken.objects.filter(user=director).delete()  # as the admin's delete does
    status, body = start(tablet, tables[1])
    assert (status, body["code"]) == (403, "authentication_failed")


def test_a_dealer_taken_out_of_the_group_is_refused_at_once_by_this_process(tables):
    from django.contrib.auth.models import Group

    dealer = assign_dealer(tables[0])
    tablet = sign_in(dealer.username)
    url = f"/api/tables/{tables[0].pk}/hands/"
    assert tablet.get(url).status_code == 200  # remembered, with the dealer's groups
    dealer.groups.remove(Group.objects.get(name="dealer"))  # no save of the user: m2m only
    response = tablet.get(url)
    assert (response.status_code, response.json()["code"]) == (403, "authentication_failed")
