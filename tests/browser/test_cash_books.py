"""Issue 25 in Chromium: a floor supervisor's evening on the cash floor's books.

Two games: two tables deal "1/2 NL" (5% rake), one deals "2/5 NL" (2.5% rake and a jackpot drop).
A player joins the 1/2 list from her phone (390 x 844); "Call next" on the desk holds her seat,
her phone says so, and the seat is not offered to a walk-in. On the desk (1366 x 900): a player
who won up to 402 changes tables with the whole stack (refused before as a buy-in over the
maximum); a double click on "Top up" adds the chips once. On the tablet (1280 x 800) the dealer
deals a hand that ends on a wrong fold and reopens it: the stacks are as before its end. The
supervisor corrects a miscounted stack at the 2/5 table, then closes table 12:
its players move with their stacks, the rest wait at the top of the list carrying theirs. The
cage report then says every chip is accounted for, and `check_chips` agrees.

The set-up (games, tables, seats, the accounts) is made through the services; every step after
it through the pages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from dealer.cash import ledger
from dealer.cash.books import cash_chips_check
from dealer.cash.games import services as games
from dealer.cash.models import CashChips, CashSeat, WaitingListEntry
from dealer.cash.seats import services as cash
from tests.browser.conftest import screenshot, sign_in_director, wait_for_message
from tests.browser.test_cash_evening import POLL, join_from_phone
from tests.browser.test_tablet import tap
from tests.factories import DealerFactory, make
from tournaments.models import Table
from tournaments.services.tables import table_assign_dealer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RAKE = {"rake_percent": 5, "rake_cap": 5}


@pytest.fixture
def desk(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def second_game() -> Table:
    """2/5 NL at table 13: a decimal rake and a jackpot drop, its own list."""
    rules = {"rake_percent": 2.5, "rake_cap": 10, "promo_drop": 1, "promo_drop_min_pot": 50}
    game = games.cash_game_create(
        name="2/5 NL", small_blind=2, big_blind=5, rule_overrides=rules, hold_seconds=300
    )
    table = cash.cash_table_create(
        number=13,
        name="2/5 NL",
        rule_profile="casino_cash",
        rule_overrides=rules,
        small_blind=2,
        big_blind=5,
        min_buy_in=100,
        max_buy_in=500,
        seat_count=6,
    )
    games.cash_game_table_attach(game=game, table=table)
    for seat, name in ((1, "Gus"), (2, "Hana")):
        cash.cash_seat_take(table=table, seat=seat, player_name=name, buy_in=500)
    return Table.objects.get(pk=table.pk)


def floor() -> tuple[Table, Table]:
    game = games.cash_game_create(
        name="1/2 NL", small_blind=1, big_blind=2, rule_overrides=RAKE, hold_seconds=300
    )
    made = []
    for number, players in ((11, ("Ana", "Ben", "Chloe")), (12, ("Dmitri", "Eva"))):
        table = cash.cash_table_create(
            number=number,
            name="1/2 NL",
            rule_profile="casino_cash",
            rule_overrides=RAKE,
            small_blind=1,
            big_blind=2,
            min_buy_in=40,
            max_buy_in=200,
            seat_count=6,
        )
        games.cash_game_table_attach(game=game, table=table)
        for seat, name in enumerate(players, start=1):
            cash.cash_seat_take(
                table=table, seat=seat, player_name=name, buy_in=200, choice="post_now"
            )
        Table.objects.filter(pk=table.pk).update(button_seat=1)
        made.append(Table.objects.get(pk=table.pk))
    return made[0], made[1]


def test_a_floor_supervisors_evening_keeps_the_books(
    desk: Any, tablet: Any, phone: Any, live_server: Any
) -> None:
    eleven, twelve = floor()
    thirteen = second_game()
    ana = CashSeat.objects.get(table=eleven, seat=1)
    ledger.cash_chips_record(seat=ana, kind="correction", delta=202, note="won (set-up)")
    sign_in_director(desk, live_server)

    # A table change with a stack of 402, above the maximum buy-in of 200.
    desk.goto(f"{live_server.url}/cash/{eleven.pk}/")
    desk.get_by_test_id("move-1").locator("select").select_option(f"{twelve.pk}:4")
    screenshot(desk, "cash-seats-move", full_page=False)
    desk.get_by_test_id("move-1").get_by_role("button", name="Move with 402").click()
    wait_for_message(desk, "Ana moved to Table 12, seat 4, with 402.")
    assert CashSeat.objects.get(table=twelve, seat=4).chips == 402

    # Quin joins the 1/2 list from her phone; "Call next" on the desk calls her and holds the
    # seat: her phone says so, and the seat is not offered to a walk-in.
    game = twelve.cash_game
    assert game is not None
    join_from_phone(phone, live_server.url, "Quin")
    desk.goto(f"{live_server.url}/cash/games/{game.pk}/")
    desk.get_by_role("button", name="Call next").click()
    wait_for_message(desk, "Quin: table")
    held = WaitingListEntry.objects.select_related("call_table").get(player__name="Quin")
    assert held.call_table is not None
    phone.wait_for_selector("[data-call]", timeout=POLL)
    expect(phone.locator("[data-call]")).to_contain_text(
        f"Your seat is ready at table {held.call_table.number}, seat {held.call_seat}"
    )
    screenshot(phone, "phone-seat-held", full_page=False)
    desk.goto(f"{live_server.url}/cash/{held.call_table_id}/")
    expect(desk.locator(f"#seat-{held.call_seat}")).to_contain_text("Held for Quin")
    options = desk.locator("#id_seat option").all_inner_texts()
    assert str(held.call_seat) not in options

    # A double click on "Top up" adds the chips once.
    desk.goto(f"{live_server.url}/cash/{twelve.pk}/")
    eva = CashSeat.objects.get(table=twelve, player__name="Eva")
    ledger.cash_chips_record(seat=eva, kind="time", delta=-30)  # room for a top-up of 30
    row = desk.locator(f"#seat-{eva.seat}")
    row.locator("input[name=amount]").first.fill("30")
    row.get_by_role("button", name="Top up").dblclick()
    # Wait for the answer page itself: "networkidle" may hold already, before the post is sent.
    wait_for_message(desk, "Eva has 200 now.")
    desk.wait_for_load_state("networkidle")
    assert CashSeat.objects.get(pk=eva.pk).chips == 200
    assert CashChips.objects.filter(kind="top_up", sitting=eva.pk).count() == 1

    # The dealer deals a hand at table 11 that ends on a wrong fold, and reopens it.
    dealer = make(DealerFactory, username="dana")
    dealer.set_password("pw")
    dealer.save()
    table_assign_dealer(table=eleven, dealer_id=dealer.pk)
    before = {row.seat: row.chips for row in CashSeat.objects.filter(table=eleven)}
    url = f"/deal/table/{eleven.pk}/"
    tablet.goto(f"{live_server.url}/login/?next={url}")
    tablet.fill("input[name=username]", "dana")
    tablet.fill("input[name=password]", "pw")
    tablet.press("input[name=password]", "Enter")
    tablet.wait_for_url(re.compile(re.escape(url) + "$"))
    tap(tablet, "Start next hand")
    tap(tablet, "Fold")
    ended = {row.seat: row.chips for row in CashSeat.objects.filter(table=eleven)}
    assert ended != before
    tablet.get_by_text("Reopen the last hand").click()
    tablet.get_by_text("Wrong action").first.click()
    tablet.get_by_role("button", name=re.compile("^Reopen hand")).click()
    tablet.get_by_test_id("reopened").wait_for()
    assert {row.seat: row.chips for row in CashSeat.objects.filter(table=eleven)} == before
    screenshot(tablet, "tablet-cash-reopened", full_page=False)
    assert cash_chips_check() == []

    # The supervisor corrects a stack miscounted at table 13 (the other game): the ledger keeps
    # who and why.
    desk.goto(f"{live_server.url}/cash/{thirteen.pk}/")
    correct = desk.get_by_test_id("correct-2")
    correct.locator("summary").click()
    correct.locator("input[name=chips]").fill("480")
    correct.locator("input[name=reason]").fill("a rack of 20 was counted twice")
    screenshot(desk, "cash-seat-correct", full_page=False)
    correct.get_by_role("button", name="Set the stack").click()
    wait_for_message(desk, "Hana has 480 now (corrected: a rack of 20 was counted twice).")
    row = CashChips.objects.get(kind="correction", note="a rack of 20 was counted twice")
    assert (row.delta, row.actor.is_staff if row.actor else None) == (-20, True)

    # The supervisor closes table 12: its players move with their stacks.
    desk.goto(f"{live_server.url}/cash/games/{twelve.cash_game_id}/")
    desk.get_by_test_id("close-12").get_by_role("button").click()
    wait_for_message(desk, "Table 12 is closed.")
    screenshot(desk, "floor-games-close", full_page=False)
    assert not CashSeat.objects.filter(table=twelve).exists()
    # Table 11 had seats 4 to 6 open (seat 1 is held for Quin): Dmitri, Eva and Ana sit there.
    moved = {row.player.name: row.chips for row in CashSeat.objects.filter(table=eleven)}
    assert moved["Ana"] == 402
    assert {"Dmitri", "Eva"} <= set(moved)
    assert not CashChips.objects.filter(kind="cash_out").exists()

    desk.goto(f"{live_server.url}/cash/cage/")
    expect(desk.get_by_test_id("cage-float-balanced")).to_be_visible()
    out = StringIO()
    call_command("check_chips", "--cash", stdout=out)
    assert "balances" in out.getvalue()
    assert get_user_model().objects.filter(username="dana").exists()
