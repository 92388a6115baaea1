"""Nothing a client sends to the dealer API is a 500: every endpoint, fed junk (bad JSON, wrong
types, huge numbers, unknown kinds, bad cards, text that no column holds), answers 2xx or 4xx,
and every 4xx is {"code", "detail"}. Well-formed actions of every kind, with every sort of
player, amount and cards, reach the engine in every phase of a hand and are answered in the same
way. (The test client re-raises a view's exception, so a crash fails the test.)"""

from __future__ import annotations

import itertools
import json
import random
from datetime import UTC, datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from config import request_time
from dealer.engine.actions import Kind
from tests.factories import DirectorFactory, HandClient, seated_tournament
from tournaments.models import Table

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
HUGE = 10**40

JUNK_JSON = [
    '{"client_id": ',
    "[1, 2, 3]",
    '"a string"',
    "null",
    "12",
    "[" * 50_000 + "]" * 50_000,
    '{"version": NaN, "action": {"amount": Infinity}}',
    '{"version": 1e999}',
    '{"version": ' + "9" * 5000 + "}",
    '{"client_id": "a", "version": 0, "action": {"kind": "raise", "amount": ' + "9" * 5000 + "}}",
]
JUNK_OBJECTS: list[Any] = [
    {},
    {"client_id": None, "version": None, "action": None, "reason": None, "trigger": None},
    {"client_id": 5, "version": "zero", "action": "call", "reason": 7, "trigger": ["x"]},
    {"client_id": ["a"], "version": [0], "action": ["call"], "details": "x", "seat": "one"},
    {"client_id": "x" * 10_000, "version": HUGE, "reason": "y" * 10_000, "trigger": "z" * 999},
    {"client_id": "a\x00b", "version": 0, "reason": "\x00", "trigger": "\x00"},
    {"client_id": "\ud800", "version": 0, "reason": "\ud800", "trigger": "\ud800"},
    {"client_id": "k", "version": -1, "seat": 0, "details": [1, 2]},
    {"client_id": "k", "version": 0, "seat": 11, "details": {"a": "x" * 5000}},
    {"client_id": "k", "version": 0, "trigger": "boxed_card", "details": {"\x00": "\ud800"}},
    {"client_id": "k", "version": 0, "trigger": "wrong_hole_card_count", "seat": 1},
    {
        "client_id": "k",
        "version": 0,
        "trigger": "wrong_hole_card_count",
        "seat": HUGE,
        "details": {"count": ["too_many"], "acted": "yes", "burn": 3, "card": "ZZ"},
    },
    {"client_id": "k", "version": 0, "trigger": "first_hole_card_exposed", "details": None},
]
JUNK_ACTIONS: list[Any] = [
    {},
    {"kind": "dance"},
    {"kind": None},
    {"kind": ["call"]},
    {"kind": "call", "player": "me"},
    {"kind": "call", "player": -1},
    {"kind": "call", "player": HUGE},
    {"kind": "call", "seat": "one"},
    {"kind": "call", "seat": 0},
    {"kind": "call", "seat": HUGE},
    {"kind": "raise", "amount": "lots"},
    {"kind": "raise", "amount": -5},
    {"kind": "raise", "amount": HUGE},
    {"kind": "raise", "amount": 1.5},
    {"kind": "raise", "amount": True},
    {"kind": "deal_board", "cards": "AsKdQh"},
    {"kind": "deal_board", "cards": ["As", "As", "Kd"]},
    {"kind": "deal_board", "cards": ["Zz", "1x", "AsKd"]},
    {"kind": "deal_board", "cards": [None, 5, ["As"]]},
    {"kind": "deal_board", "cards": ["As"] * 1000},
    {"kind": "deal_board", "cards": ["\x00", "\ud800", "10h"]},
    {"kind": "show", "player": 0, "cards": {"a": 1}},
    {"kind": "misdeal", "reason": "x" * 10_000},
    {"kind": "kill", "reason": "\x00"},
]
QUERIES: list[dict[str, str]] = [
    {},
    {"trigger": "boxed_card", "seat": "x", "details": "{"},
    {"trigger": "boxed_card", "seat": str(HUGE), "details": "[" * 5000 + "]" * 5000},
    {"trigger": "\x00", "details": "[1]", "limit": "1e99", "before": "abc"},
    {"trigger": "wrong_hole_card_count", "seat": "1", "details": '{"count": {"a": 1}}'},
    {"table": str(HUGE), "dealer": "-1", "tournament": "x", "limit": "0", "before": str(HUGE)},
    {"trigger": "joker_face_down", "seat": "3", "details": '{"acted": "perhaps"}'},
    {"trigger": "first_hole_card_exposed", "details": '{"card": "Zz"}'},
]


def _answered_properly(response: Any) -> None:
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        body = response.json()
        assert set(body) >= {"code", "detail"}, body


@pytest.fixture
def world(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)
    tournament = seated_tournament(players=12, seats_per_table=6)
    table, other = Table.objects.filter(tournament=tournament).order_by("number")
    client = APIClient()
    client.force_login(DirectorFactory())
    response = client.post(f"/api/tables/{table.pk}/hands/", {"client_id": "s"}, format="json")
    return client, {"t": table.pk, "h": response.json()["hand"], "t2": other.pk}


