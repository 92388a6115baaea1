"""A cash table in Chromium: a player comes back owing blinds, the dealer sees what they post
before the deal, and the hand starts with exactly those posts (RULES.md 4, W14)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from dealer.cash.models import CashSeat
from dealer.cash.seats import services as cash
from dealer.models import Hand
from dealer.services import hand_start
from tests.browser.conftest import screenshot
from tests.dealer.test_cash_services import cash_table, play_out
from tests.factories import DealerFactory
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana", "Ben", "Chloe", "Dmitri", "Eva", "Farid"]


def cash_game_with_a_returner() -> Table:
    """Six at a 1/2 table, button 1; Dmitri (seat 4) sits out while both blinds pass him."""
    table = cash_table(number=7, name="1/2 NL")  # 1/2 no limit, buy-in 40 to 200, casino_cash
    for seat, name in enumerate(NAMES, start=1):
        cash.cash_seat_take(table=table, seat=seat, player_name=name, buy_in=200)
    Table.objects.filter(pk=table.pk).update(
        button_seat=1, dealer=DealerFactory.create(username="cara")
    )
    play_out(hand_start(table=table))  # button 1, blinds 2 and 3
    cash.cash_seat_sit_out(cash_seat=CashSeat.objects.get(table=table, seat=4))
    for _ in range(4):  # the big blind, then the small blind pass seat 4; the button too
        play_out(hand_start(table=table))
    return table


def test_a_player_back_after_missing_both_blinds_posts_big_live_and_small_dead(
    tablet: Any,
    live_server: Any,
) -> None:
    table = cash_game_with_a_returner()
    seats_url = f"/cash/{table.pk}/"
    tablet.goto(f"{live_server.url}/login/?next={seats_url}")
    tablet.fill("input[name=username]", "cara")
    tablet.fill("input[name=password]", "pw")
    tablet.press("input[name=password]", "Enter")
    tablet.wait_for_url(re.compile(re.escape(seats_url) + "$"))

    # The seats page: Dmitri sits out and owes the big blind live and the small blind dead.
    row = tablet.locator("#seat-4")
    assert "Sitting out" in row.inner_text()
    assert "2 live + 1 dead" in row.inner_text()
    row.get_by_role("button", name="Back: post now").click()
    tablet.wait_for_selector("text=Dmitri is back.")
    screenshot(tablet, "cash-seats")

    # The tablet, before the deal: who posts what, with the reason.
    tablet.goto(f"{live_server.url}/deal/table/{table.pk}/")
    plan = tablet.locator("#cash-plan")
    post = plan.locator("[data-post-seat='4']")
    assert post.inner_text().split() == [
        "4",
        "Dmitri",
        "2",
        "1",
        "missed",
        "blinds:",
        "2",
        "live",
        "+",
        "1",
        "dead",
    ]
    assert plan.locator("[data-post-seat='2']").inner_text().split()[2] == "1"  # small blind
    assert plan.locator("[data-post-seat='3']").inner_text().split()[2] == "2"  # big blind
    screenshot(tablet, "tablet-cash-plan", full_page=False)

    before = tablet.get_attribute("#tablet", "data-etag")
    tablet.get_by_role("button", name="Start next hand").click()
    tablet.wait_for_function(
        "old => document.querySelector('#tablet').dataset.etag !== old", arg=before
    )
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None
    assert {
        row["seat"]: (row["blind"], row["dead"])
        for row in hand.seats
        if row["blind"] or row["dead"]
    } == {
        2: (1, 0),
        3: (2, 0),
        4: (2, 1),
    }
    assert hand.state["pot_total"] == 6
    # Seat 4 acts first, left of the big blind, and its live big blind lets it check.
    assert hand.state["actor_seat"] == 4
    tablet.locator("#tablet").get_by_role("button", name="Check").wait_for()
