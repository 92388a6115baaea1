"""The dealer's tablet rides out the Wi-Fi (issue 24): taps that get no answer are queued on the
tablet (localStorage), shown as pending, and sent in order with their client ids when the
service answers again; a tap refused on replay stops the queue there.

The outage is Playwright aborting the page's write requests (`route.abort`), as a dropped
Wi-Fi does: the request never reaches the server. Reads (the page, the poll) still get through,
so a reload during the outage shows the tablet.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.utils import timezone
from playwright.sync_api import expect

from dealer.models import Hand, HandEvent
from dealer.services import hand_record_action, hand_start
from tests.browser.conftest import screenshot
from tests.browser.test_tablet import deal_table, settled, sign_in, state, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A hand of six, twenty taps: five calls and the big blind's check, the flop dealt (cards not
# entered) and six checks, the turn dealt and six checks.
BOARD = "board"
TAPS = ["call"] * 5 + ["check"] + [BOARD] + ["check"] * 6 + [BOARD] + ["check"] * 6
OUTAGE = range(5, 16)  # taps 5 to 15, counted from 1
RELOAD_AFTER = 10
ONLINE_BUTTON: dict[str, str | re.Pattern[str]] = {
    "call": re.compile(r"^Call"),
    "check": "Check",
    BOARD: re.compile(r"dealt"),
}
OFFLINE_BUTTON: dict[str, str | re.Pattern[str]] = {
    "call": "Call",
    "check": "Check",
    BOARD: re.compile(r"^Board dealt"),
}


def hand_log(hand: Hand) -> list[tuple[str, Any]]:
    """The service's log of the hand: each entry's kind and what it recorded."""
    events = HandEvent.objects.filter(hand=hand).order_by("seq")
    return [(event.kind, event.payload) for event in events]


def entered_online() -> tuple[list[tuple[str, Any]], list[int | None], dict[str, Any]]:
    """The same hand entered through the service with the network up, on a table dealt like
    the one under test: its log, the seat each tap was for, and its final state."""
    table, dealer = deal_table()
    hand = hand_start(table=table, actor=dealer, now=timezone.now())
    seats: list[int | None] = []
    for number, kind in enumerate(TAPS):
        current = Hand.objects.get(pk=hand.pk).state
        if kind == BOARD:
            action: dict[str, Any] = {
                "kind": "deal_board",
                "cards": ["??"] * current["board_cards_due"],
            }
            seat = None
        else:
            seat = current["actor_seat"]
            action = {"kind": kind, "seat": seat}
        seats.append(seat)
        hand_record_action(
            hand=hand.pk,
            action=action,
            client_id=f"online-{number}",
            version=current["version"],
            actor=dealer,
            expected_seat=seat,
        )
    get_user_model().objects.filter(pk=dealer.pk).update(username="dana-online")
    hand.refresh_from_db()
    return hand_log(hand), seats, hand.state


def write_down(page: Any) -> None:
    page.route("**/action/", lambda route: route.abort())


def tap_without_answer(page: Any, name: str | re.Pattern[str]) -> None:
    """A tap on the server's bar whose request gets no answer: it goes into the queue."""
    pending = page.get_by_test_id("pending-line").count()
    page.locator("#tablet-dock").get_by_role("button", name=name).first.click()
    expect(page.get_by_test_id("pending-line")).to_have_count(pending + 1)
    expect(page.get_by_test_id("offline-bar")).to_be_visible()


def offline_tap(page: Any, kind: str, seat: int | None) -> None:
    """A tap on the offline bar: the seat it offers first is the one to act (a suggestion the
    service checks on replay), then the action."""
    bar = page.get_by_test_id("offline-bar")
    if seat is not None:
        expect(bar.locator("[data-offline-seat][aria-pressed=true]")).to_have_attribute(
            "data-offline-seat", str(seat)
        )
    pending = page.get_by_test_id("pending-line").count()
    bar.get_by_role("button", name=OFFLINE_BUTTON[kind]).click()
    expect(page.get_by_test_id("pending-line")).to_have_count(pending + 1)


