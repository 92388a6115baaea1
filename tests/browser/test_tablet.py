"""The dealer's tablet in Chromium at 1280 x 800, with screenshots for the guide.

A dealer signs in and deals: a whole no-limit hand with an all-in, side pots, a showdown with
the cards entered and the awards; a pot-limit raise with the POT button; an undo with its
reason; a misdeal through the procedures; a second device that follows by polling; and taps
taken exactly once: a double tap does not land on the next player's freshly drawn button.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from django.conf import settings
from django.db import connections
from django.utils import timezone
from playwright.sync_api import expect

from dealer.models import Hand, HandEvent, ProcedureLog
from dealer.services import hand_record_action
from tests.browser.conftest import screenshot
from tests.factories import DealerFactory
from tournaments.models import Entry, Table, Tournament
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register, entry_set_chips
from tournaments.services.events import (
    schedule_create,
    tournament_create,
    tournament_open_registration,
)
from tournaments.services.tables import tournament_draw_seats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana Alvarez", "Ben Brooks", "Chloe Chen", "Dmitri Dubois", "Eva Eriksen", "Farid Fischer"]


def deal_table(
    stacks: dict[int, int] | None = None, structure: str = Tournament.Structure.NO_LIMIT
) -> tuple[Table, Any]:
    """A running tournament of six at one table, its dealer signed up; `stacks` by engine
    position of the first hand (0 = small blind, 2 = first to act preflop)."""
    schedule = schedule_create(
        name=f"Tablet {random.random()}",
        levels=[
            {"small_blind": 100, "big_blind": 200, "duration": 1800},
            {"small_blind": 200, "big_blind": 400, "duration": 1800},
        ],
    )
    tournament = tournament_create(
        schedule=schedule,
        name="Sunday Deepstack",
        starting_stack=10000,
        seats_per_table=9,
        structure=structure,
    )
    tournament_open_registration(tournament=tournament)
    now = timezone.now()
    for name in NAMES:
        entry_register(tournament=tournament, player_name=name, now=now)
    tournament_draw_seats(tournament=tournament, rng=random.Random(11))
    clock_start(tournament=tournament, now=now)
    table = Table.objects.get(tournament=tournament)
    dealer = DealerFactory.create(username="dana")
    table.dealer = dealer
    table.save(update_fields=["dealer"])
    if stacks:
        seats = sorted(
            s for s in Entry.objects.filter(table=table).values_list("seat", flat=True) if s
        )
        button = table.button_seat or seats[0]
        after = [s for s in seats if s > button] + [s for s in seats if s <= button]
        for position, chips in stacks.items():
            entry_set_chips(entry=Entry.objects.get(table=table, seat=after[position]), chips=chips)
    return table, dealer


def sign_in(page: Any, live_server: Any, table: Table) -> None:
    url = f"/deal/table/{table.pk}/"
    page.goto(f"{live_server.url}/login/?next={url}")
    page.fill("input[name=username]", "dana")
    page.fill("input[name=password]", "pw")
    page.press("input[name=password]", "Enter")
    page.wait_for_url(re.compile(re.escape(url) + "$"))


def state(table: Table) -> dict[str, Any]:
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None
    return hand.state


def tap(page: Any, name: str | re.Pattern[str], *, within: str = "#tablet") -> None:
    """Tap a button and wait until the tablet shows the tap's answer: its POST answered and
    swapped in. Not just any new ETag: the tablet's own poll may redraw it meanwhile (the
    floor started hand-for-hand), and the test would read the table before the tap's write."""
    before = page.get_attribute("#tablet", "data-etag")
    with page.expect_response(lambda response: response.request.method == "POST"):
        page.locator(within).get_by_role("button", name=name).first.click()
    page.wait_for_function(
        "old => document.querySelector('#tablet').dataset.etag !== old"
        " && !document.querySelector('.htmx-request')",
        arg=before,
    )


def pick(page: Any, *cards: str) -> None:
    for card in cards:
        page.get_by_role("checkbox", name=card, exact=True).check()


def money(amount: int) -> str:
    return f"{amount:,}"


