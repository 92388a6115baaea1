"""One definition of each role (`common.roles`, `tournaments.roles`): the pages and the API give
every kind of user the same answer. The bug: a user assigned a table but no longer in the dealer
group could write at the tablet page but was refused by the API; now both refuse (taking a dealer
out of the group takes the tablets away, as the API's tokens always did)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import DealerFactory, DirectorFactory, UserFactory, make, seated_tournament
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def _users(table: Table) -> dict[str, Any]:
    assigned = make(UserFactory, username="assigned")  # not in the dealer group
    table.dealer = assigned
    table.save(update_fields=["dealer"])
    return {
        "anonymous": None,
        "signed-in player": make(UserFactory, username="someone"),
        "dealer (group)": make(DealerFactory),
        "assigned, not in the group": assigned,
        "director": make(DirectorFactory),
    }


def _clients(user: Any) -> tuple[Client, APIClient]:
    page, api = Client(), APIClient()
    if user is not None:
        page.force_login(user)
        api.force_login(user)
    return page, api


def test_the_tablets_page_and_the_tables_api_let_in_the_same_users() -> None:
    tournament = seated_tournament(players=6)
    table = Table.objects.filter(tournament=tournament).first()
    assert table is not None
    answers = {}
    for who, user in _users(table).items():
        page, api = _clients(user)
        page_ok = page.get("/deal/").status_code == 200
        api_ok = api.get(f"/api/tournaments/{tournament.pk}/tables/").status_code == 200
        answers[who] = (page_ok, api_ok)
    assert answers == {
        "anonymous": (False, False),
        "signed-in player": (False, False),
        "dealer (group)": (True, True),
        "assigned, not in the group": (False, False),
        "director": (True, True),
    }


def test_bug_a_user_assigned_a_table_outside_the_group_deals_neither_by_page_nor_api() -> None:
    tournament = seated_tournament(players=12)
    first, second = Table.objects.filter(tournament=tournament).order_by("number")[:2]
    user = _users(first)["assigned, not in the group"]
    second.dealer = user
    second.save(update_fields=["dealer"])
    page, api = _clients(user)

    by_page = page.post(f"/deal/table/{first.pk}/start/", {"last_hand": 0}, HTTP_HX_REQUEST="true")
    by_api = api.post(f"/api/tables/{second.pk}/hands/", {"client_id": "start"}, format="json")

    assert (by_page.status_code, by_api.status_code) == (403, 403)
    assert first.hands.count() == 0
    assert second.hands.count() == 0


def test_a_group_dealer_writes_only_at_their_own_table_through_page_and_api() -> None:
    tournament = seated_tournament(players=6)
    table = Table.objects.filter(tournament=tournament).first()
    assert table is not None
    page, api = _clients(make(DealerFactory))

    by_page = page.post(f"/deal/table/{table.pk}/start/", {"last_hand": 0}, HTTP_HX_REQUEST="true")
    by_api = api.post(f"/api/tables/{table.pk}/hands/", {"client_id": "start"}, format="json")

    assert (by_page.status_code, by_api.status_code) == (403, 403)
    assert table.hands.count() == 0
