"""The tablet at the three tablet sizes it supports (issue 24), measured in Chromium.

At 1024 x 768, 1180 x 820 and 1366 x 1024, with ten seats and player names of 25 characters and
more: a hand ended at the showdown with the awards of four pots, a hand with the action bar, and
a hand at the showdown with the card picker. Every seat box is inside the window and not covered,
no two seats overlap, the award boxes, the action bar and the showdown overlap no seat, and every
button is at least 44 px tall. The boxes are measured
(`bounding_box`), not judged from screenshots, which are saved under /tmp for a look.

And a reopened hand in the browser: the pots, badges and stacks are the engine's state after the
reopening, nothing of the hand's old end (its screenshots, at 1024 x 768, are the README's).
"""

from __future__ import annotations

import random
import re
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from django.utils import timezone

from dealer.models import Hand
from dealer.services import hand_record_action, hand_start
from tests.browser.conftest import screenshot
from tests.factories import DealerFactory
from tournaments.models import Entry, Table
from tournaments.services.clocks import clock_start
from tournaments.services.entries import entry_register, entry_set_chips
from tournaments.services.events import (
    schedule_create,
    tournament_create,
    tournament_open_registration,
)
from tournaments.services.tables import tournament_draw_seats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(1024, 768), (1180, 820), (1366, 1024)]
SHOTS = Path("/tmp/tablet-layout")
MIN_BUTTON = 44  # px: the smallest tap target the tablet may draw

FIRST = ["Alexandrina", "Maximilian", "Evangeline", "Bartholomew", "Anastasiya", "Konstantin"]
LAST = [
    "Vasquez-Montgomery",
    "Featherstonehaugh",
    "Oyelaran-Whitfield",
    "Kowalczyk-Dunmore",
    "Abernathy-Lindqvist",
]
SHORT_STACKS = (1000, 2000, 3000, 4000)
# The shortest stack holds the best hand: each of the four pots has its own winner.
SHORT_HOLES = (["As", "Ah"], ["Ks", "Kh"], ["Qs", "Qh"], ["Js", "Jh"])
CALLER_HOLE = ["8c", "5h"]


def long_names(count: int) -> list[str]:
    names = [f"{first} {last}" for last in LAST for first in FIRST][:count]
    assert all(len(name) >= 25 for name in names), names
    return names


def ten_seat_tables() -> tuple[list[Table], Any]:
    """A running tournament of thirty at three tables of ten, every name 25 characters or more;
    the dealer "dana" deals them all."""
    schedule = schedule_create(
        name=f"Layout {random.random()}",
        levels=[{"small_blind": 100, "big_blind": 200, "duration": 1800}],
    )
    tournament = tournament_create(
        schedule=schedule, name="Layout Deepstack", starting_stack=10000, seats_per_table=10
    )
    tournament_open_registration(tournament=tournament)
    now = timezone.now()
    for name in long_names(30):
        entry_register(tournament=tournament, player_name=name, now=now)
    tournament_draw_seats(tournament=tournament, rng=random.Random(5))
    clock_start(tournament=tournament, now=now)
    dealer = DealerFactory.create(username="dana")
    tables = list(Table.objects.filter(tournament=tournament).order_by("number"))
    assert len(tables) == 3
    for table in tables:
        assert Entry.objects.filter(table=table).count() == 10
        table.dealer = dealer
        table.save(update_fields=["dealer"])
    return tables, dealer


def write(hand: Hand, state: Mapping[str, Any], dealer: Any, **action: Any) -> Mapping[str, Any]:
    result = hand_record_action(
        hand=hand.pk,
        action=action,
        client_id=uuid.uuid4().hex,
        version=state["version"],
        actor=dealer,
    )
    return result.answer


def four_pots(table: Table, dealer: Any) -> tuple[dict[str, Any], list[int], int]:
    """Four short stacks (1,000 to 4,000) all-in preflop, one deep stack calls them all, the
    others fold; the hand is played to its end: four pots, each with its own winner. Returns
    the hand's last state, the short seats and the caller's seat."""
    entries = list(Entry.objects.filter(table=table).order_by("seat"))
    seats = [entry.seat for entry in entries if entry.seat is not None]
    shorts, caller = seats[:4], seats[5]
    for entry, stack in zip(entries, SHORT_STACKS, strict=False):
        entry_set_chips(entry=entry, chips=stack)
    holes = {seat: SHORT_HOLES[i] for i, seat in enumerate(shorts)} | {caller: CALLER_HOLE}
    hand = hand_start(table=table, actor=dealer)
    state = hand.state
    boards = iter((["2c", "7d", "9h"], ["Td"], ["3s"]))
    while state["phase"] != "complete":
        if state["phase"] == "dealing":
            state = write(hand, state, dealer, kind="deal_board", cards=next(boards))
        elif state["phase"] == "showdown":
            seat = state["next_to_show"]
            state = write(hand, state, dealer, kind="show", seat=seat, cards=holes[seat])
        else:
            actor = state["legal"]["actor"]
            if actor in shorts:
                kind = "all_in"
            elif actor == caller:
                kind = "check" if state["legal"]["can_check"] else "call"
            else:
                kind = "fold"
            state = write(hand, state, dealer, kind=kind, seat=actor)
    assert len(state["awards"]) == 4
    return state, shorts, caller


