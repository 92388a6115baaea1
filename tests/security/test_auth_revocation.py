"""A dealer taken out of the dealer group, or a deactivated user, is refused at once by every
front door (issue 12): by the API with a token, and by the tablet page with a session, even in a
web process that checked the same token or session just before; and every token of theirs is
revoked. Nothing about a user is remembered between requests (`config.authentication`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from knox.models import AuthToken
from rest_framework.test import APIClient

from common.roles import DEALER_GROUP, is_dealer
from config import authentication, request_time
from dealer.models import Hand, HandEvent
from tests.factories import DirectorFactory, assign_dealer, seated_tournament
from tournaments.models import AuditEvent, Table

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(request_time, "now", lambda: T0)


@pytest.fixture
def table() -> Table:
    tournament = seated_tournament(players=12)
    return Table.objects.filter(tournament=tournament).order_by("number").first()  # type: ignore[return-value]


@contextmanager
def another_process_remembering() -> Iterator[None]:
    """A change made while another web process holds what it checked before. The code before
    issue 12 kept checked tokens and session users per process for 30 s
    (`config.authentication._CHECKED`) and forgot them only in the process making a change:
    this puts them back, as the other process still had them. Today there is nothing to keep."""
    memo: dict[str, Any] | None = getattr(authentication, "_CHECKED", None)
    remembered = dict(memo) if memo is not None else {}
    yield
    if memo is not None:
        memo.update(remembered)


def token_client(user: Any) -> APIClient:
    answer = APIClient().post(
        "/api/auth/token/",
        {"username": user.username, "password": "pw", "device": "tablet"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client


def api_start(client: APIClient, table: Table) -> int:
    response = client.post(f"/api/tables/{table.pk}/hands/", {"client_id": "s"}, format="json")
    return int(response.status_code)


def current(table: Table) -> dict[str, Any]:
    """The hand in progress and its version, as the tablet shows them (read from the rows: no
    user is made or saved between the change and the requests that follow it)."""
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None
    return {"hand": hand.pk, "version": hand.version}


def api_fold(client: APIClient, table: Table, client_id: str) -> Any:
    state = current(table)
    body = {"client_id": client_id, "version": state["version"], "action": {"kind": "fold"}}
    return client.post(f"/api/hands/{state['hand']}/actions/", body, format="json")


def page_fold(client: APIClient, table: Table, client_id: str) -> Any:
    """The tablet page's fold button, with the session (`dealer.views.tablet.record_action`)."""
    form = {**current(table), "client_id": f"page-tap-{client_id}", "action": "fold"}
    return client.post(f"/deal/table/{table.pk}/action/", form, HTTP_HX_REQUEST="true")


def tablet_checked(table: Table) -> tuple[Any, APIClient, APIClient]:
    """A dealer whose token and tablet page session each wrote a moment ago, in this process
    (which remembered both, before issue 12)."""
    dealer = assign_dealer(table)
    api = token_client(dealer)
    page = APIClient()
    page.force_login(dealer)
    assert api_start(api, table) == 201
    assert api_fold(api, table, "a1").status_code == 200
    assert page_fold(page, table, "p1").status_code == 200
    return dealer, api, page


def events(table: Table) -> int:
    return HandEvent.objects.filter(hand__table=table).count()


def test_a_dealer_taken_out_of_the_group_is_refused_at_once_by_the_api_and_the_tablet(table):
    dealer, api, page = tablet_checked(table)
    written = events(table)
    with another_process_remembering():
        dealer.groups.remove(Group.objects.get(name=DEALER_GROUP))  # as the admin does

    assert api_fold(api, table, "a2").status_code == 403
    assert page_fold(page, table, "p2").status_code == 403
    assert events(table) == written
    assert not AuthToken.objects.filter(user=dealer).exists()  # revoked, not only unused


def test_the_session_users_statement_reads_the_user_and_the_role_on_every_request(table):
    """The session's user comes from a statement built once per process (issue 24): built once,
    it still reads the user and the dealer role from the database at each request."""
    dealer = assign_dealer(table)
    backend = authentication.FloorBackend()
    with CaptureQueriesContext(connection) as queries:
        user = backend.get_user(dealer.pk)
    assert len(queries) == 1
    assert (user, is_dealer(user)) == (dealer, True)

    dealer.groups.remove(Group.objects.get(name=DEALER_GROUP))
    user = backend.get_user(dealer.pk)
    assert (user, is_dealer(user)) == (dealer, False)
    dealer.is_active = False
    dealer.save()
    assert backend.get_user(dealer.pk) is None
    assert backend.get_user(dealer.pk + 1000) is None
    assert backend.get_user("not an id") is None


def test_a_dealer_taken_out_from_the_groups_side_loses_every_token(table):
    dealer, api, _ = tablet_checked(table)
    second = token_client(dealer)
    Group.objects.get(name=DEALER_GROUP).user_set.clear()

    assert api_fold(api, table, "a2").status_code == 403
    assert api_fold(second, table, "b2").status_code == 403
    assert not AuthToken.objects.filter(user=dealer).exists()
    event = AuditEvent.objects.get(action="devices_revoke")
    assert event.detail == {
        "user": dealer.username,
        "devices": 2,
        "reason": "left the dealer group",
    }


def test_a_deactivated_user_is_refused_at_once_by_the_api_and_the_tablet(table):
    dealer, api, page = tablet_checked(table)
    written = events(table)
    with another_process_remembering():
        dealer.is_active = False
        dealer.save()

    response = api_fold(api, table, "a2")
    assert (response.status_code, response.json()["code"]) == (403, "authentication_failed")
    tap = page_fold(page, table, "p2")
    assert tap.status_code == 302
    assert tap["Location"].startswith("/login/")
    assert events(table) == written
    assert not AuthToken.objects.filter(user=dealer).exists()


def test_a_deactivated_users_tokens_stay_revoked_when_the_user_is_reactivated(table):
    dealer, api, _ = tablet_checked(table)
    dealer.is_active = False
    dealer.save()
    dealer.is_active = True
    dealer.save()
    assert api_start(api, table) == 403  # the tablet signs in again


def test_another_dealer_keeps_their_tokens(table):
    dealer, _, _ = tablet_checked(table)
    other = assign_dealer(Table.objects.exclude(pk=table.pk).first())
    other_tablet = token_client(other)
    dealer.groups.clear()
    assert AuthToken.objects.filter(user=other).count() == 1
    assert other_tablet.get(f"/api/tables/{table.pk}/hands/").status_code == 200


def test_the_revoke_tokens_command_signs_a_user_out_everywhere(table, capsys):
    dealer, api, _ = tablet_checked(table)
    token_client(dealer)
    director = DirectorFactory()
    token_client(director)

    call_command("revoke_tokens", dealer.username)

    assert "Revoked 2 tokens." in capsys.readouterr().out
    assert api_start(api, table) == 403
    assert AuthToken.objects.filter(user=director).count() == 1
    call_command("revoke_tokens", "--all")
    assert not AuthToken.objects.exists()
