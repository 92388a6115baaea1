"""Public pages: standings with seat lookup and payouts, polled with ETags; the big-screen
clock and its JSON, whose ETag stays the same between level changes."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NAMES, NOW, entry_of, freeze_pages, table_of, tournament
from tournaments.services.clocks import clock_pause
from tournaments.services.entries import entry_set_chips


@pytest.fixture(autouse=True)
def _frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_pages(monkeypatch, NOW)


@pytest.mark.django_db
def test_standings_show_rank_name_chips_table_and_seat(client: Client) -> None:
    event = tournament(players=NAMES[:6], start=True, payout_percentages=[100])
    ann = entry_of(event, "Ann Lee")
    entry_set_chips(entry=ann, chips=25000)

    response = client.get(reverse("public-standings", args=[event.pk]))

    body = response.content.decode()
    first = response.context["standings"].rows[0]
    assert (first.rank, first.name, first.chips) == (1, "Ann Lee", 25000)
    assert f"{table_of(ann)} / {ann.seat}" in body
    assert "25,000" in body
    for label in ("Players left", "Average stack", "Chips in play", "Places paid", "Prize pool"):
        assert label in body
    assert "Next payout" in body
    assert 'hx-trigger="every 10s"' in body
    assert reverse("public-state", args=[event.pk]) in body


@pytest.mark.django_db
def test_seat_lookup_by_name(client: Client) -> None:
    event = tournament(players=NAMES[:6], start=True)
    chen = entry_of(event, "Chen Wei")

    partial = client.get(reverse("public-seat-lookup", args=[event.pk]), {"q": "chen"})
    page = client.get(reverse("public-standings", args=[event.pk]), {"q": "chen"})

    body = partial.content.decode()
    assert "<html" not in body
    assert "Chen Wei" in body
    assert f"Table <strong>{table_of(chen)}</strong>" in body
    assert f"Seat <strong>{chen.seat}</strong>" in body
    assert "Chen Wei" in page.content.decode()
    assert 'value="chen"' in page.content.decode()


@pytest.mark.django_db
def test_seat_lookup_needs_two_letters_and_says_when_nobody_matches(client: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)
    url = reverse("public-seat-lookup", args=[event.pk])

    short = client.get(url, {"q": "c"}).content.decode()
    nobody = client.get(url, {"q": "zz"}).content.decode()

    assert "Type at least two letters" in short
    assert "Nobody called" in nobody


@pytest.mark.django_db
def test_the_polled_partial_answers_304_while_nothing_changes(client: Client) -> None:
    event = tournament(players=NAMES[:6], start=True)
    url = reverse("public-state", args=[event.pk])

    first = client.get(url)
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    entry_set_chips(entry=entry_of(event, "Ann Lee"), chips=30000)
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])

    assert first.status_code == 200
    assert "<html" not in first.content.decode()
    assert first["ETag"].startswith('"')
    assert "no-cache" in first["Cache-Control"]
    assert again.status_code == 304
    assert again.content == b""
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]
    assert "30,000" in changed.content.decode()


@pytest.mark.django_db
def test_public_payouts_page(client: Client) -> None:
    event = tournament(players=NAMES[:4], start=True, payout_percentages=[60, 40])

    body = client.get(reverse("public-payouts", args=[event.pk])).content.decode()

    assert "240" in body
    assert "160" in body


@pytest.mark.django_db
def test_the_clock_page_counts_down_in_the_browser(client: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)

    response = client.get(reverse("public-clock", args=[event.pk]))

    body = response.content.decode()
    assert "Level 1" in body
    assert "20:00" in body
    assert "100 / 200" in body
    assert "Next: <span" in body
    assert "200 / 400" in body
    assert f'data-server-now="{int(NOW.timestamp() * 1000)}"' in body
    assert reverse("api-clock", args=[event.pk]) in body
    assert "js/clock.js" in body
    assert 'id="clock-data"' in body


@pytest.mark.django_db
def test_clock_json_sends_the_end_of_the_level_not_a_countdown(client: Client) -> None:
    event = tournament(players=NAMES[:4], start=True, payout_percentages=[100])

    data = client.get(reverse("api-clock", args=[event.pk])).json()

    assert data["label"] == "Level 1"
    assert data["status"] == "running"
    assert data["ends_at"] == (NOW + timedelta(minutes=20)).isoformat().replace("+00:00", "Z")
    assert data["remaining_seconds"] is None
    assert data["blinds"] == "100 / 200"
    assert data["next_blinds"] == "200 / 400"
    assert data["players_left"] == 4
    assert data["average_stack"] == 10000
    assert data["prize_pool"] == "400.00"


@pytest.mark.django_db
def test_clock_json_etag_is_stable_between_level_changes(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = tournament(players=NAMES[:4], start=True)
    url = reverse("api-clock", args=[event.pk])

    first = client.get(url)
    freeze_pages(monkeypatch, NOW + timedelta(minutes=7, seconds=13))
    later = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    freeze_pages(monkeypatch, NOW + timedelta(minutes=20, seconds=1))
    next_level = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])

    assert first.status_code == 200
    assert later.status_code == 304
    assert next_level.status_code == 200
    assert next_level.json()["label"] == "Level 2"


@pytest.mark.django_db
def test_clock_json_changes_when_the_director_pauses(client: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)
    url = reverse("api-clock", args=[event.pk])
    first = client.get(url)

    clock_pause(tournament=event, now=NOW + timedelta(minutes=5))
    paused = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])

    assert paused.status_code == 200
    assert paused.json()["status"] == "paused"
    assert paused.json()["remaining_seconds"] == 15 * 60
    assert paused.json()["ends_at"] is None


@pytest.mark.django_db
def test_clock_before_the_start_stands_still(client: Client) -> None:
    event = tournament(players=NAMES[:4])

    data = client.get(reverse("api-clock", args=[event.pk])).json()
    page = client.get(reverse("public-clock", args=[event.pk])).content.decode()

    assert data["status"] == "not_started"
    assert data["remaining_seconds"] == 20 * 60
    assert "Not started" in page


@pytest.mark.django_db
def test_the_last_level_runs_into_overtime(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    event = tournament(players=NAMES[:4], start=True)
    freeze_pages(monkeypatch, NOW + timedelta(minutes=75))

    response = client.get(reverse("public-clock", args=[event.pk]))

    assert response.context["clock"]["is_last_level"]
    assert response.context["clock_time"] == "+5:00"


def test_a_big_field_phone_polls_the_top_places_and_those_being_decided_not_all() -> None:
    from tournaments.selectors.standings import PayoutPlace
    from tournaments.views.public import PAYOUT_ROWS, payout_rows

    places: list[PayoutPlace] = [
        {"place": n, "prize": Decimal(100), "players": [], "seat": ""} for n in range(1, 201)
    ]

    rows = payout_rows(places, players_left=150)

    shown = [row["place"] for row in rows if row is not None]
    assert shown[:PAYOUT_ROWS] == list(range(1, PAYOUT_ROWS + 1))
    assert shown[PAYOUT_ROWS:] == list(range(141, 156))  # the next ten to be paid, five decided
    assert rows[PAYOUT_ROWS] is None  # the rows left out are marked once
    assert payout_rows(places[:30], players_left=25) == places[:30]
