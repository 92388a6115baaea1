"""The list endpoints read in a fixed number of queries, however many rows they return."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from config import request_time
from tests.factories import (
    BlindScheduleFactory,
    DealerFactory,
    DirectorFactory,
    TournamentFactory,
    seated_tournament,
)
from tournaments.models import Entry

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)

# Session and user lookups of a signed-in client: 2 queries on every request.
SESSION = 2


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


def _client(user=None):
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def _queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "signed_in", "budget"),
    # The balancing plan reads the moved players' names, only when there are moves. Standings
    # (and the clock, which shows their average) read the chips in play from the ledger (one
    # query over the rows that issue chips).
    [
        ("/api/tournaments/{t}/entries/", True, SESSION + 2),
        ("/api/tournaments/{t}/tables/", True, SESSION + 4),
        ("/api/tournaments/{t}/standings/", False, 7),
        ("/api/tournaments/{t}/clock/", False, 7),
        ("/api/tournaments/{t}/payouts/", False, 6),
        # The prizes of the players out (payouts_get: the deal, then the placed entries).
        ("/api/tournaments/{t}/seats/?q=Player", False, 4),
        ("/api/tournaments/{t}/balancing/", True, SESSION + 5),
        ("/api/tournaments/{t}/results.csv", True, SESSION + 2),
        ("/api/audit/", True, SESSION + 1),
    ],
)
def test_list_endpoints_take_the_same_queries_for_many_rows(
    django_assert_max_num_queries, path, signed_in, budget
):
    small = seated_tournament(players=4)
    large = seated_tournament(players=40)
    for tournament in (small, large):
        for entry in Entry.objects.filter(tournament=tournament, seat__in=[1, 2]):
            entry.status, entry.finishing_place, entry.table = "busted", 99, None
            entry.save()
    client = _client(DirectorFactory()) if signed_in else _client()

    few = _queries(client, path.format(t=small.pk))
    with django_assert_max_num_queries(budget):
        many = _queries(client, path.format(t=large.pk))
    # The balancing plan reads the moved players' names only when there are moves, the seat
    # lookup the prizes only when a player found is out (the small field has nobody out there).
    assert (
        many == few
        or (path.endswith("/balancing/") and many == few + 1)
        or ("/seats/" in path and many == few + 2)
    )


@pytest.mark.django_db
def test_tournament_list_is_one_query(django_assert_max_num_queries):
    TournamentFactory.create_batch(3)
    seated_tournament(players=10)
    with django_assert_max_num_queries(1):
        assert len(_client().get("/api/tournaments/").json()) == 4


@pytest.mark.django_db
def test_schedule_list_is_two_queries_beyond_the_session(django_assert_max_num_queries):
    BlindScheduleFactory.create_batch(10)
    client = _client(DirectorFactory())
    with django_assert_max_num_queries(SESSION + 2):
        assert len(client.get("/api/schedules/").json()) == 10


@pytest.mark.django_db
def test_dealer_table_view_adds_one_query_for_the_group(django_assert_max_num_queries):
    tournament = seated_tournament(players=30)
    client = _client(DealerFactory())
    with django_assert_max_num_queries(SESSION + 5):
        assert client.get(f"/api/tournaments/{tournament.pk}/tables/").status_code == 200


def _reads_of_the_player(captured) -> tuple[list[str], list[str]]:
    """The SELECTs a registration sent of players, and of the player's entries."""
    reads = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("SELECT")]
    players = [sql for sql in reads if 'FROM "tournaments_player"' in sql]
    entries = [
        sql
        for sql in reads
        if 'FROM "tournaments_entry"' in sql and '"tournaments_entry"."player_id" =' in sql
    ]
    return players, entries


@pytest.mark.django_db
def test_a_registration_reads_the_player_once_and_their_entries_once():
    """At the desk, a name is looked up once for the three questions (this name in the
    database's case, in Unicode's case, players whose name folds to it) and the player's
    entries once for the three (one still playing, the entries used, the next number). A
    player registering again reads the same."""
    from tournaments.services.entries import entry_register, entry_unregister

    tournament = TournamentFactory()
    with CaptureQueriesContext(connection) as new:
        entry = entry_register(tournament=tournament, player_name="Lena Park", now=T0)
    entry_unregister(entry=entry)
    with CaptureQueriesContext(connection) as again:
        again_entry = entry_register(tournament=tournament, player_name="lena park", now=T0)
    assert again_entry.player_id == entry.player_id
    assert again_entry.number == 2
    for captured in (new, again):
        players, entries = _reads_of_the_player(captured)
        assert len(players) == 1, players
        assert len(entries) == 1, entries
