"""Issue 15's evening in Chromium, through the pages alone: the desk (1366 x 900) creates "1/2 NL",
opens two tables dealing it, sets a table's rake on its rules page (5%, capped at 5, no flop no
drop) and gives each table its dealer; players join the list from their phones (390 x 844) and
watch their place; the desk seats some players at the tables, calls the list, seats the called
player and marks a no-show; the dealer signs in on the tablet (1280 x 800) and deals three hands:
one won before the flop (no flop, no drop), one shown down (5% of the pot, shown on the tablet)
and one whose 5% is over the cap; the desk collects time from a seat and a player leaves, which
calls the next on the list at once. The cage's report then agrees with the hands and the time in
the database, and every chip bought in is at a seat, cashed out, in the rake or in the time. The
same evening through the API: tests/api/test_cash_evening.py.

Only the accounts (a director, two dealers) are made directly: FloorDesk's pages create none
(Django's admin does)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from dealer.cash.models import CashSeat, TimeCharge
from dealer.models import Hand
from tests.browser.conftest import screenshot, sign_in_director, wait_for_message
from tests.browser.test_tablet import pick, tap
from tests.factories import DealerFactory, make
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
# Who the desk seats directly, and with what buy-in; the list fills each table's seat 4.
WALK_INS = {1: [("Ana", 200), ("Ben", 150), ("Chloe", 150)], 2: [("Dmitri", 120), ("Eva", 150)]}
RAKE = {"rake_percent": 5, "rake_cap": 5, "rake_no_flop_no_drop": True}
POLL = 20_000  # the place page polls every 10 s


@pytest.fixture
def desk(browser: Any) -> Iterator[Any]:
    """The floor's laptop: 1366 x 900."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def phones(browser: Any) -> Iterator[list[Any]]:
    """Two more players' phones, besides the `phone` fixture's."""
    contexts = [browser.new_context(**PHONE) for _ in range(2)]
    for context in contexts:
        context.set_default_timeout(15_000)
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def created(desk: Any, path: str) -> int:
    """The id in the address the form's redirect leads to (the form's `#new` stays on it)."""
    pattern = re.compile(path + r"(#new)?$")
    desk.wait_for_url(pattern)
    found = pattern.search(desk.url)
    assert found is not None
    return int(found.group(1))


def open_table(desk: Any, base: str, number: int) -> int:
    """The director opens a 4-seat cash table on the cash tables page; its id."""
    desk.goto(f"{base}/cash/")
    desk.fill("#id_number", str(number))
    desk.fill("#id_name", f"1/2 NL #{number}")
    desk.select_option("#id_rule_profile", "casino_cash")
    desk.select_option("#id_game", "holdem")
    desk.select_option("#id_structure", "no_limit")
    desk.fill("#id_seat_count", "4")
    desk.fill("#id_small_blind", "1")
    desk.fill("#id_big_blind", "2")
    desk.fill("#id_min_buy_in", "40")
    desk.fill("#id_max_buy_in", "200")
    desk.locator("#new").get_by_role("button", name="Open the table").click()
    table = created(desk, r"/cash/(\d+)/")
    wait_for_message(desk, "is open: seat the players.", success=True)
    return table


def set_rake(desk: Any, base: str, table: int) -> None:
    """The rake on the table's rules page: each change previewed, then saved."""
    desk.goto(f"{base}/cash/{table}/rules/")
    desk.wait_for_function(
        "() => { const e = document.querySelector('.rules-live');"
        " return !!(e && e['htmx-internal-data'] && e['htmx-internal-data'].initHash); }"
    )
    for key in ("rake_percent", "rake_cap"):
        desk.fill(f"#id_{key}", "5")
        desk.press(f"#id_{key}", "Tab")  # the change (on leaving the field) sends the preview
        desk.wait_for_selector(f"#rule-{key}[data-differs]")
    desk.check("#id_rake_no_flop_no_drop")
    desk.wait_for_selector("#rule-rake_no_flop_no_drop[data-differs]")
    desk.click("[data-save-rules]")
    wait_for_message(desk, "Rules saved", success=True)


