"""The floor sees the procedure log per table and per dealer, and can export it."""

from __future__ import annotations

import csv
import io
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from dealer.services import hand_run_procedure, hand_start
from tests.dealer.test_services import event
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def test_the_floor_sees_the_procedure_log_by_table_and_dealer_and_exports_it() -> None:
    table = event(4)
    dealer = User.objects.create_user("deb", password="x")
    dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
    table.dealer = dealer
    table.save()
    hand = hand_start(table=table)
    hand_run_procedure(
        hand=hand, trigger="two_or_more_exposed_on_deal", client_id="m", version=0, actor=dealer
    )
    director = Client()
    director.force_login(User.objects.create_user("td", password="x", is_staff=True))
    assert table.tournament is not None
    url = f"/desk/t/{table.tournament.pk}/procedures/"
    page = director.get(url).content.decode()
    assert "deb" in page
    assert "Void hand" in page
    assert "No procedure" in director.get(f"{url}?table=2").content.decode()
    assert "deb" in director.get(f"{url}?dealer={dealer.pk}").content.decode()
    csv = director.get(f"/api/procedures.csv?table={table.pk}")
    assert csv.status_code == 200
    assert "two_or_more_exposed_on_deal" in csv.content.decode()
    dealer_client = Client()
    dealer_client.force_login(dealer)
    assert dealer_client.get(url).status_code == 403


def _dealer(name: str, table: Table) -> User:
    dealer = User.objects.create_user(name, password="x")
    dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
    table.dealer = dealer
    table.save()
    return dealer


def test_the_page_the_api_and_the_csv_show_the_same_procedures_for_the_same_filters() -> None:
    first = event(12)
    second = Table.objects.get(tournament=first.tournament, number=2)
    other_event = event(4)  # another tournament's procedure is never shown
    dealers = {t.pk: _dealer(f"dealer{n}", t) for n, t in enumerate((first, second, other_event))}
    for table, triggers in (
        (first, ["boxed_card", "player_exposed_own_card"]),
        (second, ["joker_face_up"]),
        (other_event, ["boxed_card"]),
    ):
        hand = hand_start(table=table)
        for n, trigger in enumerate(triggers):
            hand_run_procedure(
                hand=hand, trigger=trigger, client_id=f"p{n}", version=n, actor=dealers[table.pk]
            )
    director = Client()
    director.force_login(User.objects.create_user("td", password="x", is_staff=True))
    tournament = first.tournament
    assert tournament is not None
    url = f"/desk/t/{tournament.pk}/procedures/"
    cases = [
        ({}, {}),
        ({"table": 1}, {"table": first.pk}),
        ({"table": 2}, {"table": second.pk}),
        ({"dealer": dealers[second.pk].pk}, {"dealer": dealers[second.pk].pk}),
        (
            {"table": 1, "dealer": dealers[second.pk].pk},
            {"table": first.pk, "dealer": dealers[second.pk].pk},
        ),
    ]
    for page_query, api_filters in cases:
        api_query = {"tournament": tournament.pk, **api_filters}
        page = director.get(url, page_query)
        shown = [(row.id, row.trigger, row.table, row.dealer) for row, _ in page.context["rows"]]
        listed = director.get("/api/procedures/", api_query).json()["results"]
        assert shown == [(r["id"], r["trigger"], r["table"], r["dealer"]) for r in listed]
        exported = list(
            csv.reader(io.StringIO(director.get(page.context["csv_url"]).content.decode()))
        )
        assert [(int(r[2]), r[4], r[5]) for r in exported[1:]] == [
            (table, dealer, trigger) for _, trigger, table, dealer in shown
        ]
        assert page.context["csv_url"] == f"/api/procedures.csv?{urlencode(api_query)}"
    everything = director.get(url).context["rows"]
    assert len(everything) == 3
    assert {row.trigger for row, _ in everything} == {
        "boxed_card",
        "player_exposed_own_card",
        "joker_face_up",
    }