def test_a_whole_no_limit_hand_with_an_all_in_side_pots_showdown_and_awards(
    tablet: Any, live_server: Any
) -> None:
    # Position 2 (first to act preflop) is short: his all-in makes a side pot for the others.
    table, _ = deal_table(stacks={1: 25000, 2: 2500, 4: 25000})
    sign_in(tablet, live_server, table)
    tablet.wait_for_selector("text=No hand in progress")
    tap(tablet, "Start next hand")
    first = state(table)
    assert first["legal"]["call"] == 200
    seat_of = [p["seat"] for p in first["players"]]

    # Preflop: the short stack moves in, one folds, one calls, the rest fold, the big blind calls.
    tap(tablet, re.compile(r"^All-in"))
    tap(tablet, "Fold")
    call = state(table)["legal"]["call"]
    tablet.wait_for_selector(f"button:has-text('Call {money(call)}')")
    screenshot(tablet, "tablet-betting", full_page=False)
    tap(tablet, re.compile(r"^Call"))
    tap(tablet, "Fold")
    tap(tablet, "Fold")
    tap(tablet, re.compile(r"^Call"))
    assert state(table)["phase"] == "dealing"

    # The flop, entered card by card.
    tablet.wait_for_selector("text=Deal the flop")
    pick(tablet, "King of hearts", "9 of clubs", "4 of diamonds")
    screenshot(tablet, "tablet-board", full_page=False)
    assert tablet.locator("[data-picked]").first.inner_text() == "K\u2665 9\u2663 4\u2666"
    tap(tablet, re.compile(r"^Enter the flop"))
    assert state(table)["board"] == ["Kh", "9c", "4d"]

    # Two deep stacks bet and call: a side pot between them, the main pot for all three.
    half = re.compile(r"^\u00bd Pot")
    tap(tablet, half)
    tap(tablet, re.compile(r"^Call"))
    pots = state(table)["pots"]
    assert len(pots) == 2
    assert seat_of[2] not in pots[1]["eligible_seats"]
    tablet.wait_for_selector("text=Side pot")
    pick(tablet, "2 of spades")
    tap(tablet, re.compile(r"^Enter the turn"))
    tablet.wait_for_selector("text=Main pot")
    screenshot(tablet, "tablet-side-pots", full_page=False)
    tap(tablet, "Check")
    tap(tablet, "Check")
    pick(tablet, "7 of hearts")
    tap(tablet, re.compile(r"^Enter the river"))
    tap(tablet, "Check")
    tap(tablet, "Check")

    # The showdown: the tablet says who shows first; the cards of each hand are entered.
    assert state(table)["phase"] == "showdown"
    tablet.wait_for_selector("text=shows first")
    hands = {
        seat_of[2]: ("Ace of hearts", "Ace of clubs"),
        seat_of[1]: ("King of spades", "Queen of spades"),
        seat_of[4]: ("King of clubs", "Jack of diamonds"),
    }
    shown = 0
    while state(table)["phase"] == "showdown":
        seat = state(table)["next_to_show"]
        pick(tablet, *hands[seat])
        if shown == 1:
            screenshot(tablet, "tablet-showdown", full_page=False)
        tap(tablet, re.compile(r"^Show"))
        shown += 1

    final = state(table)
    assert final["phase"] == "complete"
    awards = {a["pot"]: a for a in final["awards"]}
    assert awards[0]["winners"] == [seat_of[2]]  # aces win the main pot
    assert awards[1]["winners"] == [seat_of[1]]  # kings with the queen win the side pot
    tablet.wait_for_selector("text=push the pots")
    for award in final["awards"]:
        tablet.wait_for_selector(f".award >> text={money(award['amount'])}")
    screenshot(tablet, "tablet-awards", full_page=False)
    assert (
        Entry.objects.get(table=table, seat=seat_of[2]).chips
        == final["finishing_stacks"][str(seat_of[2])]
    )

    tablet.get_by_role("button", name="Hand history").click()
    tablet.wait_for_selector(".history >> text=Seat")
    assert "Seat " + str(seat_of[2]) in tablet.locator(".history").inner_text()
    tablet.get_by_role("button", name="Close").click()
    tap(tablet, "Start next hand")
    assert state(table)["number"] == 2


