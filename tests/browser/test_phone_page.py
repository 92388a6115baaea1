"""The phone page a player needs (issue 27) in Chromium at 360x640 and 390x844: every fact of
the clock and the event on screen, nothing clipped (each box inside the screen and its text
inside its box), the time and the break counting down, the structure sheet and the payouts a
tap away with a way back, and the clock pill's way back."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from tests.browser.conftest import screenshot
from tournaments.models import Tournament
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register
from tournaments.services.events import (
    schedule_create,
    tournament_create,
    tournament_open_registration,
)
from tournaments.services.tables import tournament_draw_seats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"360": (360, 640), "390": (390, 844)}
LEVELS: list[dict[str, Any]] = [
    {"small_blind": 100, "big_blind": 200, "duration": 1200},
    {"small_blind": 200, "big_blind": 400, "duration": 1200},
    {"is_break": True, "duration": 900, "note": "Colour up the 25s"},
    {"small_blind": 300, "big_blind": 600, "ante": 600, "bb_ante": True, "duration": 1200},
    {"small_blind": 400, "big_blind": 800, "ante": 800, "bb_ante": True, "duration": 1200},
]


@pytest.fixture
def handset(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": 360, "height": 640},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def _running() -> Tournament:
    schedule = schedule_create(name="Deepstack levels", levels=LEVELS)
    event = tournament_create(
        schedule=schedule,
        name="Friday Deepstack",
        buy_in=Decimal(150),
        fee=Decimal(15),
        late_registration_level=2,
        seats_per_table=9,
        payout_percentages=[50, 30, 20],
    )
    tournament_open_registration(tournament=event)
    started = datetime.now(UTC) - timedelta(minutes=3)
    for n in range(14):
        entry_register(tournament=event, player_name=f"Player {n + 1}", now=started)
    tournament_draw_seats(tournament=event, rng=random.Random(5))
    return clock_start(tournament=event, now=started)


CLIPPED = """(selector) => {
  const out = [];
  const width = window.innerWidth;
  if (document.documentElement.scrollWidth > width) {
    out.push('page scrolls: ' + document.documentElement.scrollWidth);
  }
  for (const root of document.querySelectorAll(selector)) {
    for (const el of [root, ...root.querySelectorAll('*')]) {
      if (el.closest('[hidden], .visually-hidden') || getComputedStyle(el).display === 'none') {
        continue;
      }
      const b = el.getBoundingClientRect();
      if (b.width === 0 && b.height === 0) continue;
      const what = el.outerHTML.slice(0, 80);
      if (b.left < -0.5 || b.right > width + 0.5) out.push('off screen: ' + what);
      const clips = ['hidden', 'clip'].includes(getComputedStyle(el).overflowX);
      if (clips && el.scrollWidth > el.clientWidth + 1) out.push('cut: ' + what);
    }
  }
  return out;
}"""


def _facts(page: Any) -> dict[str, str]:
    return dict(
        page.evaluate(
            """() => {
          const text = s => (document.querySelector(s)?.innerText || '').trim();
          return [
            ['level', text('.phone-clock [data-clock-field=label]')],
            ['blinds', text('[data-phone-blinds]')],
            ['time', text('.phone-clock [data-clock-time]')],
            ['next', text('.phone-clock__next')],
            ['late', text('[data-fact=late-registration]')],
            ['buy_in', text('[data-fact=buy-in]')],
            ['start', text('[data-fact=start]')],
            ['players', text('#state .stats div:nth-child(1) dd')],
            ['average', text('#state .stats div:nth-child(2) dd')],
            ['pool', text('#state .stats div:nth-child(4) dd')],
          ];
        }"""
        )
    )


def test_every_fact_is_on_the_phone_and_nothing_is_clipped(handset: Any, live_server: Any) -> None:
    event = _running()
    for size, (width, height) in SIZES.items():
        handset.set_viewport_size({"width": width, "height": height})
        handset.goto(f"{live_server.url}/t/{event.pk}/")
        handset.wait_for_selector(".standings-table")
        facts = _facts(handset)
        assert facts["level"] == "Level 1"
        assert facts["blinds"] == "100 / 200"
        assert facts["next"].startswith("Next 200 / 400 · break in 3")  # 17 + 20 minutes
        assert facts["late"].startswith("Until the end of level 2")
        assert facts["buy_in"] == "150 + 15"
        assert facts["start"] != "Not yet"
        assert facts["players"].replace("\n", " ") == "14 / 14"
        assert facts["average"] == "10,000"
        assert facts["pool"] == "2,100"
        problems = handset.evaluate(CLIPPED, ".phone-clock, .event-facts, .public-head, #state")
        assert problems == [], size
        # The clock and the break count down.
        first = _facts(handset)["time"], handset.inner_text("[data-phone-break]")
        handset.wait_for_timeout(1300)
        later = _facts(handset)["time"], handset.inner_text("[data-phone-break]")
        assert later[0] < first[0]
        assert later[1] < first[1]
        if size == "390":
            screenshot(handset, "phone-page-390", full_page=False)

    handset.set_viewport_size({"width": 360, "height": 640})
    handset.click(".event-facts >> text=Structure")
    handset.wait_for_selector(".structure-table")
    assert handset.evaluate(CLIPPED, "main") == []
    assert handset.locator("tr[aria-current]").inner_text().startswith("1")
    assert handset.locator(".structure-table__late").count() == 1
    handset.set_viewport_size({"width": 390, "height": 844})
    screenshot(handset, "phone-structure-390", full_page=False)
    handset.click("text=Back to the standings")
    handset.wait_for_selector(".standings-table")

    handset.click(".event-facts >> text=Payouts")
    handset.wait_for_selector(".payout-table, table")
    assert handset.evaluate(CLIPPED, "main") == []
    handset.click("text=Back to the standings")
    handset.wait_for_selector(".standings-table")

    # The clock pill opens the big clock, with a way back to the phone's page.
    handset.click(".pills >> text=Clock")
    handset.wait_for_selector(".screen__back a")
    handset.click(".screen__back a")
    handset.wait_for_selector(".standings-table")
