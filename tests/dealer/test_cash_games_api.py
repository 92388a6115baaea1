"""Games and lists over the REST API and the pages: an evening's list from the desk and the
phones, with status and error codes, who may call what, and the phone page's ETag."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from dealer.cash.games import services as games
from dealer.cash.games import waitlist
from dealer.cash.models import CashSeat, WaitingListEntry
from dealer.cash.seats import services as cash
from dealer.models import Hand
from dealer.services import hand_start
from tests.dealer.test_cash_games import game_table, one_two
from tests.factories import DealerFactory, make
from tests.pages import once
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def post(client: Any, url: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(url, body or {}, format="json")


def test_the_desk_runs_a_game_through_the_api(director: APIClient) -> None:
    made = post(director, "/api/cash-games/", {"name": "1/2 NL", "small_blind": 1, "big_blind": 2})
    assert made.status_code == 201
    pk = made.json()["id"]
    table = cash.cash_table_create(
        number=4,
        small_blind=1,
        big_blind=2,
        min_buy_in=40,
        max_buy_in=200,
        seat_count=2,
        game="holdem",
        structure="no_limit",
        rule_profile="casino_cash",
    )
    attached = post(director, f"/api/cash-games/{pk}/tables/", {"table": table.pk})
    assert attached.status_code == 201
    assert attached.json()["tables"][0]["open_seats"] == [1, 2]
    for name in ("Ann", "Bob"):
        assert (
            post(director, f"/api/cash-games/{pk}/list/", {"player_name": name}).status_code == 201
        )
    again = post(director, f"/api/cash-games/{pk}/list/", {"player_name": "ann"})
    assert (again.status_code, again.json()["code"]) == (409, "already_waiting")

    called = post(director, f"/api/cash-games/{pk}/call-next/")
    assert called.status_code == 200
    ann = called.json()["entries"][0]
    assert (ann["player"], ann["status"], ann["call_table"], ann["call_seat"]) == (
        "Ann",
        "called",
        4,
        1,
    )
    bad = post(director, f"/api/cash-games/{pk}/list/{ann['id']}/seat/", {"buy_in": 500})
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_buy_in")
    seated = post(director, f"/api/cash-games/{pk}/list/{ann['id']}/seat/", {"buy_in": 100})
    assert seated.status_code == 200
    assert CashSeat.objects.get(table=table, seat=1).player.name == "Ann"
    twice = post(director, f"/api/cash-games/{pk}/list/{ann['id']}/no-show/")
    assert (twice.status_code, twice.json()["code"]) == (409, "not_called")

    bob = post(director, f"/api/cash-games/{pk}/call-next/").json()["entries"][0]
    no_show = post(director, f"/api/cash-games/{pk}/list/{bob['id']}/no-show/")
    assert no_show.json()["entries"] == []
    empty = post(director, f"/api/cash-games/{pk}/call-next/")
    assert (empty.status_code, empty.json()["code"]) == (409, "list_empty")

    stakes = post(director, f"/api/cash-games/{pk}/stakes/", {"small_blind": 2, "big_blind": 5})
    assert stakes.status_code == 200
    assert (stakes.json()["small_blind"], stakes.json()["tables"][0]["big_blind"]) == (2, 5)
    closing = post(director, f"/api/cash-games/{pk}/close/")
    assert (closing.status_code, closing.json()["code"]) == (409, "game_has_players")
    broken = post(director, f"/api/cash-games/{pk}/break/", {})
    assert broken.status_code == 200
    assert [(e["place"], e["player"]) for e in broken.json()["entries"]] == [(1, "Ann")]
    # Ann waits at the top of the list with her stack: the game closes once she has it back.
    holding = post(director, f"/api/cash-games/{pk}/close/")
    assert (holding.status_code, holding.json()["code"]) == (409, "list_holds_stacks")
    ann = broken.json()["entries"][0]["id"]
    assert post(director, f"/api/cash-games/{pk}/list/{ann}/remove/").status_code == 200
    closed = post(director, f"/api/cash-games/{pk}/close/")
    assert (closed.status_code, closed.json()["is_open"]) == (200, False)
    assert post(director, f"/api/cash-games/{pk}/open/").json()["is_open"] is True


def test_a_stakes_change_during_a_hand_is_refused_409_hand_in_progress(
    director: APIClient,
) -> None:
    game = one_two()
    table = game_table(game, 1, players=3)
    Table.objects.filter(pk=table.pk).update(button_seat=1)
    hand_start(table=Table.objects.get(pk=table.pk))
    for url in (f"/api/cash-games/{game.pk}/stakes/", f"/api/cash-tables/{table.pk}/stakes/"):
        refused = post(director, url, {"small_blind": 2, "big_blind": 5})
        assert (refused.status_code, refused.json()["code"]) == (409, "hand_in_progress")
    Hand.objects.filter(table=table).update(status=Hand.Status.COMPLETE)
    done = post(
        director, f"/api/cash-tables/{table.pk}/stakes/", {"small_blind": 2, "big_blind": 5}
    )
    assert (done.status_code, done.json()["big_blind"]) == (200, 5)


def test_must_move_is_set_through_the_api_and_refused_across_games(director: APIClient) -> None:
    game, other = one_two(), one_two(name="2/5 NL", small_blind=2, big_blind=5)
    main, feeder = game_table(game, 1, players=0), game_table(game, 2, players=0)
    elsewhere = game_table(other, 3, players=0)
    ok = post(director, f"/api/cash-tables/{feeder.pk}/must-move/", {"main": main.pk})
    assert ok.status_code == 200
    assert Table.objects.get(pk=feeder.pk).must_move_to_id == main.pk
    refused = post(director, f"/api/cash-tables/{elsewhere.pk}/must-move/", {"main": main.pk})
    assert (refused.status_code, refused.json()["code"]) == (400, "not_same_game")


def test_dealers_read_the_games_but_only_directors_change_them() -> None:
    game = one_two()
    dealer = APIClient()
    dealer.force_login(make(DealerFactory))
    assert dealer.get("/api/cash-games/").status_code == 200
    assert post(dealer, f"/api/cash-games/{game.pk}/call-next/").status_code == 403
    assert APIClient().get("/api/cash-games/").status_code in (401, 403)


def test_a_phone_joins_with_a_name_and_checks_its_place_by_code() -> None:
    game = one_two()
    game_table(game, 4, players=8)
    phone = APIClient()
    joined = post(phone, f"/api/games/{game.pk}/list/", {"player_name": "Ann"})
    assert joined.status_code == 201
    body = joined.json()
    assert (body["place"], body["status"], len(body["code"])) == (1, "waiting", 6)
    second = post(phone, f"/api/games/{game.pk}/list/", {"player_name": "Bob"}).json()
    assert second["place"] == 2

    live = phone.get("/api/games/").json()
    assert [(g["name"], g["waiting"], g["open_seats"]) for g in live] == [("1/2 NL", 2, 1)]
    assert "Ann" not in str(live)

    games_entry = WaitingListEntry.objects.get(code=body["code"])
    waitlist.game_waitlist_call_next(game=game)
    place = phone.get(f"/api/lists/{body['code'].lower()}/").json()
    assert (place["status"], place["call_table"], place["call_seat"]) == ("called", 4, 9)
    assert phone.get(f"/api/lists/{second['code']}/").json()["place"] == 1
    assert phone.get("/api/lists/NOPE99/").status_code == 404
    games.game_waitlist_seat(entry=games_entry, buy_in=100)
    for carrying in games.cash_game_break(game=game):  # they take their stacks to the cage
        waitlist.game_waitlist_remove(entry=carrying)
    games.cash_game_close(game=game)
    closed = post(phone, f"/api/games/{game.pk}/list/", {"player_name": "Cy"})
    assert (closed.status_code, closed.json()["code"]) == (409, "game_closed")


def test_the_phone_page_shows_the_place_then_the_call_and_polls_with_an_etag() -> None:
    game = one_two()
    game_table(game, 4, players=8)
    phone = Client()
    page = phone.post(f"/games/{game.pk}/join/", {"player_name": "Ann"})
    assert page.status_code == 302
    code = WaitingListEntry.objects.get(player__name="Ann").code
    assert page["Location"] == f"/lists/{code}/"
    shown = phone.get(page["Location"]).content.decode()
    assert code in shown
    assert "Your place on the list" in shown

    state = phone.get(f"/lists/{code}/state/")
    etag = state["ETag"]
    assert phone.get(f"/lists/{code}/state/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    waitlist.game_waitlist_call_next(game=game)
    called = phone.get(f"/lists/{code}/state/", HTTP_IF_NONE_MATCH=etag)
    assert called.status_code == 200
    assert "Your seat is ready at table 4, seat 9" in called.content.decode()
    # A name already on the list is taken as a new one (issue 23: a refusal told strangers
    # who waits), with a code of its own.
    again = phone.post(f"/games/{game.pk}/join/", {"player_name": "ann"})
    assert again.status_code == 302
    assert again["Location"] != f"/lists/{code}/"


def test_the_desk_pages_change_a_game_through_the_same_services(director: APIClient) -> None:
    made = director.post(
        "/cash/games/",
        {
            "name": "1/2 NL",
            "game": "holdem",
            "structure": "no_limit",
            "small_blind": 1,
            "big_blind": 2,
            "hold_seconds": 180,
        },
    )
    assert made.status_code == 302
    game = games.CashGame.objects.get(name="1/2 NL")
    table = game_table(game, 4, players=8)
    director.post(f"/cash/games/{game.pk}/list/", once(player_name="Ann"))
    director.post(f"/cash/games/{game.pk}/call-next/", once())
    entry = WaitingListEntry.objects.get(player__name="Ann")
    assert entry.status == "called"
    page = director.get(f"/cash/games/{game.pk}/").content.decode()
    assert "Table 4, seat 9, held until" in page
    director.post(
        f"/cash/games/{game.pk}/list/{entry.pk}/",
        once(action="seat", buy_in=100, choice="wait_bb"),
    )
    assert CashSeat.objects.get(table=table, seat=9).player.name == "Ann"
    director.post(f"/cash/{table.pk}/stakes/", once(small_blind=2, big_blind=5))
    assert Table.objects.get(pk=table.pk).big_blind == 5
    director.post(f"/cash/games/{game.pk}/break/", once(to_game=""))
    assert not CashSeat.objects.filter(table=table).exists()
    assert director.get("/games/").status_code == 200


def test_the_schema_lists_every_games_endpoint(director: APIClient) -> None:
    schema = director.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = {
        path
        for path, operations in schema.json()["paths"].items()
        if any("cash games" in op.get("tags", ()) for op in operations.values())
    }
    assert {
        "/api/cash-games/",
        "/api/cash-games/{id}/call-next/",
        "/api/cash-games/{id}/list/{entry_pk}/no-show/",
        "/api/cash-tables/{id}/stakes/",
        "/api/games/",
        "/api/games/{id}/list/",
        "/api/lists/{code}/",
    } <= paths


def test_one_device_joining_too_many_names_is_refused_429_on_the_page_and_the_api() -> None:
    """The public lists take names without an account: a rate per client (LIST_JOIN_RATE, 60
    an hour) stops a script filling them; other devices still join, and nothing is written."""
    game = one_two()
    game_table(game, 4, players=9)
    phone = APIClient(REMOTE_ADDR="10.9.0.1")
    answers = [
        post(phone, f"/api/games/{game.pk}/list/", {"player_name": f"Bot {n}"}) for n in range(60)
    ]
    assert [answer.status_code for answer in answers] == [201] * 60
    refused = post(phone, f"/api/games/{game.pk}/list/", {"player_name": "Bot 60"})
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert refused.json()["detail"].startswith("Too many names joined the lists from this device.")
    assert int(refused["Retry-After"]) > 0
    # The page is the same door: this device is over its rate there too.
    page = Client(REMOTE_ADDR="10.9.0.1").post(f"/games/{game.pk}/join/", {"player_name": "Cy"})
    assert page.status_code == 429
    assert "Too many names joined the lists from this device." in page.content.decode()
    assert int(page["Retry-After"]) > 0
    assert WaitingListEntry.objects.filter(game=game).count() == 60
    # Another phone joins.
    other = post(
        APIClient(REMOTE_ADDR="10.9.0.2"), f"/api/games/{game.pk}/list/", {"player_name": "Dee"}
    )
    assert other.status_code == 201
    assert WaitingListEntry.objects.filter(game=game).count() == 61


def test_a_player_checks_a_place_by_typing_the_code_and_a_wrong_code_says_so() -> None:
    game = one_two()
    game_table(game, 4, players=9)
    phone = Client()
    phone.post(f"/games/{game.pk}/join/", {"player_name": "Ann"})
    code = WaitingListEntry.objects.get(player__name="Ann").code
    assert 'action="/lists/"' in phone.get("/games/").content.decode()  # the code form
    typed = phone.get("/lists/", {"code": f" {code.lower()} "})
    assert (typed.status_code, typed["Location"]) == (302, f"/lists/{code}/")
    wrong = phone.get("/lists/ZZZZ99/")
    assert wrong.status_code == 404
    text = wrong.content.decode()
    assert "No place on a list has the code ZZZZ99." in text
    assert 'name="code"' in text  # the form again, to type it once more
    assert phone.get("/lists/", {"code": "<script>"}).status_code == 400
    assert phone.get("/lists/").status_code == 200
