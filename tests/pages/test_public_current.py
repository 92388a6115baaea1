"""Every public read follows the tournament's version (issue 27, "always current"): after the
floor moves a player, a phone asking again with the ETag it holds gets the new table and seat,
never a 304 for the old ones."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NAMES, NOW, entry_of, freeze_pages, staff_client, table_of, tournament
from tournaments.models import Entry, Table, Tournament


@pytest.fixture(autouse=True)
def _frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_pages(monkeypatch, NOW)


def _free_seat(event: Tournament, but_table: int) -> tuple[Table, int]:
    """A free seat at another table than `but_table`."""
    table = Table.objects.filter(tournament=event, is_broken=False).exclude(number=but_table)[0]
    taken = set(Entry.objects.filter(table=table).values_list("seat", flat=True))
    return table, min(set(range(1, table.seat_count + 1)) - taken)


def _move_through_the_api(event: Tournament, entry: Entry) -> tuple[int, int]:
    table, seat = _free_seat(event, table_of(entry))
    desk = staff_client(Client())
    answer = desk.post(
        reverse("api-entry-move", args=[entry.pk]),
        {"table": table.pk, "seat": seat},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    return table.number, seat


READS: dict[str, tuple[str, dict[str, Any]]] = {
    "seat search": ("public-seat-lookup", {"q": "chen"}),
    "standings part": ("public-state", {}),
    "standings API": ("api-standings", {}),
    "seat search API": ("api-seat-lookup", {"q": "chen"}),
}


@pytest.mark.django_db
@pytest.mark.parametrize("read", READS)
def test_a_seat_move_is_in_the_next_poll_with_the_old_etag(client: Client, read: str) -> None:
    event = tournament(players=NAMES[:10], start=True, seats_per_table=6)
    chen = entry_of(event, "Chen Wei")
    name, query = READS[read]
    url = reverse(name, args=[event.pk])
    before = client.get(url, query)
    assert before.status_code == 200
    assert before.has_header("ETag"), f"{read} is not polled by version"
    assert client.get(url, query, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304

    table, seat = _move_through_the_api(event, chen)

    after = client.get(url, query, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    body = after.content.decode()
    if name.startswith("api-"):
        rows = after.json()
        rows = rows if isinstance(rows, list) else rows["rows"]
        mine = next(r for r in rows if r["name"] == "Chen Wei")
        assert (mine["table"], mine["seat"]) == (table, seat)
    elif name == "public-seat-lookup":
        assert f"Table <strong>{table}</strong> &middot; Seat <strong>{seat}</strong>" in body
    else:
        assert f"{table} / {seat}" in body


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["api-clock", "api-screen-board"])
def test_the_screens_feeds_follow_the_version_of_a_move(client: Client, name: str) -> None:
    event = tournament(players=NAMES[:10], start=True, seats_per_table=6)
    url = reverse(name, args=[event.pk])
    before = client.get(url)
    assert client.get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304

    _move_through_the_api(event, entry_of(event, "Chen Wei"))

    assert client.get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 200


@pytest.mark.django_db
def test_the_seat_result_polls_itself_with_its_query(client: Client) -> None:
    event = tournament(players=NAMES[:6], start=True)
    url = reverse("public-seat-lookup", args=[event.pk])

    body = client.get(url, {"q": "chen wei"}).content.decode()
    page = client.get(reverse("public-standings", args=[event.pk]), {"q": "chen"}).content.decode()

    assert f'hx-get="{url}?q=chen%20wei"' in body
    assert 'hx-trigger="every 10s"' in body
    assert f'hx-get="{url}?q=chen"' in page
