"""Public polling with ETag / If-None-Match: standings and the clock answer 304 until what they
show changes. The clock carries `ends_at`, so a running level keeps one ETag from start to end."""

from datetime import UTC, datetime, timedelta

import pytest
from rest_framework.test import APIClient

from config import request_time
from tests.factories import seated_tournament
from tournaments.models import Entry

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch):
    moment = {"now": T0}
    monkeypatch.setattr(request_time, "now", lambda: moment["now"])
    return moment


@pytest.fixture
def tournament(clock):
    return seated_tournament(players=12, now=T0)


def _get(url: str, etag: str | None = None):
    return APIClient().get(url, headers={"If-None-Match": etag} if etag else None)


@pytest.mark.django_db
def test_standings_second_get_with_if_none_match_is_304(tournament):
    url = f"/api/tournaments/{tournament.pk}/standings/"
    first = _get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('"')
    assert etag.endswith('"')
    assert first["Cache-Control"] == "no-cache"

    second = _get(url, etag)

    assert second.status_code == 304
    assert second.content == b""
    assert second["ETag"] == etag


@pytest.mark.django_db
def test_standings_etag_changes_when_the_standings_change(director, tournament):
    url = f"/api/tournaments/{tournament.pk}/standings/"
    etag = _get(url)["ETag"]
    entry = Entry.objects.filter(tournament=tournament).first()
    director.put(f"/api/entries/{entry.pk}/chips/", {"chips": 25000}, format="json")

    changed = _get(url, etag)

    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert changed.json()["rows"][0]["chips"] == 25000


@pytest.mark.django_db
def test_if_none_match_accepts_a_list_and_a_star(tournament):
    url = f"/api/tournaments/{tournament.pk}/standings/"
    etag = _get(url)["ETag"]

    assert _get(url, f'"other", W/{etag}').status_code == 304
    assert _get(url, "*").status_code == 304
    assert _get(url, '"other"').status_code == 200


@pytest.mark.django_db
def test_a_running_clock_keeps_its_etag_while_the_countdown_moves(clock, tournament):
    url = f"/api/tournaments/{tournament.pk}/clock/"
    clock["now"] = T0 + timedelta(minutes=1)
    first = _get(url)
    body = first.json()
    assert first["ETag"].startswith('W/"')
    assert body["status"] == "running"
    assert body["ends_at"] == "2025-06-01T18:20:00Z"
    assert body["seconds_left"] == 19 * 60
    assert body["server_time"] == "2025-06-01T18:01:00Z"
    assert body["next_break_at"] == "2025-06-01T18:40:00Z"
    assert body["seconds_to_next_break"] == 39 * 60

    clock["now"] = T0 + timedelta(minutes=7, seconds=30)
    assert _get(url, first["ETag"]).status_code == 304
    later = _get(url)
    assert later["ETag"] == first["ETag"]
    assert later.json()["seconds_left"] == 12 * 60 + 30


@pytest.mark.django_db
def test_the_clock_etag_changes_when_the_level_changes(clock, tournament):
    url = f"/api/tournaments/{tournament.pk}/clock/"
    etag = _get(url)["ETag"]

    clock["now"] = T0 + timedelta(minutes=20, seconds=1)
    changed = _get(url, etag)

    assert changed.status_code == 200
    assert changed["ETag"] != etag
    body = changed.json()
    assert body["label"] == "Level 2"
    assert body["level"]["big_blind"] == 400
    assert body["ends_at"] == "2025-06-01T18:40:00Z"


@pytest.mark.django_db
def test_pausing_and_adding_time_change_the_clock_etag(clock, director, tournament):
    url = f"/api/tournaments/{tournament.pk}/clock/"
    running = _get(url)["ETag"]
    clock["now"] = T0 + timedelta(minutes=5)
    paused = director.post(f"/api/tournaments/{tournament.pk}/clock/pause/").json()
    assert paused["status"] == "paused"
    assert paused["ends_at"] is None
    assert paused["remaining_seconds"] == 15 * 60

    clock["now"] = T0 + timedelta(minutes=9)
    after_pause = _get(url, running)
    assert after_pause.status_code == 200
    assert _get(url, after_pause["ETag"]).status_code == 304

    director.post(
        f"/api/tournaments/{tournament.pk}/clock/add-time/", {"seconds": 60}, format="json"
    )
    added = _get(url, after_pause["ETag"])
    assert added.status_code == 200
    assert added.json()["remaining_seconds"] == 16 * 60


@pytest.mark.django_db
def test_a_clock_in_overtime_keeps_its_etag(clock, director, tournament):
    url = f"/api/tournaments/{tournament.pk}/clock/"
    last = director.post(
        f"/api/tournaments/{tournament.pk}/clock/set-level/", {"index": 4}, format="json"
    ).json()
    assert last["label"] == "Level 4"
    assert last["next_level"] is None

    clock["now"] = T0 + timedelta(minutes=25)
    first = _get(url)
    assert first.json()["overtime_seconds"] == 5 * 60
    clock["now"] = T0 + timedelta(minutes=26)

    assert _get(url, first["ETag"]).status_code == 304


@pytest.mark.django_db
def test_a_poller_holding_the_current_tag_gets_its_304_without_a_query(
    tournament, django_assert_num_queries
):
    url = f"/api/tournaments/{tournament.pk}/standings/"
    etag = _get(url)["ETag"]

    with django_assert_num_queries(0):
        fast = _get(url, etag)

    assert fast.status_code == 304
    assert fast["ETag"] == etag


@pytest.mark.django_db
def test_after_a_write_the_remembered_tag_is_never_answered_304(director, tournament):
    for url in (
        f"/api/tournaments/{tournament.pk}/standings/",
        f"/t/{tournament.pk}/state/",
        f"/api/tournaments/{tournament.pk}/clock/",
    ):
        etag = _get(url)["ETag"]
        assert _get(url, etag).status_code == 304
        entry = Entry.objects.filter(tournament=tournament, status="active").first()
        director.put(f"/api/entries/{entry.pk}/chips/", {"chips": entry.chips + 1}, format="json")

        changed = _get(url, etag)

        assert changed.status_code == 200, url
        assert changed["ETag"] != etag
