"""The live updates page on a phone (issue 27): the story fits 360 px, newest first, and a new
elimination appears on an open page within one poll."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from tests.browser.conftest import screenshot
from tournaments.models import Entry, Tournament
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register
from tournaments.services.events import (
    schedule_create,
    tournament_create,
    tournament_open_registration,
)
from tournaments.services.knockouts import eliminators_equal
from tournaments.services.tables import tournament_draw_seats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Bartholomew Featherstonehaugh-Cholmondeley", "Ann Lee", "Chen Wei", "Eva Lind"] + [
    f"Player {n}" for n in range(1, 9)
]


def _event() -> Tournament:
    schedule = schedule_create(
        name="Live levels",
        levels=[{"small_blind": 100, "big_blind": 200, "ante": 200, "duration": 1800}],
    )
    event = tournament_create(
        schedule=schedule,
        name="Sunday Main Event",
        buy_in=Decimal("100"),
        seats_per_table=6,
        payout_percentages=[50, 30, 20],
    )
    tournament_open_registration(tournament=event)
    now = datetime.now(UTC) - timedelta(minutes=20)
    for name in NAMES:
        entry_register(tournament=event, player_name=name, now=now)
    tournament_draw_seats(tournament=event, rng=random.Random(3))
    return clock_start(tournament=event, now=now)


def _bust(event: Tournament, name: str, by: str) -> None:
    out = Entry.objects.get(tournament=event, player__name=name)
    winner = Entry.objects.get(tournament=event, player__name=by)
    entries_bust(
        tournament=event,
        busts=[
            Bust(
                entry_id=out.pk,
                starting_stack=out.chips,
                eliminated_by=eliminators_equal([winner.pk]),
            )
        ],
        now=datetime.now(UTC),
    )


def test_the_live_page_fits_a_phone_and_shows_a_new_elimination_within_a_poll(
    phone: Any, live_server: Any
) -> None:
    event = _event()
    for name in NAMES[4:10]:
        _bust(event, name, NAMES[0])
    phone.set_viewport_size({"width": 360, "height": 640})
    phone.goto(f"{live_server.url}/t/{event.pk}/live/")
    phone.wait_for_selector(".live-story__item")
    titles = phone.locator(".live-story__title").all_text_contents()
    assert titles[0] == "The final table"  # the newest: six left at tables of six
    assert titles[1] == "Player 6 out in 7th"
    problems = phone.evaluate(
        """() => {
          const out = [];
          if (document.documentElement.scrollWidth > window.innerWidth) out.push('page scrolls');
          for (const item of document.querySelectorAll('.live-story__item')) {
            if (item.getBoundingClientRect().right > window.innerWidth + 0.5) {
              out.push('past the screen: ' + item.id);
            }
          }
          return out;
        }"""
    )
    assert problems == []
    screenshot(phone, "public-live-phone", full_page=False)

    _bust(event, NAMES[3], NAMES[0])  # Eva Lind, out while the page is open
    phone.wait_for_function(
        "() => document.querySelector('.live-story__title').textContent === 'Eva Lind out in 6th'",
        timeout=30_000,
    )
