"""The card ledger on the tablet in Chromium: an exposed hole card named with the procedure
sheet's card picker becomes the flop's burn (S2), the felt says so, and the picker will not deal
it; the cards of a premature flop are offered again when the flop is redealt (issue 24)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from dealer.models import Hand, ProcedureLog
from dealer.services import hand_run_procedure
from tests.browser.conftest import screenshot
from tests.browser.test_rules_editor import wait_for_htmx
from tests.browser.test_tablet import deal_table, pick, sign_in, state, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_s2_exposed_card_named_on_the_sheet_is_the_burn_and_cannot_be_picked(
    tablet: Any, live_server: Any
) -> None:
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    tap(tablet, "Start next hand")
    seat = state(table)["players"][3]["seat"]

    tablet.get_by_role("button", name=re.compile("Procedures")).click()
    tablet.wait_for_selector("text=Procedures: what happened?")
    wait_for_htmx(tablet, "#sheet [data-trigger]")
    tablet.get_by_role("button", name="One other hole card exposed by the dealer").click()
    wait_for_htmx(tablet, "#sheet form.proc__ask")
    tablet.locator("#sheet").get_by_text(re.compile(rf"^{seat}\b")).first.click()
    # The sheet is drawn again for the player picked: pick the card once it is there.
    tablet.wait_for_selector(f"text=seat {seat} may not keep the exposed card")
    wait_for_htmx(tablet, "#sheet form.proc__ask")
    cards = tablet.get_by_test_id("procedure-cards")
    assert cards.locator("input[type=text]").count() == 0  # no card is typed
    with tablet.expect_response(lambda response: "procedures" in response.url):
        cards.get_by_role("checkbox", name="7 of diamonds", exact=True).check()
    tablet.wait_for_selector("text=burn card for the flop")
    wait_for_htmx(tablet, "#sheet form.proc__ask")
    # The sheet drawn again keeps the card named.
    assert cards.get_by_role("checkbox", name="7 of diamonds", exact=True).is_checked()
    screenshot(tablet, "tablet-procedure-card", full_page=False)
    tap(tablet, re.compile("^Done: log it"), within="#sheet")
    assert ProcedureLog.objects.get(table=table).trigger == "other_hole_card_exposed"
    assert state(table)["cards"]["next_burn"] == ["7d"]
    ledger = tablet.get_by_test_id("card-ledger")
    assert "Next burn: 7d" in ledger.inner_text()

    while state(table)["phase"] == "betting":  # everyone calls, the big blind checks
        tap(tablet, re.compile(r"^(Call|Check)"))
    tablet.wait_for_selector("text=Deal the flop")
    assert tablet.get_by_role("checkbox", name="7 of diamonds", exact=True).is_disabled()
    pick(tablet, "King of hearts", "9 of clubs", "4 of diamonds")
    tap(tablet, re.compile(r"^Enter the flop"))
    assert state(table)["cards"]["burn_cards"] == ["7d"]
    assert "Burned 1" in tablet.get_by_test_id("card-ledger").inner_text()
    screenshot(tablet, "tablet-card-ledger", full_page=False)


def test_s2_premature_flop_cards_are_offered_again_when_the_flop_is_redealt(
    tablet: Any, live_server: Any
) -> None:
    """Issue 24: the procedure sets the premature flop aside; when the flop is due, its cards
    are back in the stub (S2, the sheet's step 3): the picker offers them and the flop takes
    them."""
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    tap(tablet, "Start next hand")
    hand = Hand.objects.get(table=table)
    hand_run_procedure(
        hand=hand,
        trigger="premature_flop",
        details={"cards": "Ah Kc 7d"},
        client_id="premature",
        version=hand.version,
    )
    tablet.reload()
    while state(table)["phase"] == "betting":  # everyone calls, the big blind checks
        tap(tablet, re.compile(r"^(Call|Check)"))
    tablet.wait_for_selector("text=Deal the flop")
    for name in ("Ace of hearts", "King of clubs", "7 of diamonds"):
        assert tablet.get_by_role("checkbox", name=name, exact=True).is_enabled()
    pick(tablet, "Ace of hearts", "King of clubs", "7 of diamonds")
    tap(tablet, re.compile(r"^Enter the flop"))
    assert state(table)["board"] == ["Ah", "Kc", "7d"]


def test_premature_flop_named_with_the_sheets_picker_at_1024x768(
    browser: Any, live_server: Any
) -> None:
    """Issue 24: the procedure's cards are picked, not typed, at tablet size (1024 x 768): each
    card a finger wide inside the screen, at most as many as the procedure names (3 for a
    flop); the ledger then keeps them out of play until the flop, when the picker offers them."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    table, _ = deal_table()
    sign_in(page, live_server, table)
    tap(page, "Start next hand")
    page.get_by_role("button", name=re.compile("Procedures")).click()
    wait_for_htmx(page, "#sheet [data-trigger]")
    page.get_by_role("button", name="Flop dealt before the preflop betting was over").click()
    wait_for_htmx(page, "#sheet form.proc__ask")
    cards = page.get_by_test_id("procedure-cards")
    boxes = [box for box in (pick.bounding_box() for pick in cards.locator(".pick").all()) if box]
    assert len(boxes) == 52
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= 1024 for box in boxes)
    assert min(box["width"] for box in boxes) >= 34
    assert min(box["height"] for box in boxes) >= 40
    for name in ("Ace of hearts", "King of clubs", "7 of diamonds", "2 of spades"):
        with page.expect_response(lambda response: "procedures" in response.url):
            cards.get_by_role("checkbox", name=name, exact=True).check()
        wait_for_htmx(page, "#sheet form.proc__ask")
    # Three cards for a flop: the fourth pick replaced the first.
    checked = cards.locator("input:checked")
    assert sorted(checked.evaluate_all("els => els.map(e => e.value)")) == ["2s", "7d", "Kc"]
    screenshot(page, "tablet-procedure-picker", full_page=False)
    tap(page, re.compile("^Done: log it"), within="#sheet")
    assert sorted(state(table)["cards"]["out_of_play"]) == ["2s", "7d", "Kc"]
    while state(table)["phase"] == "betting":
        tap(page, re.compile(r"^(Call|Check)"))
    page.wait_for_selector("text=Deal the flop")
    for name in ("King of clubs", "7 of diamonds", "2 of spades"):
        assert page.get_by_role("checkbox", name=name, exact=True).is_enabled()
    context.close()
