"""The public standings on small phones (issue 27, "Players and screens").

At 320, 360 and 390 px wide every column of the standings (rank, name, chips, bounty, table and
seat) is inside its card, whatever the names: a long name is cut with an ellipsis, and a tap on
it shows it whole. The paused clock at the top of the page reads at a contrast of 4.5:1 or more
(WCAG 2.1, 1.4.3).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from tests.browser.conftest import screenshot
from tournaments.models import Entry, Tournament
from tournaments.services.clocks import clock_pause, clock_start
from tournaments.services.entries import entry_register, entry_set_chips
from tournaments.services.events import (
    schedule_create,
    tournament_create,
    tournament_open_registration,
)
from tournaments.services.tables import tournament_draw_seats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = {"320": (320, 640), "360": (360, 640), "390": (390, 844)}
LONG_NAME = "Maximiliana Wolfeschlegel"  # 25 characters, the one that widened the table
NAMES = [LONG_NAME, "Bartholomew Featherstonehaugh-Cholmondeley", "Ann Lee", "Chen Wei"] + [
    f"Player {n}" for n in range(1, 27)
]


@pytest.fixture
def small_phone(browser: Any) -> Iterator[Any]:
    """A touch phone; each test sets the width it needs."""
    context = browser.new_context(
        viewport={"width": 320, "height": 640},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def _pko(*, paused: bool) -> Tournament:
    """A running PKO of 30 (two long names among them), stacks counted, big chip counts."""
    schedule = schedule_create(
        name="PKO levels",
        levels=[{"small_blind": 2500, "big_blind": 5000, "ante": 5000, "duration": 1800}],
    )
    event = tournament_create(
        schedule=schedule,
        name="Thursday Mystery PKO",
        buy_in=Decimal("100"),
        bounty_kind="progressive",
        bounty=Decimal("1000"),
        seats_per_table=9,
        # Stacks of millions (the widest numbers a phone shows): no count may pass the chips
        # in play (issue 26), so the event starts deep enough to hold them.
        starting_stack=6_000_000,
    )
    tournament_open_registration(tournament=event)
    now = datetime.now(UTC) - timedelta(minutes=12)
    for name in NAMES:
        entry_register(tournament=event, player_name=name, now=now)
    tournament_draw_seats(tournament=event, rng=random.Random(7))
    event = clock_start(tournament=event, now=now)
    rng = random.Random(27)
    for entry in Entry.objects.filter(tournament=event).order_by("pk"):
        entry_set_chips(entry=entry, chips=rng.randrange(1_000_000, 9_900_000, 25), note="count")
    if paused:
        clock_pause(tournament=event, now=datetime.now(UTC))
    return Tournament.objects.get(pk=event.pk)


def _standings_problems(page: Any) -> list[str]:
    """What is clipped: the page or the card scrolling sideways, a cell or a header past the
    card's right edge, a column with no width."""
    problems = page.evaluate(
        """() => {
          const out = [];
          const doc = document.documentElement;
          if (doc.scrollWidth > window.innerWidth) out.push('page scrolls: ' + doc.scrollWidth);
          const table = document.querySelector('.standings-table');
          const card = table.closest('.card');
          const box = card.getBoundingClientRect();
          if (card.scrollWidth > card.clientWidth) {
            out.push('card scrolls: ' + card.scrollWidth + ' > ' + card.clientWidth);
          }
          if (box.right > window.innerWidth) out.push('card past the screen: ' + box.right);
          for (const cell of table.querySelectorAll('th, td')) {
            const b = cell.getBoundingClientRect();
            if (b.width < 1) out.push('no width: ' + cell.textContent);
            if (b.right > box.right + 0.5 || b.left < box.left - 0.5) {
              out.push('outside the card: ' + cell.textContent.trim() + ' ' + b.right);
            }
          }
          return out;
        }"""
    )
    return list(problems)


def _scroll_to_standings(page: Any) -> None:
    """The chip counts' card just under the clock, which stays at the top."""
    page.evaluate(
        "() => { const card = document.querySelector('.standings-table').closest('.card');"
        " const clock = document.querySelector('.phone-clock');"
        " window.scrollTo(0, card.getBoundingClientRect().top + window.scrollY"
        " - clock.offsetHeight - 8); }"
    )


def test_the_standings_fit_small_phones_with_every_column(
    small_phone: Any, live_server: Any
) -> None:
    event = _pko(paused=False)
    for size, (width, height) in PHONES.items():
        small_phone.set_viewport_size({"width": width, "height": height})
        small_phone.goto(f"{live_server.url}/t/{event.pk}/")
        small_phone.wait_for_selector(".standings-table")

        assert _standings_problems(small_phone) == [], size
        headers = small_phone.locator(".standings-table thead th").all_text_contents()
        assert [h.strip() for h in headers] == ["#", "Name", "Chips", "Bounty", "Table / seat"]
        if size == "360":
            _scroll_to_standings(small_phone)
            screenshot(small_phone, "phone-standings-360", full_page=False)

    # At 320 the long name is cut, with the whole name a tap away (and in its title).
    small_phone.set_viewport_size({"width": 320, "height": 640})
    small_phone.goto(f"{live_server.url}/t/{event.pk}/")
    name = small_phone.locator(f".standings-name[title='{LONG_NAME}']")
    assert name.evaluate("e => e.scrollWidth > e.clientWidth")  # cut: ellipsis
    assert name.evaluate("e => getComputedStyle(e).textOverflow") == "ellipsis"
    name.tap()
    assert name.evaluate("e => e === document.activeElement")
    assert name.evaluate("e => e.scrollWidth <= e.clientWidth")  # whole, on more lines
    assert LONG_NAME in name.inner_text()
    assert _standings_problems(small_phone) == []
    _scroll_to_standings(small_phone)
    screenshot(small_phone, "phone-standings-320-tapped", full_page=False)


CONTRAST = """(selector) => {
  const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = c.map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const e = document.querySelector(selector);
  let back = e;
  while (back && getComputedStyle(back).backgroundColor.match(/rgba\\(.*, 0\\)$/)) {
    back = back.parentElement;
  }
  const [a, b] = [lum(rgb(getComputedStyle(e).color)),
                  lum(rgb(getComputedStyle(back).backgroundColor))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def test_the_paused_clock_on_the_phone_page_reads_at_4_5_to_1(
    small_phone: Any, live_server: Any
) -> None:
    event = _pko(paused=True)
    small_phone.set_viewport_size({"width": 360, "height": 640})
    small_phone.goto(f"{live_server.url}/t/{event.pk}/")
    small_phone.wait_for_selector(".phone-clock__time.is-still")
    assert small_phone.inner_text(".phone-clock [data-clock-status]") == "Paused"
    for part in (
        ".phone-clock__time",
        ".phone-clock__status",
        ".phone-clock__level",
        ".phone-clock__blinds",
    ):
        ratio = small_phone.evaluate(CONTRAST, part)
        assert ratio >= 4.5, (part, ratio)