def test_a_pot_limit_raise_with_the_pot_button(tablet: Any, live_server: Any) -> None:
    table, _ = deal_table(structure=Tournament.Structure.POT_LIMIT)
    sign_in(tablet, live_server, table)
    tap(tablet, "Start next hand")
    legal = state(table)["legal"]
    assert legal["pot_raise_to"] == legal["max_raise_to"] == 700  # 100 + 200 + 200 + 200
    button = tablet.get_by_role("button", name=f"POT {money(legal['pot_raise_to'])}")
    assert button.is_visible()
    assert tablet.get_by_role("button", name=re.compile(r"^All-in")).count() == 0
    tap(tablet, re.compile(r"^POT"))
    after = state(table)
    assert after["high"] == 700
    # The next player's POT is the engine's new maximum.
    tablet.wait_for_selector(
        f"button:has-text('POT'):has-text('{money(after['legal']['pot_raise_to'])}')"
    )

    # A typed amount above the maximum is refused with the engine's sentence. (Enter sends the
    # form once the bar takes taps: its button is held for the tap guard after the redraw.)
    expect(tablet.locator(".actionbar__typed button")).to_be_enabled()
    tablet.fill("#typed-amount", "5000")
    tablet.locator("#typed-amount").press("Enter")
    notice = tablet.get_by_test_id("notice")
    notice.wait_for()
    expected = f"Raise to 5000 is above the pot-limit maximum of {after['legal']['max_raise_to']}."
    assert expected in notice.inner_text()
    assert state(table)["version"] == after["version"]


def test_undo_with_a_reason_and_a_second_device_in_step(
    tablet: Any, browser: Any, live_server: Any
) -> None:
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    tap(tablet, "Start next hand")
    first_actor = state(table)["legal"]["actor"]
    other = tablet.context.new_page()  # a second device of the same dealer
    other.goto(f"{live_server.url}/deal/table/{table.pk}/")
    other.wait_for_selector("[data-testid=action-bar]")

    tap(tablet, re.compile(r"^Call"))
    assert state(table)["version"] == 1
    # The second device follows within a poll, and its taps then go to the new state.
    other.wait_for_function("() => document.querySelector('#tablet').dataset.version === '1'")

    tablet.get_by_role("button", name=re.compile("Undo")).click()
    tablet.wait_for_selector("text=Cancels:")
    assert "calls" in tablet.get_by_test_id("undo-what").inner_text()
    tablet.get_by_text("Wrong player").click()
    tap(tablet, "Undo this entry", within="#sheet")
    after = state(table)
    assert after["version"] == 2
    assert after["legal"]["actor"] == first_actor
    tablet.wait_for_selector(".log .is-cancelled")
    assert "Undo: Wrong player" in tablet.locator(".log").inner_text()
    assert tablet.locator("#sheet .sheet").count() == 0

    # A tap on a device that has not seen the undo yet: the hand changed on another device.
    other.evaluate("document.querySelector('#poll').remove()")
    tap(tablet, "Fold")
    tap(other, "Fold")
    other.get_by_test_id("notice").wait_for()
    assert "The hand changed on another device" in other.get_by_test_id("notice").inner_text()
    assert state(table)["version"] == 3
    other.close()


def test_a_misdeal_through_the_procedures(tablet: Any, live_server: Any) -> None:
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    tap(tablet, "Start next hand")
    hand = Hand.objects.get(table=table)

    tablet.get_by_role("button", name=re.compile("Procedures")).click()
    tablet.wait_for_selector("text=Procedures: what happened?")
    tablet.get_by_role("button", name="Two or more hole cards exposed on the deal").click()
    tablet.wait_for_selector("text=Confirm: the hand is void")
    assert "Gather all the cards" in tablet.get_by_test_id("remedy").inner_text()
    screenshot(tablet, "tablet-procedure", full_page=False)
    tap(tablet, "Confirm: the hand is void", within="#sheet")

    hand.refresh_from_db()
    assert hand.status == Hand.Status.VOID
    assert ProcedureLog.objects.get(hand=hand).effect == "void_hand"
    tablet.wait_for_selector("text=is void (misdeal)")
    tap(tablet, "Start the redeal")
    redeal = Hand.objects.filter(table=table).order_by("-number").first()
    assert redeal is not None
    assert redeal.number == 2
    assert redeal.button_seat == hand.button_seat


