"""A director's Sunday in Chromium at 1440 x 900 (issue 26): a schedule from the generator's
template, last week's tournament copied, 60 registrations typed at the desk (each row added by
htmx, the page never reloaded), "Jose Nunez" caught as José Núñez #1042, hand-for-hand with two
players out on one hand at one table (placed by the stacks they started it with), an ICM deal
accepted and the Payouts tab showing it.

The field is brought down to five players through the services (busting 55 players on the page
would only test the same form 55 times); the duplicate, the two busts, the deal and the payouts
go through the pages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from tests.browser.conftest import sign_in_director, wait_for_message
from tests.factories import TournamentFactory, make
from tournaments.models import BlindSchedule, Entry, Player, Tournament
from tournaments.names import fold
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import clock_start, tournament_set_hand_for_hand
from tournaments.services.entries import entry_set_chips
from tournaments.services.events import tournament_create
from tournaments.services.players import player_get_or_create, player_update
from tournaments.services.tables import tournament_draw_seats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = ["Ana", "Ben", "Chloé", "Dmitri", "Elif", "Farid", "Greta", "Hiro", "Inès", "Jonas"]
LAST = ["Moreau", "Novak", "Okafor", "Park", "Quinn", "Rossi"]
NAMES = [f"{first} {last}" for last in LAST for first in FIRST][:59]


@pytest.fixture
def desk(browser: Any) -> Iterator[Any]:
    """The director's screen: 1440 x 900."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    context.set_default_timeout(20_000)
    yield context.new_page()
    context.close()


def generate_schedule(page: Any, base: str) -> BlindSchedule:
    page.goto(f"{base}/desk/schedules/generate/?template=standard-20")
    page.get_by_label("Schedule name").fill("Sunday 20 min")
    page.get_by_role("button", name="Generate schedule").click()
    page.wait_for_url(re.compile(r"/desk/schedules/\d+/$"))
    return BlindSchedule.objects.get(name="Sunday 20 min")


def copy_last_week(page: Any, base: str, schedule: BlindSchedule) -> Tournament:
    last_week = tournament_create(
        schedule=schedule,
        name="Sunday Deepstack",
        buy_in=Decimal("100"),
        starting_stack=20_000,
        payout_percentages=[50, 30, 20],
    )
    page.goto(f"{base}/desk/t/{last_week.pk}/")
    page.fill("#copy-name", "Sunday Deepstack, 6 December")
    page.get_by_role("button", name="Copy tournament").click()
    page.wait_for_url(re.compile(r"/settings/$"))
    copy = Tournament.objects.get(name="Sunday Deepstack, 6 December")
    assert copy.payout_percentages == last_week.payout_percentages
    assert copy.levels.count() == schedule.levels.count()
    return copy


def register_all(page: Any, base: str, event: Tournament) -> None:
    """Open registration, then type every name and press Enter: each answer adds its row and
    the counts, and the page is never loaded again (a mark set on it stays)."""
    page.goto(f"{base}/desk/t/{event.pk}/")
    page.get_by_role("button", name="Open registration").click()
    wait_for_message(page, "Registration is open.")
    page.goto(f"{base}/desk/t/{event.pk}/entries/")
    page.evaluate("window.sundayMark = 'same page'")
    for count, name in enumerate(NAMES, start=1):
        field = page.get_by_label("Player name", exact=True)
        field.fill(name)
        field.press("Enter")
        page.locator("#entry-total", has_text=f"({count})").wait_for()
    assert page.locator("#entry-rows tr.entry-row").count() == len(NAMES)
    assert page.locator("#entry-rows tr.entry-row td.strong").first.inner_text() == NAMES[-1]
    assert page.locator("[data-testid=count-entries]").inner_text() == str(len(NAMES))
    assert page.evaluate("window.sundayMark") == "same page"


def catch_the_duplicate(page: Any) -> None:
    """ "Jose Nunez" is José Núñez #1042 from last week: the desk asks, and the director
    registers the known player instead of a second one."""
    field = page.get_by_label("Player name", exact=True)
    field.fill("Jose Nunez")
    field.press("Enter")
    ask = page.get_by_test_id("likely-player")
    ask.wait_for()
    assert "Create a new player Jose Nunez" in ask.inner_text()
    ask.get_by_role("button", name="Register José Núñez #1042").click()
    page.locator("#entry-total", has_text="(60)").wait_for()
    assert page.get_by_test_id("registered").inner_text().startswith("Registered José Núñez")
    assert page.evaluate("window.sundayMark") == "same page"


def down_to_five(event: Tournament) -> tuple[Entry, Entry]:
    """Seats drawn, the clock started, everyone but five players of table 1 out (through the
    services), the five counted; hand-for-hand on. The two shortest stacks of table 1."""
    now = timezone.now()
    tournament_draw_seats(tournament=event)
    clock_start(tournament=event, now=now)
    survivors = list(Entry.objects.filter(tournament=event, table__number=1).order_by("seat")[:5])
    for entry in Entry.objects.filter(tournament=event).exclude(pk__in=[e.pk for e in survivors]):
        entries_bust(tournament=event, busts=[Bust(entry_id=entry.pk, starting_stack=1)], now=now)
    for entry, chips in zip(survivors, (400_000, 300_000, 200_000, 60_000, 40_000), strict=True):
        entry_set_chips(entry=entry, chips=chips, now=now)
    tournament_set_hand_for_hand(tournament=event, on=True, now=now)
    return survivors[3], survivors[4]


