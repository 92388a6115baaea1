"""Recurring work through the API (issue 26): the generator and its templates, copies, archive
and delete; the refusals with their codes; writes for directors only."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import BlindScheduleFactory, EntryFactory, TournamentFactory, make
from tournaments.models import BlindSchedule, Tournament
from tournaments.services.players import player_get_or_create

pytestmark = pytest.mark.django_db


def test_the_templates_are_listed_with_their_inputs(director: APIClient) -> None:
    response = director.get("/api/schedules/templates/")

    assert response.status_code == 200
    body = response.json()
    assert [t["key"] for t in body] == ["turbo-15", "standard-20", "deep-30"]
    assert body[1]["level_minutes"] == 20
    assert body[1]["smallest_chip"] == 25


def test_generate_builds_18_levels_in_one_request(director: APIClient) -> None:
    body = {
        "name": "Tuesday",
        "small_blind": 100,
        "big_blind": 200,
        "level_minutes": 20,
        "increase": "standard",
        "levels": 18,
        "break_every": 6,
        "break_minutes": 15,
        "antes_from": 4,
        "smallest_chip": 25,
    }

    response = director.post("/api/schedules/generate/", body, format="json")

    assert response.status_code == 201
    levels = response.json()["levels"]
    playing = [lv for lv in levels if not lv["is_break"]]
    assert len(playing) == 18
    assert len(levels) == 20  # after levels 6 and 12
    assert playing[1]["big_blind"] == 250
    assert playing[3]["ante"] == playing[3]["big_blind"]
    assert playing[3]["bb_ante"]
    assert all(lv["smallest_chip"] == 25 for lv in levels)


def test_generate_from_a_template_with_a_change(director: APIClient) -> None:
    body = {"name": "Turbo Friday", "template": "turbo-15", "level_minutes": 12}

    response = director.post("/api/schedules/generate/", body, format="json")

    assert response.status_code == 201
    assert response.json()["levels"][0]["duration"] == 12 * 60


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"name": "X", "small_blind": 100}, 400, "plan_incomplete"),
        (
            {
                "name": "X",
                "small_blind": 30,
                "big_blind": 60,
                "level_minutes": 20,
                "smallest_chip": 25,
            },
            400,
            "not_in_smallest_chips",
        ),
        ({"name": "X", "template": "deep-30", "increase": "500"}, 400, "bad_increase"),
        ({"name": "Taken", "template": "deep-30"}, 409, "duplicate_schedule"),
    ],
)
def test_generate_refusals_have_a_code_and_a_sentence(
    director: APIClient, body: dict[str, Any], status: int, code: str
) -> None:
    BlindScheduleFactory(name="Taken")

    response = director.post("/api/schedules/generate/", body, format="json")

    assert response.status_code == status
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert BlindSchedule.objects.count() == 1


def test_copy_a_schedule(director: APIClient) -> None:
    original = make(BlindScheduleFactory, name="Deep")

    response = director.post(
        f"/api/schedules/{original.pk}/copy/", {"name": "Deep 2"}, format="json"
    )
    again = director.post(f"/api/schedules/{original.pk}/copy/", {"name": "Deep 2"}, format="json")

    assert response.status_code == 201
    assert response.json()["name"] == "Deep 2"
    assert len(response.json()["levels"]) == original.levels.count()
    assert again.status_code == 409
    assert again.json()["code"] == "duplicate_schedule"


def test_copy_a_tournament_without_its_entries(director: APIClient) -> None:
    original = make(TournamentFactory, name="Sunday", payout_percentages=[60, 40])
    EntryFactory(tournament=original)

    response = director.post(
        f"/api/tournaments/{original.pk}/copy/", {"name": "Sunday II"}, format="json"
    )

    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "Sunday II"
    assert body["status"] == "planned"
    assert body["payout_percentages"] == [60, 40]
    assert len(body["levels"]) == original.levels.count()
    assert Tournament.objects.get(pk=body["id"]).entries.count() == 0


def test_archive_hides_from_the_list_and_archived_true_shows_it(director: APIClient) -> None:
    event = make(TournamentFactory, status=Tournament.Status.FINISHED)

    response = director.post(f"/api/tournaments/{event.pk}/archive/", {}, format="json")

    assert response.status_code == 200
    assert response.json()["is_archived"] is True
    assert event.pk not in [t["id"] for t in director.get("/api/tournaments/").json()]
    shown = director.get("/api/tournaments/?archived=true").json()
    assert [t["is_archived"] for t in shown if t["id"] == event.pk] == [True]
    # the public never sees it in the list, asking or not
    public = APIClient().get("/api/tournaments/?archived=true").json()
    assert event.pk not in [t["id"] for t in public]
    back = director.post(
        f"/api/tournaments/{event.pk}/archive/", {"archived": False}, format="json"
    )
    assert back.json()["is_archived"] is False


def test_archive_of_a_paid_unfinished_event_is_409(director: APIClient) -> None:
    event = make(TournamentFactory)
    EntryFactory(tournament=event)

    response = director.post(f"/api/tournaments/{event.pk}/archive/", {}, format="json")

    assert response.status_code == 409
    assert response.json()["code"] == "paid_entries"


def test_delete_a_test_event_is_204_and_a_finished_one_409(director: APIClient) -> None:
    test = make(TournamentFactory)
    finished = make(TournamentFactory, status=Tournament.Status.FINISHED)

    deleted = director.delete(f"/api/tournaments/{test.pk}/")
    refused = director.delete(f"/api/tournaments/{finished.pk}/")

    assert deleted.status_code == 204
    assert not Tournament.objects.filter(pk=test.pk).exists()
    assert refused.status_code == 409
    assert refused.json()["code"] == "tournament_finished"


def test_archive_a_junk_player(director: APIClient) -> None:
    junk = player_get_or_create(name="Zzzz Junk")
    played = make(EntryFactory).player

    response = director.post(f"/api/players/{junk.pk}/archive/", {}, format="json")
    refused = director.post(f"/api/players/{played.pk}/archive/", {}, format="json")

    assert response.status_code == 200
    assert response.json()["is_archived"] is True
    assert director.get("/api/players/?q=zzzz").json()["count"] == 0
    assert director.get("/api/players/?q=zzzz&archived=true").json()["count"] == 1
    assert refused.status_code == 409
    assert refused.json()["code"] == "player_has_entries"


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("post", "/api/schedules/generate/"),
        ("post", "/api/schedules/{s}/copy/"),
        ("post", "/api/tournaments/{t}/copy/"),
        ("post", "/api/tournaments/{t}/archive/"),
        ("delete", "/api/tournaments/{t}/"),
        ("post", "/api/players/{p}/archive/"),
    ],
)
def test_the_set_up_writes_are_for_directors(method: str, url: str) -> None:
    schedule = make(BlindScheduleFactory)
    event = make(TournamentFactory)
    player = player_get_or_create(name="Someone")
    path = url.format(s=schedule.pk, t=event.pk, p=player.pk)

    response = getattr(APIClient(), method)(path, {"name": "X"}, format="json")

    assert response.status_code in (401, 403)
    assert Tournament.objects.filter(pk=event.pk, is_archived=False).exists()
