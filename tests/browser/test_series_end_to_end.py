"""Each series format of issue 14 run end to end in Chromium at the desk's 1366 x 900, through
the pages only, as a director would: a progressive knockout, a satellite whose seat winners are
registered in its target, and a two-flight event played to Day 2's winner.

Services are used only for what has no page in these runs: the director's user (made by
`sign_in_director`), the blind schedule (the Schedules page has its own tests), and finishing a
satellite whose seats are won (no button for it yet: see the satellite test). Every other step
is a click or a typed value; the amounts asserted are read from the pages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

from tests.browser.conftest import sign_in_director, wait_for_message
from tournaments.services.events import schedule_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def desk(browser: Any) -> Iterator[Any]:
    """A laptop at the desk: 1366 x 900."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def schedule() -> str:
    """One long level: nothing in these runs waits for the clock."""
    made = schedule_create(
        name="Series levels",
        levels=[
            {"small_blind": 100, "big_blind": 200, "duration": 3600},
            {"small_blind": 200, "big_blind": 400, "duration": 3600},
        ],
    )
    return made.name


def wait_for_htmx(page: Any, selector: str) -> None:
    """Until htmx has bound the element's triggers: a change made sooner sends nothing."""
    page.wait_for_function(
        "s => { const e = document.querySelector(s);"
        " return !!(e && e['htmx-internal-data'] && e['htmx-internal-data'].initHash); }",
        arg=selector,
    )


def money(text: str) -> Decimal:
    """An amount as a page shows it ("1,234.50", "260") as a number."""
    found = re.search(r"-?[\d,]+(?:\.\d+)?", text)
    assert found, f"no amount in {text!r}"
    return Decimal(found.group().replace(",", ""))


def stat(page: Any, term: str, scope: str = "main") -> Decimal:
    """The amount of one figure in a page's stats list (Prize pool, Remainder, ...)."""
    figure = page.locator(f"{scope} .stats div", has=page.locator("dt", has_text=term)).first
    return money(figure.locator("dd").inner_text())


def tab(page: Any, name: str) -> None:
    """Open one of the tournament's tabs (Registration, Tables, Clock, ...); one already open
    stays as it is (the page a form's answer left)."""
    current = f'nav.tabs a[aria-current="page"]:text-is("{name}")'
    if page.locator(current).count():
        return
    page.locator("nav.tabs").get_by_role("link", name=name, exact=True).click()
    page.wait_for_selector(current)


def fill_settings(page: Any, *, name: str, schedule: str, **fields: str) -> None:
    """The tournament settings shared by the New tournament and New multi-flight event forms:
    text fields by their label; `bounty_kind` and `satellite_for` are lists to choose from."""
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Blind schedule").select_option(label=schedule)
    labels = {
        "buy_in": "Buy-in",
        "fee": "Fee",
        "payouts": "Payout percentages",
        "bounty": "Bounty",
        "seat_value": "Seat value",
    }
    for key, value in fields.items():
        if key == "bounty_kind":
            page.get_by_label("Bounties", exact=True).select_option(value)
        elif key == "satellite_for":
            page.get_by_label("Satellite for").select_option(label=value)
        else:
            page.get_by_label(labels[key], exact=True).fill(value)


def new_tournament(page: Any, live_server: Any, *, name: str, schedule: str, **fields: str) -> str:
    """Create a tournament on the desk's New tournament form; its desk address."""
    page.goto(f"{live_server.url}/desk/")
    page.get_by_role("link", name="New tournament").click()
    fill_settings(page, name=name, schedule=schedule, **fields)
    page.get_by_role("button", name="Create tournament").click()
    page.wait_for_selector(f"text=Tournament '{name}' created.")
    found = re.search(r"/desk/t/(\d+)/", page.url)
    assert found, page.url
    return f"{live_server.url}/desk/t/{found.group(1)}"


def open_registration(page: Any, base: str) -> None:
    page.goto(f"{base}/")
    page.get_by_role("button", name="Open registration").click()
    wait_for_message(page, "Registration is open.")


def register(page: Any, base: str, names: list[str]) -> None:
    """Type each name on the Registration page and press Enter."""
    page.goto(f"{base}/entries/")
    field = page.get_by_label("Player name", exact=True)
    for count, name in enumerate(names, start=1):
        field.fill(name)
        field.press("Enter")
        page.wait_for_selector(f"h2:has-text('Entries') >> text=({count})")
        page.wait_for_selector(f"td.strong:text-is('{name}')")
    assert page.locator("tbody td.strong").count() == len(names)