def pick(page: Any, row: int, query: str, entry: Entry) -> None:
    """In bust row `row`, type `query` in its search box and pick `entry` from what it finds."""
    line = page.locator("tr.bust-row").nth(row)
    line.get_by_role("searchbox").fill(query)
    line.locator(f'select[name=entry] option[value="{entry.pk}"]').wait_for(state="attached")
    line.locator("select[name=entry]").select_option(str(entry.pk))
    page.locator("tr.bust-row").nth(row).locator(
        f'input[name=stack][value="{entry.chips}"]'
    ).wait_for(state="attached")


def test_a_directors_sunday(desk: Any, live_server: Any) -> None:
    base = live_server.url
    jose = player_get_or_create(name="José Núñez")
    player_update(player=jose, number="1042")
    sign_in_director(desk, live_server)

    event = copy_last_week(desk, base, generate_schedule(desk, base))
    register_all(desk, base, event)
    catch_the_duplicate(desk)
    assert Player.objects.filter(search_name=fold("Jose Nunez")).count() == 1
    assert Entry.objects.filter(tournament=event).count() == 60

    # Hand-for-hand at five left: two players out on one hand at table 1. The one who started
    # it with more chips finishes higher: 60,000 is 4th, 40,000 is 5th.
    bigger, smaller = down_to_five(event)
    bigger.refresh_from_db()
    smaller.refresh_from_db()
    desk.goto(f"{base}/desk/t/{event.pk}/busts/")
    assert desk.locator(".badge--hand-for-hand").count() == 1
    pick(desk, 0, f"1-{bigger.seat}", bigger)
    desk.get_by_role("button", name="+ Another player on this hand").click()
    desk.locator("tr.bust-row").nth(1).wait_for()
    pick(desk, 1, smaller.player.name.split()[0].lower(), smaller)
    desk.get_by_role("button", name="Record the bust").click()
    said = desk.locator(".message", has_text="out in place").inner_text()
    assert f"{bigger.player.name} out in place 4" in said
    assert f"{smaller.player.name} out in place 5" in said

    # Three left, in the money: an ICM deal, accepted on the Payouts tab.
    desk.goto(f"{base}/desk/t/{event.pk}/payouts/")
    desk.get_by_role("button", name="Calculate a deal").click()
    desk.get_by_role("button", name="Accept ICM deal").wait_for()
    desk.once("dialog", lambda dialog: dialog.accept())
    desk.get_by_role("button", name="Accept ICM deal").click()
    desk.get_by_role("heading", name="Deal accepted (ICM)").wait_for()

    # The Payouts tab pays the deal: each player's amount in the payout table, no new offer.
    event.refresh_from_db()
    assert event.deal is not None
    table = desk.locator(".payout-table").first.inner_text()
    for share in event.deal["players"]:
        amount = Decimal(share["amount"])
        shown = f"{amount:,.2f}".removesuffix(".00")
        assert shown in table, (shown, table)
    assert desk.get_by_role("button", name="Calculate a deal").count() == 0


SEND_THE_NEXT_NAME_AT_ONCE = """name => {
  // The moment the desk draws the new count, type the next name and press Enter, before the
  // page has had any time of its own: the form drawn with that count must already be htmx's.
  const head = document.querySelector("#entry-total").parentElement;
  new MutationObserver((changes, watcher) => {
    watcher.disconnect();
    const form = document.querySelector("#register-card form");
    form.querySelector("input[name=name]").value = name;
    form.requestSubmit();
  }).observe(head, {childList: true, subtree: true, characterData: true});
}"""


def test_a_name_sent_the_moment_the_count_is_drawn_is_registered_in_place(
    desk: Any, live_server: Any
) -> None:
    """A fast typist (or a card reader typing for the director) presses Enter the instant the
    last registration's answer is drawn. The registration form that answer drew takes the name
    as the one before did, with htmx and in place: not as a plain post that loads the page
    again. (htmx made a swapped form its own 20 ms after drawing it, its default settle delay;
    an Enter inside that window was a plain post, which CI's run caught once.)"""
    base = live_server.url
    event: Tournament = make(TournamentFactory, name="Fast hands")
    sign_in_director(desk, live_server)
    desk.goto(f"{base}/desk/t/{event.pk}/entries/")
    desk.evaluate("window.sundayMark = 'same page'")
    desk.evaluate(SEND_THE_NEXT_NAME_AT_ONCE, "Bea Second")
    field = desk.get_by_label("Player name", exact=True)
    field.fill("Al First")
    field.press("Enter")
    desk.locator("#entry-total", has_text="(2)").wait_for()
    assert desk.evaluate("window.sundayMark") == "same page"
    registered = Entry.objects.filter(tournament=event).values_list("player__name", flat=True)
    assert sorted(registered) == ["Al First", "Bea Second"]  # each once, neither lost
