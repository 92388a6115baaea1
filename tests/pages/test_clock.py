"""Clock control: start, pause, resume, +1 / -1 minute, set level; the time comes from the
pages' and the API's clock (`config.request_time.now`), set by each test."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NAMES, NOW, freeze_pages, staff_client, tournament
from tournaments.models import Tournament


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


def reload(event: Tournament) -> Tournament:
    return Tournament.objects.get(pk=event.pk)


@pytest.mark.django_db
def test_start_runs_the_clock_from_now(director: Client) -> None:
    event = tournament(players=NAMES[:4], draw=True)

    page = director.get(reverse("clock-control", args=[event.pk])).content.decode()
    response = director.post(reverse("clock-start", args=[event.pk]), follow=True)

    event = reload(event)
    assert ">Start</button>" in page
    assert event.status == Tournament.Status.RUNNING
    assert event.clock_ends_at == NOW + timedelta(minutes=20)
    body = response.content.decode()
    assert "The clock is running" in body
    assert ">Pause</button>" in body


@pytest.mark.django_db
def test_start_before_the_seat_draw_is_refused_in_plain_words(director: Client) -> None:
    event = tournament(players=NAMES[:4])

    response = director.post(reverse("clock-start", args=[event.pk]), follow=True)

    assert "Draw the seats before starting the clock." in response.content.decode()
    assert reload(event).status == Tournament.Status.REGISTERING


@pytest.mark.django_db
def test_pause_keeps_the_time_left_and_resume_restarts_it(
    director: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = tournament(players=NAMES[:4], start=True)
    freeze_pages(monkeypatch, NOW + timedelta(minutes=5))

    director.post(reverse("clock-pause", args=[event.pk]))
    paused = reload(event)
    page = director.get(reverse("clock-control", args=[event.pk])).content.decode()
    freeze_pages(monkeypatch, NOW + timedelta(minutes=30))
    director.post(reverse("clock-resume", args=[event.pk]))
    resumed = reload(event)

    assert paused.status == Tournament.Status.PAUSED
    assert paused.clock_remaining == 15 * 60
    assert "15:00" in page
    assert "Paused" in page
    assert ">Resume</button>" in page
    assert resumed.status == Tournament.Status.RUNNING
    assert resumed.clock_ends_at == NOW + timedelta(minutes=45)


@pytest.mark.django_db
def test_plus_and_minus_one_minute(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)
    url = reverse("clock-add-time", args=[event.pk])

    plus = director.post(url, {"seconds": "60"}, follow=True)
    after_plus = reload(event).clock_ends_at
    director.post(url, {"seconds": "-60"})
    director.post(url, {"seconds": "-60"})

    assert after_plus == NOW + timedelta(minutes=21)
    assert reload(event).clock_ends_at == NOW + timedelta(minutes=19)
    assert "Clock adjusted: +1 min." in plus.content.decode()


@pytest.mark.django_db
def test_a_bad_amount_of_time_changes_nothing(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)

    response = director.post(
        reverse("clock-add-time", args=[event.pk]), {"seconds": "lots"}, follow=True
    )

    assert reload(event).clock_ends_at == NOW + timedelta(minutes=20)
    assert "Add or take off between 1 and 60 minutes." in response.content.decode()


@pytest.mark.django_db
def test_set_level_from_the_select(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)

    page = director.get(reverse("clock-control", args=[event.pk])).content.decode()
    director.post(reverse("clock-set-level", args=[event.pk]), {"index": "3"})
    after = director.get(reverse("clock-control", args=[event.pk])).content.decode()

    event = reload(event)
    assert '<option value="3"' in page
    assert "Level 3: 300 / 600, ante 600" in page
    assert event.clock_level == 3
    assert event.clock_ends_at == NOW + timedelta(minutes=20)
    assert "300 / 600, ante 600 (BB ante)" in after


@pytest.mark.django_db
def test_a_level_that_does_not_exist_is_refused(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)

    response = director.post(
        reverse("clock-set-level", args=[event.pk]), {"index": "9"}, follow=True
    )

    assert "There is no row 10 in the schedule; it has 4 rows." in response.content.decode()


@pytest.mark.django_db
def test_the_page_follows_the_clock_into_the_next_level(
    director: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = tournament(players=NAMES[:4], start=True)
    freeze_pages(monkeypatch, NOW + timedelta(minutes=41))

    page = director.get(reverse("clock-control", args=[event.pk]))

    assert page.context["clock"]["label"] == "Break"
    assert page.context["clock_time"] == "9:00"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("page", "most"),
    [("clock-control", 7), ("tournament-dashboard", 8), ("public-clock", 2)],
)
def test_clock_pages_read_the_clock_and_the_standings_once(
    director: Client, django_assert_max_num_queries: Any, page: str, most: int
) -> None:
    # Once a page has been shown, the schedule and the field's totals come from the cache until
    # the tournament's version moves: session and user, the tournament, and the page's own reads.
    event = tournament(players=NAMES[:6], draw=True, start=True)
    assert director.get(reverse(page, args=[event.pk])).status_code == 200
    with django_assert_max_num_queries(most):
        assert director.get(reverse(page, args=[event.pk])).status_code == 200