def test_an_answer_lost_on_the_network_is_sent_again_with_the_same_client_id(
    tablet: Any, live_server: Any
) -> None:
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    tap(tablet, "Start next hand")
    hand = Hand.objects.get(table=table)
    sent: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        sent.append(route.request.post_data)
        if len(sent) == 1:
            route.fetch()  # the server records the call ...
            route.abort()  # ... and its answer never reaches the tablet
        else:
            route.continue_()

    tablet.route("**/action/", lose_the_first_answer)
    tablet.locator("#tablet").get_by_role("button", name=re.compile(r"^Call")).click()
    # The tap goes into the tablet's queue (tests/browser/test_tablet_offline.py), which sends
    # it again by itself.
    expect(tablet.get_by_test_id("pending-line")).to_have_count(1)
    assert tablet.locator("#sync").get_attribute("data-state") == "offline"
    expect(tablet.get_by_test_id("pending-line")).to_have_count(0, timeout=10_000)
    tablet.wait_for_function("() => document.querySelector('#tablet').dataset.version === '1'")

    ids = [re.search(r"client_id=([0-9a-f-]+)", body).group(1) for body in sent]  # type: ignore[union-attr]
    assert len(ids) == 2
    assert ids[0] == ids[1]
    assert re.fullmatch(
        r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", ids[0]
    )
    assert list(HandEvent.objects.filter(hand=hand).values_list("client_id", flat=True)) == ids[:1]
    hand.refresh_from_db()
    assert hand.version == 1
    assert tablet.get_attribute("#tablet", "data-version") == "1"
    # The next tap is a new entry with a new id.
    tap(tablet, re.compile(r"^Call"))
    assert HandEvent.objects.filter(hand=hand).count() == 2
    assert HandEvent.objects.filter(hand=hand).exclude(client_id=ids[0]).count() == 1


def test_a_poll_answered_while_a_tap_is_on_its_way_does_not_hide_the_taps_answer(
    tablet: Any, live_server: Any
) -> None:
    """The floor corrected a stack and the tablet's poll asked; the dealer tapped "Start next
    hand"; the poll's answer (the new stack, no hand) came first and the tap's second. The tablet
    shows the tap's answer, the hand just started, even if no further poll comes (a tablet
    whose screen is off does not poll): it would otherwise show the start button over a hand
    in play."""
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    polls: list[tuple[Any, Any]] = []
    taps: list[tuple[Any, Any]] = []

    def hold_one_poll(route: Any) -> None:
        if polls:
            route.abort()  # no further poll gets through: only the two answers held count
            return
        try:
            entry = Entry.objects.filter(table=table).order_by("seat").first()
            assert entry is not None
            entry_set_chips(entry=entry, chips=entry.chips + 500)  # the floor's correction
        finally:
            # Playwright runs this handler in a greenlet of its own, which Django gives a
            # database connection of its own: closed here, or it outlives the test.
            connections.close_all()
        polls.append((route, route.fetch()))  # the server answers now: the new stack, no hand

    def hold_the_tap(route: Any) -> None:
        taps.append((route, route.fetch()))  # the hand starts; its answer waits

    tablet.route("**/state/", hold_one_poll)
    while not polls:
        tablet.wait_for_timeout(100)
    tablet.route("**/start/", hold_the_tap)
    tablet.locator("#tablet").get_by_role("button", name="Start next hand").click()
    while not taps:
        tablet.wait_for_timeout(100)
    assert state(table)["phase"] == "betting"
    tablet.evaluate(
        """() => { window.pollAnswered = new Promise(resolve => document.addEventListener(
            "htmx:afterRequest", e => { if (e.detail.requestConfig.elt.id === "poll") resolve(); }
        )); }"""
    )
    route, answer = polls[0]
    assert answer.status == 200
    route.fulfill(response=answer)
    tablet.evaluate("() => window.pollAnswered")
    route, answer = taps[0]
    with tablet.expect_response(lambda response: response.request.method == "POST"):
        route.fulfill(response=answer)
    expect(tablet.locator("#tablet").get_by_role("button", name="Fold").first).to_be_visible(
        timeout=2000
    )
    # The tap is over: the tablet takes taps and polls again.
    assert tablet.evaluate("() => document.body.classList.contains('is-writing')") is False


def call_button_centre(
    page: Any, name: str | re.Pattern[str] = re.compile(r"^Call")
) -> tuple[float, float]:
    """Where a button of the dock (Call) is, once it takes taps (the tap guard is over)."""
    button = page.locator("#tablet-dock").get_by_role("button", name=name)
    expect(button).to_be_enabled()
    box = button.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def two_clicks(
    page: Any, at: tuple[float, float], *, apart_ms: int, after_drawn_ms: int = 0
) -> None:
    """Two clicks at one place `apart_ms` apart, as a finger taps: the first one's answer (the
    next player's bar) is drawn before the second click, which is what a dealer's double tap
    met when the answer came within those milliseconds. On a slow run the second click follows
    the redraw at once, still the case under test. With `after_drawn_ms`, the second click
    comes at least that long after the redraw, however long the answer took: a dealer taps the
    next player's bar once it is there, not at a fixed time after the last tap."""
    etag = page.get_attribute("#tablet", "data-etag")
    began = time.monotonic()
    page.mouse.click(*at)
    page.wait_for_function(
        "old => document.querySelector('#tablet').dataset.etag !== old", arg=etag
    )
    drawn = time.monotonic()
    left = max(apart_ms / 1000 - (drawn - began), after_drawn_ms / 1000)
    if left > 0:
        page.wait_for_timeout(left * 1000)  # the finger's pace, not a wait for the page
    page.mouse.click(*at)