def to_showdown(table: Table, dealer: Any) -> None:
    """The first player to act goes all-in, the next one calls, the others fold; the board is
    dealt: the hand waits at the showdown, the card picker open."""
    hand = hand_start(table=table, actor=dealer)
    state = hand.state
    boards = iter((["2c", "7d", "9h"], ["Td"], ["3s"]))
    actions = iter(["all_in", "call"])
    while state["phase"] != "showdown":
        if state["phase"] == "dealing":
            state = write(hand, state, dealer, kind="deal_board", cards=next(boards))
        else:
            kind = next(actions, "fold")
            state = write(hand, state, dealer, kind=kind, seat=state["legal"]["actor"])


@pytest.fixture
def dealt() -> dict[str, Any]:
    """Table 1 with its four-pot hand over, table 2 with a hand at its first action, table 3
    with a hand at the showdown."""
    (over, betting, showdown), dealer = ten_seat_tables()
    ended, shorts, caller = four_pots(over, dealer)
    hand_start(table=betting, actor=dealer)
    to_showdown(showdown, dealer)
    connections.close_all()  # the live server's threads see what this thread wrote
    return {
        "over": over,
        "betting": betting,
        "showdown": showdown,
        "ended": ended,
        "shorts": shorts,
        "caller": caller,
    }


def open_tablet(browser: Any, live_server: Any, table: Table, size: tuple[int, int]) -> Any:
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    url = f"/deal/table/{table.pk}/"
    page.goto(f"{live_server.url}/login/?next={url}")
    page.fill("input[name=username]", "dana")
    page.fill("input[name=password]", "pw")
    page.press("input[name=password]", "Enter")
    page.wait_for_url(re.compile(re.escape(url) + "$"))
    return page


