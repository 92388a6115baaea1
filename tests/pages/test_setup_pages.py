"""Recurring work on the desk (issue 26): the generator page and its templates, the copy,
archive and delete buttons, the lists' "show archived" toggle. Each calls the API's service."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import once, schedule, staff_client, tournament
from tournaments.models import BlindSchedule, Tournament
from tournaments.services.players import player_get_or_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client: Client) -> Client:
    return staff_client(client)


def test_the_generator_offers_the_templates_and_fills_the_form(director: Client) -> None:
    page = director.get(reverse("schedule-generate"), {"template": "deep-30"}).content.decode()

    for name in ("Turbo 15 min", "Standard 20 min", "Deep 30 min"):
        assert name in page
    assert 'name="level_minutes" value="30"' in page
    assert 'name="name" value="Deep 30 min"' in page


def test_generating_makes_the_whole_schedule_and_opens_the_editor(director: Client) -> None:
    data = {
        "name": "Thursday",
        "small_blind": 100,
        "big_blind": 200,
        "level_minutes": 20,
        "increase": "standard",
        "levels": 18,
        "break_every": 4,
        "break_minutes": 15,
        "antes_from": 4,
        "smallest_chip": 25,
    }

    response = director.post(reverse("schedule-generate"), data)

    saved = BlindSchedule.objects.get(name="Thursday")
    assert response.status_code == 302
    assert response["Location"] == reverse("schedule-edit", args=[saved.pk])
    assert saved.levels.filter(is_break=False).count() == 18
    assert saved.levels.filter(is_break=True).count() == 4


def test_a_plan_off_the_smallest_chip_is_refused_next_to_its_field(director: Client) -> None:
    data = {
        "name": "Odd",
        "small_blind": 30,
        "big_blind": 60,
        "level_minutes": 20,
        "increase": "standard",
        "levels": 10,
        "break_every": 0,
        "break_minutes": 10,
        "antes_from": 0,
        "smallest_chip": 25,
    }

    response = director.post(reverse("schedule-generate"), data)

    assert response.status_code == 400
    assert "not multiples of the smallest chip" in response.content.decode()
    assert not BlindSchedule.objects.filter(name="Odd").exists()


def test_the_schedule_list_copies_a_schedule(director: Client) -> None:
    original = schedule("Standard")
    page = director.get(reverse("schedule-list")).content.decode()
    assert reverse("schedule-copy", args=[original.pk]) in page

    response = director.post(
        reverse("schedule-copy", args=[original.pk]), {"name": "Standard (copy)"}
    )

    copy = BlindSchedule.objects.get(name="Standard (copy)")
    assert response["Location"] == reverse("schedule-edit", args=[copy.pk])
    assert copy.levels.count() == original.levels.count()


def test_the_dashboard_copies_a_tournament(director: Client) -> None:
    event = tournament(players=["Ann", "Bob"])
    page = director.get(reverse("tournament-dashboard", args=[event.pk])).content.decode()
    assert reverse("tournament-copy", args=[event.pk]) in page

    form = once(name="Next week")

    response = director.post(reverse("tournament-copy", args=[event.pk]), form)
    again = director.post(reverse("tournament-copy", args=[event.pk]), form, follow=True)

    copy = Tournament.objects.get(name="Next week")  # one copy: the second tap changed nothing
    assert response["Location"] == reverse("tournament-settings", args=[copy.pk])
    assert "Already recorded" in again.content.decode()
    assert copy.entries.count() == 0
    assert copy.buy_in == event.buy_in


def test_archiving_hides_from_the_list_until_show_archived(director: Client) -> None:
    event = tournament(name="Test event", status="planned")

    response = director.post(reverse("tournament-archive", args=[event.pk]), {"archived": "1"})

    assert response["Location"] == reverse("tournament-list")
    listed = director.get(reverse("tournament-list")).content.decode()
    shown = director.get(reverse("tournament-list"), {"archived": "1"}).content.decode()
    link = reverse("tournament-dashboard", args=[event.pk])
    assert link not in listed
    assert link in shown
    assert "Show archived tournaments" in listed
    director.post(reverse("tournament-archive", args=[event.pk]), {"archived": "0"})
    assert link in director.get(reverse("tournament-list")).content.decode()


def test_archiving_a_paid_event_in_registration_is_refused_in_words(director: Client) -> None:
    event = tournament(players=["Ann"])

    response = director.post(
        reverse("tournament-archive", args=[event.pk]), {"archived": "1"}, follow=True
    )

    assert "has paid entries" in response.content.decode()
    assert not Tournament.objects.get(pk=event.pk).is_archived


def test_a_test_event_is_deleted_and_an_entered_one_is_not(director: Client) -> None:
    empty = tournament(name="Empty test", status="planned")
    entered = tournament(name="Entered", players=["Ann"])
    page = director.get(reverse("tournament-dashboard", args=[entered.pk])).content.decode()
    assert reverse("tournament-delete", args=[entered.pk]) not in page  # no button

    deleted = director.post(reverse("tournament-delete", args=[empty.pk]))
    refused = director.post(reverse("tournament-delete", args=[entered.pk]), follow=True)

    assert deleted["Location"] == reverse("tournament-list")
    assert not Tournament.objects.filter(pk=empty.pk).exists()
    assert "has entries" in refused.content.decode()
    assert Tournament.objects.filter(pk=entered.pk).exists()


def test_a_junk_player_is_archived_from_their_page(director: Client) -> None:
    junk = player_get_or_create(name="Qqq Typo")

    response = director.post(reverse("player-archive", args=[junk.pk]), {"archived": "1"})

    assert response["Location"] == reverse("player-detail", args=[junk.pk])
    link = reverse("player-detail", args=[junk.pk])
    assert link not in director.get(reverse("player-list"), {"q": "qqq"}).content.decode()
    shown = director.get(reverse("player-list"), {"q": "qqq", "archived": "1"}).content.decode()
    assert link in shown


def test_the_set_up_pages_are_for_directors(client: Client) -> None:
    event = tournament(status="planned")

    response = client.post(reverse("tournament-delete", args=[event.pk]))

    assert response.status_code == 302
    assert reverse("login") in response["Location"]
    assert Tournament.objects.filter(pk=event.pk).exists()
