"""Directors assign each table's dealer from the tables pages (tournament and cash)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from dealer.selectors import can_write
from tests.factories import DealerFactory, DirectorFactory, UserFactory, seated_tournament
from tournaments.models import AuditEvent, Table

pytestmark = pytest.mark.django_db


def director() -> Client:
    client = Client()
    client.force_login(DirectorFactory.create())
    return client


def test_director_assigns_and_removes_a_tables_dealer() -> None:
    tournament = seated_tournament(players=6)
    table = Table.objects.get(tournament=tournament, number=1)
    dealer = DealerFactory.create()
    client = director()
    page = reverse("table-list", args=[tournament.pk])
    assert (
        f'<option value="{dealer.pk}">{dealer.username}</option>'
        in client.get(page).content.decode()
    )
    response = client.post(
        reverse("table-dealer", args=[table.pk]), {"dealer": dealer.pk, "next": page}
    )
    assert response.status_code == 302
    assert response["Location"] == page
    table.refresh_from_db()
    assert table.dealer == dealer
    assert can_write(dealer, table)
    event = AuditEvent.objects.get(action="table_dealer")
    assert event.detail["dealer"] == dealer.username
    client.post(reverse("table-dealer", args=[table.pk]), {"dealer": "", "next": page})
    table.refresh_from_db()
    assert table.dealer is None
    assert not can_write(dealer, table)


def test_only_dealers_can_be_assigned_and_only_by_directors() -> None:
    tournament = seated_tournament(players=4)
    table = Table.objects.get(tournament=tournament, number=1)
    client = director()
    player = UserFactory.create()
    response = client.post(
        reverse("table-dealer", args=[table.pk]),
        {"dealer": player.pk, "next": "/desk/"},
        follow=True,
    )
    assert "Pick a dealer: an active account in the dealer group." in response.content.decode()
    table.refresh_from_db()
    assert table.dealer is None
    for junk in ("abc", "999999"):
        client.post(reverse("table-dealer", args=[table.pk]), {"dealer": junk})
        table.refresh_from_db()
        assert table.dealer is None
    outsider = Client()
    outsider.force_login(DealerFactory.create())
    assert (
        outsider.post(reverse("table-dealer", args=[table.pk]), {"dealer": ""}).status_code == 403
    )


def test_next_must_stay_on_this_site() -> None:
    tournament = seated_tournament(players=4)
    table = Table.objects.get(tournament=tournament, number=1)
    response = director().post(
        reverse("table-dealer", args=[table.pk]), {"dealer": "", "next": "https://evil.example/"}
    )
    # Back to the table's own page instead (tests/security/test_form_regressions.py: "-1" too).
    assert response["Location"] == reverse("table-list", args=[tournament.pk])
