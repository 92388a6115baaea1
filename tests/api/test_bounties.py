"""Bounties through the API: the settings, "eliminated by" on busts, the knockouts list, the
bounties in the standings and the results export, and a PKO run from registration to payouts."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from config import request_time
from tests.factories import level_rows, seated_tournament
from tournaments.models import Entry, Knockout, Tournament

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(request_time, "now", lambda: T0)


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.content
    return response.json() if response.content else None


def by_name(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament).order_by("player__name"))


def bust(client: APIClient, tournament: Tournament, out: Entry, *by: Entry) -> Any:
    out.refresh_from_db()
    row: dict[str, Any] = {"entry_id": out.pk, "starting_stack": out.chips}
    if by:
        row["eliminated_by"] = [e.pk for e in by]
    return client.post(f"/api/tournaments/{tournament.pk}/busts/", [row], format="json")


def schedule(client: APIClient) -> int:
    body = {"name": "Bounty levels", "levels": level_rows()}
    return int(ok(client.post("/api/schedules/", body, format="json"), 201)["id"])


# --- settings ---------------------------------------------------------------------------------


def test_a_tournament_is_created_with_its_bounty(director: APIClient) -> None:
    body = {
        "schedule": schedule(director),
        "name": "PKO 200",
        "buy_in": "100.00",
        "bounty_kind": "progressive",
        "bounty": "100.00",
    }
    created = ok(director.post("/api/tournaments/", body, format="json"), 201)
    assert (created["bounty_kind"], created["bounty"]) == ("progressive", "100.00")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"bounty_kind": "fixed", "bounty": "0"}, 400, "bad_bounty"),
        ({"bounty_kind": "progressive"}, 400, "bad_bounty"),
    ],
)
def test_a_bounty_kind_needs_a_bounty(
    director: APIClient, body: dict[str, Any], status: int, code: str
) -> None:
    sent = {"schedule": schedule(director), "name": "KO", **body}
    response = director.post("/api/tournaments/", sent, format="json")
    assert response.status_code == status
    assert response.json()["code"] == code


def test_a_negative_bounty_or_an_unknown_kind_is_a_field_error(director: APIClient) -> None:
    sent = {"schedule": schedule(director), "name": "KO", "bounty": "-5", "bounty_kind": "huge"}
    response = director.post("/api/tournaments/", sent, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"]) >= {"bounty", "bounty_kind"}


def test_the_bounty_is_locked_once_started(director: APIClient) -> None:
    event = seated_tournament(players=3, bounty_kind="fixed", bounty=50)
    url = f"/api/tournaments/{event.pk}/"

    refused = director.patch(url, {"bounty": "60.00"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "money_locked"  # paid by the entries (issue 26)
    assert ok(director.patch(url, {"bounty": "50.00", "name": "KO 50"}, format="json"))["name"] == (
        "KO 50"
    )


# --- busts with eliminators -------------------------------------------------------------------


def test_a_bust_names_who_knocked_the_player_out(director: APIClient) -> None:
    event = seated_tournament(players=4, bounty_kind="fixed", bounty=50)
    ann, bob, _cat, dan = by_name(event)

    ok(bust(director, event, dan, ann, bob))

    rows = Knockout.objects.filter(busted=dan).order_by("pk")
    assert [(r.eliminator_id, r.share) for r in rows] == [(ann.pk, 1), (bob.pk, 1)]


@pytest.mark.parametrize("who", ["busted_with", "out_before", "unknown", "itself"])
def test_an_eliminator_not_still_in_is_refused_400(director: APIClient, who: str) -> None:
    event = seated_tournament(players=4, bounty_kind="fixed", bounty=50)
    ann, bob, cat, dan = by_name(event)
    ok(bust(director, event, dan, ann))
    url = f"/api/tournaments/{event.pk}/busts/"
    if who == "busted_with":
        rows = [
            {"entry_id": bob.pk, "starting_stack": bob.chips, "eliminated_by": [cat.pk]},
            {"entry_id": cat.pk, "starting_stack": cat.chips},
        ]
    else:
        named = {"out_before": dan.pk, "unknown": 999_999, "itself": bob.pk}[who]
        rows = [{"entry_id": bob.pk, "starting_stack": bob.chips, "eliminated_by": [named]}]

    response = director.post(url, rows, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "bad_eliminator"
    assert Entry.objects.get(pk=bob.pk).status == Entry.Status.ACTIVE


def test_the_undo_takes_the_knockout_back(director: APIClient) -> None:
    event = seated_tournament(players=3, bounty_kind="progressive", bounty=100)
    ann, _bob, cat = by_name(event)
    ok(bust(director, event, cat, ann))

    ok(director.post(f"/api/tournaments/{event.pk}/busts/undo/"))

    listed = ok(APIClient().get(f"/api/tournaments/{event.pk}/knockouts/"))
    assert listed["knockouts"] == []
    assert listed["paid"] == "0.00"


# --- what the public and the results show ----------------------------------------------------


def test_the_knockouts_list_is_public_with_the_amounts(director: APIClient) -> None:
    event = seated_tournament(players=3, bounty_kind="progressive", bounty=100)
    ann, bob, cat = by_name(event)
    ok(bust(director, event, cat, ann, bob))

    listed = ok(APIClient().get(f"/api/tournaments/{event.pk}/knockouts/"))

    assert (listed["bounty_kind"], listed["bounty"], listed["paid"]) == (
        "progressive",
        "100.00",
        "50.00",
    )
    assert [
        (k["busted"], k["eliminator"], k["share"], k["cash"], k["onto_head"])
        for k in listed["knockouts"]
    ] == [
        ("Player 02", "Player 00", 1, "25.00", "25.00"),
        ("Player 02", "Player 01", 1, "25.00", "25.00"),
    ]
    heads = {p["name"]: (p["head"], p["won"], p["knockouts"]) for p in listed["players"]}
    assert heads["Player 00"] == ("125.00", "25.00", 1)
    assert heads["Player 02"] == ("0.00", "0.00", 0)


def test_the_knockouts_of_an_unknown_tournament_are_404() -> None:
    assert APIClient().get("/api/tournaments/999999/knockouts/").status_code == 404


def test_standings_rows_carry_the_bounties(director: APIClient) -> None:
    event = seated_tournament(players=3, bounty_kind="progressive", bounty=100)
    ann, _bob, cat = by_name(event)
    ok(bust(director, event, cat, ann))

    rows = ok(APIClient().get(f"/api/tournaments/{event.pk}/standings/"))["rows"]

    bounties = {r["name"]: (r["head"], r["bounty_won"]) for r in rows}
    assert bounties == {"Player 00": ("150.00", "50.00"), "Player 01": ("100.00", "0.00")}


def test_standings_without_bounties_say_null(director: APIClient) -> None:
    event = seated_tournament(players=3)
    rows = ok(APIClient().get(f"/api/tournaments/{event.pk}/standings/"))["rows"]
    assert {(r["head"], r["bounty_won"]) for r in rows} == {(None, None)}


def test_the_results_export_has_the_bounty_columns(director: APIClient) -> None:
    event = seated_tournament(players=3, bounty_kind="fixed", bounty=50)
    ann, _bob, cat = by_name(event)
    ok(bust(director, event, cat, ann))

    export = director.get(f"/api/tournaments/{event.pk}/results.csv")

    rows = list(csv.reader(io.StringIO(export.content.decode())))
    assert rows[0] == ["place", "name", "entry_number", "prize", "knockouts", "bounty_won"]
    assert rows[-1][1:] == ["Player 02", "1", "", "0", "0.00"]
    assert ["Player 00", "1", "50.00"] in [[r[1], r[4], r[5]] for r in rows[1:]]


# --- from registration to payouts -------------------------------------------------------------


def test_a_pko_from_registration_to_payouts_through_the_api(director: APIClient) -> None:
    created = {
        "schedule": schedule(director),
        "name": "PKO Sunday",
        "buy_in": "100.00",
        "fee": "10.00",
        "bounty_kind": "progressive",
        "bounty": "100.00",
        "starting_stack": 10000,
        "payout_percentages": [65, 35],
    }
    pk = ok(director.post("/api/tournaments/", created, format="json"), 201)["id"]
    ok(director.post(f"/api/tournaments/{pk}/open-registration/"))
    names = ["Ann", "Bob", "Cat", "Dan"]
    ids = {
        name: ok(
            director.post(f"/api/tournaments/{pk}/entries/", {"player_name": name}, format="json"),
            201,
        )["id"]
        for name in names
    }
    ok(director.post(f"/api/tournaments/{pk}/seat-draw/"), 201)
    ok(director.post(f"/api/tournaments/{pk}/clock/start/"))

    def out(name: str, *by: str) -> None:
        stack = Entry.objects.get(pk=ids[name]).chips
        named = [ids[b] for b in by]
        row = {"entry_id": ids[name], "starting_stack": stack, "eliminated_by": named}
        ok(director.post(f"/api/tournaments/{pk}/busts/", [row], format="json"))

    out("Dan", "Cat")  # Cat: 50 cash, head 150
    out("Cat", "Ann", "Bob")  # Cat's 150: 37.50 + 37.50 cash, 37.50 onto each head
    standings = ok(director.get(f"/api/tournaments/{pk}/standings/"))
    assert standings["prize_pool"] == "400.00"  # the bounties are not in the pool
    heads = {r["name"]: r["head"] for r in standings["rows"]}
    assert heads == {"Ann": "137.50", "Bob": "137.50"}
    out("Bob", "Ann")  # Bob's 137.50: 68.75 cash, 68.75 onto Ann's head; Ann wins

    ok(director.post(f"/api/tournaments/{pk}/finish/"))
    payouts = ok(director.get(f"/api/tournaments/{pk}/payouts/"))
    assert [(p["place"], p["players"][0]["name"]) for p in payouts["places"]] == [
        (1, "Ann"),
        (2, "Bob"),
    ]
    listed = ok(director.get(f"/api/tournaments/{pk}/knockouts/"))
    won = {p["name"]: p["won"] for p in listed["players"]}
    # Ann: 37.50 + 68.75 in cash, and her own head (100 + 37.50 + 68.75) at the end.
    assert won == {"Ann": "312.50", "Bob": "37.50", "Cat": "50.00", "Dan": "0.00"}
    assert listed["paid"] == "400.00"  # 4 entries x 100 bounty
    rows = list(
        csv.reader(io.StringIO(director.get(f"/api/tournaments/{pk}/results.csv").content.decode()))
    )
    assert rows[0][-3:] == ["knockouts", "bounty_won", "head"]
    assert rows[1][:2] == ["1", "Ann"]
    assert rows[1][-3:] == ["2", "312.50", ""]