def draw_and_start(page: Any) -> None:
    """Draw the seats on the Tables tab, then start the clock on the Clock tab."""
    tab(page, "Tables")
    page.get_by_role("button", name="Draw seats").click()
    page.wait_for_selector("text=Table 1")
    start_clock(page)


def start_clock(page: Any) -> None:
    tab(page, "Clock")
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector("button:has-text('Pause')")


def bust(page: Any, name: str, *, by: str | None = None) -> str:
    """On the Eliminations tab: pick the player out by name (their last known stack fills in),
    name who knocked them out, record it; the sentence the page answers with."""
    tab(page, "Eliminations")
    wait_for_htmx(page, "select.bust-row__player")
    out = page.get_by_label("Player out")
    out.select_option(out.locator("option", has_text=f"· {name} (").get_attribute("value"))
    page.wait_for_function("() => document.querySelector('input[name=stack]').value !== ''")
    if by is not None:
        pick = page.get_by_label("Knocked out by")
        pick.select_option(pick.locator("option", has_text=f"· {by}").get_attribute("value"))
    page.get_by_role("button", name="Record the bust").click()
    said = page.locator(".message", has_text=f"{name} out in place")
    said.wait_for()
    return str(said.inner_text())


def finish(page: Any) -> None:
    """At the end (one player left, or a satellite's seat winners), the Overview tab's "Finish
    tournament" (confirmed) stops the clock for good."""
    tab(page, "Overview")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Finish tournament").click()
    page.wait_for_selector("text=The tournament is finished.")
    assert page.locator(".event-head__title .badge").inner_text() == "Finished"


def payout_rows(page: Any, scope: str = "main") -> list[tuple[int, str, str]]:
    """The payout table as (place, prize cell, players) rows."""
    rows = []
    for row in page.locator(f"{scope} .payout-table tbody tr:not(.row--gap)").all():
        cells = row.locator("td").all_inner_texts()
        rows.append((int(cells[0]), cells[1].strip(), cells[2].strip()))
    return rows


def test_a_progressive_knockout_runs_from_registration_to_payouts(
    desk: Any, live_server: Any, schedule: str
) -> None:
    """4 players at 100 + 10 with 50 on each head (not in the pool: 400), 65/35. Ann knocks
    out Dana and Chen (25 cash each, her head 50 -> 75 -> 100); Bruno knocks Ann out (50 cash,
    his head 100) and wins, collecting his own head: Ann won 50, Bruno 150, 200 paid in all."""
    sign_in_director(desk, live_server)
    base = new_tournament(
        desk,
        live_server,
        name="Wednesday PKO",
        schedule=schedule,
        buy_in="100",
        fee="10",
        payouts="65, 35",
        bounty_kind="progressive",
        bounty="50",
    )
    open_registration(desk, base)
    register(desk, base, ["Ann Lee", "Bruno Costa", "Chen Wei", "Dana Kowalski"])
    draw_and_start(desk)

    assert "out in place 4" in bust(desk, "Dana Kowalski", by="Ann Lee")
    assert "out in place 3" in bust(desk, "Chen Wei", by="Ann Lee")
    said = bust(desk, "Ann Lee", by="Bruno Costa")
    assert "out in place 2, wins 140" in said
    assert desk.locator("td.eliminated-by").all_inner_texts() == [
        "Bruno Costa",
        "Ann Lee",
        "Ann Lee",
    ]
    finish(desk)

    tab(desk, "Payouts")
    assert stat(desk, "Prize pool") == Decimal("400")
    assert payout_rows(desk) == [(1, "260", "Bruno Costa"), (2, "140", "Ann Lee")]
    card = desk.locator(".bounties-card")
    assert card.get_by_role("heading", name="Progressive knockout").is_visible()
    assert stat(desk, "Bounties paid", ".bounties-card") == Decimal("200")
    won = {
        row.locator("td").nth(0).inner_text(): (
            row.locator("td").nth(1).inner_text(),
            money(row.locator("td").nth(3).inner_text()),
        )
        for row in card.locator(".bounty-table").first.locator("tbody tr").all()
    }
    assert won["Ann Lee"] == ("2", Decimal("50"))  # two knockouts at 25 cash each
    assert won["Bruno Costa"] == ("1", Decimal("150"))  # Ann's 50 cash and his own head of 100
    assert sum(amount for _, amount in won.values()) == Decimal("200")

    # The public standings page shows everyone the result and the winner's bounties.
    desk.goto(base.replace("/desk/t/", "/t/") + "/")
    assert desk.locator("[data-clock-status]").inner_text() == "Finished"
    assert stat(desk, "Prize pool", "#state") == Decimal("400")
    assert payout_rows(desk, "#state") == [(1, "260", "Bruno Costa"), (2, "140", "Ann Lee")]
    winner = desk.locator(".standings-table tbody tr", has_text="Bruno Costa")
    assert "won 150" in winner.inner_text()


