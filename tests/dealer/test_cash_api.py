"""Cash tables over the REST API: the next hand's plan, and a start that takes exactly it."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from dealer.cash.models import CashSeat
from dealer.cash.seats import services as cash
from dealer.models import Hand
from dealer.services import hand_start
from tests.dealer.test_cash_pages import waiting_names
from tests.dealer.test_cash_services import play_out, seat_of, seated
from tests.factories import DealerFactory, DirectorFactory, assign_dealer, seated_tournament
from tournaments.models import AuditEvent, Table

pytestmark = pytest.mark.django_db


def dealer_client(table: Table) -> APIClient:
    client = APIClient()
    client.force_login(assign_dealer(table))
    return client


def returner_table() -> Table:
    """Six players, button 1; seat 4 sat out while both blinds passed and is back."""
    table = seated("1 2 3 4 5 6", button=1)
    play_out(Hand.objects.get(pk=_start(table)))
    cash.cash_seat_sit_out(cash_seat=seat_of(table, 4))
    for _ in range(4):
        play_out(Hand.objects.get(pk=_start(table)))
    cash.cash_seat_return(cash_seat=seat_of(table, 4))
    table.refresh_from_db()
    return table


def _start(table: Table) -> int:
    return hand_start(table=table).pk


def test_next_hand_lists_the_posts_live_and_dead_and_the_start_takes_them() -> None:
    table = returner_table()
    client = dealer_client(table)
    plan = client.get(f"/api/tables/{table.pk}/next-hand/")
    assert plan.status_code == 200
    body = plan.json()
    assert (body["button_seat"], body["small_blind_seat"], body["big_blind_seat"]) == (1, 2, 3)
    posts = {p["seat"]: (p["live"], p["dead"], p["why"]) for p in body["posts"] if p["live"]}
    assert posts == {
        2: (1, 0, "small blind"),
        3: (2, 0, "big blind"),
        4: (2, 1, "missed blinds: 2 live + 1 dead"),
    }
    started = client.post(
        f"/api/tables/{table.pk}/hands/",
        {"client_id": "start-cash-1", "plan": body["signature"]},
        format="json",
    )
    assert started.status_code == 201
    state = started.json()
    bets = {p["seat"]: p["bet"] for p in state["players"]}
    assert (bets[2], bets[3], bets[4]) == (1, 2, 2)
    assert state["pot_total"] == 6


def test_start_with_a_stale_plan_or_an_unoffered_straddle_is_refused() -> None:
    table = seated("1 2 3", button=1, rule_overrides={"straddle_allowed": False})
    client = dealer_client(table)
    signature = client.get(f"/api/tables/{table.pk}/next-hand/").json()["signature"]
    cash.cash_seat_take(table=table, seat=5, player_name="Late", buy_in=100, choice="post_now")
    refused = client.post(
        f"/api/tables/{table.pk}/hands/",
        {"client_id": "start-cash-2", "plan": signature},
        format="json",
    )
    assert refused.status_code == 409
    assert refused.json()["code"] == "plan_changed"
    refused = client.post(
        f"/api/tables/{table.pk}/hands/",
        {"client_id": "start-cash-3", "straddle": True},
        format="json",
    )
    assert (refused.status_code, refused.json()["code"]) == (409, "straddle_not_offered")
    assert not Hand.objects.filter(table=table).exists()


def test_straddle_through_the_api() -> None:
    table = seated("1 2 3 4 5", button=1)
    client = dealer_client(table)
    body = client.get(f"/api/tables/{table.pk}/next-hand/").json()
    assert (body["straddle_seat"], body["straddle_amount"]) == (4, 4)
    started = client.post(
        f"/api/tables/{table.pk}/hands/",
        {"client_id": "start-cash-4", "plan": body["signature"], "straddle": True},
        format="json",
    )
    assert started.status_code == 201
    assert started.json()["actor_seat"] == 5


def test_next_hand_refusals_have_a_code_and_a_sentence() -> None:
    tournament = seated_tournament(players=3)
    tournament_table = Table.objects.get(tournament=tournament, number=1)
    client = dealer_client(tournament_table)
    response = client.get(f"/api/tables/{tournament_table.pk}/next-hand/")
    assert (response.status_code, response.json()["code"]) == (400, "not_cash")
    lonely = seated("1", button=1)
    response = dealer_client(lonely).get(f"/api/tables/{lonely.pk}/next-hand/")
    assert (response.status_code, response.json()["code"]) == (409, "not_enough_players")
    assert "at least two players" in response.json()["detail"]


def test_only_the_assigned_dealer_starts_a_cash_hand() -> None:
    table = seated("1 2 3", button=1)
    assign_dealer(table)
    other = APIClient()
    other.force_login(DealerFactory.create())
    response = other.post(
        f"/api/tables/{table.pk}/hands/", {"client_id": "start-x1"}, format="json"
    )
    assert response.status_code == 403
    assert other.get(f"/api/tables/{table.pk}/next-hand/").status_code == 200


# --- a whole cash evening through the API alone -------------------------------------------------

OPEN = {
    "number": 8,
    "name": "1/2 NL",
    "rule_profile": "casino_cash",
    "game": "holdem",
    "structure": "no_limit",
    "small_blind": 1,
    "big_blind": 2,
    "min_buy_in": 40,
    "max_buy_in": 200,
    "seat_count": 6,
}


def token_client(user: Any) -> APIClient:
    """A program's client: a token from /api/auth/token/, no session, CSRF enforced."""
    client = APIClient(enforce_csrf_checks=True)
    answer = client.post(
        "/api/auth/token/", {"username": user.username, "password": "pw"}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.json()
    return response.json()


def refused(response: Any, status: int, code: str) -> str:
    body = response.json()
    assert (response.status_code, body["code"]) == (status, code), body
    return str(body["detail"])


def seat_row(table: dict[str, Any], number: int) -> dict[str, Any]:
    return next(row for row in table["seats"] if row["seat"] == number)


def seat_url(table: dict[str, Any], number: int, action: str) -> str:
    return f"/api/cash-tables/{table['id']}/seats/{seat_row(table, number)['id']}/{action}/"


def play_out_over_api(client: APIClient, state: dict[str, Any]) -> dict[str, Any]:
    """Everyone folds to the last player, through the hands API."""
    sent = 0
    while state["status"] == "in_progress":
        live = [p for p in state["players"] if not p["folded"]]
        sent += 1
        action = {"kind": "fold" if len(live) > 1 else "check", "seat": state["actor_seat"]}
        state = ok(
            client.post(
                f"/api/hands/{state['hand']}/actions/",
                {
                    "client_id": f"eve-{state['hand']}-{sent}",
                    "version": state["version"],
                    "action": action,
                },
                format="json",
            )
        )
    return state


def deal_over_api(client: APIClient, table: dict[str, Any], n: int) -> dict[str, Any]:
    """Read the plan, start the hand with its signature, play it out; the table after it."""
    plan = ok(client.get(f"/api/tables/{table['id']}/next-hand/"))
    started = client.post(
        f"/api/tables/{table['id']}/hands/",
        {"client_id": f"start-{table['id']}-{n}", "plan": plan["signature"]},
        format="json",
    )
    state = play_out_over_api(client, ok(started, 201))
    assert state["status"] == "complete"
    return ok(client.get(f"/api/cash-tables/{table['id']}/"))


def test_a_cash_evening_driven_through_the_api_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # The button draw deals from this deck: seat 1 draws the high card.
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(1))
    director = token_client(DirectorFactory.create())
    # The floor opens the table.
    table = ok(director.post("/api/cash-tables/", OPEN, format="json"), 201)
    assert (table["number"], table["seat_count"], table["rules"]["profile"]) == (
        8,
        6,
        "casino_cash",
    )
    assert [row["status"] for row in table["seats"]] == ["open"] * 6
    assert table["next_hand_refusal"]["code"] == "not_enough_players"
    base = f"/api/cash-tables/{table['id']}/"
    listed = ok(director.get("/api/cash-tables/"))
    assert [(t["id"], t["players"]) for t in listed] == [(table["id"], 0)]
    # Four players sit down; the button is drawn.
    for number, name in ((1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Di")):
        table = ok(
            director.post(
                base + "seats/",
                {"seat": number, "player_name": name, "buy_in": 200},
                format="json",
            ),
            201,
        )
    assert [row["player"] for row in table["seats"]][:4] == ["Ann", "Bob", "Cy", "Di"]
    assert table["next_hand_refusal"]["code"] == "no_button"
    table = ok(director.post(base + "button-draw/"), 201)
    draw = table["button_draw"]
    assert (draw["seats"], draw["winner_seat"]) == ([1, 2, 3, 4], 1)
    assert table["button_seat"] == draw["winner_seat"]
    assert table["next_hand"]["button_seat"] == draw["winner_seat"]
    # Two hands, each started with the plan the dealer read.
    table = deal_over_api(director, table, 1)
    assert table["button_draw"] == draw
    refused(director.post(base + "button-draw/"), 409, "already_dealing")
    # Di sits out while the blinds go round, then comes back and posts what she owes.
    table = ok(director.post(seat_url(table, 4, "sit-out")))
    assert seat_row(table, 4)["status"] == "sitting_out"
    for n in (2, 3):
        table = deal_over_api(director, table, n)
        assert 4 in [w["seat"] for w in table["next_hand"]["waiting"]]
    table = ok(director.post(seat_url(table, 4, "back"), {"choice": "post"}, format="json"))
    di = seat_row(table, 4)
    assert (di["status"], di["missed_small"], di["missed_big"]) == ("returning", True, True)
    assert (di["owes_live"], di["owes_dead"], di["owes"]) == (2, 1, "2 live + 1 dead")
    plan = ok(director.get(f"/api/tables/{table['id']}/next-hand/"))
    assert plan == table["next_hand"]
    posts = {p["seat"]: (p["live"], p["dead"], p["why"]) for p in plan["posts"]}
    assert posts[4] == (2, 1, "missed blinds: 2 live + 1 dead")
    started = ok(
        director.post(
            f"/api/tables/{table['id']}/hands/",
            {"client_id": "start-back", "plan": plan["signature"]},
            format="json",
        ),
        201,
    )
    assert {p["seat"]: p["bet"] for p in started["players"]}[4] == 2
    assert started["pot_total"] == 1 + 2 + 2 + 1  # the blinds, Di's big live and small dead
    play_out_over_api(director, started)
    table = ok(director.get(base))
    assert seat_row(table, 4)["status"] == "playing"
    assert sum(row["chips"] or 0 for row in table["seats"]) == 800  # chips stay at the table
    # A late player tops up to the maximum; the waiting list fills and empties.
    table = ok(
        director.post(
            base + "seats/",
            {"seat": 5, "player_name": "Eve", "buy_in": 100, "choice": "post_now"},
            format="json",
        ),
        201,
    )
    detail = refused(
        director.post(seat_url(table, 5, "top-up"), {"amount": 150}, format="json"),
        409,
        "over_maximum",
    )
    assert detail == "At most 100 more: the maximum buy-in at Table 8 is 200."
    table = ok(director.post(seat_url(table, 5, "top-up"), {"amount": 100}, format="json"))
    assert (seat_row(table, 5)["chips"], seat_row(table, 5)["bought_in"]) == (200, 200)
    table = ok(director.post(base + "waiting/", {"player_name": "Wes"}, format="json"), 201)
    table = ok(director.post(base + "waiting/", {"player_name": "Xia"}, format="json"), 201)
    assert [entry["player"] for entry in table["waiting_list"]] == ["Wes", "Xia"]
    refused(
        director.post(base + "waiting/", {"player_name": "Wes"}, format="json"),
        409,
        "already_waiting",
    )
    table = ok(
        director.post(
            base + "seats/", {"seat": 6, "player_name": "Wes", "buy_in": 200}, format="json"
        ),
        201,
    )
    xia = table["waiting_list"][0]
    assert [entry["player"] for entry in table["waiting_list"]] == ["Xia"]
    table = ok(director.post(base + f"waiting/{xia['id']}/remove/"))
    assert table["waiting_list"] == []
    # Eve leaves with her chips; her seat is open again and its old id answers 404.
    eve_leaves = seat_url(table, 5, "leave")
    left = ok(director.post(eve_leaves))
    assert (left["seat"], left["player"], left["chips"]) == (5, "Eve", 200)
    assert seat_row(left["table"], 5)["status"] == "open"
    assert 5 in left["table"]["open_seats"]
    refused(director.post(eve_leaves), 404, "not_found")
    actions = list(
        AuditEvent.objects.filter(action__startswith="cash_").values_list("action", flat=True)
    )
    for done in (
        "cash_table_open",
        "cash_seat",
        "cash_button_draw",
        "cash_sit_out",
        "cash_back",
        "cash_top_up",
        "cash_waitlist_add",
        "cash_waitlist_remove",
        "cash_leave",
    ):
        assert done in actions


# --- refusals ---------------------------------------------------------------------------------


def opened(client: APIClient, **change: Any) -> dict[str, Any]:
    return ok(client.post("/api/cash-tables/", {**OPEN, **change}, format="json"), 201)


def test_wrong_inputs_are_refused_with_a_code_and_a_sentence() -> None:
    director = APIClient()
    director.force_login(DirectorFactory.create())
    table = opened(director)
    base = f"/api/cash-tables/{table['id']}/"
    ann = {"seat": 1, "player_name": "Ann", "buy_in": 200}
    table = ok(director.post(base + "seats/", ann, format="json"), 201)
    cases: list[tuple[str, dict[str, Any], int, str]] = [
        ("seats/", {**ann, "player_name": "Bob"}, 409, "seat_taken"),
        ("seats/", {**ann, "seat": 2}, 409, "already_seated"),
        ("seats/", {"seat": 2, "player_name": "Bob", "buy_in": 500}, 400, "bad_buy_in"),
        ("seats/", {"seat": 9, "player_name": "Bob", "buy_in": 100}, 400, "bad_seat"),
        ("seats/", {"seat": 2, "player_name": "Bob", "buy_in": 100, "choice": "x"}, 400, "invalid"),
        ("seats/", {"seat": 2, "player_name": "  ", "buy_in": 100}, 400, "invalid"),
        ("waiting/", {"player_name": "Ann"}, 409, "already_seated"),
        ("button-draw/", {}, 409, "not_enough_players"),
        (f"seats/{seat_row(table, 1)['id']}/top-up/", {"amount": 1}, 409, "at_maximum"),
        (f"seats/{seat_row(table, 1)['id']}/top-up/", {"amount": 0}, 400, "bad_amount"),
        (f"seats/{seat_row(table, 1)['id']}/top-up/", {}, 400, "invalid"),
        (f"seats/{seat_row(table, 1)['id']}/back/", {"choice": "later"}, 400, "invalid"),
        ("seats/999999/sit-out/", {}, 404, "not_found"),
        ("waiting/999999/remove/", {}, 404, "not_found"),
    ]
    for path, body, status, code in cases:
        detail = refused(director.post(base + path, body, format="json"), status, code)
        assert detail.endswith(".") or code == "invalid", detail
    assert "Seat 1 is taken." in refused(
        director.post(base + "seats/", {**ann, "player_name": "Bob"}, format="json"),
        409,
        "seat_taken",
    )
    refused(director.post("/api/cash-tables/", OPEN, format="json"), 409, "table_number_taken")
    refused(
        director.post("/api/cash-tables/", {**OPEN, "number": 9, "small_blind": 5}, format="json"),
        400,
        "bad_stakes",
    )
    refused(
        director.post(
            "/api/cash-tables/",
            {**OPEN, "number": 9, "rule_profile": "tda_tournament"},
            format="json",
        ),
        400,
        "not_cash",
    )
    refused(
        director.post(
            "/api/cash-tables/",
            {**OPEN, "number": 9, "rule_overrides": {"button_mode": "sideways"}},
            format="json",
        ),
        400,
        "bad_option_value",
    )
    refused(
        director.post(
            "/api/cash-tables/",
            {**OPEN, "number": 9, "rule_overrides": {"no_such_rule": True}},
            format="json",
        ),
        400,
        "unknown_option",
    )
    refused(director.get("/api/cash-tables/999999/"), 404, "not_found")
    tournament_table = Table.objects.get(tournament=seated_tournament(players=3), number=1)
    refused(director.get(f"/api/cash-tables/{tournament_table.pk}/"), 400, "not_cash")
    assert CashSeat.objects.filter(table_id=table["id"]).count() == 1


def test_house_rules_through_the_api_are_the_tables_rules() -> None:
    director = APIClient()
    director.force_login(DirectorFactory.create())
    overrides = {
        "missed_blind_policy": "S3_blind_penalties",
        "button_mode": "dead",
        "straddle_allowed": False,
    }
    table = opened(director, rule_overrides=overrides)
    assert table["rule_overrides"] == overrides
    rules = table["rules"]
    assert (rules["missed_blind_policy"], rules["button_mode"], rules["straddle_allowed"]) == (
        "S3_blind_penalties",
        "dead",
        False,
    )
    six = opened(director, number=9, rule_profile="texas_6plus")
    assert (six["game"], six["rules"]["missed_blind_policy"]) == ("sixplus", "S0_missed_blinds")


def test_a_start_with_a_plan_read_before_a_seat_changed_is_refused() -> None:
    director = APIClient()
    director.force_login(DirectorFactory.create())
    table = opened(director, rule_overrides={"initial_button": "first_seated"})
    base = f"/api/cash-tables/{table['id']}/"
    for number in (1, 2, 3):
        body = {"seat": number, "player_name": f"P{number}", "buy_in": 100}
        table = ok(director.post(base + "seats/", body, format="json"), 201)
    assert table["button_seat"] == 1  # the first seated gets the button
    shown = ok(director.get(f"/api/tables/{table['id']}/next-hand/"))["signature"]
    ok(director.post(seat_url(table, 3, "sit-out")))
    stale = director.post(
        f"/api/tables/{table['id']}/hands/",
        {"client_id": "stale-1", "plan": shown},
        format="json",
    )
    assert "The seats changed" in refused(stale, 409, "plan_changed")
    assert not Hand.objects.filter(table_id=table["id"]).exists()


def test_a_player_in_the_hand_may_not_leave_or_top_up_until_it_is_over() -> None:
    table = seated("1 2 3", button=1)
    client = APIClient()
    client.force_login(DirectorFactory.create())
    hand = hand_start(table=table)
    view = ok(client.get(f"/api/cash-tables/{table.pk}/"))
    assert view["hand_in_progress"] == hand.number
    refused(client.post(seat_url(view, 2, "leave")), 409, "in_hand")
    refused(client.post(seat_url(view, 2, "top-up"), {"amount": 10}, format="json"), 409, "in_hand")


# --- who may do what: as on the seats page -------------------------------------------------------


def test_only_a_director_or_the_tables_dealer_writes_and_dealers_read() -> None:
    table = seated("1 2 3", button=1)
    mine = assign_dealer(table)
    mine_client, other, anonymous = APIClient(), APIClient(), APIClient()
    mine_client.force_login(mine)
    other.force_login(DealerFactory.create())
    base = f"/api/cash-tables/{table.pk}/"
    seat_pk = CashSeat.objects.get(table=table, seat=2).pk
    CashSeat.objects.filter(pk=seat_pk).update(chips=150)  # room for a top-up
    writes: list[tuple[str, dict[str, Any]]] = [
        ("seats/", {"seat": 5, "player_name": "Late", "buy_in": 100}),
        (f"seats/{seat_pk}/sit-out/", {}),
        (f"seats/{seat_pk}/back/", {"choice": "wait_bb"}),
        (f"seats/{seat_pk}/top-up/", {"amount": 1}),
        ("waiting/", {"player_name": "Wes"}),
        ("button-draw/", {}),
        (f"seats/{seat_pk}/leave/", {}),
    ]
    for path, body in writes:
        assert "Only a director or the dealer of table 1" in refused(
            other.post(base + path, body, format="json"), 403, "permission_denied"
        )
        refused(anonymous.post(base + path, body, format="json"), 403, "not_authenticated")
    assert ok(other.get(base))["id"] == table.pk
    assert ok(other.get("/api/cash-tables/"))[0]["id"] == table.pk
    refused(
        other.post("/api/cash-tables/", {**OPEN, "number": 30}, format="json"),
        403,
        "permission_denied",
    )
    refused(
        mine_client.post("/api/cash-tables/", {**OPEN, "number": 30}, format="json"),
        403,
        "permission_denied",
    )
    refused(anonymous.get(base), 403, "not_authenticated")
    # The table's own dealer makes every change the seats page lets them make.
    statuses = [
        mine_client.post(base + path, body, format="json").status_code for path, body in writes
    ]
    assert statuses == [201, 200, 200, 200, 201, 201, 200]
    assert not CashSeat.objects.filter(table=table, seat=2).exists()


# --- the page and the API read the same model -------------------------------------------------


def page_seats(html: str) -> list[tuple[int, str, str, str, str]]:
    """(seat, player, chips, state, owes) of every row of the seats page's table."""
    rows = []
    for number, cells in re.findall(r'<tr id="seat-(\d+)"[^>]*>(.*?)</tr>', html, re.S):
        texts = [
            re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)
        ]
        rows.append((int(number), texts[1], texts[2], texts[3], texts[4]))
    return rows


def page_posts(html: str) -> list[tuple[int, str, str, str]]:
    found = re.findall(
        r'<tr data-post-seat="(\d+)"><td>\d+</td><td>([^<]*)</td><td class="num">(\d*)</td>'
        r'<td class="num">(\d*)</td>',
        html,
    )
    return [(int(seat), name, live, dead) for seat, name, live, dead in found]


def test_the_seats_page_and_the_api_detail_agree_seat_for_seat() -> None:
    table = returner_table()  # seat 4 is back owing 2 live + 1 dead
    cash.cash_seat_sit_out(cash_seat=seat_of(table, 6))
    cash.cash_seat_take(table=table, seat=8, player_name="Newt", buy_in=80, choice="wait_bb")
    CashSeat.objects.filter(table=table, seat=5).update(chips=0)
    for name in ("Wes", "Xia"):
        cash.cash_waitlist_add(table=table, player_name=name)
    director = DirectorFactory.create()
    page, api = Client(), APIClient()
    page.force_login(director)
    api.force_login(director)
    html = page.get(reverse("cash-table", args=[table.pk])).content.decode()
    body = ok(api.get(f"/api/cash-tables/{table.pk}/"))

    from_api = [
        (
            row["seat"],
            row["player"] or "open",
            "" if row["chips"] is None else str(row["chips"]),
            row["state"],
            row["owes"],
        )
        for row in body["seats"]
    ]
    assert page_seats(html) == from_api
    states = {row["seat"]: row["status"] for row in body["seats"]}
    assert (states[4], states[5], states[6], states[8], states[9]) == (
        "returning",
        "no_chips",
        "sitting_out",
        "new",
        "open",
    )
    shown = [
        (p["seat"], p["name"], str(p["live"]), str(p["dead"] or ""))
        for p in body["next_hand"]["posts"]
        if p["live"] or p["dead"]
    ]
    assert page_posts(html) == shown
    assert (4, "P4", "2", "1") in shown
    waiting = [entry["player"] for entry in body["waiting_list"]]
    assert waiting == ["Wes", "Xia"]
    assert waiting_names(html) == waiting


def test_the_page_and_the_api_give_the_same_permission_answers() -> None:
    table = seated("1 2", button=1)
    mine = assign_dealer(table)
    other = DealerFactory.create()
    seat_pk = seat_of(table, 2).pk
    twins: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
        (
            reverse("cash-seat", args=[table.pk]),
            {"seat": 3, "player_name": "Cy", "buy_in": 100, "choice": "wait_bb"},
            "seats/",
            {"seat": 3, "player_name": "Cy", "buy_in": 100},
        ),
        (
            reverse("cash-seat-change", args=[table.pk, seat_pk]),
            {"action": "sit_out"},
            f"seats/{seat_pk}/sit-out/",
            {},
        ),
        (
            reverse("cash-waitlist-add", args=[table.pk]),
            {"player_name": "Wes"},
            "waiting/",
            {"player_name": "Wes"},
        ),
        (reverse("cash-button-draw", args=[table.pk]), {}, "button-draw/", {}),
    ]
    for user, allowed in ((other, False), (mine, True)):
        page, api = Client(), APIClient()
        page.force_login(user)
        api.force_login(user)
        for page_url, form, api_path, body in twins:
            page_status = page.post(page_url, form).status_code
            api_status = api.post(
                f"/api/cash-tables/{table.pk}/{api_path}", body, format="json"
            ).status_code
            assert (page_status == 403, api_status == 403) == (not allowed, not allowed), (
                user,
                page_url,
                page_status,
                api_status,
            )
    page, api = Client(), APIClient()
    page.force_login(other)
    api.force_login(other)
    assert page.post(reverse("cash-tables"), {}).status_code == 403
    assert api.post("/api/cash-tables/", OPEN, format="json").status_code == 403


