"""The card gate's rules, one hole of issue 23 each (`dealer.card_gate`).

Table 1's dealer enters Qs Qd for a player. Before the gate, the dealer of table 2 learned them
from a procedure preview's refusal ("2h is not one of seat 2's cards as entered (Qs Qd)"), from
`duplicate_card` answers to premature-card previews, and from the `undone` list of an undo in
the hand's log; and a tap refused for its role answered the whole live tablet.
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from common.roles import DEALER_GROUP
from dealer.card_gate import HIDDEN_CARD, hide_hole_cards
from dealer.models import Hand
from tests.dealer.test_api_hands import start
from tests.factories import DirectorFactory, assign_dealer, seated_tournament
from tests.security.test_card_walk import routes
from tournaments.models import Entry, Table

pytestmark = pytest.mark.django_db

HELD = ["Qs", "Qd"]
HTMX = {"HX-Request": "true"}


def signed_in(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def held() -> dict[str, Any]:
    """Table 1's hand with Qs Qd entered for the first player to act; table 2's dealer."""
    tournament = seated_tournament(players=12)
    first, second = Table.objects.filter(tournament=tournament).order_by("number")[:2]
    own = assign_dealer(first)
    tablet = start(signed_in(own), first)
    seat = tablet.state["legal"]["actor"]
    tablet.ok(kind="deal_hole", seat=seat, cards=HELD)
    other = assign_dealer(second)
    return {
        "table": first,
        "hand": tablet.state["hand"],
        "tablet": tablet,
        "seat": seat,
        "own": own,
        "other": other,
    }


def preview(client: APIClient, hand: int, trigger: str, **query: Any) -> Any:
    return client.get(f"/api/hands/{hand}/procedures/preview/", {"trigger": trigger, **query})


def assert_no_held_card(body: bytes) -> None:
    text = body.decode()
    for card in (*HELD, "Q♠", "Q♦"):
        assert card not in text


# --- previews: a dealer previews procedures only at the tables they deal ----------------------


@pytest.mark.parametrize(
    ("trigger", "query"),
    [
        ("other_hole_card_exposed", {"details": json.dumps({"cards": "2h"})}),
        ("premature_flop", {"details": json.dumps({"cards": "Qs Qd 2c"})}),
        ("cards_exposed_before_flop", {"details": json.dumps({"cards": "Qs"})}),
    ],
)
def test_a_preview_at_another_table_is_refused_before_the_cards_are_read(
    held, trigger, query
) -> None:
    if trigger == "other_hole_card_exposed":
        query = {**query, "seat": held["seat"]}
    response = preview(signed_in(held["other"]), held["hand"], trigger, **query)
    assert response.status_code == 403, response.content
    assert response.json()["code"] == "permission_denied"
    assert_no_held_card(response.content)


def test_the_tables_dealer_still_previews_and_may_read_the_cards_named(held) -> None:
    details = json.dumps({"cards": "2h"})
    response = preview(
        signed_in(held["own"]),
        held["hand"],
        "other_hole_card_exposed",
        seat=held["seat"],
        details=details,
    )
    # The dealer entered them: the refusal may name them to the dealer.
    assert response.status_code == 409, response.content
    assert "Qs" in response.json()["detail"]


def test_the_tablet_procedure_sheet_at_another_table_is_refused(held) -> None:
    client = Client()
    client.force_login(held["other"])
    response = client.get(
        f"/deal/table/{held['table'].pk}/procedures/",
        {"trigger": "other_hole_card_exposed", "seat": held["seat"], "cards": "2h"},
        headers=HTMX,
    )
    assert response.status_code == 403
    assert_no_held_card(response.content)


def test_the_tablet_procedure_sheet_is_open_to_the_tables_dealer(held) -> None:
    client = Client()
    client.force_login(held["own"])
    response = client.get(
        f"/deal/table/{held['table'].pk}/procedures/",
        {"trigger": "other_hole_card_exposed", "seat": held["seat"], "cards": "2h"},
        headers=HTMX,
    )
    assert response.status_code == 200
    assert "Qs" in response.content.decode()


# --- the log: every key of every event ---------------------------------------------------------


def test_cards_in_an_undos_undone_list_are_hidden_from_another_tables_dealer(held) -> None:
    assert held["tablet"].undo().status_code == 200
    response = signed_in(held["other"]).get(f"/api/hands/{held['hand']}/events/")
    assert response.status_code == 200
    assert_no_held_card(response.content)
    undo = next(e for e in response.json() if e["kind"] == "undo")
    assert undo["payload"]["undone"][0]["cards"] == [HIDDEN_CARD, HIDDEN_CARD]
    own = signed_in(held["own"]).get(f"/api/hands/{held['hand']}/events/").json()
    assert next(e for e in own if e["kind"] == "undo")["payload"]["undone"][0]["cards"] == HELD


def test_hiding_walks_every_key_of_a_payload() -> None:
    payload: dict[str, Any] = {
        "reason": "wrong cards",
        "undone": [{"kind": "deal_hole", "player": 0, "cards": ["Qs", "Qd"]}],
        "details": {"nested": [{"kind": "muck", "cards": ["2c"]}]},
        "actions": [{"kind": "show", "cards": ["As"]}],
    }
    hidden = hide_hole_cards(payload)
    assert hidden["undone"][0]["cards"] == ["??", "??"]
    assert hidden["details"]["nested"][0]["cards"] == ["??"]
    assert hidden["actions"][0]["cards"] == ["As"]
    assert payload["undone"][0]["cards"] == ["Qs", "Qd"]  # the stored payload is untouched


# --- a tap refused for its role: a bare 403 -----------------------------------------------------


def tap(user: Any, held: dict[str, Any]) -> Any:
    client = Client()
    client.force_login(user)
    data = {
        "client_id": uuid.uuid4().hex,
        "hand": str(held["hand"]),
        "version": str(held["tablet"].state["version"]),
        "action": "fold",
        "seat": str(held["tablet"].state["legal"]["actor"]),
    }
    return client.post(f"/deal/table/{held['table'].pk}/action/", data, headers=HTMX)


def assert_bare(response: Any, held: dict[str, Any]) -> None:
    assert response.status_code == 403
    assert_bare_body(response, held)


def assert_bare_body(response: Any, held: dict[str, Any]) -> None:
    body = response.content.decode()
    names = [p["name"] for p in held["tablet"].state["players"]]
    assert not [name for name in names if name in body]
    assert "tablet" not in body.lower()
    assert "pot" not in body.lower()


def test_a_tap_by_a_user_with_no_role_is_a_bare_403(held) -> None:
    visitor = get_user_model().objects.create_user("visitor", password="pw")
    assert_bare(tap(visitor, held), held)


def test_a_tap_by_a_dealer_taken_out_of_the_group_is_a_bare_403(held) -> None:
    held["own"].groups.remove(Group.objects.get(name=DEALER_GROUP))
    assert_bare(tap(held["own"], held), held)


def test_a_tap_by_another_tables_dealer_is_a_bare_403(held) -> None:
    assert_bare(tap(held["other"], held), held)


def test_a_tap_by_a_director_is_answered_with_the_tablet(held) -> None:
    response = tap(DirectorFactory(), held)
    assert response.status_code == 200


def tablet_writes() -> list[str]:
    """Every tablet URL of the project (`deal/table/<pk>/...`), from the URL configuration."""
    found = [r.path for r in routes() if r.path.startswith("deal/table/<int:pk>/")]
    assert len(found) > 5
    return found


@pytest.mark.parametrize("who", ["no_role", "taken_out", "other_dealer"])
def test_every_tablet_write_refused_for_the_role_shows_nothing_of_the_table(held, who) -> None:
    if who == "no_role":
        user = get_user_model().objects.create_user("visitor", password="pw")
    elif who == "taken_out":
        user = held["own"]
        user.groups.remove(Group.objects.get(name=DEALER_GROUP))
    else:
        user = held["other"]
    client = Client()
    client.force_login(user)
    state = held["tablet"].state
    data = {
        "client_id": uuid.uuid4().hex,
        "hand": str(held["hand"]),
        "version": str(state["version"]),
        "last_hand": str(held["hand"]),
        "action": "fold",
        "seat": str(state["legal"]["actor"]),
        "reason": "Wrong amount",
        "trigger": "floor_misdeal",
        "note": "test",
    }
    for route in tablet_writes():
        url = "/" + route.replace("<int:pk>", str(held["table"].pk))
        for headers in (HTMX, {}):
            response = client.post(url, data, headers=headers)
            # A view that takes no POST answers 405; a write refused for the role a bare 403;
            # the dealers' sign-in with no push due sends back to the tablet (an empty body).
            assert response.status_code in (302, 403, 405), (url, response.status_code)
            assert_bare_body(response, held)
    assert Hand.objects.get(pk=held["hand"]).version == state["version"]


# --- ETags ------------------------------------------------------------------------------------


def test_the_hand_state_carries_only_public_cards_so_one_etag_serves_every_caller(held) -> None:
    url = f"/api/hands/{held['hand']}/"
    own = signed_in(held["own"]).get(url)
    other = signed_in(held["other"]).get(url)
    assert own.status_code == other.status_code == 200
    assert own.json() == other.json()
    assert own["ETag"] == other["ETag"]
    assert_no_held_card(other.content)


def test_the_tablets_etag_is_per_audience(held) -> None:
    url = f"/deal/table/{held['table'].pk}/state/"
    own, other = Client(), Client()
    own.force_login(held["own"])
    other.force_login(held["other"])
    etag = own.get(url)["ETag"]
    # The table's dealer's tag, sent by another table's dealer: their own tablet, not a 304.
    answer = other.get(url, headers={"If-None-Match": etag})
    assert answer.status_code == 200
    assert answer["ETag"] != etag
    assert_no_held_card(answer.content)


# --- one gate ---------------------------------------------------------------------------------


def test_only_the_gate_asks_who_may_see_the_hole_cards() -> None:
    """The role's rule (`may_see_hole_cards`) and the masking are reached through
    `dealer.card_gate` alone: an answer that asked the role directly could skip the gate."""
    root = Path(__file__).resolve().parents[2]
    allowed = {root / "dealer" / "card_gate.py", root / "tournaments" / "roles.py"}
    callers = [
        str(path.relative_to(root))
        for package in ("config", "dealer", "tournaments")
        for path in (root / package).rglob("*.py")
        if path not in allowed
        and re.search(r"\b(may_see_hole_cards|_hide|PRIVATE_CARD_KINDS)\b", path.read_text())
    ]
    assert callers == []


@pytest.mark.parametrize("who", ["no_role", "taken_out"])
def test_a_tap_by_a_user_without_the_role_reads_nothing_of_the_table(held, who) -> None:
    if who == "no_role":
        user = get_user_model().objects.create_user("visitor", password="pw")
    else:
        user = held["own"]
        user.groups.remove(Group.objects.get(name=DEALER_GROUP))
    tables = {Hand._meta.db_table, Table._meta.db_table, Entry._meta.db_table}
    with CaptureQueriesContext(connection) as queries:
        response = tap(user, held)
    assert response.status_code == 403
    read = [q["sql"] for q in queries if any(f'"{name}"' in q["sql"] for name in tables)]
    assert read == []
