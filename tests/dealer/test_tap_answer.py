"""A tap within a hand is answered with what it changed, not the whole tablet (issue 11).

The answer carries the table, the pots, the dock and the entry's line of the log, each swapped in
by its id (htmx out-of-band swaps), and the tablet's new ETag and version in an event; those
regions are the very ones the whole tablet shows for the same state, and the ETag is the one the
poll answers 304 to. A new hand, the hand's end and every refusal still answer the whole tablet.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dealer.card_gate import CardSight
from dealer.models import Hand, HandEvent
from dealer.views import present
from tests.dealer.test_pages import HTMX, hand_of, setup_table, signed_in, start, text
from tests.factories import DealerFactory
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def tap(client: Client, table: Table, action: str, **fields: Any) -> Any:
    """One tap as the tablet sends it, at the hand's current version."""
    hand = hand_of(table)
    legal = hand.state.get("legal")
    data = {
        "client_id": uuid.uuid4().hex,
        "hand": hand.pk,
        "version": hand.version,
        "action": action,
        **({"seat": legal["actor"]} if legal else {}),
        **fields,
    }
    return client.post(reverse("deal-action", args=[table.pk]), data, headers=HTMX)


def region(html: str, tag: str, region_id: str) -> str:
    """The inside of the `<tag id=region_id ...>` element (the regions hold no element of their
    own tag), with what differs on every render taken out: the client id, the CSRF token."""
    found = re.search(rf'<{tag}\b[^>]*\bid="{region_id}"[^>]*>(.*?)</{tag}>', html, re.S)
    assert found is not None, f"no #{region_id} in the answer"
    blank = re.sub(r'name="client_id" value="[0-9a-f]+"', 'name="client_id"', found.group(1))
    return re.sub(r'name="csrfmiddlewaretoken" value="\w+"', "", blank)


def tablet_state(response: Any) -> dict[str, Any]:
    return json.loads(response["HX-Trigger-After-Swap"])["tablet:state"]


@pytest.fixture
def dealing() -> tuple[Table, Client]:
    """A table of four with its dealer signed in and the first hand started."""
    table, dealer = setup_table(players=4)
    client = signed_in(dealer)
    assert start(client, table).status_code == 200
    return table, client


def test_a_tap_answers_its_regions_only_and_the_request_swaps_nothing(dealing) -> None:
    table, client = dealing
    response = tap(client, table, "call")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="tablet"' not in html  # not the whole tablet
    for region_id in ("tablet-felt", "tablet-pots", "tablet-dock"):
        assert re.search(rf'id="{region_id}"[^>]*hx-swap-oob="true"', html), region_id
    assert response["HX-Reswap"] == "none"
    hand = hand_of(table)
    assert tablet_state(response) == {
        "etag": response["ETag"],
        "hand": hand.pk,
        "version": 1,
        "phase": "betting",
    }


def test_the_dock_carries_what_the_next_tap_needs(dealing) -> None:
    table, client = dealing
    html = tap(client, table, "call").content.decode()
    dock = region(html, "section", "tablet-dock")
    hand = hand_of(table)
    assert f'name="hand" value="{hand.pk}"' in dock
    assert 'name="version" value="1"' in dock
    assert 'name="client_id"' in dock
    assert html.count('name="csrfmiddlewaretoken"') == dock.count("<form")
    assert f"Call {hand.state['legal']['call']}" in " ".join(re.sub(r"<[^>]+>", " ", dock).split())


def test_the_regions_are_the_ones_the_whole_tablet_shows_for_the_same_state(dealing) -> None:
    table, client = dealing
    tap(client, table, "call")
    answer = tap(client, table, "fold").content.decode()
    whole = client.get(reverse("deal-state", args=[table.pk])).content.decode()
    for tag, region_id in (
        ("section", "tablet-felt"),
        ("div", "tablet-pots"),
        ("section", "tablet-dock"),
    ):
        assert region(answer, tag, region_id) == region(whole, tag, region_id), region_id


def test_the_poll_answers_304_to_the_etag_a_tap_gave(dealing) -> None:
    table, client = dealing
    response = tap(client, table, "call")
    url = reverse("deal-state", args=[table.pk])
    assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    assert client.get(url)["ETag"] == response["ETag"]


