"""Payouts, the ICM deal calculator, the results CSV and the audit log."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NAMES, NOW, entry_of, freeze_pages, staff_client, tournament
from tournaments.models import Tournament
from tournaments.services.busts import Bust, entries_bust


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


def bust(event: Tournament, *names: str) -> None:
    out = [entry_of(event, name) for name in names]
    entries_bust(
        tournament=event,
        busts=[Bust(entry_id=e.pk, starting_stack=e.chips) for e in out],
        now=NOW,
    )


@pytest.mark.django_db
def test_payouts_show_places_prizes_and_who_won_them(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True, payout_percentages=[60, 40])
    bust(event, "Ann Lee")
    bust(event, "Bruno Costa")
    bust(event, "Chen Wei")

    response = director.get(reverse("payout-list", args=[event.pk]))

    places = response.context["places"]
    assert [(p["place"], p["prize"]) for p in places] == [(1, 240), (2, 160)]
    assert [p["name"] for p in places[1]["players"]] == ["Chen Wei"]
    body = response.content.decode()
    assert "Dana Kowalski" in body  # the winner
    assert "Export results (CSV)" in body


@pytest.mark.django_db
def test_the_icm_deal_for_the_players_left(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True, payout_percentages=[50, 30, 20])

    page = director.get(reverse("payout-list", args=[event.pk])).content.decode()
    response = director.get(reverse("icm-deal", args=[event.pk]))

    assert reverse("icm-deal", args=[event.pk]) in page
    deal = response.context["deal"]
    assert len(deal) == 4
    assert sum(row["icm"] for row in deal) == 400  # the prizes in play
    assert "Ann Lee" in response.content.decode()


@pytest.mark.django_db
def test_the_icm_deal_is_refused_for_more_than_ten_players(director: Client) -> None:
    event = tournament(players=NAMES[:12], start=True)

    body = director.get(reverse("icm-deal", args=[event.pk])).content.decode()

    assert "Deals are calculated for at most 10 players; 12 are left." in body


@pytest.mark.django_db
def test_the_icm_calculator_can_be_switched_off(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True, icm_enabled=False)

    page = director.get(reverse("payout-list", args=[event.pk])).content.decode()
    body = director.get(reverse("icm-deal", args=[event.pk])).content.decode()

    assert "Calculate a deal" not in page
    assert "The ICM deal calculator is switched off for this tournament." in body


@pytest.mark.django_db
def test_results_csv(director: Client) -> None:
    event = tournament(
        players=NAMES[:4], start=True, payout_percentages=[70, 30], name="Friday Deepstack"
    )
    bust(event, "Ann Lee")
    bust(event, "Bruno Costa")

    response = director.get(reverse("api-results-csv", args=[event.pk]))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert f"friday-deepstack-{event.pk}-results.csv" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["place", "name", "entry_number", "prize"]
    assert rows[-2:] == [["3", "Bruno Costa", "1", ""], ["4", "Ann Lee", "1", ""]]
    assert sorted(r[1] for r in rows[1:3]) == ["Chen Wei", "Dana Kowalski"]
    assert all(r[0] == "" for r in rows[1:3])  # still playing: no place yet


@pytest.mark.django_db
def test_results_csv_of_a_finished_tournament(director: Client) -> None:
    event = tournament(players=NAMES[:3], start=True, payout_percentages=[70, 30])
    bust(event, "Ann Lee")
    bust(event, "Bruno Costa")

    rows = list(
        csv.reader(
            io.StringIO(director.get(reverse("api-results-csv", args=[event.pk])).content.decode())
        )
    )

    assert rows[1:] == [
        ["1", "Chen Wei", "1", "210.00"],
        ["2", "Bruno Costa", "1", "90.00"],
        ["3", "Ann Lee", "1", ""],
    ]


@pytest.mark.django_db
def test_the_audit_log_says_when_who_and_what(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)
    director.post(reverse("clock-pause", args=[event.pk]))

    response = director.get(reverse("audit-log", args=[event.pk]))

    events = response.context["events"]
    assert events[0]["what"] == "clock pause"
    assert events[0]["who"] == "director"
    assert events[-1]["what"] == "tournament create"
    assert events[-1]["who"] == "system"
    body = response.content.decode()
    assert "player: Ann Lee" in body
    assert "Clock pause" in body


@pytest.mark.django_db
def test_results_csv_keeps_a_formula_like_name_as_text(director: Client) -> None:
    event = tournament(players=["=HYPERLINK(1)", *NAMES[:2]], start=True)
    rows = list(
        csv.reader(
            io.StringIO(director.get(reverse("api-results-csv", args=[event.pk])).content.decode())
        )
    )
    assert "'=HYPERLINK(1)" in [row[1] for row in rows[1:]]
    assert "=HYPERLINK(1)" not in [row[1] for row in rows[1:]]