# --- measuring ------------------------------------------------------------------------------


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    found = []
    for element in page.locator(selector).all():
        box = element.bounding_box()
        if box is not None and box["width"] > 0 and box["height"] > 0:
            found.append(box)
    return found


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two boxes share (0 when they only touch)."""
    width = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    height = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(0.0, width) * max(0.0, height)


def inside(box: dict[str, float], width: int, height: int) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width
        and box["y"] + box["height"] <= height
    )


# Each seat box's corners (a little inside, clear of the rounded corners) and centre: what the
# window shows there must be the seat itself (or what it holds), not the page's edge, the dock
# or another seat: a seat cut or covered is found here even when its box is inside the window.
COVERED_SEATS = """() => {
  const hidden = [];
  for (const seat of document.querySelectorAll('.seat-box')) {
    const r = seat.getBoundingClientRect();
    const points = [[r.left + 10, r.top + 10], [r.right - 10, r.top + 10],
                    [r.left + 10, r.bottom - 10], [r.right - 10, r.bottom - 10],
                    [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit.closest('.seat-box') !== seat) {
        hidden.push(seat.dataset.seat + ' at ' + Math.round(x) + ',' + Math.round(y)
                    + ' shows ' + (hit ? hit.className : 'nothing'));
        break;
      }
    }
  }
  return hidden;
}"""


def check_seats(page: Any, size: tuple[int, int]) -> list[dict[str, float]]:
    width, height = size
    seats = boxes(page, ".seat-box")
    assert len(seats) == 10
    outside = [i for i, box in enumerate(seats) if not inside(box, width, height)]
    assert outside == [], f"seats outside the {width}x{height} window: {outside}"
    pairs = [(i, j) for i in range(10) for j in range(i + 1, 10) if overlap(seats[i], seats[j]) > 0]
    assert pairs == [], f"seats overlapping at {width}x{height}: {pairs}"
    assert page.evaluate(COVERED_SEATS) == []
    return seats


def check_buttons(page: Any) -> None:
    """Every button, and every card of the picker, is a tap target of 44 px or more."""
    short = [
        (button.inner_text().strip(), box["height"])
        for button in page.locator("button:visible, .tbtn:visible, .pick:visible").all()
        if (box := button.bounding_box()) is not None and box["height"] < MIN_BUTTON
    ]
    assert short == [], f"buttons under {MIN_BUTTON} px: {short}"


def check_clear_of_seats(
    page: Any, selector: str, seats: list[dict[str, float]], size: tuple[int, int]
) -> list[dict[str, float]]:
    found = boxes(page, selector)
    assert found, selector
    for box in found:
        assert inside(box, *size), f"{selector} outside the window: {box}"
        hits = [i for i, seat in enumerate(seats) if overlap(box, seat) > 0]
        assert hits == [], f"{selector} overlaps seats {hits} at {size}"
    return found


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_ten_seats_with_long_names_and_four_awards_fit_each_tablet_size(
    browser: Any, live_server: Any, dealt: dict[str, Any], size: tuple[int, int]
) -> None:
    SHOTS.mkdir(exist_ok=True)
    tag = f"{size[0]}x{size[1]}"

    over = open_tablet(browser, live_server, dealt["over"], size)
    over.wait_for_selector("text=push the pots")
    assert over.locator(".award").count() == 4
    over.screenshot(path=str(SHOTS / f"awards-{tag}.png"))
    seats = check_seats(over, size)
    awards = check_clear_of_seats(over, ".award", seats, size)
    start = check_clear_of_seats(over, ".next-hand__start", seats, size)
    assert all(overlap(award, start[0]) == 0 for award in awards)
    check_buttons(over)
    over.context.close()

    betting = open_tablet(browser, live_server, dealt["betting"], size)
    betting.wait_for_selector("[data-testid=action-bar]")
    betting.screenshot(path=str(SHOTS / f"betting-{tag}.png"))
    seats = check_seats(betting, size)
    check_clear_of_seats(betting, "[data-testid=action-bar]", seats, size)
    check_buttons(betting)
    betting.context.close()

    showdown = open_tablet(browser, live_server, dealt["showdown"], size)
    showdown.wait_for_selector("[data-testid=showdown]")
    showdown.screenshot(path=str(SHOTS / f"showdown-{tag}.png"))
    seats = check_seats(showdown, size)
    check_clear_of_seats(showdown, "[data-testid=showdown]", seats, size)
    # With the cards entered, showdown by tap is folded into one button that takes no room from
    # the table and covers none of the showdown's own buttons.
    push = check_clear_of_seats(showdown, "[data-testid=push] > summary", seats, size)[0]
    taps = boxes(showdown, "[data-testid=showdown] button, [data-testid=showdown] .pick")
    assert [b for b in taps if overlap(b, push) > 0] == [], "the push covers a showdown button"
    check_buttons(showdown)
    showdown.context.close()


def seat_text(page: Any, seat: int, part: str) -> str:
    return str(page.locator(f".seat-box[data-seat='{seat}'] .seat-box__{part}").inner_text())


def test_a_reopened_hand_shows_the_pots_stacks_and_tags_of_the_engine_not_its_old_end(
    browser: Any, live_server: Any, dealt: dict[str, Any]
) -> None:
    ended, shorts, caller = dealt["ended"], dealt["shorts"], dealt["caller"]
    before_award = {p["seat"]: p["stack"] for p in ended["players"]}
    for award in ended["awards"]:
        for seat, share in zip(award["winners"], award["shares"], strict=True):
            before_award[seat] -= share
    page = open_tablet(browser, live_server, dealt["over"], SIZES[0])
    page.wait_for_selector("text=push the pots")
    assert page.locator(".seat-box .tag--win").count() == 4

    page.get_by_text("Reopen the last hand").click()
    page.get_by_text("Wrong winner").click()
    screenshot(page, "tablet-reopen", full_page=False)
    page.get_by_role("button", name="Reopen hand 1").click()
    page.get_by_test_id("reopened").wait_for()
    screenshot(page, "tablet-reopened", full_page=False)

    assert page.locator(".seat-box .tag--win").count() == 0
    assert page.locator(".seat-box.is-winner").count() == 0
    shown = {seat: int(seat_text(page, seat, "stack").replace(",", "")) for seat in before_award}
    assert shown == before_award
    assert all(seat_text(page, seat, "status .tag").lower() == "all-in" for seat in shorts)
    pots = [
        (
            pot.locator(".pot__head span").inner_text(),
            sorted(int(chip) for chip in pot.locator(".seat-chip").all_inner_texts()),
        )
        for pot in page.locator(".pot").all()
    ]
    contenders = [caller, *reversed(shorts)]  # the deepest first
    assert pots == [
        ("Main pot", sorted(contenders)),
        ("Side pot 1", sorted(contenders[:4])),
        ("Side pot 2", sorted(contenders[:3])),
        ("Side pot 3", sorted(contenders[:2])),
    ]
    page.context.close()