def test_a_tap_adds_its_line_to_the_log_and_the_first_entry_brings_the_log_and_undo(
    dealing,
) -> None:
    table, client = dealing
    first = tap(client, table, "call").content.decode()
    log = region(first, "div", "tablet-log")
    assert "Latest entries" in log
    assert "calls" in log
    tools = region(first, "div", "tablet-tools")
    assert "Undo" in tools
    assert "disabled" not in tools

    second = tap(client, table, "fold").content.decode()
    assert 'id="tablet-log"' not in second
    added = re.search(r'<ol hx-swap-oob="afterbegin:#tablet-log-list">(.*?)</ol>', second, re.S)
    assert added is not None
    newest = present.log_view(hand_of(table), sight=CardSight(hole_cards=True))["entries"][0]
    assert newest["text"] == "Seat {} {} folds".format(*_actor_before(table))
    assert f">{newest['text']}</li>" in added.group(1)


def _actor_before(table: Table) -> tuple[int, str]:
    """The seat and name of the player who made the hand's latest entry."""
    hand = hand_of(table)
    event = HandEvent.objects.filter(hand=hand).order_by("-seq").first()
    assert event is not None
    seat = hand.seats[event.payload["actions"][0]["player"]]
    return seat["seat"], seat["name"]


def test_the_hands_end_and_a_resent_tap_answer_the_whole_tablet(dealing) -> None:
    table, client = dealing
    hand = hand_of(table)
    data = {
        "client_id": uuid.uuid4().hex,
        "hand": hand.pk,
        "version": 0,
        "action": "fold",
        "seat": hand.state["legal"]["actor"],
    }
    url = reverse("deal-action", args=[table.pk])
    client.post(url, data, headers=HTMX)
    again = client.post(url, data, headers=HTMX)
    assert 'id="tablet"' in again.content.decode()  # its first answer, which may be older
    while hand_of(table).status == Hand.Status.IN_PROGRESS:
        last = tap(client, table, "fold")
    assert 'id="tablet"' in last.content.decode()
    assert "push the pots" in text(last)
    assert "HX-Reswap" not in last


def test_a_tap_reads_only_the_hand_the_write_and_the_moves_after_the_hand(dealing) -> None:
    table, client = dealing
    tap(client, table, "call")
    hand = hand_of(table)
    data = {
        "client_id": uuid.uuid4().hex,
        "hand": hand.pk,
        "version": hand.version,
        "action": "call",
        "seat": hand.state["legal"]["actor"],
    }
    with CaptureQueriesContext(connection) as captured:
        response = client.post(reverse("deal-action", args=[table.pk]), data, headers=HTMX)
    assert response.status_code == 200
    sent = [q["sql"] for q in captured if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    # The session's user with the dealers' role, in one query (nothing is remembered between
    # requests: a dealer taken out of the group is refused at once, config/authentication.py);
    # the write: the hand, at the URL's table, locked and read, the entry stored (on SQLite an
    # insert and an update); the players who move after the hand. Not the hand before the
    # write, the user's groups apart, the log, the tournament.
    users = [sql for sql in sent if "auth_" in sql]
    assert len(users) == 1, sent
    assert "in_dealer_group" in users[0]
    assert not [sql for sql in sent if 'FROM "tournaments_tournament"' in sql], sent
    reads_of_the_log = [sql for sql in sent if sql.startswith("SELECT") and "handevent" in sql]
    assert not reads_of_the_log, sent
    reads_of_the_hand = [sql for sql in sent if sql.startswith("SELECT") and "dealer_hand" in sql]
    assert len(reads_of_the_hand) == 1, sent
    assert len(sent) == (4 if connection.vendor == "postgresql" else 5), sent


def test_a_dealer_taken_out_of_the_dealers_group_is_refused_at_the_next_tap(dealing) -> None:
    table, client = dealing
    assert tap(client, table, "call").status_code == 200
    assert table.dealer is not None
    table.dealer.groups.clear()  # the floor takes the account out of the group
    assert tap(client, table, "call").status_code == 403
    assert hand_of(table).version == 1


def test_a_tap_naming_another_tables_hand_is_refused_and_writes_nothing(dealing) -> None:
    table, client = dealing
    other, _ = setup_table(players=3)
    hand = hand_of(table)
    response = client.post(
        reverse("deal-action", args=[other.pk]),
        {"client_id": uuid.uuid4().hex, "hand": hand.pk, "version": 0, "action": "call"},
        headers=HTMX,
    )
    assert response.status_code == 404
    assert hand_of(table).version == 0


def test_a_tap_by_a_dealer_of_another_table_is_refused_and_writes_nothing(dealing) -> None:
    table, _ = dealing
    other = signed_in(DealerFactory.create())
    assert tap(other, table, "call").status_code == 403
    assert hand_of(table).version == 0
