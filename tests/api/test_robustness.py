"""Nothing a client can send is a 500: every endpoint, fed junk, answers 2xx or 4xx, and every
4xx is {"code", "detail"}. (The test client re-raises a view's exception, so a crash fails.)"""

import json
from datetime import UTC, datetime

import pytest
from rest_framework.test import APIClient

from config import request_time
from tests.factories import BlindScheduleFactory, DirectorFactory, seated_tournament
from tournaments.models import Entry

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
HUGE = 10**40

JUNK_JSON = [
    '{"player_name": ',
    "[1, 2, 3]",
    '"a string"',
    "null",
    "12",
    "true",
    "[" * 50_000 + "]" * 50_000,
    '{"chips": NaN, "seconds": Infinity}',
    '{"index": 1e999}',
    '{"chips": ' + "9" * 5000 + "}",
]
JUNK_OBJECTS = [
    {},
    {
        "player_name": 5,
        "name": ["x"],
        "levels": "many",
        "index": "two",
        "seconds": "ten",
        "chips": "lots",
        "schedule": "abc",
        "buy_in": "free",
        "seats_per_table": "nine",
        "payout_percentages": "all",
        "rule_overrides": [1],
        "icm_enabled": "perhaps",
    },
    {
        "player_name": None,
        "name": None,
        "levels": [None, 5, "x"],
        "index": -1,
        "seconds": -HUGE,
        "chips": -1,
        "schedule": -3,
        "buy_in": "-1",
        "fee": "-0.01",
        "starting_stack": -10,
        "seats_per_table": 1,
        "payout_percentages": [-50, 150],
        "payout_unit": "0",
        "late_registration_level": -1,
        "max_entries_per_player": 0,
    },
    {
        "player_name": "x" * 10_000,
        "name": "y" * 10_000,
        "levels": [{"small_blind": HUGE, "big_blind": HUGE, "ante": HUGE, "duration": HUGE}],
        "index": HUGE,
        "seconds": HUGE,
        "chips": HUGE,
        "schedule": HUGE,
        "buy_in": "1e40",
        "guarantee": str(HUGE),
        "starting_stack": HUGE,
        "rebuy_chips": 2**31,
        "payout_percentages": [str(HUGE)],
        "rule_overrides": {"fl_cap_bets": HUGE, "button_mode": {"a": [1]}},
    },
    {"player_name": "A\x00B", "name": "\x00", "rule_profile": "\x00", "note": "\ud800"},
    {"levels": [{"small_blind": 100, "big_blind": 200, "duration": 0}], "name": "Zero"},
    {"levels": [], "name": "Empty"},
    {"levels": [{"big_blind": 200, "duration": 60, "note": "\ud800"}], "name": "\ud800"},
]
JUNK_LISTS = [
    [],
    [{"entry_id": "x", "starting_stack": "y"}, 5, None],
    [{"entry_id": HUGE, "starting_stack": HUGE}],
    [{"entry_id": -1, "starting_stack": 0}],
    [{"entry_id": 1, "starting_stack": 1}] * 1000,
]

WRITES = [
    ("post", "/api/schedules/"),
    ("put", "/api/schedules/{schedule}/levels/"),
    ("post", "/api/tournaments/"),
    ("patch", "/api/tournaments/{t}/"),
    ("post", "/api/tournaments/{t}/open-registration/"),
    ("post", "/api/tournaments/{t}/finish/"),
    ("post", "/api/tournaments/{t}/deal/"),
    ("post", "/api/tournaments/{t}/entries/"),
    ("post", "/api/entries/{entry}/unregister/"),
    ("post", "/api/entries/{entry}/rebuy/"),
    ("post", "/api/entries/{entry}/addon/"),
    ("put", "/api/entries/{entry}/chips/"),
    ("post", "/api/tournaments/{t}/seat-draw/"),
    ("post", "/api/tournaments/{t}/balancing/confirm/"),
    ("post", "/api/tournaments/{t}/clock/start/"),
    ("post", "/api/tournaments/{t}/clock/pause/"),
    ("post", "/api/tournaments/{t}/clock/resume/"),
    ("post", "/api/tournaments/{t}/clock/set-level/"),
    ("post", "/api/tournaments/{t}/clock/add-time/"),
    ("post", "/api/tournaments/{t}/busts/"),
    ("post", "/api/tournaments/{t}/busts/undo/"),
]
READS = [
    "/api/schedules/",
    "/api/schedules/{schedule}/",
    "/api/tournaments/",
    "/api/tournaments/{t}/",
    "/api/tournaments/{t}/entries/",
    "/api/tournaments/{t}/tables/",
    "/api/tournaments/{t}/balancing/",
    "/api/tournaments/{t}/clock/",
    "/api/tournaments/{t}/standings/",
    "/api/tournaments/{t}/payouts/",
    "/api/tournaments/{t}/icm/",
    "/api/tournaments/{t}/seats/",
    "/api/tournaments/{t}/results.csv",
    "/api/audit/",
]
JUNK_QUERIES = [
    {},
    {"status": "zzz", "q": "\x00", "table": "-1", "limit": "1e99", "before": "abc"},
    {"table": str(HUGE), "limit": str(HUGE), "before": str(HUGE), "tournament": str(HUGE)},
    {"q": "x" * 5000, "action": "y" * 5000, "limit": "-1", "tournament": "0"},
    {"q": "Pl", "status": "active", "table": "1", "limit": "3", "format": "xml"},
]


@pytest.fixture
def world(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)
    tournament = seated_tournament(players=6)
    client = APIClient()
    client.force_login(DirectorFactory())
    ids = {
        "t": tournament.pk,
        "schedule": BlindScheduleFactory().pk,
        "entry": Entry.objects.filter(tournament=tournament).first().pk,
    }
    return client, ids


def _answered_properly(response):
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        body = response.json()
        assert set(body) >= {"code", "detail"}, body


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path"), WRITES)
def test_writes_answer_junk_without_a_server_error(world, method, path):
    client, ids = world
    url = path.format(**ids)
    send = getattr(client, method)
    for raw in JUNK_JSON:
        _answered_properly(send(url, raw, content_type="application/json"))
    _answered_properly(send(url, b"\xff\xfe\x00junk", content_type="application/json"))
    _answered_properly(send(url, "a=1&b=2", content_type="application/x-www-form-urlencoded"))
    _answered_properly(send(url, "<xml/>", content_type="application/xml"))
    for body in [*JUNK_OBJECTS, *JUNK_LISTS]:
        _answered_properly(send(url, json.dumps(body), content_type="application/json"))
    _answered_properly(client.options(url))
    browsable = send(url, "{", content_type="application/json", HTTP_ACCEPT="text/html")
    assert browsable.status_code < 500


@pytest.mark.django_db
@pytest.mark.parametrize("path", READS)
def test_reads_answer_junk_queries_without_a_server_error(world, path):
    client, ids = world
    url = path.format(**ids)
    for query in JUNK_QUERIES:
        _answered_properly(client.get(url, query))
        _answered_properly(APIClient().get(url, query))
    _answered_properly(client.get(url, HTTP_ACCEPT="image/png"))
    assert client.get(url, HTTP_ACCEPT="text/html").status_code < 500
    _answered_properly(client.get(url, HTTP_IF_NONE_MATCH='W/"x", *, "'))
