"""The room's screens and the phone page in Chromium (issues 14, "Screens", and 27).

Each layout at 1920 x 1080, 1280 x 720 and 3840 x 2160: nothing scrolls, the main figures are
inside the screen, with a floor message of two lines too, and the clock is readable from across
the room (its digits at least 12% of the screen's height, 30% on the big clock; the blinds at
least 12%; the sidebar's rows at least 3.5%, readable from 5 m). A screen whose polls fail says
so within 30 s, with the time of its last update, and stops saying so when they answer again.
The payouts turn page by page; a screen with sound asks for the click browsers need, then
chimes when the level changes; the final result replaces the clock at the end. The phone page
at 390 x 844 starts with the level, the blinds and the time, and "jose" finds José.
Screenshots go into docs/screenshots/ for the README.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.browser.conftest import screenshot, sign_in_director
from tournaments.models import Entry, Tournament
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import clock_set_level, clock_start
from tournaments.services.entries import entry_register, entry_set_chips
from tournaments.services.events import (
    schedule_create,
    tournament_create,
    tournament_finish,
    tournament_open_registration,
)
from tournaments.services.screens import screen_create, tournament_set_floor_message
from tournaments.services.tables import tournament_draw_seats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = [
    "Ana",
    "Ben",
    "Chloe",
    "Dmitri",
    "Eva",
    "Farid",
    "Grace",
    "Hugo",
    "Ines",
    "Jonas",
    "Kofi",
    "Lena",
    "Marta",
    "Nils",
    "Olga",
    "Pavel",
    "Quinn",
    "Rosa",
    "Sven",
    "Tariq",
]
LAST = [
    "Alvarez",
    "Brooks",
    "Chen",
    "Dubois",
    "Eriksen",
    "Fischer",
    "Garcia",
    "Haddad",
    "Ivanova",
    "Jensen",
    "Kowalski",
]
LEVELS: list[dict[str, Any]] = [
    {"small_blind": 100, "big_blind": 200, "duration": 1800},
    {"small_blind": 200, "big_blind": 400, "ante": 400, "bb_ante": True, "duration": 1800},
    {"is_break": True, "duration": 900, "note": "Colour-up: remove the 25s"},
    {"small_blind": 300, "big_blind": 600, "ante": 600, "bb_ante": True, "duration": 1800},
]
VIEWPORTS = {"1920": (1920, 1080), "1280": (1280, 720), "3840": (3840, 2160)}
# 150 characters: two lines on every layout at every size.
TWO_LINES = (
    "Day 2 restarts tomorrow at 12:00 in the main hall. Bag and tag your chips at the end of"
    " the level; the bags and the forms are at the registration desk."
)


@pytest.fixture
def screen_view(browser: Any) -> Iterator[Any]:
    """A TV: each test sets the size it needs."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def _series_event(players: int, *, seconds_in: int = 38 * 60) -> Tournament:
    """A running event of `players` (José Núñez among them), its clock started `seconds_in`
    ago (by default in level 2, with the colour-up break next), some stacks counted and a
    message from the floor."""
    schedule = schedule_create(name="Series", levels=LEVELS)
    event = tournament_create(
        schedule=schedule, name="Summer Series #4: 300 NLH", buy_in=300, seats_per_table=9
    )
    event = tournament_open_registration(tournament=event)
    now = datetime.now(UTC) - timedelta(seconds=seconds_in)
    names = ["José Núñez"] + [f"{f} {last}" for last in LAST for f in FIRST]
    for name in names[:players]:
        entry_register(tournament=event, player_name=name, now=now)
    tournament_draw_seats(tournament=event, rng=random.Random(4))
    clock_start(tournament=event, now=now)
    rng = random.Random(14)
    entries = list(Entry.objects.filter(tournament=event).order_by("pk"))
    for entry in rng.sample(entries, min(15, len(entries))):
        entry_set_chips(entry=entry, chips=rng.randrange(12000, 90000, 25), note="at level 2")
    tournament_set_floor_message(
        tournament=event, message="Day 2 restarts tomorrow at 12:00 - bag your chips at the end"
    )
    return Tournament.objects.get(pk=event.pk)


