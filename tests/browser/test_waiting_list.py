"""A player's waiting list on a phone (390x844): find the game on the live games page, join
with a name, see the place, then see the call when the floor calls them; and the floor's games
page with the list and a held seat."""

from __future__ import annotations

import re
from typing import Any

import pytest

from dealer.cash.games import services as games
from dealer.cash.games import waitlist
from dealer.cash.models import CashGame, WaitingListEntry
from dealer.cash.seats import services as cash
from tests.browser.conftest import screenshot, sign_in_director
from tests.dealer.test_cash_services import cash_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def evening() -> CashGame:
    """1/2 NL at tables 4 (one seat open) and 5 (a must-move table feeding 4), two waiting;
    2/5 NL at table 8."""
    game = games.cash_game_create(name="1/2 NL", small_blind=1, big_blind=2, hold_seconds=240)
    main, feeder = cash_table(number=4), cash_table(number=5)
    for table in (main, feeder):
        games.cash_game_table_attach(game=game, table=table)
    games.cash_table_must_move_set(table=feeder, main=main)
    names = ["Ana", "Ben", "Chloe", "Dmitri", "Eva", "Farid", "Gus", "Hana"]
    for seat, name in enumerate(names, start=1):
        cash.cash_seat_take(table=main, seat=seat, player_name=name, buy_in=100)
    for seat, name in enumerate(["Ivo", "Jun", "Kai"], start=1):
        cash.cash_seat_take(table=feeder, seat=seat, player_name=name, buy_in=100)
    for name in ("Lena", "Marco"):
        waitlist.game_waitlist_join(game=game, player_name=name)
    big = games.cash_game_create(name="2/5 NL", small_blind=2, big_blind=5)
    games.cash_game_table_attach(
        game=big, table=cash_table(number=8), min_buy_in=200, max_buy_in=1000
    )
    return game


def test_a_player_joins_from_the_phone_sees_the_place_then_the_call(
    phone: Any, live_server: Any
) -> None:
    game = evening()
    phone.goto(f"{live_server.url}/games/")
    card = phone.locator(f"[data-game='{game.name}']")
    assert card.locator("[data-waiting]").inner_text() == "2"
    card.get_by_role("link", name="Join the list").click()
    phone.fill("input[name=player_name]", "Nora Quinn")
    phone.get_by_role("button", name="Join the list").click()
    phone.wait_for_url(re.compile(r"/lists/[A-Z0-9]{6}/$"))
    assert phone.locator("[data-place]").inner_text() == "3"
    code = phone.locator("[data-code]").inner_text()
    assert WaitingListEntry.objects.get(code=code).player.name == "Nora Quinn"

    # Lena and Marco are called ahead of Nora: Lena to seat 9 at table 4... after the must-move
    # player; the floor marks them, then Nora is called to the next seat.
    for name in ("Lena", "Marco"):
        WaitingListEntry.objects.filter(player__name=name).update(status="removed")
    waitlist.game_waitlist_call_next(game=game)  # table 4 seat 9 goes to Ivo (must-move) first
    ivo = WaitingListEntry.objects.get(player__name="Ivo", status="called")
    games.game_waitlist_seat(entry=ivo)  # Ivo moves: his seat at table 5 goes to Nora
    phone.wait_for_selector("[data-call]", timeout=20_000)
    call = phone.locator("[data-call]").inner_text()
    assert call.startswith("Your seat is ready at table 5, seat 1")
    assert "held until" in call
    screenshot(phone, "phone-waiting-list")


def test_the_floor_sees_its_games_lists_and_held_seats(page: Any, live_server: Any) -> None:
    game = evening()
    waitlist.game_waitlist_join(game=game, player_name="Nora Quinn")
    sign_in_director(page, live_server)
    page.goto(f"{live_server.url}/cash/games/")
    assert "1/2 NL" in page.locator("#games").inner_text()
    page.goto(f"{live_server.url}/cash/games/{game.pk}/")
    page.get_by_role("button", name="Call next").click()
    page.wait_for_selector("text=Ivo: table 4, seat 9.")
    assert "Table 4, seat 9, held until" in page.locator("[data-entry='Ivo']").inner_text()
    screenshot(page, "floor-games")