def assign_dealer(desk: Any, base: str, table: int, dealer: str) -> None:
    desk.goto(f"{base}/cash/{table}/")
    desk.select_option(f"#dealer-{table}", label=dealer)
    desk.get_by_role("button", name="Assign").click()
    wait_for_message(desk, "dealer assigned", success=True)


def seat_walk_in(desk: Any, base: str, table: int, name: str, buy_in: int) -> None:
    desk.goto(f"{base}/cash/{table}/")
    form = desk.locator("#seat")
    form.locator("#id_player_name").fill(name)
    form.locator("#id_buy_in").fill(str(buy_in))
    form.get_by_role("button", name="Seat", exact=True).click()
    wait_for_message(desk, f"{name} sits in seat", success=True)


def join_from_phone(phone: Any, base: str, name: str) -> str:
    """A player finds 1/2 NL on the live games page and joins its list; their code."""
    phone.goto(f"{base}/games/")
    phone.locator("[data-game='1/2 NL']").get_by_role("link", name="Join the list").click()
    phone.fill("input[name=player_name]", name)
    phone.get_by_role("button", name="Join the list").click()
    phone.wait_for_url(re.compile(r"/lists/[A-Z0-9]{6}/$"))
    code: str = phone.locator("[data-code]").inner_text()
    return code


def live_game(phone: Any, base: str) -> tuple[str, str]:
    """What the live games page says of 1/2 NL: its open seats and how many wait."""
    phone.goto(f"{base}/games/")
    card = phone.locator("[data-game='1/2 NL']")
    open_seats: str = card.locator("[data-open-seats]").inner_text()
    return open_seats, card.locator("[data-waiting]").inner_text()


def seat_called(desk: Any, base: str, game: int, name: str, buy_in: int) -> None:
    """The called player reaches the table: "Seated" with the buy-in on the game's page."""
    desk.goto(f"{base}/cash/games/{game}/")
    row = desk.locator(f"[data-entry='{name}']")
    row.locator("input[name=buy_in]").fill(str(buy_in))
    row.get_by_role("button", name="Seated").click()
    wait_for_message(desk, f"{name} sits at", success=True)


def raise_to(tablet: Any, amount: int, *, word: str = "Raise") -> None:
    """The dealer types the amount of a raise (or a bet) on the tablet and enters it."""
    tablet.fill("#typed-amount", str(amount))
    tap(tablet, word, within=".actionbar__typed")


def hand_state(table: int) -> dict[str, Any]:
    hand = Hand.objects.filter(table_id=table).order_by("-number").first()
    assert hand is not None
    return hand.state


def chips_at(table: int) -> int:
    return sum(CashSeat.objects.filter(table_id=table).values_list("chips", flat=True))


