"""Run it twice on the tablet in Chromium (docs/rules.md 6.6, RIT): the button shows only while
it is legal, the tap runs the board twice, and the awards list each run's half of the pot."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

from dealer.cash.seats import services as cash
from dealer.models import Hand
from dealer.services import hand_record_action, hand_start
from tests.browser.conftest import screenshot
from tests.dealer.test_cash_services import cash_table
from tests.factories import DealerFactory
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def act(hand: Hand, **action: Any) -> Hand:
    return hand_record_action(
        hand=hand, action=action, client_id=uuid.uuid4().hex, version=hand.version
    ).hand


def test_rit_on_the_tablet_two_boards_and_an_award_per_run(tablet: Any, live_server: Any) -> None:
    table = cash_table(number=9, name="1/2 NL", rule_overrides={"run_it_twice_allowed": True})
    for seat, name in ((1, "Ana"), (2, "Ben")):
        cash.cash_seat_take(table=table, seat=seat, player_name=name, buy_in=200)
    Table.objects.filter(pk=table.pk).update(
        button_seat=1, dealer=DealerFactory.create(username="rita")
    )
    hand = hand_start(table=table)
    hand = act(hand, kind="all_in", seat=hand.state["actor_seat"])
    hand = act(hand, kind="call", seat=hand.state["actor_seat"])
    hand = act(hand, kind="deal_board", cards=["7c", "8d", "2h"])

    url = f"/deal/table/{table.pk}/"
    tablet.goto(f"{live_server.url}/login/?next={url}")
    tablet.fill("input[name=username]", "rita")
    tablet.fill("input[name=password]", "pw")
    tablet.press("input[name=password]", "Enter")
    tablet.wait_for_url(re.compile(re.escape(url) + "$"))
    tablet.get_by_test_id("run-twice").click()
    tablet.get_by_test_id("board2").wait_for()
    assert tablet.get_by_test_id("run-twice").count() == 0

    # Both runs dealt and the hands shown (through the service, as the tablet's taps are).
    hand.refresh_from_db()
    for card in ("3s", "4c", "Kh", "9s"):
        hand = act(hand, kind="deal_board", cards=[card])
    first, second = hand.state["showdown_order"]
    hand = act(hand, kind="show", seat=first, cards=["As", "Ad"])
    hand = act(hand, kind="show", seat=second, cards=["Kc", "Kd"])
    assert hand.state["status"] == "complete"

    tablet.goto(f"{live_server.url}{url}")
    awards = tablet.get_by_test_id("awards")
    text = awards.inner_text()
    assert "run 1" in text
    assert "run 2" in text
    screenshot(tablet, "tablet-run-it-twice")