def test_a_satellite_runs_to_its_seats_and_registers_the_winners(
    desk: Any, live_server: Any, schedule: str
) -> None:
    """5 players at 50 + 5 for seats worth 100 in the Sunday Main: a pool of 250 buys 2 seats,
    and 3rd place takes the remaining 50 in cash."""
    sign_in_director(desk, live_server)
    main = new_tournament(
        desk, live_server, name="Sunday Main", schedule=schedule, buy_in="90", fee="10"
    )
    sat = new_tournament(
        desk,
        live_server,
        name="Sunday Main Satellite",
        schedule=schedule,
        buy_in="50",
        fee="5",
        satellite_for="Sunday Main",
        seat_value="100",
    )
    players = ["Ann Lee", "Bruno Costa", "Chen Wei", "Dana Kowalski", "Eli Cohen"]
    open_registration(desk, sat)
    register(desk, sat, players)
    draw_and_start(desk)

    tab(desk, "Payouts")
    assert stat(desk, "Prize pool") == Decimal("250")
    assert stat(desk, "Seats", "#satellite") == 2
    assert stat(desk, "Remainder", "#satellite") == Decimal("50")

    assert "out in place 5" in bust(desk, "Eli Cohen", by="Ann Lee")
    assert "out in place 4" in bust(desk, "Dana Kowalski", by="Bruno Costa")
    assert "out in place 3, wins 50" in bust(desk, "Chen Wei", by="Ann Lee")

    tab(desk, "Payouts")
    rows = payout_rows(desk)
    seats = {player: prize for place, prize, player in rows if place <= 2}
    assert seats == {
        "Ann Lee": "Seat in Sunday Main (100)",
        "Bruno Costa": "Seat in Sunday Main (100)",
    }
    assert rows[2:] == [(3, "50", "Chen Wei")]
    card = desk.locator("#satellite")
    assert card.locator(".satellite-winners tbody tr").count() == 2

    # The target's registration must be open first: the director opens it on its page.
    desk.get_by_role("button", name="Register the winners in Sunday Main").click()
    desk.wait_for_selector("text=Registration for Sunday Main is closed")
    open_registration(desk, main)
    desk.goto(f"{sat}/payouts/")
    desk.get_by_role("button", name="Register the winners in Sunday Main").click()
    desk.wait_for_selector("text=Registered in Sunday Main:")
    assert card.locator(".badge", has_text="registered").count() == 2

    desk.goto(f"{main}/entries/")
    listed = {
        row.locator("td").nth(0).inner_text(): row.locator("td").nth(1).inner_text()
        for row in desk.locator("main table.data-table tbody tr").all()
    }
    assert set(listed) == {"Ann Lee", "Bruno Costa"}
    assert all("ticket from Sunday Main Satellite" in cell for cell in listed.values())

    # With its seats won, the satellite's Overview offers "Finish tournament".
    desk.goto(sat)
    assert desk.get_by_text("The 2 players left have each won a seat").is_visible()
    finish(desk)
    desk.goto(f"{sat}/payouts/")
    assert desk.locator(".event-head__title .badge").inner_text() == "Finished"
    assert card.get_by_text("Every seat winner is registered in Sunday Main").is_visible()


