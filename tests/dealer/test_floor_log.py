"""The floor sees the procedure log per table and per dealer, and can export it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from dealer.services import hand_run_procedure, hand_start
from tests.dealer.test_services import event

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