def _wait_for_scripts(page: Any) -> None:
    """Until clock.js has drawn the clock and screen.js the board."""
    page.wait_for_function(
        "() => { const r = document.querySelector('[data-clock]');"
        " return r && r.dataset.clockStarted === '1'; }"
    )
    page.wait_for_timeout(400)  # a tick of the clock (250 ms): the break countdown is drawn


def _fits(page: Any, selectors: list[str]) -> list[str]:
    """What does not fit: the page scrolling, or a figure's box outside the viewport or its
    panel."""
    problems = page.evaluate(
        """(selectors) => {
          const out = [];
          const doc = document.documentElement;
          if (doc.scrollHeight > window.innerHeight) out.push('scrolls down: ' + doc.scrollHeight);
          if (doc.scrollWidth > window.innerWidth) out.push('scrolls sideways: ' + doc.scrollWidth);
          for (const s of selectors) {
            const e = document.querySelector(s);
            if (!e) { out.push('missing ' + s); continue; }
            const b = e.getBoundingClientRect();
            if (b.width === 0 || b.height === 0) out.push('empty ' + s);
            const inside = b.top >= 0 && b.left >= 0 && b.bottom <= window.innerHeight + 0.5
              && b.right <= window.innerWidth + 0.5;
            if (!inside) out.push('outside ' + s + ' ' + JSON.stringify(b));
            const panel = e.closest('.screen__payouts, .screen__leaders');
            const p = panel && panel.getBoundingClientRect();
            if (p && (b.bottom > p.bottom + 0.5 || b.right > p.right + 0.5)) {
              out.push('cut by its panel ' + s + ' ' + JSON.stringify(b));
            }
          }
          return out;
        }""",
        selectors,
    )
    return list(problems)


def _font_share(page: Any, selector: str) -> float:
    """The element's font size as a share of the viewport's height."""
    return float(
        page.evaluate(
            "s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)"
            " / window.innerHeight",
            selector,
        )
    )


CLOCK_PARTS = [
    "[data-clock-time]",
    "[data-screen-blinds]",
    "[data-clock-field=label]",
    "[data-screen-break]",
    "[data-clock-field=break_note]",
    "[data-clock-field=floor_message]",
    ".screen__stats",
]
LAYOUT_PARTS = {
    "classic": [],
    "sidebar": [
        ".screen__payouts",
        ".screen__places li:last-child",
        ".screen__leaders",
        "[data-screen-leaders] li:last-child",
    ],
    "payouts": [".screen__payouts", ".screen__places:last-child li:last-child"],
}
SCREENSHOTS = {
    ("classic", "1920"): "screen-classic-1920",
    ("sidebar", "1920"): "screen-sidebar-1920",
    ("payouts", "1280"): "screen-payouts-1280",
}


SHARES = {
    "classic": {"[data-clock-time]": 0.30, ".screen__blinds-main": 0.12},
    "sidebar": {
        "[data-clock-time]": 0.20,
        ".screen__blinds-main": 0.12,
        ".screen__places li": 0.035,
        "[data-screen-leaders] li": 0.035,
        ".screen__panel-title": 0.035,
    },
    "payouts": {
        "[data-clock-time]": 0.12,
        ".screen__blinds-main": 0.12,
        ".screen__places li": 0.025,
    },
}


def _shares(page: Any, least: dict[str, float]) -> dict[str, tuple[float, float]]:
    """Each selector's font size as a share of the viewport's height, with the least allowed."""
    return {selector: (round(_font_share(page, selector), 4), n) for selector, n in least.items()}


