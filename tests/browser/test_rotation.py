"""The dealer rotation in Chromium: the push on the tablet (the incoming dealer signs in, the
table is theirs) at 1280x800, and the desk's board of who deals where at 1366x900."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from dealer.cash.seats import services as cash
from dealer.rotation import services as rotation
from tests.browser.conftest import screenshot, sign_in_director
from tests.dealer.test_cash_services import cash_table
from tests.factories import DealerFactory
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEALERS = [("ann", "Ann"), ("ben", "Ben"), ("cara", "Cara"), ("dev", "Dev"), ("eve", "Eve")]
PLAYERS = ["Ana", "Bo", "Chloe", "Dmitri", "Eva", "Farid"]


def an_evening_twenty_minutes_in() -> list[Table]:
    """Four cash tables, five dealers on shift, 20-minute downs since 21 minutes ago: the first
    down's dealers signed in; the second push is due now (Eve, back from her rest, to table 1)."""
    tables = [cash_table(number=n, name=f"1/2 NL {n}") for n in range(1, 5)]
    for seat, name in enumerate(PLAYERS, start=1):
        cash.cash_seat_take(table=tables[0], seat=seat, player_name=name, buy_in=200)
    start = timezone.now() - timedelta(minutes=21)
    for username, first in DEALERS:
        dealer = DealerFactory.create(username=username, first_name=first)
        rotation.dealer_shift_start(dealer_id=dealer.pk, at=start - timedelta(minutes=5))
    rotation.rotation_plan_set(down_minutes=20, downs_before_break=4, break_minutes=20)
    rotation.rotation_start(at=start)
    for table in tables:
        rotation.down_sign_in(table=table, actor=None, at=start + timedelta(minutes=1))
    return tables


def test_the_incoming_dealer_signs_in_on_the_tablet_at_the_push(
    tablet: Any, live_server: Any
) -> None:
    tables = an_evening_twenty_minutes_in()
    url = f"/deal/table/{tables[0].pk}/"
    tablet.goto(f"{live_server.url}/login/?next={url}")
    tablet.fill("input[name=username]", "eve")
    tablet.fill("input[name=password]", "pw")
    tablet.press("input[name=password]", "Enter")
    tablet.wait_for_url(re.compile(re.escape(url) + "$"))

    banner = tablet.get_by_test_id("handover")
    assert "Eve deals this table from" in banner.inner_text()
    screenshot(tablet, "tablet-handover", full_page=False)

    banner.get_by_role("button", name="Sign in: Eve").click()
    tablet.wait_for_selector("text=eve deals Table 1 now.")
    assert tablet.get_by_test_id("handover").count() == 0
    assert (
        Table.objects.get(pk=tables[0].pk).dealer_id
        == DealerFactory._meta.model.objects.get(username="eve").pk
    )


def test_the_desk_board_shows_who_deals_where_and_who_rests(browser: Any, live_server: Any) -> None:
    an_evening_twenty_minutes_in()
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        sign_in_director(page, live_server)
        page.goto(f"{live_server.url}/floor/dealers/")
        tables = page.locator("#tables")
        assert "Ann" in tables.inner_text()
        # Each table is due its second down's dealer, not yet signed in.
        assert [row.inner_text().split("\t")[2] for row in tables.locator("tbody tr").all()] == [
            "Eve",
            "Ann",
            "Ben",
            "Cara",
        ]
        assert "Dev until" in page.locator("#breaks").inner_text()
        screenshot(page, "floor-dealers")
    finally:
        context.close()
