"""Showdown by tap on the tablet in Chromium: a hand dealt without entering a card, its pot
pushed with one tap on the winner's seat (docs/rules.md "Showdown by tap")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from dealer.models import Hand
from tests.browser.test_tablet import deal_table, sign_in, state, tap
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_showdown_by_tap_pushes_the_pot_to_the_seat_tapped(tablet: Any, live_server: Any) -> None:
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    tablet.wait_for_selector("text=No hand in progress")
    tap(tablet, "Start next hand")
    seat_of = [p["seat"] for p in state(table)["players"]]

    # Everyone folds to the small blind, who calls; the big blind checks. No card is entered.
    for _ in range(4):
        tap(tablet, "Fold")
    tap(tablet, re.compile(r"^Call"))
    tap(tablet, "Check")
    tap(tablet, re.compile(r"^Flop dealt"))
    tap(tablet, "Check")
    tap(tablet, "Check")
    # The turn and the river: the street's first check says its card was dealt, unentered.
    for _ in ("turn", "river"):
        tablet.wait_for_selector("[data-testid=deal-bar-hint]")
        tap(tablet, "Check")
        tap(tablet, "Check")
    assert state(table)["phase"] == "showdown"
    assert state(table)["board"] == ["??"] * 5

    # The push: one button per player in the pot; the big blind's seat wins it.
    winner = seat_of[1]
    pot = tablet.locator("[data-testid=push-pot-0]")
    pot.wait_for()
    assert pot.get_by_role("button", name=re.compile(rf"^{seat_of[0]}\b")).count() == 1
    tap(tablet, re.compile(rf"^{winner}\b"), within="[data-testid=push-pot-0]")

    final = state(table)
    assert final["phase"] == "complete"
    (award,) = final["awards"]
    assert award["winners"] == [winner]
    tablet.wait_for_selector(".award")
    name = next(p["name"] for p in final["players"] if p["seat"] == winner)
    tablet.wait_for_selector(f"text=Pot 1 pushed to seat {winner} {name}")
    assert (
        Entry.objects.get(table=table, seat=winner).chips == final["finishing_stacks"][str(winner)]
    )
    assert Hand.objects.get(table=table).status == Hand.Status.COMPLETE
