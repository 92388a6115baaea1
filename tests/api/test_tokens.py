"""API tokens: a tablet signs in once (`POST /api/auth/token/`) and sends `Authorization: Token
<key>` after, with no session and no CSRF token; the permissions are the session's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
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
from tournaments.models import Table

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


def test_the_same_user_gets_the_same_token_and_reads_with_it(tables):
    dealer = assign_dealer(tables[0])
    first = APIClient().post(
        "/api/auth/token/", {"username": dealer.username, "password": "pw"}, format="json"
    )
    again = APIClient().post(
        "/api/auth/token/", {"username": dealer.username, "password": "pw"}, format="json"
    )
    assert first.json() == again.json()
    tablet = sign_in(dealer.username)
    assert tablet.get(f"/api/tables/{tables[0].pk}/hands/").status_code == 200


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


def token_queries(client: APIClient, url: str) -> int:
    """How many queries read a token while `client` gets `url` (200)."""
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return sum("authtoken_token" in query["sql"] for query in context.captured_queries)


def test_a_checked_token_costs_no_query_until_its_time_is_up(tables, monkeypatch):
    from config import authentication

    tablet = sign_in(DirectorFactory().username)
    url = f"/api/tables/{tables[0].pk}/hands/"
    assert token_queries(tablet, url) == 1  # checked against the database, remembered
    assert token_queries(tablet, url) == 0

    clock = authentication.time.monotonic() + authentication.settings.API_TOKEN_CACHE_SECONDS + 1
    monkeypatch.setattr(authentication.time, "monotonic", lambda: clock)
    assert token_queries(tablet, url) == 1


def test_a_deleted_token_is_refused_at_once_by_the_worker_that_deleted_it(tables):
    from rest_framework.authtoken.models import Token

    director = DirectorFactory()
    tablet = sign_in(director.username)
    assert start(tablet, tables[0])[0] == 201  # the token is remembered now
    Token.objects.get(user=director).delete()  # as the admin's delete does
    status, body = start(tablet, tables[1])
    assert (status, body["code"]) == (403, "authentication_failed")


def test_another_worker_refuses_a_deactivated_users_token_once_its_entry_expires(
    tables, monkeypatch
):
    from config import authentication

    dealer = assign_dealer(tables[0])
    tablet = sign_in(dealer.username)
    assert tablet.get(f"/api/tables/{tables[0].pk}/hands/").status_code == 200
    remembered = dict(authentication._CHECKED)
    dealer.is_active = False
    dealer.save()  # this process forgets at once...
    authentication._CHECKED.update(remembered)  # ...another worker still remembers the token
    assert tablet.get(f"/api/tables/{tables[0].pk}/hands/").status_code == 200
    clock = authentication.time.monotonic() + authentication.settings.API_TOKEN_CACHE_SECONDS + 1
    monkeypatch.setattr(authentication.time, "monotonic", lambda: clock)
    response = tablet.get(f"/api/tables/{tables[0].pk}/hands/")
    assert (response.status_code, response.json()["code"]) == (403, "authentication_failed")


def test_a_dealers_remembered_token_costs_no_query_for_the_role_either(tables):
    tablet = sign_in(assign_dealer(tables[0]).username)
    url = f"/api/tables/{tables[0].pk}/hands/"
    assert tablet.get(url).status_code == 200
    with CaptureQueriesContext(connection) as context:
        assert tablet.get(url).status_code == 200
    sign_in_queries = [q["sql"] for q in context if "auth_" in q["sql"] or "authtoken" in q["sql"]]
    assert sign_in_queries == []
    plain = sign_in(UserFactory().username)  # the role is still checked: not a dealer
    assert plain.get(url).status_code == 403
    assert plain.get(url).status_code == 403


def test_a_dealer_taken_out_of_the_group_is_refused_at_once_by_this_process(tables):
    from django.contrib.auth.models import Group

    dealer = assign_dealer(tables[0])
    tablet = sign_in(dealer.username)
    url = f"/api/tables/{tables[0].pk}/hands/"
    assert tablet.get(url).status_code == 200  # remembered, with the dealer's groups
    dealer.groups.remove(Group.objects.get(name="dealer"))  # no save of the user: m2m only
    response = tablet.get(url)
    assert (response.status_code, response.json()["code"]) == (403, "permission_denied")