def test_20_taps_with_the_network_down_from_tap_5_to_15_and_a_reload_end_with_the_online_log(
    tablet: Any, live_server: Any
) -> None:
    online_log, seats, online_state = entered_online()
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    tap(tablet, "Start next hand")
    hand = Hand.objects.get(table=table)

    for number, kind in enumerate(TAPS, start=1):
        if number == OUTAGE.start:
            write_down(tablet)
            tablet.locator("#tablet-dock").get_by_role(
                "button", name=ONLINE_BUTTON[kind]
            ).first.click()
            expect(tablet.get_by_test_id("offline-bar")).to_be_visible()
        elif number in OUTAGE:
            offline_tap(tablet, kind, seats[number - 1])
        else:
            tap(tablet, ONLINE_BUTTON[kind], within="#tablet-dock")
        if number in OUTAGE:
            expect(tablet.get_by_test_id("pending-line")).to_have_count(number - OUTAGE.start + 1)
            expect(tablet.get_by_test_id("last-known").first).to_be_visible()
            assert HandEvent.objects.filter(hand=hand).count() == OUTAGE.start - 1
        if number == RELOAD_AFTER:
            tablet.reload()
            expect(tablet.get_by_test_id("pending-line")).to_have_count(number - OUTAGE.start + 1)
            expect(tablet.get_by_test_id("offline-bar")).to_be_visible()
        if number == OUTAGE.stop - 1:
            tablet.unroute("**/action/")  # the Wi-Fi is back: the queue goes out in order
            expect(tablet.get_by_test_id("offline-bar")).to_have_count(0, timeout=25_000)
            expect(tablet.get_by_test_id("pending-line")).to_have_count(0)
            tablet.wait_for_function(
                "v => document.querySelector('#tablet').dataset.version === v", arg=str(number)
            )

    assert hand_log(Hand.objects.get(pk=hand.pk)) == online_log
    final = state(table)
    assert [p["stack"] for p in final["players"]] == [p["stack"] for p in online_state["players"]]
    assert final["version"] == len(TAPS)
    assert tablet.evaluate("() => Object.keys(localStorage).length") == 0


@pytest.mark.tap_guard
def test_while_offline_taps_show_as_pending_and_amounts_as_last_known_and_a_double_tap_queues_one(
    tablet: Any, live_server: Any
) -> None:
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    tap(tablet, "Start next hand")
    first = state(table)["actor_seat"]
    write_down(tablet)
    tap_without_answer(tablet, re.compile(r"^Call"))

    line = tablet.get_by_test_id("pending-line")
    expect(line).to_have_count(1)
    expect(line).to_contain_text(f"Seat {first}")
    expect(line).to_contain_text("pending · not yet sent")
    expect(tablet.locator("#sync")).to_contain_text("1 pending")
    marks = tablet.get_by_test_id("last-known")
    expect(marks).to_have_count(3)  # the pot on the felt, the pots, the bar's facts and sizes
    for mark in marks.all():
        expect(mark).to_be_visible()
    expect(tablet.get_by_test_id("offline-bar")).to_contain_text("last known")
    expect(tablet.locator("#tablet-dock .actionbar")).to_be_hidden()  # the server's bar is stale

    call = tablet.get_by_test_id("offline-bar").get_by_role("button", name="Call", exact=True)
    expect(call).to_be_enabled()
    box = call.bounding_box()
    at = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tablet.mouse.click(*at)
    tablet.wait_for_timeout(150)
    tablet.mouse.click(*at)
    settled(tablet)
    expect(line).to_have_count(2)  # the second click of the double tap is not queued
    screenshot(tablet, "tablet-offline", full_page=False)
    stored = tablet.evaluate("() => Object.values(localStorage).map(JSON.parse)[0]")
    assert [len(stored["items"]), stored["hand"]] == [2, str(Hand.objects.get(table=table).pk)]
    assert len({item["id"] for item in stored["items"]}) == 2
    assert HandEvent.objects.filter(hand__table=table).count() == 0


def test_a_replay_refused_because_another_device_changed_the_hand_stops_there_and_says_so(
    tablet: Any, live_server: Any
) -> None:
    table, dealer = deal_table()
    sign_in(tablet, live_server, table)
    tap(tablet, "Start next hand")
    hand = Hand.objects.get(table=table)
    first = state(table)["actor_seat"]
    write_down(tablet)
    tap_without_answer(tablet, re.compile(r"^Call"))
    offline_tap(tablet, "call", None)
    offline_tap(tablet, "call", None)

    # Meanwhile another device folds the first player.
    hand_record_action(
        hand=hand.pk,
        action={"kind": "fold"},
        client_id="another-tablet",
        version=0,
        actor=dealer,
        expected_seat=first,
    )
    connections.close_all()
    # The POSTs that reached the server (an aborted one gets no response), counted from before
    # the network comes back: the queue's retry may go out the moment the route is lifted.
    sent: list[str] = []
    tablet.on("response", lambda r: sent.append(r.url) if r.request.method == "POST" else None)
    tablet.unroute("**/action/")

    halted = tablet.get_by_test_id("queue-halted")
    expect(halted).to_be_visible(timeout=25_000)
    expect(halted).to_contain_text(f"Seat {first}")
    expect(halted).to_contain_text("Call")
    expect(halted).to_contain_text("The hand changed on another device")
    expect(halted).to_contain_text("2 later taps were not sent")
    expect(tablet.get_by_test_id("pending-line").filter(has_text="not sent")).to_have_count(2)
    expect(tablet.get_by_test_id("pending-line").filter(has_text="refused")).to_have_count(1)
    halted.get_by_role("button", name="Undo / correct").click()  # the correction path
    expect(tablet.get_by_test_id("undo-what")).to_contain_text("folds")  # the other device's
    tablet.keyboard.press("Escape")
    tablet.wait_for_timeout(1500)  # a retry would have gone out by now
    assert len(sent) == 1  # the refused tap only: nothing after it was sent
    events = HandEvent.objects.filter(hand=hand)
    assert list(events.values_list("client_id", flat=True)) == ["another-tablet"]
    expect(tablet.locator("#tablet")).to_have_attribute("data-version", "1")  # as it is now

    halted.get_by_role("button", name="Discard the unsent taps").click()
    expect(halted).to_have_count(0)
    expect(tablet.get_by_test_id("pending-line")).to_have_count(0)
    assert tablet.evaluate("() => Object.keys(localStorage).length") == 0
    tap(tablet, re.compile(r"^Call"), within="#tablet-dock")  # back to entering the hand
    assert HandEvent.objects.filter(hand=hand).count() == 2