WRITES = [
    "/api/tables/{t}/hands/",
    "/api/hands/{h}/actions/",
    "/api/hands/{h}/undo/",
    "/api/hands/{h}/procedures/",
    "/api/tables/999999/hands/",
    f"/api/hands/{HUGE}/actions/",
]
READS = [
    "/api/tables/{t}/hands/",
    "/api/tables/{t}/hands/current/",
    "/api/hands/{h}/",
    "/api/hands/{h}/events/",
    "/api/hands/{h}/procedures/preview/",
    "/api/procedures/",
    "/api/procedures.csv",
    f"/api/hands/{HUGE}/",
    f"/api/tables/{HUGE}/hands/current/",
]


@pytest.mark.django_db
@pytest.mark.parametrize("path", WRITES)
def test_writes_answer_junk_without_a_server_error(world, path):
    client, ids = world
    url = path.format(**ids)
    for raw in JUNK_JSON:
        _answered_properly(client.post(url, raw, content_type="application/json"))
    _answered_properly(client.post(url, b"\xff\xfe\x00junk", content_type="application/json"))
    _answered_properly(
        client.post(url, "a=1&b=2", content_type="application/x-www-form-urlencoded")
    )
    _answered_properly(client.post(url, "<xml/>", content_type="application/xml"))
    for body in JUNK_OBJECTS:
        _answered_properly(client.post(url, json.dumps(body), content_type="application/json"))
    for action in JUNK_ACTIONS:
        body = {"client_id": "junk", "version": 0, "action": action}
        _answered_properly(client.post(url, json.dumps(body), content_type="application/json"))
    for method in ("get", "put", "patch", "delete", "options"):
        _answered_properly(getattr(client, method)(url))
    browsable = client.post(url, "{", content_type="application/json", HTTP_ACCEPT="text/html")
    assert browsable.status_code < 500


@pytest.mark.django_db
@pytest.mark.parametrize("path", READS)
def test_reads_answer_junk_queries_without_a_server_error(world, path):
    client, ids = world
    url = path.format(**ids)
    for query in QUERIES:
        _answered_properly(client.get(url, query))
        _answered_properly(APIClient().get(url, query))
    _answered_properly(client.get(url, HTTP_ACCEPT="image/png"))
    _answered_properly(client.get(url, HTTP_IF_NONE_MATCH='W/"x", *, "'))
    assert client.get(url, HTTP_ACCEPT="text/html").status_code < 500
    for method in ("post", "put", "delete"):
        _answered_properly(getattr(client, method)(url))


def _variants(state: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Every action kind with every sort of player, amount and cards, valid or not."""
    seats = [p["seat"] for p in state["players"]]
    players: list[dict[str, Any]] = [{}, {"player": 0}, {"player": 5}, {"seat": seats[-1]}]
    amounts: list[dict[str, Any]] = [{}, {"amount": 0}, {"amount": 450}, {"amount": 2**31 - 1}]
    deck = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
    cards: list[dict[str, Any]] = [
        {},
        {"cards": rng.sample(deck, 1)},
        {"cards": rng.sample(deck, 2)},
        {"cards": rng.sample(deck, 3)},
        {"cards": ["??", "??"]},
    ]
    kinds = [kind.value for kind in Kind if kind not in (Kind.MISDEAL, Kind.KILL)]
    combos = itertools.product(kinds, players, amounts, cards)
    return [{"kind": kind, **p, **a, **c} for kind, p, a, c in combos]


def _fuzz(tablet: HandClient, rng: random.Random, rounds: int, size: int = 40) -> set[str]:
    phases = set()
    for _ in range(rounds):  # the hand moves on whenever a variant is accepted
        if tablet.state["phase"] in ("complete", "void"):
            break
        phases.add(tablet.state["phase"])
        for action in rng.sample(_variants(tablet.state, rng), size):
            _answered_properly(tablet.act(**action))
            if rng.random() < 0.05:
                _answered_properly(tablet.undo("fuzz"))
    return phases


def _to_showdown(tablet: HandClient) -> None:
    boards = iter([["2c", "7d", "9h"], ["Js"], ["3s"]])
    while tablet.state["phase"] in ("betting", "dealing"):
        if tablet.state["phase"] == "dealing":
            tablet.ok(kind="deal_board", cards=next(boards))
        else:
            tablet.ok(kind="check" if tablet.state["legal"]["can_check"] else "call")


@pytest.mark.django_db
def test_every_kind_of_action_in_every_phase_is_answered_without_a_server_error(world):
    client, ids = world
    rng = random.Random(5)
    tablet = HandClient(client, client.get(f"/api/hands/{ids['h']}/").json())
    phases = _fuzz(tablet, rng, 20)
    for action in ({"kind": "kill", "player": 0}, {"kind": "misdeal"}, {"kind": "kill"}):
        _answered_properly(tablet.act(**action))
    response = client.post(f"/api/tables/{ids['t2']}/hands/", {"client_id": "2"}, format="json")
    showdown = HandClient(client, response.json())
    _to_showdown(showdown)
    phases |= _fuzz(showdown, rng, 3, size=100)
    assert phases == {"betting", "dealing", "showdown"}
    for action in ({"kind": "kill", "player": 0}, {"kind": "misdeal"}, {"kind": "kill"}):
        _answered_properly(showdown.act(**action))
