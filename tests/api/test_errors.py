"""Every refusal is {"code", "detail"} with the right status; nothing a client sends is a 500."""

from datetime import UTC, datetime

import pytest
from rest_framework.test import APIClient

from config import request_time
from tests.factories import (
    BlindScheduleFactory,
    EntryFactory,
    TournamentFactory,
    level_rows,
    seated_tournament,
)
from tournaments.models import Entry, Tournament

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch):
    monkeypatch.setattr(request_time, "now", lambda: T0)


def _error(response, status: int, code: str):
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code
    assert isinstance(body["detail"], str)
    assert body["detail"]
    return body


# --- the acceptance refusals ---------------------------------------------------------------


@pytest.mark.django_db
def test_duplicate_registration_is_409_duplicate_registration(director):
    tournament = TournamentFactory()
    url = f"/api/tournaments/{tournament.pk}/entries/"
    assert director.post(url, {"player_name": "Ann Lee"}, format="json").status_code == 201

    body = _error(
        director.post(url, {"player_name": "  ann   LEE "}, format="json"),
        409,
        "duplicate_registration",
    )
    assert "Ann Lee" in body["detail"]
    assert Entry.objects.filter(tournament=tournament).count() == 1


@pytest.mark.django_db
def test_bust_of_a_player_not_seated_is_409_not_seated(director):
    tournament = seated_tournament(players=6)
    unseated = EntryFactory(tournament=tournament, table=None, seat=None)

    body = _error(
        director.post(
            f"/api/tournaments/{tournament.pk}/busts/",
            [{"entry_id": unseated.pk, "starting_stack": 10000}],
            format="json",
        ),
        409,
        "not_seated",
    )
    assert unseated.player.name in body["detail"]


@pytest.mark.django_db
def test_bust_of_a_player_already_out_is_409_not_seated(director):
    tournament = seated_tournament(players=6)
    entry = Entry.objects.filter(tournament=tournament).first()
    url = f"/api/tournaments/{tournament.pk}/busts/"
    bust = [{"entry_id": entry.pk, "starting_stack": 10000}]
    assert director.post(url, bust, format="json").status_code == 200

    _error(director.post(url, bust, format="json"), 409, "not_seated")


@pytest.mark.django_db
def test_small_blind_above_big_blind_is_400_with_the_schedule_code(director):
    levels = level_rows()
    levels[1] = {"small_blind": 500, "big_blind": 400, "duration": 1200}

    body = _error(
        director.post("/api/schedules/", {"name": "Bad", "levels": levels}, format="json"),
        400,
        "small_blind_above_big_blind",
    )
    assert body["detail"].startswith("Level 2:")


@pytest.mark.django_db
def test_replacing_levels_with_a_bad_level_is_400_and_keeps_the_old_ones(director):
    schedule = BlindScheduleFactory()
    levels = [{"small_blind": 300, "big_blind": 200, "duration": 600}]

    _error(
        director.put(f"/api/schedules/{schedule.pk}/levels/", {"levels": levels}, format="json"),
        400,
        "small_blind_above_big_blind",
    )
    assert schedule.levels.count() == 5


@pytest.mark.django_db
def test_payout_table_not_summing_to_100_is_400_payout_not_100(director):
    schedule = BlindScheduleFactory()
    body = {"schedule": schedule.pk, "name": "Bad payouts", "payout_percentages": [50, 30, 15]}

    detail = _error(director.post("/api/tournaments/", body, format="json"), 400, "payout_not_100")
    assert "95%" in detail["detail"]
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_payout_table_update_not_summing_to_100_is_400_payout_not_100(director):
    tournament = TournamentFactory()
    response = director.patch(
        f"/api/tournaments/{tournament.pk}/",
        {"payout_percentages": ["60.5", "40"]},
        format="json",
    )

    _error(response, 400, "payout_not_100")
    tournament.refresh_from_db()
    assert tournament.payout_percentages == []


@pytest.mark.django_db
def test_unknown_rule_option_is_400_with_the_engine_code(director):
    tournament = TournamentFactory()
    response = director.patch(
        f"/api/tournaments/{tournament.pk}/",
        {"rule_overrides": {"button_mode": "sideways"}},
        format="json",
    )

    _error(response, 400, "bad_option_value")


# --- malformed requests --------------------------------------------------------------------


@pytest.mark.django_db
def test_malformed_json_is_400_parse_error(director):
    tournament = TournamentFactory()
    response = director.post(
        f"/api/tournaments/{tournament.pk}/entries/",
        '{"player_name": "Ann',
        content_type="application/json",
    )

    _error(response, 400, "parse_error")


@pytest.mark.django_db
def test_json_nested_too_deep_is_400_parse_error(director):
    tournament = TournamentFactory()
    response = director.post(
        f"/api/tournaments/{tournament.pk}/busts/",
        "[" * 100_000 + "]" * 100_000,
        content_type="application/json",
    )

    _error(response, 400, "parse_error")


