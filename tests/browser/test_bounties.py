"""A progressive knockout run on the desk in Chromium at 1366 x 900: the director records busts
naming who knocked each player out (one of them split between two players), the Eliminations
list shows "eliminated by", and the payouts page the bounties won and the heads of the players
still in. Both screens go into docs/screenshots/ for the README."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from tests.browser.conftest import screenshot, sign_in_director
from tournaments.models import Entry, Knockout, Tournament
from tournaments.selectors.bounties import tournament_bounties
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register
from tournaments.services.events import (
    schedule_create,
    tournament_create,
    tournament_open_registration,
)
from tournaments.services.tables import tournament_draw_seats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ann Lee", "Bruno Costa", "Chen Wei", "Dana Kowalski", "Eli Cohen", "Fatima Zahra"]


@pytest.fixture
def desk(browser: Any) -> Iterator[Any]:
    """A laptop at the desk: 1366 x 900."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def pko() -> Tournament:
    """A running PKO: 100 buy-in and 100 on each head, six players at one table."""
    schedule = schedule_create(
        name="PKO levels", levels=[{"small_blind": 100, "big_blind": 200, "duration": 1800}]
    )
    event = tournament_create(
        schedule=schedule,
        name="Wednesday PKO",
        buy_in=Decimal("100"),
        fee=Decimal("10"),
        bounty_kind="progressive",
        bounty=Decimal("100"),
        payout_percentages=[65, 35],
    )
    tournament_open_registration(tournament=event)
    now = timezone.now()
    for name in NAMES:
        entry_register(tournament=event, player_name=name, now=now)
    tournament_draw_seats(tournament=event, rng=random.Random(3))
    return clock_start(tournament=event, now=now)


def entry(event: Tournament, name: str) -> Entry:
    return Entry.objects.get(tournament=event, player__name=name)


def wait_for_htmx(page: Any, selector: str) -> None:
    """Until htmx has bound the element's triggers: a change made sooner sends nothing."""
    page.wait_for_function(
        "s => { const e = document.querySelector(s);"
        " return !!(e && e['htmx-internal-data'] && e['htmx-internal-data'].initHash); }",
        arg=selector,
    )


def fill_bust(page: Any, out: Entry, *by: Entry) -> None:
    """Pick the player out and name who knocked them out (a split adds a second pick)."""
    wait_for_htmx(page, "select.bust-row__player")
    page.select_option("select.bust-row__player", str(out.pk))
    picks = f'select[name="eliminated_by_{out.pk}"]'
    page.wait_for_selector(picks)
    for index, eliminator in enumerate(by):
        if index:
            page.get_by_role("button", name="+ Split with another player").click()
        page.locator(picks).nth(index).select_option(str(eliminator.pk))


def record_bust(page: Any, out: Entry, *by: Entry) -> None:
    fill_bust(page, out, *by)
    page.get_by_role("button", name="Record the bust").click()
    page.wait_for_selector(f"text={out.player.name} out in place")


def test_a_director_runs_a_pko_on_the_desk(desk: Any, live_server: Any) -> None:
    event = pko()
    ann, bruno, chen, dana, eli, fatima = (entry(event, n) for n in NAMES)
    sign_in_director(desk, live_server)
    desk.goto(f"{live_server.url}/desk/t/{event.pk}/busts/")
    desk.wait_for_url(re.compile(r"/busts/$"))

    record_bust(desk, eli, ann)  # Ann: 50 cash, head 150
    record_bust(desk, dana, bruno, chen)  # a split: 25 + 25 cash, 25 onto each head
    record_bust(desk, ann, chen)  # Ann's 150: 75 cash to Chen, head 125 + 75

    assert Knockout.objects.filter(tournament=event).count() == 4
    cells = desk.locator("td.eliminated-by").all_inner_texts()
    assert cells == ["Chen Wei", "Bruno Costa, Chen Wei", "Ann Lee"]
    # The next bust typed, split between two players, as the screenshot shows it.
    fill_bust(desk, bruno, chen, fatima)
    assert desk.locator(f'select[name="eliminated_by_{bruno.pk}"]').count() == 2
    assert desk.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(desk, "director-bounties-eliminations")

    desk.get_by_role("link", name="Payouts", exact=True).click()
    desk.wait_for_url(re.compile(r"/payouts/$"))
    desk.wait_for_selector("text=Progressive knockout")
    bounties = tournament_bounties(event)
    assert bounties.of(chen.pk, in_play=True).head == Decimal("200.00")
    assert bounties.of(chen.pk, in_play=True).won == Decimal("100.00")
    heads = desk.locator(".bounties-card td.bounty-head").all_inner_texts()
    assert "200.00" in heads
    assert desk.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(desk, "director-bounties")