def test_reading_a_table_costs_the_same_few_queries_however_many_sit() -> None:
    client = APIClient()
    client.force_login(DirectorFactory.create())
    small = seated("1 2", button=1)
    big = seated("1 2 3 4 5 6 7 8 9", button=1, number=2)
    for name in ("Wes", "Xia", "Yul"):
        cash.cash_waitlist_add(table=big, player_name=name)
    counts = []
    for table in (small, big):
        ok(client.get(f"/api/cash-tables/{table.pk}/"))  # the session is read once
        with CaptureQueriesContext(connection) as queries:
            ok(client.get(f"/api/cash-tables/{table.pk}/"))
        counts.append(len(queries))
    # at most the user, then the table, its seats, waiting list, last draw and latest hand
    assert counts[0] == counts[1] <= 7, counts
    with CaptureQueriesContext(connection) as queries:
        assert len(ok(client.get("/api/cash-tables/"))) == 2
    assert len(queries) <= 3


def test_the_schema_lists_every_cash_endpoint_and_documents_the_answer_field_for_field() -> None:
    client = APIClient()
    client.force_login(DirectorFactory.create())
    schema = client.get(reverse("api-schema"), HTTP_ACCEPT="application/vnd.oai.openapi+json")
    document = schema.json()
    cash_paths = {
        path
        for path, operations in document["paths"].items()
        if any("cash" in op.get("tags", ()) for op in operations.values())
    }
    assert cash_paths == {
        "/api/cash-tables/",
        "/api/cash-tables/{id}/",
        "/api/cash-tables/{id}/button-draw/",
        "/api/cash-tables/{id}/seats/",
        "/api/cash-tables/{id}/seats/{seat_pk}/sit-out/",
        "/api/cash-tables/{id}/seats/{seat_pk}/back/",
        "/api/cash-tables/{id}/seats/{seat_pk}/top-up/",
        "/api/cash-tables/{id}/seats/{seat_pk}/leave/",
        "/api/cash-tables/{id}/seats/{seat_pk}/move/",
        "/api/cash-tables/{id}/seats/{seat_pk}/correct/",
        "/api/cash-tables/{id}/seats/{seat_pk}/seat-change/",
        "/api/cash-tables/{id}/waiting/",
        "/api/cash-tables/{id}/waiting/{entry_pk}/remove/",
        "/api/tables/{id}/next-hand/",
    }
    schemas = document["components"]["schemas"]
    table = seated("1 2 3", button=1)
    cash.cash_waitlist_add(table=table, player_name="Wes")
    cash.cash_table_draw_button(table=table, rng=random.Random(3))
    body = ok(client.get(f"/api/cash-tables/{table.pk}/"))
    assert set(schemas["CashTableOutput"]["properties"]) == set(body)
    assert set(schemas["CashSeatOutput"]["properties"]) == set(body["seats"][0])
    assert set(schemas["WaitingEntryOutput"]["properties"]) == set(body["waiting_list"][0])
    assert set(schemas["CashButtonDrawOutput"]["properties"]) == set(body["button_draw"])
    assert set(schemas["NextHandOutput"]["properties"]) == set(body["next_hand"])
    summary = ok(client.get("/api/cash-tables/"))[0]
    assert set(schemas["CashTableSummaryOutput"]["properties"]) == set(summary)