@pytest.mark.django_db
def test_field_errors_are_400_invalid_with_the_fields_and_a_sentence(director):
    response = director.post(
        "/api/schedules/",
        {"name": "", "levels": [{"big_blind": "lots", "duration": 600}]},
        format="json",
    )

    body = _error(response, 400, "invalid")
    assert set(body["errors"]) == {"name", "levels"}
    assert body["errors"]["levels"] == {"0": {"big_blind": ["A valid integer is required."]}}
    assert body["detail"] == "name: This field may not be blank."


@pytest.mark.django_db
def test_the_detail_of_a_field_error_says_where_it_is(director):
    levels = [{"big_blind": 200, "duration": 600}, {"big_blind": "lots", "duration": 600}]
    response = director.post("/api/schedules/", {"name": "X", "levels": levels}, format="json")

    body = _error(response, 400, "invalid")
    assert body["detail"] == "levels[1].big_blind: A valid integer is required."


@pytest.mark.django_db
def test_a_number_beyond_the_database_range_is_400_invalid(director):
    tournament = seated_tournament(players=4)
    entry = Entry.objects.filter(tournament=tournament).first()

    body = _error(
        director.put(f"/api/entries/{entry.pk}/chips/", {"chips": 2**31}, format="json"),
        400,
        "invalid",
    )
    assert body["detail"].startswith("chips: Ensure this value is less than or equal to")


@pytest.mark.django_db
def test_a_negative_number_is_400(director):
    tournament = seated_tournament(players=4)
    entry = Entry.objects.filter(tournament=tournament).first()

    _error(
        director.put(f"/api/entries/{entry.pk}/chips/", {"chips": -5}, format="json"),
        400,
        "bad_chips",
    )
    _error(
        director.post(
            f"/api/tournaments/{tournament.pk}/busts/",
            [{"entry_id": entry.pk, "starting_stack": -1}],
            format="json",
        ),
        400,
        "invalid",
    )


@pytest.mark.django_db
def test_an_object_where_a_list_is_expected_is_400_invalid(director):
    tournament = seated_tournament(players=4)
    response = director.post(
        f"/api/tournaments/{tournament.pk}/busts/",
        {"entry_id": 1, "starting_stack": 100},
        format="json",
    )

    body = _error(response, 400, "invalid")
    assert "non_field_errors" in body["errors"]


# --- unknown objects -----------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/tournaments/999999/"),
        ("get", "/api/tournaments/99999999999999999999999/standings/"),
        ("post", "/api/tournaments/999999/entries/"),
        ("post", "/api/entries/999999/rebuy/"),
        ("post", "/api/entries/99999999999999999999999/addon/"),
        ("put", "/api/schedules/999999/levels/"),
        ("get", "/api/schedules/999999/"),
    ],
)
def test_unknown_ids_in_the_path_are_404_not_found(director, method, path):
    _error(getattr(director, method)(path, {}, format="json"), 404, "not_found")


@pytest.mark.django_db
def test_unknown_entry_in_a_bust_is_404_not_found(director):
    tournament = seated_tournament(players=4)
    response = director.post(
        f"/api/tournaments/{tournament.pk}/busts/",
        [{"entry_id": 2**63 - 1, "starting_stack": 100}],
        format="json",
    )

    _error(response, 404, "not_found")


@pytest.mark.django_db
def test_unknown_schedule_is_a_field_error(director):
    response = director.post(
        "/api/tournaments/", {"schedule": 10**30, "name": "No schedule"}, format="json"
    )

    body = _error(response, 400, "invalid")
    assert "schedule" in body["errors"]


@pytest.mark.django_db
def test_a_planned_tournament_is_404_to_the_public():
    tournament = TournamentFactory(status=Tournament.Status.PLANNED)

    _error(APIClient().get(f"/api/tournaments/{tournament.pk}/"), 404, "not_found")
    _error(APIClient().get(f"/api/tournaments/{tournament.pk}/standings/"), 404, "not_found")


# --- state conflicts -----------------------------------------------------------------------


@pytest.mark.django_db
def test_refusals_in_the_wrong_state_are_409_with_their_codes(director):
    tournament = seated_tournament(players=4)
    pk = tournament.pk

    _error(director.post(f"/api/tournaments/{pk}/clock/start/"), 409, "already_started")
    _error(director.post(f"/api/tournaments/{pk}/clock/resume/"), 409, "not_paused")
    _error(director.post(f"/api/tournaments/{pk}/seat-draw/"), 409, "tournament_started")
    _error(director.post(f"/api/tournaments/{pk}/open-registration/"), 409, "bad_status")
    _error(director.post(f"/api/tournaments/{pk}/busts/undo/"), 409, "nothing_to_undo")
    _error(
        director.post(f"/api/tournaments/{pk}/clock/set-level/", {"index": 40}, format="json"),
        409,
        "no_such_level",
    )
