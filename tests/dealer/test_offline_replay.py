"""The tablet offline (issue 24): its queue replayed through the tablet's own endpoint, and the
service worker that shows the tablet on a reload with no network.

A queued tap carries the client id it was given when tapped, the version it was made against
and the seat it was for. Its answer may have been lost after the service recorded it: sent
again, even after later taps of the queue were recorded, it is answered its first answer and
not applied a second time. A tap the hand has moved past on another device is refused 409
with the service's sentence, and nothing is recorded.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from dealer.models import Hand, HandEvent
from dealer.services import hand_record_action
from dealer.views.tablet import STALE
from tests.dealer.test_pages import HTMX, hand_of, setup_table, signed_in, start, text
from tournaments.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealing() -> tuple[Table, Client, Any]:
    table, dealer = setup_table(players=4)
    client = signed_in(dealer)
    assert start(client, table).status_code == 200
    return table, client, dealer


def queued(hand: Hand, client_id: str, version: int, seat: int, action: str = "call") -> dict:
    """A tap as the queue keeps it: its own client id, version and seat."""
    return {
        "client_id": client_id,
        "hand": hand.pk,
        "version": version,
        "action": action,
        "seat": seat,
        "expected_seat": seat,
    }


def replay(client: Client, table: Table, tap: dict[str, Any]) -> Any:
    return client.post(reverse("deal-action", args=[table.pk]), tap, headers=HTMX)


def test_a_queued_tap_whose_answer_was_lost_is_not_applied_twice_when_the_queue_is_replayed(
    dealing,
) -> None:
    table, client, _ = dealing
    hand = hand_of(table)
    first_seat = hand.state["actor_seat"]
    first = queued(hand, "tap-1-4f1c2d", 0, first_seat)
    assert replay(client, table, first).status_code == 200  # recorded; the answer was lost
    second = queued(hand, "tap-2-9a0b3e", 1, hand_of(table).state["actor_seat"])

    # The queue is replayed from its head: the first tap again, then the second.
    assert replay(client, table, first).status_code == 200
    assert replay(client, table, second).status_code == 200
    # A reload replays the whole queue once more (the page was closed before it was emptied).
    for tap in (first, second):
        assert replay(client, table, tap).status_code == 200

    events = HandEvent.objects.filter(hand=hand).order_by("seq")
    assert list(events.values_list("client_id", flat=True)) == ["tap-1-4f1c2d", "tap-2-9a0b3e"]
    assert hand_of(table).version == 2


def test_a_queued_tap_the_hand_moved_past_on_another_device_is_refused_and_records_nothing(
    dealing,
) -> None:
    table, client, dealer = dealing
    hand = hand_of(table)
    seat = hand.state["actor_seat"]
    hand_record_action(
        hand=hand.pk, action={"kind": "fold"}, client_id="other", version=0, actor=dealer
    )

    refused = replay(client, table, queued(hand, "tap-1-4f1c2d", 0, seat))

    assert refused.status_code == 409
    assert STALE.split(":")[0] in text(refused)
    assert list(HandEvent.objects.filter(hand=hand).values_list("client_id", flat=True)) == [
        "other"
    ]


def test_the_service_worker_is_served_under_deal_so_its_scope_covers_the_tablets(
    client: Client,
) -> None:
    """/deal/sw.js, not /static/: a worker controls only the pages under its own path. It is
    read again on every tablet page (no-cache) and holds no data (no sign-in needed)."""
    url = reverse("deal-service-worker")
    answer = client.get(url)

    assert url == "/deal/sw.js"
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert "no-cache" in answer["Cache-Control"]
    assert "Content-Security-Policy" in answer
    assert "/deal/table/" in answer.content.decode()  # what it keeps: the tablet pages


def test_the_tablet_page_names_the_service_worker_and_the_queue_endpoint(dealing) -> None:
    table, client, _ = dealing
    page = client.get(reverse("deal-table", args=[table.pk])).content.decode()
    assert 'data-service-worker="/deal/sw.js"' in page
    assert f'data-action-url="{reverse("deal-action", args=[table.pk])}"' in page