def seat_chips(desk: Any, base: str, table: int) -> dict[str, int]:
    """The chips in front of each player, as the table's seats page shows them."""
    desk.goto(f"{base}/cash/{table}/")
    chips = {}
    for row in desk.locator("#seats tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        if cells[2].strip():
            chips[cells[1].strip()] = int(cells[2])
    return chips


def cage_line(page: Any, testid: str) -> dict[str, list[int]]:
    """One table of the cage's report: label -> hands, rake, time, total."""
    rows = page.get_by_test_id(testid).locator("tbody tr").all()
    lines = {}
    for row in rows:
        label, *numbers = row.locator("td").all_inner_texts()
        lines[label.strip()] = [int(n.replace(",", "")) for n in numbers]
    return lines


def test_an_evening_of_cash_runs_from_the_desk_the_tablets_and_the_phones_and_the_cage_reconciles(
    desk: Any, phone: Any, phones: list[Any], tablet: Any, live_server: Any
) -> None:
    base = live_server.url
    for name in ("ann", "bob"):
        make(DealerFactory, username=name)
    omar, quin = phones
    bought_in = 0

    # 1. The desk: the game, its two tables, the rake at table 1, a dealer at each table.
    sign_in_director(desk, live_server)
    desk.goto(f"{base}/cash/games/")
    desk.fill("#id_name", "1/2 NL")
    desk.select_option("#id_game", "holdem")
    desk.select_option("#id_structure", "no_limit")
    desk.fill("#id_small_blind", "1")
    desk.fill("#id_big_blind", "2")
    desk.fill("#id_hold_seconds", "300")
    desk.get_by_role("button", name="Create the game").click()
    game = created(desk, r"/cash/games/(\d+)/")
    wait_for_message(desk, "1/2 NL is open: deal it at a table.", success=True)
    tables = {number: open_table(desk, base, number) for number in (1, 2)}
    for number in tables:
        desk.goto(f"{base}/cash/games/{game}/")
        desk.select_option("#attach-table", label=f"Table {number} (1/2 NL #{number})")
        desk.locator("#tables").get_by_role("button", name="Open the table").click()
        wait_for_message(desk, "deals 1/2 NL", success=True)
        assert desk.locator(f"#tables [data-table='{number}']").inner_text().split("\t")[:3] == [
            f"Table {number}",
            "0/4",
            "1, 2, 3, 4",
        ]
    set_rake(desk, base, tables[1])
    rules = Table.objects.get(pk=tables[1]).rule_overrides
    assert {key: rules[key] for key in RAKE} == RAKE
    assert not any(key.startswith("rake") for key in Table.objects.get(pk=tables[2]).rule_overrides)
    assign_dealer(desk, base, tables[1], "ann")
    assign_dealer(desk, base, tables[2], "bob")

    # The desk seats the walk-ins: three at table 1, two at table 2.
    for number, players in WALK_INS.items():
        for name, buy_in in players:
            seat_walk_in(desk, base, tables[number], name, buy_in)
            bought_in += buy_in

    # 2. The phones: Nora and Omar join the list and see their places; Pia asks at the desk.
    assert live_game(phone, base) == ("3", "0")
    nora = join_from_phone(phone, base, "Nora")
    assert phone.locator("[data-place]").inner_text() == "1"
    join_from_phone(omar, base, "Omar")
    assert omar.locator("[data-place]").inner_text() == "2"
    desk.goto(f"{base}/cash/games/{game}/")
    desk.fill("#list-name", "Pia")
    desk.get_by_role("button", name="Add to the list").click()
    wait_for_message(desk, "Pia is on the list (code", success=True)
    assert desk.locator("[data-entry='Nora']").inner_text().split("\t")[:3] == ["1", "Nora", nora]
    assert live_game(quin, base) == ("3", "3")

    # 3. "Call next": Nora, to table 1's open seat; her phone shows the call at its next poll.
    desk.get_by_role("button", name="Call next").click()
    wait_for_message(desk, "Nora: table 1, seat 4.", success=True)
    phone.wait_for_selector("[data-call]", timeout=POLL)
    assert (
        phone.locator("[data-call]")
        .inner_text()
        .startswith("Your seat is ready at table 1, seat 4")
    )
    seat_called(desk, base, game, "Nora", 200)
    bought_in += 200
    phone.wait_for_selector("[data-seated]", timeout=POLL)

    # Omar is called to table 2; he does not come: the seat goes to Pia at once.
    desk.get_by_role("button", name="Call next").click()
    wait_for_message(desk, "Omar: table 2, seat 3.", success=True)
    desk.locator("[data-entry='Omar']").get_by_role("button", name="No-show").click()
    wait_for_message(desk, "Omar is a no-show: the seat goes to the next player.", success=True)
    assert (
        desk.locator("[data-entry='Pia']")
        .inner_text()
        .split("\t")[3]
        .startswith("Table 2, seat 3, held until")
    )
    assert desk.locator("[data-entry='Omar']").count() == 0
    seat_called(desk, base, game, "Pia", 100)
    bought_in += 100
    seat_walk_in(desk, base, tables[2], "Farid", 200)
    bought_in += 200
    join_from_phone(quin, base, "Quin")
    assert quin.locator("[data-place]").inner_text() == "1"
    assert live_game(phone, base) == ("0", "1")

    # 4. The tablet at table 1: the desk draws for the button, Ann signs in and deals.
    desk.goto(f"{base}/cash/{tables[1]}/")
    desk.get_by_role("button", name="Draw for the button").click()
    wait_for_message(desk, "the button goes to seat", success=True)
    url = f"/deal/table/{tables[1]}/"
    tablet.goto(f"{base}/login/?next={url}")
    tablet.fill("input[name=username]", "ann")
    tablet.fill("input[name=password]", "pw")
    tablet.press("input[name=password]", "Enter")
    tablet.wait_for_url(re.compile(re.escape(url) + "$"))
    lost: dict[int, int] = {}  # by hand number: the chips the table's seats lost over it

    # Hand 1: a raise, a call, a re-raise nobody calls: 91 in the pot before the flop (5% would
    # be 4), but no flop, no drop.
    before = chips_at(tables[1])
    tap(tablet, "Start next hand")
    assert len(hand_state(tables[1])["players"]) == 4
    raise_to(tablet, 30)
    tap(tablet, re.compile(r"^Call"))
    tap(tablet, "Fold")
    raise_to(tablet, 90)
    tap(tablet, "Fold")
    tap(tablet, "Fold")
    tablet.wait_for_selector("text=Hand 1: push the pots")
    (award,) = hand_state(tables[1])["awards"]
    assert (award["amount"], award["rake"]) == (91, 0)  # the re-raise's 60 went back
    assert tablet.get_by_test_id("rake").count() == 0
    lost[1] = before - chips_at(tables[1])

    # Hand 2: a raise to 30 and the big blind calls (61 in the pot), checked down and shown.
    before = chips_at(tables[1])
    tap(tablet, "Start next hand")
    raise_to(tablet, 30)
    tap(tablet, "Fold")
    tap(tablet, "Fold")
    tap(tablet, re.compile(r"^Call"))
    for street, cards in (
        ("flop", ("King of hearts", "9 of clubs", "4 of diamonds")),
        ("turn", ("2 of spades",)),
        ("river", ("7 of hearts",)),
    ):
        tablet.wait_for_selector(f"text=Deal the {street}")
        pick(tablet, *cards)
        tap(tablet, re.compile(rf"^Enter the {street}"))
        tap(tablet, "Check")
        tap(tablet, "Check")
    first = hand_state(tables[1])["next_to_show"]
    pick(tablet, "Ace of spades", "Ace of diamonds")
    tap(tablet, re.compile(r"^Show"))
    pick(tablet, "Queen of clubs", "Jack of diamonds")
    tap(tablet, re.compile(r"^Show"))
    final = hand_state(tables[1])
    assert final["phase"] == "complete"
    (award,) = final["awards"]
    assert (award["winners"], award["amount"], award["rake"]) == ([first], 58, 3)  # 5% of 61
    rake_line = tablet.get_by_test_id("rake")
    assert rake_line.inner_text() == "Rake 3: into the drop box before the push."
    rake_line.scroll_into_view_if_needed()
    screenshot(tablet, "tablet-rake", full_page=False)
    lost[2] = before - chips_at(tables[1])

    # Hand 3: a raise to 60 and the big blind calls (121: 5% is 6, the cap takes 5); the flop
    # is dealt without its cards, the big blind bets and the raiser folds.
    before = chips_at(tables[1])
    tap(tablet, "Start next hand")
    raise_to(tablet, 60)
    tap(tablet, "Fold")
    tap(tablet, "Fold")
    tap(tablet, re.compile(r"^Call"))
    tap(tablet, re.compile(r"^Flop dealt"))
    raise_to(tablet, 20, word="Bet")
    tap(tablet, "Fold")
    tablet.wait_for_selector("text=Hand 3: push the pots")
    assert (
        tablet.get_by_test_id("rake").inner_text() == "Rake 5: into the drop box before the push."
    )
    lost[3] = before - chips_at(tables[1])

    # Each hand's rake is what its pots lost, and what the seats lost over the hand.
    hands = list(Hand.objects.filter(table_id=tables[1]).order_by("number"))
    assert [(h.number, h.rake, h.dealt_by.username) for h in hands] == [  # type: ignore[union-attr]
        (1, 0, "ann"),
        (2, 3, "ann"),
        (3, 5, "ann"),
    ]
    for hand in hands:
        pots = sum(player["contributed"] for player in hand.state["players"])
        paid = sum(award["amount"] for award in hand.state["awards"])
        assert pots - paid == hand.rake == lost[hand.number]

    # 5. The desk: time from Dmitri at table 2; Eva leaves, and the list's Quin is called at once.
    desk.goto(f"{base}/cash/{tables[2]}/")
    time_form = desk.get_by_test_id("time-1")
    time_form.locator("input[name=amount]").fill("5")
    time_form.get_by_role("button", name="Collect time").click()
    wait_for_message(desk, "Seat 1 paid 5 of time for", success=True)
    desk.locator("#seat-2").get_by_role("button", name="Leave").click()
    wait_for_message(desk, "Eva left with 150. Quin is called to seat 2.", success=True)
    cashed_out = 150
    desk.goto(f"{base}/cash/games/{game}/")
    assert (
        desk.locator("[data-entry='Quin']")
        .inner_text()
        .split("\t")[3]
        .startswith("Table 2, seat 2, held until")
    )
    quin.wait_for_selector("[data-call]", timeout=POLL)
    assert (
        quin.locator("[data-call]").inner_text().startswith("Your seat is ready at table 2, seat 2")
    )
    seat_called(desk, base, game, "Quin", 200)
    bought_in += 200
    omar.wait_for_selector("text=Your held seat went to the next player.", timeout=POLL)

    # 6. The cage: the day's totals are the hands' and the time's, per table and per dealer.
    at_seats = {n: seat_chips(desk, base, tables[n]) for n in (1, 2)}
    assert at_seats[2] == {"Dmitri": 115, "Quin": 200, "Pia": 100, "Farid": 200}
    assert sum(at_seats[1].values()) == 700 - 8
    desk.goto(f"{base}/cash/cage/")
    rake = sum(hand.rake for hand in hands)
    time = sum(TimeCharge.objects.values_list("amount", flat=True))
    assert (len(hands), rake, time) == (3, 8, 5)
    assert desk.get_by_test_id("cage-hands").inner_text() == "3"  # the unraked one counts too
    assert desk.get_by_test_id("cage-rake").inner_text() == "8"
    assert desk.get_by_test_id("cage-time").inner_text() == "5"
    assert desk.get_by_test_id("cage-total").inner_text() == "13"
    assert desk.get_by_test_id("cage-reconciled").is_visible()
    assert cage_line(desk, "cage-tables") == {"Table 1": [3, 8, 0, 8], "Table 2": [0, 0, 5, 5]}
    assert cage_line(desk, "cage-dealers") == {"ann": [3, 8, 0, 8], "bob": [0, 0, 5, 5]}
    (day,) = cage_line(desk, "cage-days").values()
    assert day == [3, 8, 5, 13]
    # Every chip bought in is at a seat, cashed out, in the rake or in the time.
    seats = sum(sum(chips.values()) for chips in at_seats.values())
    assert bought_in == 1470
    assert bought_in == seats + cashed_out + rake + time
    # ... and the cage's own record of the rail says the same, from the buy-ins typed above.
    assert desk.get_by_test_id("cage-bought-in").inner_text() == f"{bought_in:,}"
    assert desk.get_by_test_id("cage-cashed-out").inner_text() == f"{cashed_out:,}"
    assert f"At the tables now: {seats:,}." in desk.get_by_test_id("cage-float").inner_text()
    assert desk.get_by_test_id("cage-float-balanced").is_visible()
    screenshot(desk, "floor-cage")