def test_a_two_flight_event_runs_to_day_2s_winner(
    desk: Any, live_server: Any, schedule: str
) -> None:
    """Day 1A and Day 1B with 4 entries each at 100 + 10 (a pool of 800 over the event, 60/40);
    Ana Souza plays both flights and survives both: her one best bag goes on. One player out in
    each flight: Day 2 starts with 5 and is played to its winner."""
    sign_in_director(desk, live_server)
    desk.get_by_role("link", name="New multi-flight event").click()
    desk.wait_for_url(re.compile(r"/desk/events/new/$"))
    desk.get_by_label("Starting flights").fill("A, B")
    fill_settings(
        desk,
        name="Spring Main Event",
        schedule=schedule,
        buy_in="100",
        fee="10",
        payouts="60, 40",
    )
    desk.get_by_role("button", name="Create the event").click()
    desk.wait_for_selector("text=Event 'Spring Main Event' created with its flights.")
    event_url = desk.url
    assert re.search(r"/desk/events/\d+/$", event_url)

    # The flights run one after the other: Ana Souza may enter Day 1B once Day 1A is over.
    flights = {
        "Day 1A": (["Ana Souza", "Ben Okafor", "Chloé Martin", "Dev Patel"], "Dev Patel"),
        "Day 1B": (["Ana Souza", "Mia Chen", "Noah Levi", "Omar Haddad"], "Omar Haddad"),
    }
    for label, (names, out) in flights.items():
        desk.goto(event_url)
        desk.locator(f'[data-phase="{label}"]').get_by_role("link", name=label).click()
        desk.wait_for_url(re.compile(r"/desk/t/\d+/$"))
        base = desk.url.rstrip("/")
        open_registration(desk, base)
        register(desk, base, names)
        draw_and_start(desk)
        assert "out in place 4" in bust(desk, out)

        desk.locator("nav.tabs").get_by_role("link", name="Event", exact=True).click()
        desk.wait_for_url(event_url)
        row = desk.locator(f'[data-phase="{label}"]')
        row.get_by_role("button", name="End the day (bag)").click()
        # Nobody counted the flight's tables (issue 26): the bag list names them, to confirm.
        desk.wait_for_selector("[data-not-counted]")
        desk.get_by_role("checkbox", name=re.compile("Bag without counting")).check()
        desk.get_by_role("button", name="End the day (bag)").click()
        desk.wait_for_selector(f"text={label} is over: its bags are recorded.")
        assert desk.locator(".bag-table tbody tr").count() == 3
        desk.get_by_role("link", name="Back to the event").click()
        desk.wait_for_url(event_url)
        assert "Bagged" in desk.locator(f'[data-phase="{label}"]').inner_text()

    assert stat(desk, "Entries") == 8
    assert stat(desk, "Prize pool") == Decimal("800")
    desk.get_by_role("button", name="Draw Day 2").click()
    desk.wait_for_selector("text=Day 2 drawn: 5 players at 1 table.")
    desk.locator('[data-phase="Day 2"]').get_by_role("link", name="Day 2").click()
    desk.wait_for_url(re.compile(r"/desk/t/\d+/$"))
    day2 = desk.url.rstrip("/")
    tab(desk, "Tables")
    assert desk.get_by_role("button", name="Draw seats").count() == 0  # drawn with Day 2
    assert desk.get_by_text("Table 1", exact=True).first.is_visible()
    tab(desk, "Registration")
    names = desk.locator("main table.data-table tbody td.strong").all_inner_texts()
    assert sorted(names) == ["Ana Souza", "Ben Okafor", "Chloé Martin", "Mia Chen", "Noah Levi"]
    start_clock(desk)

    assert "out in place 5" in bust(desk, "Ben Okafor", by="Ana Souza")
    assert "out in place 4" in bust(desk, "Chloé Martin", by="Mia Chen")
    assert "out in place 3" in bust(desk, "Noah Levi", by="Ana Souza")
    assert "out in place 2, wins 320" in bust(desk, "Mia Chen", by="Ana Souza")
    finish(desk)

    desk.goto(f"{day2}/payouts/")
    assert stat(desk, "Prize pool") == Decimal("800")
    day2_rows = payout_rows(desk)
    assert day2_rows == [(1, "480", "Ana Souza"), (2, "320", "Mia Chen")]
    assert sum(money(prize) for _, prize, _ in day2_rows) == Decimal("800")

    desk.goto(event_url)
    desk.get_by_role("link", name="Event results").click()
    desk.wait_for_url(re.compile(r"/results/$"))
    prizes = {}
    for row in desk.locator("main table.data-table tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        if re.search(r"\d", cells[4]):  # "\u2013" for no prize
            prizes[cells[1].strip()] = money(cells[4])
    assert prizes == {"Ana Souza": Decimal("480"), "Mia Chen": Decimal("320")}
    assert sum(prizes.values()) == stat(desk, "Prize pool")
