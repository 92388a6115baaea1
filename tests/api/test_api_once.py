"""Every floor API write sent twice with the same `client_id` is one write with one answer
(docs/api.md, "Retries and idempotency"): a director's laptop that lost an answer on the room's
Wi-Fi and sent the write again. Before, the floor API had no client ids: a resent "add time"
added the time twice, a resent copy made a second tournament."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from common.api.base import FloorApi
from common.api.once import WRITES
from common.models import ApiWrite
from config import request_time
from tests.factories import DirectorFactory, TournamentFactory, make, seated_tournament
from tournaments.models import AuditEvent, Tournament

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


def _id() -> str:
    return uuid.uuid4().hex


def _added(tournament: Tournament, ends_at: datetime | None) -> timedelta:
    tournament.refresh_from_db()
    assert tournament.clock_ends_at is not None
    assert ends_at is not None
    return tournament.clock_ends_at - ends_at


@pytest.mark.django_db
def test_add_time_resent_with_its_client_id_adds_the_time_once(clock, director):
    tournament = seated_tournament(players=4, now=T0)
    ends_at = tournament.clock_ends_at
    url = f"/api/tournaments/{tournament.pk}/clock/add-time/"
    body = {"seconds": 60, "client_id": _id()}

    first = director.post(url, body, format="json")
    again = director.post(url, body, format="json")

    assert first.status_code == again.status_code == 200
    assert again.content == first.content
    assert _added(tournament, ends_at) == timedelta(seconds=60)
    assert AuditEvent.objects.filter(action="clock_add_time").count() == 1


@pytest.mark.django_db
def test_without_a_client_id_each_add_time_is_a_new_write(clock, director):
    tournament = seated_tournament(players=4, now=T0)
    ends_at = tournament.clock_ends_at
    url = f"/api/tournaments/{tournament.pk}/clock/add-time/"
    director.post(url, {"seconds": 60}, format="json")
    director.post(url, {"seconds": 60}, format="json")
    assert _added(tournament, ends_at) == timedelta(seconds=120)


@pytest.mark.django_db
def test_a_tournament_copy_resent_makes_one_copy_with_one_answer(director):
    original = TournamentFactory.create(name="Sunday Deepstack")
    url = f"/api/tournaments/{original.pk}/copy/"
    body = {"name": "Sunday Deepstack, next week", "client_id": _id()}

    first = director.post(url, body, format="json")
    again = director.post(url, body, format="json")

    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert Tournament.objects.filter(name="Sunday Deepstack, next week").count() == 1


@pytest.mark.django_db
def test_a_refused_write_keeps_its_client_id_free_for_the_corrected_write(clock, director):
    tournament = seated_tournament(players=4, now=T0)
    ends_at = tournament.clock_ends_at
    url = f"/api/tournaments/{tournament.pk}/clock/add-time/"
    client_id = _id()

    refused = director.post(url, {"seconds": "sixty", "client_id": client_id}, format="json")
    corrected = director.post(url, {"seconds": 30, "client_id": client_id}, format="json")

    assert refused.status_code == 400
    assert corrected.status_code == 200
    assert _added(tournament, ends_at) == timedelta(seconds=30)


@pytest.mark.django_db
def test_a_client_id_sent_to_another_endpoint_is_409_client_id_reused(clock, director):
    tournament = seated_tournament(players=4, now=T0)
    client_id = _id()
    director.post(
        f"/api/tournaments/{tournament.pk}/clock/add-time/",
        {"seconds": 60, "client_id": client_id},
        format="json",
    )
    other = director.post(
        f"/api/tournaments/{tournament.pk}/clock/pause/", {"client_id": client_id}, format="json"
    )
    assert other.status_code == 409
    assert other.json()["code"] == "client_id_reused"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


@pytest.mark.django_db
def test_another_directors_resend_of_the_id_is_refused_not_answered(clock, director):
    tournament = seated_tournament(players=4, now=T0)
    url = f"/api/tournaments/{tournament.pk}/clock/add-time/"
    body = {"seconds": 60, "client_id": _id()}
    director.post(url, body, format="json")
    colleague = APIClient()
    colleague.force_login(make(DirectorFactory))

    answer = colleague.post(url, body, format="json")

    assert answer.status_code == 409
    assert answer.json()["code"] == "client_id_reused"


@pytest.mark.django_db
def test_a_malformed_client_id_is_400_bad_client_id(clock, director):
    tournament = seated_tournament(players=4, now=T0)
    ends_at = tournament.clock_ends_at
    answer = director.post(
        f"/api/tournaments/{tournament.pk}/clock/add-time/",
        {"seconds": 60, "client_id": "short"},
        format="json",
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_client_id"
    assert _added(tournament, ends_at) == timedelta(0)


@pytest.mark.django_db
def test_a_sign_in_with_a_client_id_stores_no_answer_so_no_token_is_kept():
    DirectorFactory.create(username="dana")
    client = APIClient()
    answer = client.post(
        "/api/auth/token/",
        {"username": "dana", "password": "pw", "client_id": _id()},
        format="json",
    )
    assert answer.status_code in (200, 201), answer.content
    assert ApiWrite.objects.count() == 0


def _views(patterns: list, found: list) -> list:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            _views(pattern.url_patterns, found)
        elif isinstance(pattern, URLPattern):
            view_class = getattr(pattern.callback, "view_class", None)
            if view_class is not None and issubclass(view_class, FloorApi):
                found.append(view_class)
    return found


OPTED_OUT = {"TokenApi", "TableSignInApi"}  # their answers carry a token


def test_every_api_write_answers_once_except_the_sign_ins_and_the_tablets_hands():
    views = _views(get_resolver().url_patterns, [])
    unguarded = sorted(
        f"{view.__module__}.{view.__name__}.{name}"
        for view in views
        for name in WRITES
        if hasattr(view, name)
        and view.answers_once
        and not getattr(getattr(view, name), "answered_once", False)
    )
    opted_out = {view.__name__ for view in views if not view.answers_once}
    assert unguarded == []
    assert opted_out >= OPTED_OUT
    # Only the sign-ins and the tablets' hand writes (their own client ids, `DealerApi`).
    assert all(
        name in OPTED_OUT or view.__module__.startswith("dealer.api.")
        for view in views
        if not view.answers_once
        for name in [view.__name__]
    )
