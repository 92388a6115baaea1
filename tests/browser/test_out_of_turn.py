"""The tablet's procedure sheet for an action out of turn (T 53): the dealer picks the seat, what
it did and the amount, reads the remedy and confirms; the seat then shows the action waiting,
and it stands when the skipped player calls."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from dealer.models import Hand, ProcedureLog
from tests.browser.test_tablet import deal_table, sign_in, state, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@contextmanager
def asked_again(page: Any) -> Iterator[None]:
    """Wait until the sheet has been asked again and redrawn after what the block does."""
    with page.expect_response(lambda response: "/procedures/?" in response.url):
        yield
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def test_an_action_out_of_turn_through_the_procedure_sheet(tablet: Any, live_server: Any) -> None:
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    tap(tablet, "Start next hand")
    hand = Hand.objects.get(table=table)
    seats = [p["seat"] for p in state(table)["players"]]
    actor = seats.index(state(table)["actor_seat"])
    skipped, oot = seats[actor], seats[(actor + 1) % len(seats)]

    tablet.get_by_role("button", name=re.compile("Procedures")).click()
    tablet.wait_for_selector("text=Procedures: what happened?")
    tablet.get_by_role("button", name="A player acted out of turn").click()
    tablet.wait_for_selector("text=What did the player do out of turn?")
    # Each answer redraws the sheet (the form asks again on change): wait for each one.
    with asked_again(tablet):
        tablet.locator(f"#sheet input[name=seat][value='{oot}']").check()
    with asked_again(tablet):
        tablet.locator("#sheet input[name=action][value='bet_raise']").check()
    with asked_again(tablet):
        tablet.get_by_test_id("procedure-amount").fill("600")
        tablet.get_by_test_id("procedure-amount").press("Tab")
    tablet.wait_for_selector("text=Confirm: back the action up")
    remedy = tablet.get_by_test_id("remedy").inner_text()
    assert f"The action goes back to seat {skipped}" in remedy
    assert "raise to 600" in remedy
    tap(tablet, "Confirm: back the action up", within="#sheet")

    assert ProcedureLog.objects.get(hand=hand).effect == "back_up"
    tablet.wait_for_selector("[data-testid=out-of-turn]")
    assert "raise to 600" in tablet.get_by_test_id("out-of-turn").inner_text().lower()

    tap(tablet, re.compile(r"^Call"))  # the skipped player calls: nothing changed
    now = state(table)
    assert next(p["bet"] for p in now["players"] if p["seat"] == oot) == 600
    assert now["out_of_turn"] == []