def settled(page: Any) -> None:
    """Whatever the last click sent has been answered and drawn (a request fires at the click:
    a moment after it, the tablet is either writing or done)."""
    page.wait_for_timeout(200)
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request')"
        " && !document.body.classList.contains('is-writing')"
    )


@pytest.mark.tap_guard
def test_a_double_tap_records_one_action_and_taps_on_successive_players_two(
    tablet: Any, live_server: Any
) -> None:
    """Issue 24: a double tap 150 ms apart on "Call 200" recorded the player's call and the
    next player's: the answer to the first tap drew the next player's bar under the finger.
    A freshly drawn bar ignores taps for TABLET_TAP_GUARD_MS (350 ms); two players acting
    0.7 s apart are both recorded."""
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    tap(tablet, "Start next hand")
    hand = Hand.objects.get(table=table)
    players = {p["seat"]: p["name"] for p in state(table)["players"]}
    order = [state(table)["actor_seat"]]
    posts: list[str] = []

    def count_posts(request: Any) -> None:
        if request.method == "POST":
            posts.append(request.url)

    tablet.on("request", count_posts)
    at = call_button_centre(tablet)

    two_clicks(tablet, at, apart_ms=150)
    settled(tablet)
    assert len(posts) == 1
    assert HandEvent.objects.filter(hand=hand).count() == 1
    log = tablet.locator("#tablet-log-list li")
    expect(log).to_have_count(1)
    first = f"Seat {order[0]} {players[order[0]]} calls"
    expect(log.first).to_have_text(first)
    order.append(state(table)["actor_seat"])
    assert call_button_centre(tablet) == at  # the next player's Call is under the finger

    # 0.7 s apart, and the second at least 100 ms past the guard: a run whose answer came
    # late (698 ms once, on a loaded machine) no longer puts the second tap inside the guard.
    guard_ms = settings.TABLET_TAP_GUARD_MS
    two_clicks(tablet, at, apart_ms=700, after_drawn_ms=guard_ms + 100)
    settled(tablet)
    assert len(posts) == 3
    assert HandEvent.objects.filter(hand=hand).count() == 3
    expect(log).to_have_count(3)
    texts = log.all_inner_texts()  # the newest first
    assert texts[1:] == [f"Seat {order[1]} {players[order[1]]} calls", first]
    assert texts[0].endswith(" calls")
    assert str(order[1]) not in texts[0].split()[:2]


@pytest.mark.tap_guard
def test_the_start_button_and_a_refused_tap_redraw_without_a_second_action(
    tablet: Any, live_server: Any
) -> None:
    """The guard holds wherever the dock is drawn: a double tap on "Start next hand" starts one
    hand and enters nothing in it; a tap refused because another device moved the hand on (409)
    redraws the tablet with the sentence, and the double tap's second click is not taken on it."""
    table, _ = deal_table()
    sign_in(tablet, live_server, table)
    posts: list[str] = []

    def count_posts(request: Any) -> None:
        if request.method == "POST":
            posts.append(request.url)

    tablet.on("request", count_posts)
    two_clicks(tablet, call_button_centre(tablet, "Start next hand"), apart_ms=150)
    settled(tablet)
    assert len(posts) == 1
    hand = Hand.objects.get(table=table)
    assert HandEvent.objects.filter(hand=hand).count() == 0

    tablet.route("**/state/", lambda route: route.abort())  # this tablet does not see the change
    at = call_button_centre(tablet)
    other = hand_record_action(
        hand=hand.pk,
        action={"kind": "call"},
        client_id="another-tablet",
        version=0,
        actor=table.dealer,
    )
    connections.close_all()
    assert other.answer["version"] == 1
    two_clicks(tablet, at, apart_ms=150)
    settled(tablet)
    assert len(posts) == 2
    expect(tablet.get_by_test_id("notice")).to_contain_text("The hand changed on another device")
    assert HandEvent.objects.filter(hand=hand).count() == 1
    assert tablet.get_attribute("#tablet", "data-version") == "1"
