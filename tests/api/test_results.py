"""Standings, payouts, the ICM deal, seat lookup, the results CSV and the audit log."""

import csv
import io
from datetime import UTC, datetime

import pytest
from django.utils.text import slugify
from rest_framework.test import APIClient

from config import request_time
from tests.factories import DirectorFactory, PlayerFactory, seated_tournament
from tournaments.models import AuditEvent, Entry
from tournaments.services.entries import entry_set_chips

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


@pytest.fixture
def user():
    return DirectorFactory(username="floor")


@pytest.fixture
def director(user):
    client = APIClient()
    client.force_login(user)
    return client


def _bust(director, tournament, entry, stack=10000):
    response = director.post(
        f"/api/tournaments/{tournament.pk}/busts/",
        [{"entry_id": entry.pk, "starting_stack": stack}],
        format="json",
    )
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.django_db
def test_standings_rank_by_chips_with_totals():
    tournament = seated_tournament(players=10, payout_percentages=[60, 40])
    leader = Entry.objects.filter(tournament=tournament).last()
    assert leader is not None
    entry_set_chips(entry=leader, chips=30000, note="at the break", now=T0)

    body = APIClient().get(f"/api/tournaments/{tournament.pk}/standings/").json()

    assert body["players_left"] == 10
    # Chips in play are the chips issued (10 buy-ins of 10,000), whatever a count says; the
    # counts add up to 20,000 more until the other tables are counted.
    assert body["total_chips"] == 100000
    assert body["average_stack"] == 10000
    assert body["counted_chips"] == 120000
    assert (body["places_paid"], body["prize_pool"], body["next_payout"]) == (2, "1000.00", None)
    assert body["rows"][0]["name"] == leader.player.name
    assert body["rows"][0]["chips_source"] == "counted (at the break)"
    assert body["rows"][0]["chips_at"] == "2025-06-01T18:00:00Z"
    assert [row["rank"] for row in body["rows"]] == list(range(1, 11))


@pytest.mark.django_db
def test_standings_limit_keeps_the_top_rows():
    tournament = seated_tournament(players=10)

    body = APIClient().get(f"/api/tournaments/{tournament.pk}/standings/?limit=3").json()

    assert len(body["rows"]) == 3
    assert body["players_left"] == 10


@pytest.mark.django_db
def test_payouts_name_the_players_once_places_are_decided(director):
    tournament = seated_tournament(players=3, payout_percentages=[70, 30])
    a, b, _ = Entry.objects.filter(tournament=tournament).order_by("pk")
    _bust(director, tournament, a)

    body = APIClient().get(f"/api/tournaments/{tournament.pk}/payouts/").json()

    assert body["prize_pool"] == "300.00"
    assert body["places"] == [
        {"place": 1, "prize": "210.00", "players": []},
        {"place": 2, "prize": "90.00", "players": []},
    ]
    _bust(director, tournament, b)
    places = APIClient().get(f"/api/tournaments/{tournament.pk}/payouts/").json()["places"]
    assert places[1]["players"] == [{"name": b.player.name, "prize": "90.00"}]
    assert len(places[0]["players"]) == 1


@pytest.mark.django_db
def test_icm_deal_for_the_players_left(director):
    tournament = seated_tournament(players=3, payout_percentages=[70, 30])
    rows = director.get(f"/api/tournaments/{tournament.pk}/icm/").json()

    assert len(rows) == 3
    assert sum(float(row["icm"]) for row in rows) == pytest.approx(300)
    assert {row["chip_chop"] for row in rows} == {"100.00"}


@pytest.mark.django_db
def test_icm_refuses_more_than_ten_players_and_a_switched_off_calculator(director):
    many = seated_tournament(players=11)
    off = seated_tournament(players=3, icm_enabled=False)

    too_many = director.get(f"/api/tournaments/{many.pk}/icm/")
    disabled = director.get(f"/api/tournaments/{off.pk}/icm/")

    assert (too_many.status_code, too_many.json()["code"]) == (409, "too_many_players")
    assert (disabled.status_code, disabled.json()["code"]) == (409, "icm_disabled")


@pytest.mark.django_db
def test_seat_lookup_finds_players_by_part_of_the_name():
    tournament = seated_tournament(players=12)
    url = f"/api/tournaments/{tournament.pk}/seats/"

    found = APIClient().get(url, {"q": "er 1"}).json()
    short = APIClient().get(url, {"q": "P"}).json()
    missing = APIClient().get(url)

    assert [row["name"] for row in found] == ["Player 10", "Player 11"]
    assert all(row["table"] and row["seat"] for row in found)
    assert short == []
    assert missing.status_code == 400
    assert missing.json()["detail"] == "q: This field is required."


@pytest.mark.django_db
def test_results_csv_defuses_spreadsheet_formulas(director):
    tournament = seated_tournament(players=3)
    entry = Entry.objects.filter(tournament=tournament).first()
    entry.player = PlayerFactory(name="=HYPERLINK(1)")
    entry.save()
    _bust(director, tournament, entry)

    response = director.get(f"/api/tournaments/{tournament.pk}/results.csv")

    name = f"{slugify(tournament.name)}-{tournament.pk}-results.csv"
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["place", "name", "entry_number", "prize"]
    assert rows[-1] == ["3", "'=HYPERLINK(1)", "1", ""]
    assert [row[0] for row in rows[1:3]] == ["", ""]  # the two players still in: no place yet


@pytest.mark.django_db
def test_results_csv_errors_are_json(director):
    response = director.get("/api/tournaments/999999/results.csv", HTTP_ACCEPT="text/csv")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


@pytest.mark.django_db
def test_audit_log_lists_director_actions_newest_first_by_pages(director):
    tournament = seated_tournament(players=4)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
    _bust(director, tournament, entries[0])
    _bust(director, tournament, entries[1])

    first = director.get("/api/audit/", {"tournament": tournament.pk, "limit": 2}).json()
    second = director.get(
        "/api/audit/", {"tournament": tournament.pk, "limit": 2, "before": first["next_before"]}
    ).json()
    busts = director.get("/api/audit/", {"action": "entries_bust"}).json()

    assert [e["action"] for e in first["results"]] == ["entries_bust", "entries_bust"]
    assert first["results"][0]["actor"] == "floor"
    assert first["results"][0]["detail"]["busts"][0]["entry"] == entries[1].pk
    assert [e["action"] for e in second["results"]] == ["clock_start", "seat_draw"]
    assert len(busts["results"]) == 2
    assert busts["next_before"] is None
    total = AuditEvent.objects.filter(tournament=tournament).count()
    assert total == 4 + 2 + 2  # registrations, draw and clock, two busts