@pytest.mark.tap_guard
def test_a_double_tap_on_a_procedure_sheet_button_is_taken_once(
    tablet: Any, live_server: Any
) -> None:
    """The sheet's pick buttons were not covered by the tap guard: the second tap of a double
    tap on "too many or too few hole cards" landed on the step drawn under the finger ("Pick
    again"), and the dealer was back at the list."""
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    tap(tablet, "Start next hand")
    gets: list[str] = []
    tablet.on("request", lambda r: gets.append(r.url) if "/procedures/" in r.url else None)
    tablet.locator("#tablet-tools").get_by_role("button", name="Procedures").click()
    pick_button = tablet.locator("#sheet [data-trigger=wrong_hole_card_count]")
    expect(pick_button).to_be_enabled()
    gets.clear()
    box = pick_button.bounding_box()
    assert box is not None
    two_clicks_on_sheet(tablet, (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    settled(tablet)

    assert len(gets) == 1, gets
    expect(tablet.locator("#procedure-title")).to_have_text(
        "A player has too many or too few hole cards"
    )
    assert tablet.locator("#sheet input:checked").count() == 0  # nothing picked by the 2nd tap


def two_clicks_on_sheet(page: Any, at: tuple[float, float]) -> None:
    """Two clicks 150 ms apart, as a finger's double tap: the sheet's next step is drawn in
    between when the server answers within that time (about 50 ms here)."""
    page.evaluate(
        """() => { window.sheetDrawn = new Promise(resolve => document.addEventListener(
            "htmx:afterSettle", () => resolve(), { once: true })); }"""
    )
    page.mouse.click(*at)
    page.wait_for_timeout(150)
    page.mouse.click(*at)
    page.evaluate("() => window.sheetDrawn")


def test_a_reload_with_no_network_at_all_still_shows_the_tablet_and_its_queue(
    tablet: Any, live_server: Any
) -> None:
    """The service worker (/deal/sw.js) keeps the last copy of the tablet page and its static
    files: with the Wi-Fi gone, a reload shows the tablet, the taps waiting, and the offline bar;
    back online, the queue goes out. A sign-out empties the worker's store."""
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    tap(tablet, "Start next hand")
    tablet.wait_for_function("() => navigator.serviceWorker.controller !== null")
    tablet.reload()  # the worker keeps this copy of the page and its files
    hand = Hand.objects.get(table=table)
    first = state(table)["actor_seat"]
    write_down(tablet)
    tap_without_answer(tablet, re.compile(r"^Call"))
    expect(tablet.get_by_test_id("pending-line")).to_have_count(1)

    tablet.context.set_offline(True)
    tablet.reload()
    expect(tablet.locator("#tablet-felt")).to_be_visible()
    expect(tablet.get_by_test_id("pending-line")).to_contain_text(f"Seat {first}")
    expect(tablet.get_by_test_id("offline-bar")).to_be_visible()
    expect(tablet.locator("#sync")).to_contain_text("Offline")

    tablet.unroute("**/action/")
    tablet.context.set_offline(False)
    tablet.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(tablet.get_by_test_id("offline-bar")).to_have_count(0, timeout=25_000)
    assert HandEvent.objects.filter(hand=hand).count() == 1

    # Signed out, the device keeps no copy of the dealer's tablet.
    kept = "() => caches.keys().then(names => names.filter(n => n.startsWith('floordesk-tablet-')))"
    assert tablet.evaluate(kept) == ["floordesk-tablet-v1"]
    tablet.goto(f"{live_server.url}/")
    tablet.get_by_role("button", name=re.compile("^Sign out")).click()
    expect(tablet.get_by_role("link", name="Sign in")).to_be_visible()
    for _ in range(50):  # the sign-out page empties the store as it loads
        if not tablet.evaluate(kept):
            break
        tablet.wait_for_timeout(100)
    assert tablet.evaluate(kept) == []
