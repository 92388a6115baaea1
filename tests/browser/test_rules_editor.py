"""The rules editor in Chromium (issue 13): a director edits a Texas 6+ tournament's rules at
1366 x 900 (each change previewed and highlighted, one put back to the profile's default, then
saved), and a dealer reads a cash table's rules in words on the tablet at 1024 x 768. Both
screens go into docs/screenshots/ for the README."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from dealer.services import hand_start
from tests.browser.conftest import SCREENSHOTS, screenshot, sign_in_director
from tests.dealer.test_cash_services import seated
from tests.factories import DealerFactory, TournamentFactory
from tournaments.models import Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def desk(browser: Any) -> Iterator[Any]:
    """A laptop at the desk: 1366 x 900."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def small_tablet(browser: Any) -> Iterator[Any]:
    """An older tablet in landscape: 1024 x 768, touch."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def wait_for_htmx(page: Any, selector: str) -> None:
    """Until htmx has bound the element's triggers: a change made sooner sends nothing."""
    page.wait_for_function(
        "s => { const e = document.querySelector(s);"
        " return !!(e && e['htmx-internal-data'] && e['htmx-internal-data'].initHash); }",
        arg=selector,
    )


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_director_edits_a_6plus_tournaments_rules(desk: Any, live_server: Any) -> None:
    """RULES.md 0 (profiles and single options), 1 (`sixplus_flush_beats_full_house`)."""
    event = TournamentFactory.create(name="Short Deck Sunday", game="sixplus")
    sign_in_director(desk, live_server)
    desk.goto(f"{live_server.url}/desk/t/{event.pk}/")
    desk.get_by_role("link", name="Rules", exact=True).click()
    desk.wait_for_url(re.compile(r"/rules/$"))
    wait_for_htmx(desk, ".rules-live")
    assert no_sideways_scroll(desk)

    # A change is previewed at once: highlighted, not saved yet.
    desk.select_option("#id_button_mode", "moving")
    desk.wait_for_selector("#rule-button_mode[data-differs]")
    assert desk.is_visible("[data-unsaved]")
    desk.check("#id_sixplus_flush_beats_full_house")
    desk.wait_for_selector("#rule-sixplus_flush_beats_full_house[data-differs]")
    desk.select_option("#id_odd_chip", "high_card_by_suit")
    desk.wait_for_selector("#rule-odd_chip[data-differs]")
    # ... and one taken back to the profile's default.
    desk.locator("#rule-odd_chip").get_by_role("button", name="Back to the default").click()
    desk.wait_for_selector("#rule-odd_chip:not([data-differs])")
    assert desk.input_value("#id_odd_chip") == "left_of_button"
    event.refresh_from_db()
    assert event.rule_overrides == {}

    desk.click("[data-save-rules]")
    desk.wait_for_selector("text=Rules saved")
    event = Tournament.objects.get(pk=event.pk)
    assert event.rule_overrides == {
        "button_mode": "moving",
        "sixplus_flush_beats_full_house": True,
    }
    # The top of the page: the tabs, the profile and the first groups, the change highlighted.
    desk.screenshot(
        path=str(SCREENSHOTS / "director-rules.png"),
        full_page=True,
        clip={"x": 0, "y": 0, "width": 1366, "height": 1660},
    )

    # Readable on a smaller screen: nothing runs off the side.
    desk.set_viewport_size({"width": 1024, "height": 768})
    assert no_sideways_scroll(desk)


def test_the_dealer_reads_the_tables_rules_on_the_tablet(
    small_tablet: Any, live_server: Any
) -> None:
    table = seated("1 2 3 4", button=1, number=5, name="1/2 NL")
    Table.objects.filter(pk=table.pk).update(
        dealer=DealerFactory.create(username="cara"),
        rule_overrides={"button_mode": "dead", "odd_chip": "high_card_by_suit"},
    )
    hand_start(table=Table.objects.get(pk=table.pk))
    tablet_url = f"/deal/table/{table.pk}/"
    small_tablet.goto(f"{live_server.url}/login/?next={tablet_url}")
    small_tablet.fill("input[name=username]", "cara")
    small_tablet.fill("input[name=password]", "pw")
    small_tablet.press("input[name=password]", "Enter")
    small_tablet.wait_for_url(re.compile(re.escape(tablet_url) + "$"))

    small_tablet.click("[data-open-rules]")
    sheet = small_tablet.locator("[data-rules-sheet]")
    sheet.wait_for()
    words = sheet.inner_text()
    assert "Hand 1 is dealt by these rules" in words
    assert "Post them at once (S2)." in words
    assert "S2_casino" not in words
    assert "House rule" in sheet.locator("[data-rule='odd_chip']").inner_text()
    box = small_tablet.locator(".sheet__panel").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= 1024
    screenshot(small_tablet, "tablet-rules", full_page=False)
    small_tablet.click("[data-sheet-close]")
    sheet.wait_for(state="detached")
