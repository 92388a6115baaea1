"""One way to each answer: the pages and the API read the same read model, so they show the same
thing. Each test asks a page and the API for the same fact and compares."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import DealerFactory, DirectorFactory, assign_dealer, make, seated_tournament
from tournaments.models import Entry, Table
from tournaments.services.busts import Bust, entries_bust

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("config.request_time.now", lambda: NOW)


def _running(players: int = 12) -> Any:
    tournament = seated_tournament(players=players, payout_percentages=[70, 30])

    first = Entry.objects.filter(tournament=tournament).order_by("pk").first()
    assert first is not None
    entries_bust(
        tournament=tournament, busts=[Bust(entry_id=first.pk, starting_stack=first.chips)], now=NOW
    )
    return tournament


def _embedded_clock(html: str) -> dict[str, Any]:
    found = re.search(
        r'<script id="(?:clock-data|tablet-clock)" type="application/json">(.*?)</script>',
        html,
        re.S,
    )
    assert found, "no clock feed embedded in the page"
    return dict(json.loads(found.group(1)))


def test_every_clock_display_embeds_the_api_clock_feed() -> None:
    tournament = _running()
    table = Table.objects.filter(tournament=tournament).first()
    assert table is not None
    director = Client()
    director.force_login(make(DirectorFactory))
    dealer = Client()
    dealer.force_login(assign_dealer(table, make(DealerFactory)))
    api = APIClient().get(reverse("api-clock", args=[tournament.pk])).json()

    pages = {
        "big screen": Client().get(reverse("public-clock", args=[tournament.pk])),
        "desk clock": director.get(reverse("clock-control", args=[tournament.pk])),
        "dashboard": director.get(reverse("tournament-dashboard", args=[tournament.pk])),
        "tablet": dealer.get(reverse("deal-table", args=[table.pk])),
    }

    for name, page in pages.items():
        html = page.content.decode()
        assert _embedded_clock(html) == api, name
        assert reverse("api-clock", args=[tournament.pk]) in html, f"{name} polls another URL"
    assert api["players_left"] == 11


def test_the_clock_feed_is_one_url() -> None:
    names = [str(p.pattern) for p in __import__("tournaments.urls").urls.urlpatterns]
    assert not [name for name in names if "clock.json" in name]


def test_the_desk_tables_page_and_the_tables_api_show_the_same_plan() -> None:
    tournament = _running(players=14)
    director = Client()
    director.force_login(make(DirectorFactory))
    api = APIClient()
    api.force_login(make(DirectorFactory))

    page_tables = director.get(reverse("table-list", args=[tournament.pk])).context["tables"]
    api_tables = api.get(reverse("api-tables", args=[tournament.pk])).json()

    def from_api(table: dict[str, Any]) -> Any:
        return (
            table["number"],
            table["players"],
            [
                (s["seat"], s["entry_id"], s["player_name"], s["chips"], s["button"])
                for s in table["seats"]
            ],
        )

    in_play = [t for t in api_tables if not t["is_broken"]]
    assert [from_api(t) for t in in_play] == [
        (t.number, t.players, [from_page_seat(s) for s in t.seats]) for t in page_tables
    ]
    assert sum(t["players"] for t in in_play) == 13


def from_page_seat(seat: Any) -> Any:
    return (
        seat.seat,
        seat.entry_id,
        seat.name or None,
        seat.chips if seat.entry_id else None,
        seat.button,
    )


def test_the_phone_page_and_the_standings_api_show_the_same_field() -> None:
    tournament = _running()
    page = Client().get(reverse("public-standings", args=[tournament.pk]))
    api = APIClient().get(reverse("api-standings", args=[tournament.pk])).json()

    standings = page.context["standings"]
    assert (standings.players_left, standings.average_stack, standings.total_chips) == (
        api["players_left"],
        api["average_stack"],
        api["total_chips"],
    )
    assert [(r.name, r.chips) for r in standings.rows] == [
        (r["name"], r["chips"]) for r in api["rows"]
    ]


def test_the_desk_exports_results_through_the_one_api_export() -> None:
    tournament = _running()
    director = Client()
    director.force_login(make(DirectorFactory))
    export = reverse("api-results-csv", args=[tournament.pk])

    html = director.get(reverse("payout-list", args=[tournament.pk])).content.decode()
    assert f'href="{export}"' in html
    rows = director.get(export).content.decode().splitlines()
    assert rows[0] == "place,name,entry_number,prize"
    assert len(rows) == 1 + 12  # every entry that played: 11 still in, 1 out


def test_one_conditional_request_helper() -> None:
    """Only `config.conditional` answers 304s; no module builds ETags from a rendered body."""
    offenders = []
    tops = ("common", "tournaments", "dealer")
    for path in [path for top in tops for path in ROOT.glob(f"{top}/**/*.py")]:
        text = path.read_text()
        if re.search(r"get_conditional_response|HttpResponseNotModified|status=304", text):
            offenders.append(str(path.relative_to(ROOT)))
        if re.search(r"hashlib\.\w+\(.*(content|payload)", text):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