JUNK: list[Any] = [
    "[1, 2]",
    "null",
    '{"seat": ',
    {},
    {"seat": "one", "player_name": None, "buy_in": -1, "choice": 5, "amount": "lots"},
    {"seat": 10**40, "player_name": "x" * 10_000, "buy_in": 10**40, "amount": 10**40},
    {"player_name": "A\x00B", "choice": "\ud800", "amount": 1.5},
    {"number": "\x00", "rule_profile": "\ud800", "small_blind": 10**40, "rule_overrides": [1]},
    {**OPEN, "number": 50, "rule_overrides": {"button_mode": {"a": [1]}, "\ud800": 1}},
    {**OPEN, "number": 51, "rule_overrides": {"fl_cap_bets": 10**40, "game": "\ud800"}},
    {**OPEN, "number": 52, "min_buy_in": 2**31, "max_buy_in": 2**31},
]


def test_no_input_makes_a_cash_endpoint_fail_with_a_server_error() -> None:
    table = seated("1 2", button=1)
    client = APIClient()
    client.force_login(DirectorFactory.create())
    seat_pk = seat_of(table, 1).pk
    entry = cash.cash_waitlist_add(table=table, player_name="Wes")
    base = f"/api/cash-tables/{table.pk}/"
    paths = [
        "/api/cash-tables/",
        base + "seats/",
        base + f"seats/{seat_pk}/sit-out/",
        base + f"seats/{seat_pk}/back/",
        base + f"seats/{seat_pk}/top-up/",
        base + "waiting/",
        base + f"waiting/{entry.pk}/remove/",
        base + "button-draw/",
        base + f"seats/{seat_pk}/leave/",
    ]
    for path in paths:
        for junk in JUNK:
            raw = junk if isinstance(junk, str) else json.dumps(junk)
            response = client.post(path, raw, content_type="application/json")
            assert response.status_code < 500, (path, junk, response.content[:300])
            if response.status_code >= 400:
                assert {"code", "detail"} <= set(response.json()), (path, junk)
