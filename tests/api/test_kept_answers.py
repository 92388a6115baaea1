"""The public polls' 200s served as kept (issue 28, `config.conditional.Keep`): the phone's
standings part, the standings API and the clock feed are built once per version and then
served from the cache without a query; a write that changes what they show is in the next
answer; the audiences (the public, a signed-in director, a token, the browsable API, another
query string) never get each other's answer; and a kept answer carries nothing secret."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from config import request_time
from config.conditional import Keep, NotModifiedMiddleware, conditional, version_key
from tests.factories import DirectorFactory, TournamentFactory, make, seated_tournament
from tests.security import test_card_walk as walk
from tournaments.models import Entry, Table, Tournament
from tournaments.selectors import clock_feed, tournament_head
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import clock_pause, clock_set_level
from tournaments.services.events import tournament_update
from tournaments.services.floor import entry_move_seat

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
floor = walk.floor  # the card walk's table: a hand in progress with hole cards entered


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> dict[str, datetime]:
    moment = {"now": T0 + timedelta(minutes=1)}
    monkeypatch.setattr(request_time, "now", lambda: moment["now"])
    return moment


@pytest.fixture
def tournament(clock: dict[str, datetime]) -> Tournament:
    return seated_tournament(players=12, now=T0)


def urls(pk: int) -> list[str]:
    return [
        f"/t/{pk}/state/",
        f"/api/tournaments/{pk}/standings/?limit=100",
        f"/api/tournaments/{pk}/clock/",
    ]


def public(url: str, **headers: str) -> Any:
    """An anonymous request as a phone or the big screen sends it (no If-None-Match)."""
    return APIClient().get(url, headers=headers or None)


def kept(url: str, django_assert_num_queries: Any, **headers: str) -> Any:
    """The answer of a request served from the kept answer: not one query."""
    with django_assert_num_queries(0):
        answer = public(url, **headers)
    assert answer.status_code == 200, url
    return answer


def test_a_second_public_200_is_the_kept_answer_without_a_query(
    tournament, django_assert_num_queries
):
    for url in urls(tournament.pk):
        first = public(url)
        assert first.status_code == 200

        second = kept(url, django_assert_num_queries)

        assert second.content == first.content, url
        assert second["ETag"] == first["ETag"]
        assert second["Content-Type"] == first["Content-Type"]
        assert second["Cache-Control"] == "no-cache"
        assert second["Content-Length"] == str(len(second.content))


def test_the_kept_clock_feed_counts_down_as_a_built_one(
    clock, tournament, django_assert_num_queries
):
    url = f"/api/tournaments/{tournament.pk}/clock/"
    first = public(url).json()
    clock["now"] = T0 + timedelta(minutes=7, seconds=30)

    later = kept(url, django_assert_num_queries)

    body = later.json()
    assert body["server_time"] == "2025-06-01T18:07:30Z"
    assert body["seconds_left"] == first["seconds_left"] - 6 * 60 - 30 == 12 * 60 + 30
    assert body["seconds_to_next_break"] == first["seconds_to_next_break"] - 6 * 60 - 30
    assert body["ends_at"] == first["ends_at"] == "2025-06-01T18:20:00Z"
    # The same bytes as DRF renders the whole feed at that moment.
    head = tournament_head(tournament.pk)
    assert head is not None
    built = JSONRenderer().render(clock_feed(head, clock["now"]).as_dict())
    assert later.content == built


def test_the_kept_clock_feed_ends_with_its_level(clock, tournament, django_assert_num_queries):
    url = f"/api/tournaments/{tournament.pk}/clock/"
    first = public(url)
    kept(url, django_assert_num_queries)
    clock["now"] = T0 + timedelta(minutes=20, seconds=1)

    next_level = public(url)

    assert next_level["ETag"] != first["ETag"]
    assert next_level.json()["label"] == "Level 2"
    assert next_level.json()["seconds_left"] == 20 * 60 - 1


# Each write of the floor that changes a public answer, and what the next answer of each URL
# that shows it must hold ("state", "standings", "clock": `urls`).
Shown = dict[str, str]


def _bust(tournament: Tournament, clock: dict[str, datetime]) -> Shown:
    entry = Entry.objects.filter(tournament=tournament, status="active").order_by("chips")[0]
    entries_bust(
        tournament=tournament,
        busts=[Bust(entry_id=entry.pk, starting_stack=entry.chips)],
        now=clock["now"],
    )
    left = '"players_left":11,'
    return {"state": "<dt>Players left</dt><dd>11<", "standings": left, "clock": left}


def _level(tournament: Tournament, clock: dict[str, datetime]) -> Shown:
    clock_set_level(tournament=tournament, now=clock["now"], index=3)
    return {"clock": '"label":"Level 3"'}


def _pause(tournament: Tournament, clock: dict[str, datetime]) -> Shown:
    clock_pause(tournament=tournament, now=clock["now"])
    return {"clock": '"status":"paused"'}


def _move(tournament: Tournament, clock: dict[str, datetime]) -> Shown:
    taken = set(Entry.objects.filter(tournament=tournament).values_list("table_id", "seat"))
    table = Table.objects.filter(tournament=tournament).order_by("number").last()
    assert table is not None
    seat = next(s for s in range(1, tournament.seats_per_table + 1) if (table.pk, s) not in taken)
    entry = Entry.objects.filter(tournament=tournament).exclude(table=table).first()
    assert entry is not None
    entry_move_seat(entry=entry, table=table, seat=seat)
    name = entry.player.name
    return {
        "state_row": f'title="{name}">{name}</span>',  # the row, then its seat
        "standings_row": f'"name":"{name}","chips":{entry.chips},',
        "seat": f"{table.number} / {seat}",
        "api_seat": f'"table":{table.number},"seat":{seat}',
    }


def _rename(tournament: Tournament, clock: dict[str, datetime]) -> Shown:
    tournament_update(tournament=tournament, name="Sunday Renamed", now=clock["now"])
    return {"clock": '"name":"Sunday Renamed"'}


def _row_of(body: bytes, start: str) -> str:
    """The text of a standings row from `start` (a name) to its end (the HTML row, the JSON
    object)."""
    text = body.decode()
    at = text.index(start)
    return text[at : min(i for i in (text.find("</tr>", at), text.find("}", at)) if i > 0)]


@pytest.mark.parametrize("write", [_bust, _level, _pause, _move, _rename], ids=lambda w: w.__name__)
def test_a_write_is_in_the_next_200_never_the_kept_one(
    clock, tournament, write, django_assert_num_queries, django_capture_on_commit_callbacks
):
    named = dict(zip(["state", "standings", "clock"], urls(tournament.pk), strict=True))
    before = {}
    for name, url in named.items():
        before[name] = public(url).content
        kept(url, django_assert_num_queries)
    with django_capture_on_commit_callbacks(execute=True):  # the new version, as a commit
        shown = write(Tournament.objects.get(pk=tournament.pk), clock)

    after = {name: public(url).content for name, url in named.items()}

    for name, url in named.items():
        if name in shown:
            assert shown[name].encode() in after[name], (name, shown[name])
            assert shown[name].encode() not in before[name], (name, shown[name])
        assert after[name] == kept(url, django_assert_num_queries).content, name
    if "seat" in shown:  # a move: the row names the new table and seat
        assert shown["seat"] in _row_of(after["state"], shown["state_row"])
        assert shown["api_seat"] in _row_of(after["standings"], shown["standings_row"])
        assert shown["seat"] not in _row_of(before["state"], shown["state_row"])
        assert shown["api_seat"] not in _row_of(before["standings"], shown["standings_row"])


def test_a_director_neither_reads_nor_leaves_a_kept_answer(clock, director):
    planned = TournamentFactory.create(status=Tournament.Status.PLANNED)
    url = f"/api/tournaments/{planned.pk}/clock/"

    assert director.get(url).status_code == 200

    assert public(url).status_code == 404  # the public does not see a planned tournament


def _queries(send: Any) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert send().status_code == 200
    return len(queries)


def test_a_signed_in_or_token_request_goes_the_whole_way(
    tournament, director, django_assert_num_queries
):
    for url in urls(tournament.pk):
        public(url)
        kept(url, django_assert_num_queries)

        assert _queries(lambda url=url: director.get(url)) > 0, url
        token = {"Authorization": "Token not-a-token"}
        assert _queries(lambda url=url, token=token: public(url, **token)) > 0, url


def test_the_browsable_api_and_json_never_share_an_answer(tournament):
    url = f"/api/tournaments/{tournament.pk}/clock/"
    html = {"Accept": "text/html"}
    for first, then in ((html, {}), ({}, html)):
        cache.delete(version_key(tournament.pk))  # start again from a built answer
        public(url, **first)
        public(url, **first)

        answer = public(url, **then)

        wants_html = then == html
        assert answer["Content-Type"].startswith("text/html" if wants_html else "application/json")


def test_each_query_string_has_its_own_answer(tournament):
    base = f"/api/tournaments/{tournament.pk}/standings/"
    for limit in (1, 3, 1, 3):
        assert len(public(f"{base}?limit={limit}").json()["rows"]) == limit


def test_an_unknown_host_is_refused_as_before(tournament, django_assert_num_queries):
    url = f"/t/{tournament.pk}/state/"
    public(url)
    kept(url, django_assert_num_queries)

    assert APIClient().get(url, HTTP_HOST="evil.example").status_code == 400


def test_an_answer_that_sets_a_cookie_is_never_kept(tournament):
    head = tournament_head(tournament.pk)
    assert head is not None
    path = f"/api/tournaments/{tournament.pk}/clock/"
    built = []

    def view(request: Any) -> Any:
        def build() -> HttpResponse:
            built.append(1)
            response = HttpResponse(b"{}", content_type="application/json")
            response.set_cookie("who", "a-session-of-someone")
            return response

        mark = (tournament.pk, f"t.{tournament.pk}.kept-test")
        return conditional(request, '"kept-test"', build, version=mark, keep=Keep())

    middleware = NotModifiedMiddleware(view)
    for _ in range(2):
        answer = middleware(RequestFactory().get(path))
        assert answer.cookies["who"].value == "a-session-of-someone"

    assert len(built) == 2


def test_kept_answers_carry_no_hidden_card(clock, floor, django_assert_num_queries):
    tournament = floor.table.tournament
    for url in urls(tournament.pk):
        public(url)

        answer = kept(url, django_assert_num_queries)

        assert walk.seen(answer) == set(), url
    # The scan can fail: the director's view of the hand names a held card.
    director = APIClient()
    director.force_login(make(DirectorFactory))
    assert walk.seen(director.get(f"/api/hands/{floor.hands[-1]}/events/")) & set(walk.HELD)


def test_only_the_pollers_urls_and_accepts_are_kept(tournament, django_assert_num_queries):
    """Made-up query strings and headers cannot fill the cache: they go the whole way."""
    pk = tournament.pk
    odd = [
        (f"/api/tournaments/{pk}/standings/?limit=0100", {}),
        (f"/api/tournaments/{pk}/standings/?limit=100&x=1", {}),
        (f"/t/{pk}/state/?x=1", {}),
        (f"/api/tournaments/{pk}/clock/?x=1", {}),
        (f"/api/tournaments/{pk}/clock/", {"Accept": "application/json; x=1"}),
    ]
    for url, headers in odd:
        public(url, **headers)
        assert _queries(lambda url=url, headers=headers: public(url, **headers)) > 0, url
    url = f"/api/tournaments/{pk}/standings/?limit=100"
    assert public(url, Accept="").status_code == 406  # not the answer kept for no Accept
    assert public(url).status_code == 200
    assert public(url, Accept="").status_code == 406
    for accept in ("*/*", "application/json"):
        public(url, Accept=accept)
        kept(url, django_assert_num_queries, Accept=accept)
