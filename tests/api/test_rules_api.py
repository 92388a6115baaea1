"""The rules editor through the API (issue 13: "the same through the API"): GET and PUT
/api/tournaments/<id>/rules/ and /api/cash-tables/<id>/rules/, through the same selector and
service as the desk; and the Texas 6+ ranking choices where a game is made."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from dealer.engine.rules import Rules
from tests.dealer.test_cash_services import cash_table
from tests.factories import (
    BlindScheduleFactory,
    DealerFactory,
    TableFactory,
    TournamentFactory,
    make,
    seated_tournament,
)
from tournaments.models import AuditEvent, Table, Tournament

pytestmark = pytest.mark.django_db

OPTION_KEYS = {f for f in Rules.__dataclass_fields__ if f != "profile"}


def url(event: Any) -> str:
    return f"/api/tournaments/{event.pk}/rules/"


def cash_url(table: Any) -> str:
    return f"/api/cash-tables/{table.pk}/rules/"


@pytest.fixture
def dealer() -> APIClient:
    client = APIClient()
    client.force_login(make(DealerFactory))
    return client


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code
    assert body["detail"]
    if status == 400:
        assert body["errors"]
    return body


# --- reading --------------------------------------------------------------------------------


def test_get_answers_every_option_in_words_with_its_default(
    director: APIClient, django_assert_max_num_queries: Any
) -> None:
    event = make(TournamentFactory, rule_overrides={"odd_chip": "high_card_by_suit"})

    with django_assert_max_num_queries(6):
        response = director.get(url(event))

    assert response.status_code == 200
    body = response.json()
    assert body["target"] == "tournament"
    assert body["profile"] == "tda_tournament"
    assert body["overrides"] == {"odd_chip": "high_card_by_suit"}
    assert set(body["values"]) == OPTION_KEYS
    assert body["locked"] is None
    options = {o["key"]: o for group in body["groups"] for o in group["options"]}
    assert set(options) == OPTION_KEYS
    odd = options["odd_chip"]
    assert odd["differs"]
    assert odd["label"] == "Highest card by suit"
    assert odd["default"] == "left_of_button"
    assert odd["kind"] == "choice"
    assert options["fl_cap_bets"]["low"] == 1
    assert options["fl_cap_bets"]["kind"] == "number"
    assert not options["game"]["editable"]
    assert options["straddle_allowed"]["applies"] is False


def test_dealers_read_the_rules_and_may_not_set_them(dealer: APIClient) -> None:
    event = make(TournamentFactory)
    assert dealer.get(url(event)).status_code == 200
    refused(dealer.put(url(event), {"values": {}}, format="json"), 403, "permission_denied")
    table = cash_table()
    assert dealer.get(cash_url(table)).status_code == 200
    refused(dealer.put(cash_url(table), {"values": {}}, format="json"), 403, "permission_denied")


def test_the_public_may_not_read_the_rules() -> None:
    event = make(TournamentFactory)
    assert APIClient().get(url(event)).status_code == 403


# --- setting --------------------------------------------------------------------------------


def test_put_stores_only_what_differs_and_answers_the_rules(director: APIClient) -> None:
    event = make(TournamentFactory)
    body = {"profile": "tda_tournament", "values": {"button_mode": "moving", "redeal_cut": True}}

    response = director.put(url(event), body, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["overrides"] == {"button_mode": "moving"}
    assert response.json()["values"]["button_mode"] == "moving"
    event.refresh_from_db()
    assert event.rule_overrides == {"button_mode": "moving"}
    assert AuditEvent.objects.get(action="rules_set").detail["changed"] == ["button_mode=moving"]


def test_put_the_values_of_get_back_unchanged_changes_nothing(director: APIClient) -> None:
    event = make(TournamentFactory)
    values = director.get(url(event)).json()["values"]
    assert director.put(url(event), {"values": values}, format="json").status_code == 200
    assert not AuditEvent.objects.filter(action="rules_set").exists()


@pytest.mark.parametrize(
    ("values", "code", "words"),
    [
        ({"button_mode": "sideways"}, "bad_option_value", "use one of moving, dead"),
        ({"fl_cap_bets": "4"}, "bad_option_value", "whole number"),
        ({"house_special": True}, "unknown_option", "Unknown rule option 'house_special'"),
        ({"sixplus_flush_beats_full_house": True}, "bad_option_combination", "Texas 6+"),
        ({"straddle_allowed": True}, "bad_option_combination", "cash tables only"),
        ({"game": "sixplus"}, "option_fixed", "The game is chosen"),
        ({"structure": "pot_limit"}, "option_fixed", "Settings page"),
    ],
)
def test_a_bad_key_or_value_is_a_400_with_the_engines_code_and_sentence(
    director: APIClient, values: dict[str, Any], code: str, words: str
) -> None:
    event = make(TournamentFactory)
    body = refused(director.put(url(event), {"values": values}, format="json"), 400, code)
    assert words in body["detail"]
    event.refresh_from_db()
    assert event.rule_overrides == {}


@pytest.mark.parametrize(
    "body",
    [
        {"values": {"Not A Key": 1}},
        {"values": ["button_mode"]},
        {"values": {"button_mode": {"nested": 1}}},
        {"profile": "x" * 31},
    ],
)
def test_a_malformed_request_is_a_400_invalid(director: APIClient, body: dict[str, Any]) -> None:
    refused(director.put(url(make(TournamentFactory)), body, format="json"), 400, "invalid")


def test_an_unknown_profile_is_a_400(director: APIClient) -> None:
    body = {"profile": "house", "values": {}}
    refused(director.put(url(make(TournamentFactory)), body, format="json"), 400, "unknown_profile")


def test_a_running_tournaments_rules_are_a_409(director: APIClient) -> None:
    event = seated_tournament(players=4)
    assert director.get(url(event)).json()["locked"]["code"] == "tournament_started"
    body = {"values": {"odd_chip": "high_card_by_suit"}}
    refused(director.put(url(event), body, format="json"), 409, "tournament_started")


def test_a_cash_tables_rules_through_the_api(director: APIClient) -> None:
    """The issue: a 6+ cash table's flush-over-full-house, through the API."""
    table = cash_table(game="sixplus", rule_profile="texas_6plus")
    body = {"values": {"sixplus_flush_beats_full_house": True, "straddle_allowed": True}}

    response = director.put(cash_url(table), body, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["target"] == "cash_table"
    table.refresh_from_db()
    assert table.rule_profile == "texas_6plus"
    assert table.rule_overrides == {
        "sixplus_flush_beats_full_house": True,
        "straddle_allowed": True,
    }


def test_a_tournament_table_has_no_cash_rules(director: APIClient) -> None:
    table = make(TableFactory)
    refused(director.get(cash_url(table)), 400, "not_cash")
    assert director.get("/api/cash-tables/999999/rules/").status_code == 404
    assert director.get("/api/tournaments/999999/rules/").status_code == 404


# --- the 6+ choices where a game is made ----------------------------------------------------


def tournament_body(**changes: Any) -> dict[str, Any]:
    return {"name": "Short deck", "schedule": make(BlindScheduleFactory).pk, **changes}


def test_a_6plus_tournament_is_created_with_its_ranking_choices(director: APIClient) -> None:
    body = tournament_body(
        game="sixplus", sixplus_flush_beats_full_house=True, sixplus_trips_beat_straight=False
    )
    response = director.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["rule_overrides"] == {
        "sixplus_flush_beats_full_house": True,
        "sixplus_trips_beat_straight": False,
    }


def test_a_holdem_tournament_refuses_the_6plus_choices(director: APIClient) -> None:
    body = tournament_body(sixplus_trips_beat_straight=True)
    answer = refused(
        director.post("/api/tournaments/", body, format="json"), 400, "bad_option_combination"
    )
    assert "apply only to Texas 6+ (game=sixplus)" in answer["detail"]
    assert not Tournament.objects.exists()


CASH = {
    "number": 9,
    "game": "sixplus",
    "rule_profile": "texas_6plus",
    "small_blind": 1,
    "big_blind": 2,
    "min_buy_in": 40,
    "max_buy_in": 200,
}


def test_a_6plus_cash_table_opens_with_its_ranking_choices(director: APIClient) -> None:
    body = {**CASH, "sixplus_flush_beats_full_house": True}
    response = director.post("/api/cash-tables/", body, format="json")
    assert response.status_code == 201, response.content
    assert Table.objects.get(number=9, tournament=None).rule_overrides == {
        "sixplus_flush_beats_full_house": True
    }
    holdem = {**CASH, "number": 10, "game": "holdem", "rule_profile": "casino_cash"}
    answer = refused(
        director.post(
            "/api/cash-tables/", {**holdem, "sixplus_trips_beat_straight": True}, format="json"
        ),
        400,
        "bad_option_combination",
    )
    assert "Texas 6+" in answer["detail"]


# --- the schema -----------------------------------------------------------------------------


def test_the_schema_documents_the_rules_endpoints() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path in ("/api/tournaments/{id}/rules/", "/api/cash-tables/{id}/rules/"):
        operations = schema["paths"][path]
        assert set(operations) == {"get", "put"}
        assert {"200", "400", "403", "404", "409"} <= set(operations["put"]["responses"])
    create = schema["components"]["schemas"]["TournamentCreateInput"]["properties"]
    assert "sixplus_flush_beats_full_house" in create
    assert (
        "sixplus_trips_beat_straight"
        in schema["components"]["schemas"]["CashTableInput"]["properties"]
    )


def test_one_writer_a_tournament_patch_of_its_rules_goes_through_the_rules_service(
    director: APIClient,
) -> None:
    """STYLE "one owner per fact": the settings PATCH used to store rule_overrides as sent (a
    default kept as an override, no account of what changed); it now goes through rules_set."""
    event = make(TournamentFactory, game="sixplus", structure="fixed_limit")
    sent = {
        "rule_overrides": {"sixplus_flush_beats_full_house": True, "odd_chip": "left_of_button"}
    }
    response = director.patch(f"/api/tournaments/{event.pk}/", sent, format="json")
    assert response.status_code == 200, response.content
    event.refresh_from_db()
    assert event.rule_overrides == {"sixplus_flush_beats_full_house": True}  # the default dropped
    audit = AuditEvent.objects.filter(tournament=event, action="rules_set").get()
    assert "sixplus_flush_beats_full_house=True" in audit.detail["changed"]
    read = director.get(url(event)).json()
    assert read["profile"] == event.rule_profile
    bad = director.patch(
        f"/api/tournaments/{event.pk}/", {"rule_overrides": {"odd_chip": "x"}}, format="json"
    )
    refused(bad, 400, "bad_option_value")