def test_every_layout_fits_and_reads_from_across_the_room(
    screen_view: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tournaments.views.screens.PAGE_SECONDS", 1)
    event = _series_event(220)  # 33 places paid: four pages of payouts
    screens = {
        layout: screen_create(tournament=event, name=f"TV {layout}", layout=layout)
        for layout in ("classic", "sidebar", "payouts")
    }

    for layout, screen in screens.items():
        for size, (width, height) in VIEWPORTS.items():
            screen_view.set_viewport_size({"width": width, "height": height})
            screen_view.goto(f"{live_server.url}/t/{event.pk}/screens/{screen.pk}/")
            _wait_for_scripts(screen_view)

            assert _fits(screen_view, CLOCK_PARTS + LAYOUT_PARTS[layout]) == [], (layout, size)
            # Readable from 10 metres: the digits are at least 12% of the screen's height, the
            # blinds too, and the big clock's digits at least 30%.
            shares = _shares(screen_view, SHARES[layout])
            assert all(share >= least for share, least in shares.values()), (layout, size, shares)
            assert screen_view.inner_text(".screen__blinds-main") == "200 / 400"
            assert screen_view.inner_text(".screen__ante") == "ante 400 (BB ante)"
            assert screen_view.inner_text("[data-clock-field=label]") == "Level 2"
            assert re.fullmatch(
                r" · Break in (21|22):\d\d", screen_view.inner_text("[data-screen-break]")
            )
            assert screen_view.inner_text("[data-clock-field=break_note]") == (
                "Colour-up: remove the 25s"
            )
            if (layout, size) in SCREENSHOTS:
                screenshot(screen_view, SCREENSHOTS[layout, size], full_page=False)

    # A message of two lines wraps, whole, and the layout still fits.
    tournament_set_floor_message(tournament=event, message=TWO_LINES)
    for layout, screen in screens.items():
        for size, (width, height) in VIEWPORTS.items():
            screen_view.set_viewport_size({"width": width, "height": height})
            screen_view.goto(f"{live_server.url}/t/{event.pk}/screens/{screen.pk}/")
            _wait_for_scripts(screen_view)

            assert _fits(screen_view, CLOCK_PARTS + LAYOUT_PARTS[layout]) == [], (layout, size)
            lines = screen_view.evaluate(
                "() => { const m = document.querySelector('.screen__message');"
                " const s = getComputedStyle(m);"
                " return [(m.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom))"
                " / parseFloat(s.lineHeight), m.scrollHeight <= m.clientHeight]; }"
            )
            assert round(lines[0]) == 2, (layout, size, lines)
            assert lines[1], (layout, size)  # whole: nothing cut
            shares = _shares(screen_view, SHARES[layout])  # as large with the message
            assert all(share >= least for share, least in shares.values()), (layout, size, shares)
            if (layout, size) == ("sidebar", "1280"):
                screenshot(screen_view, "screen-sidebar-1280-two-lines", full_page=False)
    tournament_set_floor_message(tournament=event, message="")

    # The sidebar turns the payouts page by page (one a second here) and lists the leaders.
    screen_view.goto(f"{live_server.url}/t/{event.pk}/screens/{screens['sidebar'].pk}/")
    _wait_for_scripts(screen_view)
    # The first place on the first page, read in the same instant as the page number (the page
    # turns every second, so a slow machine may see it turn between two separate reads).
    first = screen_view.wait_for_function(
        "() => document.querySelector('[data-screen-page]').textContent.startsWith('1 / 6')"
        " && document.querySelector('.screen__places li:first-child .screen__place-no')"
        ".textContent.trim()"
    ).json_value()
    screen_view.wait_for_function(
        "() => document.querySelector('[data-screen-page]').textContent.startsWith('2 / 6')"
    )
    assert first == "1st"  # six places to a page, six leaders
    assert screen_view.inner_text(".screen__places li:first-child .screen__place-no") == "7th"
    assert screen_view.locator(".screen__places li").count() == 6
    assert screen_view.locator("[data-screen-leaders] li").count() == 6
    leader = Entry.objects.filter(tournament=event).order_by("-chips", "pk").first()
    assert leader is not None
    assert screen_view.inner_text("[data-screen-leaders] li:first-child .screen__leader-name") == (
        leader.player.name
    )


def test_a_screen_whose_polls_fail_says_so_and_stops_when_they_answer(
    screen_view: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tournaments.views.screens.CLOCK_POLL_SECONDS", 1)
    monkeypatch.setattr("tournaments.views.screens.OFFLINE_SECONDS", 4)
    event = _series_event(30)
    screen = screen_create(tournament=event, name="Bar TV", layout="sidebar")
    screen_view.set_viewport_size({"width": 1280, "height": 720})
    screen_view.goto(f"{live_server.url}/t/{event.pk}/screens/{screen.pk}/")
    _wait_for_scripts(screen_view)
    sign = screen_view.locator("[data-screen-offline]")
    screen_view.wait_for_timeout(2500)  # polls answering: no sign
    assert not sign.is_visible()

    # The network goes: every poll (the clock's, the board's) fails; the clock keeps counting.
    screen_view.route("**/api/**", lambda route: route.abort())
    sign.wait_for(state="visible", timeout=30_000)
    assert re.fullmatch(r"Offline: showing the last update at \d\d:\d\d", sign.inner_text())
    before = screen_view.inner_text("[data-clock-time]")
    screen_view.wait_for_function(
        f"() => document.querySelector('[data-clock-time]').textContent !== '{before}'"
    )
    assert _fits(screen_view, ["[data-screen-offline]", *CLOCK_PARTS]) == []
    screenshot(screen_view, "screen-offline-1280", full_page=False)

    # Back: the next poll that answers takes the sign down.
    screen_view.unroute("**/api/**")
    sign.wait_for(state="hidden", timeout=10_000)
    assert screen_view.locator(".screen.is-offline").count() == 0


def test_a_screen_with_sound_asks_for_a_click_then_chimes_at_the_level_change(
    screen_view: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tournaments.views.screens.CLOCK_POLL_SECONDS", 1)
    event = _series_event(12)
    screen = screen_create(tournament=event, name="Bar TV", layout="classic", sound=True)
    # Count the notes the page plays (Web Audio oscillators), without hearing them.
    screen_view.add_init_script(
        "window.__notes = 0; const make = AudioContext.prototype.createOscillator;"
        "AudioContext.prototype.createOscillator = function () {"
        " window.__notes += 1; return make.call(this); };"
    )
    screen_view.goto(f"{live_server.url}/t/{event.pk}/screens/{screen.pk}/")
    _wait_for_scripts(screen_view)

    button = screen_view.get_by_role("button", name="Click to enable sound")
    assert button.is_visible()
    button.click()
    screen_view.wait_for_function("() => document.body.dataset.sound === 'on'")
    assert not button.is_visible()
    notes_before = screen_view.evaluate("window.__notes")

    clock_set_level(tournament=event, index=2, now=datetime.now(UTC))
    screen_view.wait_for_function(f"() => window.__notes >= {notes_before + 3}")
    screen_view.wait_for_selector("[data-clock-field=label]:has-text('Break')")


def test_a_screen_with_sound_warns_one_minute_before_the_level_ends(
    screen_view: Any, live_server: Any
) -> None:
    event = _series_event(9, seconds_in=30 * 60 - 64)  # level 1 has 64 seconds left
    screen = screen_create(tournament=event, name="Bar TV", layout="payouts", sound=True)
    screen_view.add_init_script(
        "window.__notes = 0; const make = AudioContext.prototype.createOscillator;"
        "AudioContext.prototype.createOscillator = function () {"
        " window.__notes += 1; return make.call(this); };"
    )
    screen_view.goto(f"{live_server.url}/t/{event.pk}/screens/{screen.pk}/")
    _wait_for_scripts(screen_view)
    screen_view.get_by_role("button", name="Click to enable sound").click()
    screen_view.wait_for_function("() => document.body.dataset.sound === 'on'")
    notes_before = screen_view.evaluate("window.__notes")

    # Two short beeps when the clock passes 1:00, with no request and no level change.
    screen_view.wait_for_function(f"() => window.__notes >= {notes_before + 2}", timeout=12_000)
    assert screen_view.inner_text("[data-clock-field=label]") == "Level 1"
    assert re.fullmatch(r"1:00|0:5\d", screen_view.inner_text("[data-clock-time]"))


def test_the_final_result_replaces_the_clock_when_the_event_is_over(
    screen_view: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tournaments.views.screens.CLOCK_POLL_SECONDS", 1)
    event = _series_event(9)
    screen = screen_create(tournament=event, name="Lobby", layout="sidebar")
    screen_view.set_viewport_size({"width": 1280, "height": 720})
    screen_view.goto(f"{live_server.url}/t/{event.pk}/screens/{screen.pk}/")
    _wait_for_scripts(screen_view)
    assert not screen_view.is_visible("[data-screen-result]")

    left = list(Entry.objects.filter(tournament=event, status="active").order_by("-chips", "pk"))
    now = datetime.now(UTC)
    for entry in reversed(left[1:]):
        entries_bust(
            tournament=event, busts=[Bust(entry_id=entry.pk, starting_stack=entry.chips)], now=now
        )
    tournament_finish(tournament=event)

    screen_view.wait_for_selector("[data-screen-result]", state="visible")
    assert screen_view.inner_text("[data-screen-winner]") == left[0].player.name
    assert screen_view.locator("[data-screen-result-list] li").count() == 8
    assert _fits(screen_view, ["[data-screen-winner]", "[data-screen-result-list]"]) == []
    screenshot(screen_view, "screen-final-result", full_page=False)


def test_the_phone_page_starts_with_the_clock_and_finds_jose(phone: Any, live_server: Any) -> None:
    event = _series_event(40)
    out = Entry.objects.filter(tournament=event, player__name="Ana Alvarez").get()
    entries_bust(
        tournament=event,
        busts=[Bust(entry_id=out.pk, starting_stack=out.chips)],
        now=datetime.now(UTC),
    )

    phone.goto(f"{live_server.url}/t/{event.pk}/")
    _wait_for_scripts(phone)

    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    top = phone.evaluate(
        "() => ['[data-clock-field=label]', '[data-phone-blinds]', '[data-clock-time]']"
        ".map(s => document.querySelector(s).getBoundingClientRect())"
        ".map(b => [b.top, b.bottom, b.right])"
    )
    assert all(t >= 0 and b <= 160 and r <= 390 for t, b, r in top), top
    assert phone.inner_text(".phone-clock [data-clock-field=label]") == "Level 2"
    # The blinds and the ante apart (issue 27, static/js/phone.js).
    assert phone.inner_text(".phone-clock [data-phone-blinds]") == "200 / 400"
    assert phone.inner_text(".phone-clock [data-phone-ante]").strip() == "· Ante 400 (BB ante)"
    assert re.fullmatch(r"\d{1,2}:\d\d", phone.inner_text(".phone-clock [data-clock-time]"))

    phone.fill("#seat-q", "jose")
    phone.wait_for_selector(".seat-result__name:has-text('José Núñez')")
    phone.fill("#seat-q", "ana alv")
    phone.wait_for_selector(".seat-result__where:has-text('Out \u2013 40th')")
    phone.fill("#seat-q", "jose")
    phone.wait_for_selector(".seat-result__name:has-text('José Núñez')")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(phone, "phone-standings", full_page=False)


def test_a_director_sets_up_the_rooms_screens(page: Any, live_server: Any) -> None:
    event = _series_event(20)
    screen_create(tournament=event, name="Main stage TV", layout="classic", sound=True)
    page.set_viewport_size({"width": 1366, "height": 900})
    sign_in_director(page, live_server)

    page.goto(f"{live_server.url}/desk/t/{event.pk}/")
    page.get_by_role("link", name="Screens", exact=True).click()
    page.wait_for_url(re.compile(r"/screens/$"))
    page.fill("#id_name", "Bar TV")
    page.select_option("#id_layout", "sidebar")
    page.click("button:has-text('Add screen')")
    page.wait_for_selector("text=Screen “Bar TV” added")

    bar = event.screens.get(name="Bar TV")
    assert bar.layout == "sidebar"
    link = page.locator(f"a[href='/t/{event.pk}/screens/{bar.pk}/']")
    assert link.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "director-screens")
