"""Issue 10: a three-table tournament in Chromium, to the bubble, through hand-for-hand and on to
the winner's payout, with screenshots for the director's guide.

The field is built through the services (18 players, 7 seats a table: three tables of 6, rebuys
allowed). The payout table pays 14 places, so that three tables are still in play at the bubble
(15 players need three tables of 7) and hand-for-hand is played at all three. The director's
screen is 1440 x 900, the dealer's tablet (table 1) 1280 x 800. Hands at tables 2 and 3 are
played through the dealer's services (everyone folds to the big blind), where the browser would
add nothing; the moments the floor and the dealer see are driven in the browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.template.defaultfilters import floatformat
from django.utils import timezone
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from dealer.models import Hand
from tests.browser.conftest import screenshot, sign_in_director
from tests.browser.test_tablet import sign_in as dealer_sign_in
from tests.browser.test_tablet import state, tap
from tests.factories import DealerFactory, assign_dealer, seated_tournament
from tests.pages import deal, fold_to_end
from tournaments.models import Entry, Table, Tournament
from tournaments.selectors.prizes import prize_table
from tournaments.services.tables import pending_moves

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REBUY_CHIPS = 10000
# 14 places paid: the bubble is at 15 players, still at three tables of 7 seats.
PAYOUTS = [25, 16, 11, 8, 7, 6, 5, 4, 4, 3, 3, 3, 3, 2]


@pytest.fixture
def desk(browser: Any) -> Iterator[Any]:
    """The director's screen: 1440 x 900."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    context.set_default_timeout(15_000)
    tab = context.new_page()
    yield tab
    context.close()


def active(tournament: Tournament, table: int | None = None) -> list[Entry]:
    found = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
    if table is not None:
        found = found.filter(table__number=table)
    return list(found.select_related("player", "table").order_by("seat"))


def bust(page: Any, base: str, entry: Entry) -> None:
    """Record a desk bust for a player who is not in a hand."""
    page.goto(f"{base}/busts/")
    page.select_option("select[name=entry]", str(entry.pk))
    page.wait_for_function("() => document.querySelector('input[name=stack]').value !== ''")
    page.click("text=Record the bust")
    page.wait_for_selector(f"text={entry.player.name} out in place")


def rebuy(page: Any, base: str, entry: Entry) -> None:
    page.goto(f"{base}/entries/")
    row = page.locator("tr", has_text=entry.player.name)
    row.get_by_role("button", name="Rebuy").click()


def fold_on_tablet(tablet: Any, table: Table) -> dict[str, Any]:
    """Everyone folds to the big blind on the tablet; the hand's final state."""
    while state(table)["phase"] != "complete":
        tap(tablet, "Fold")
    tablet.wait_for_selector("text=push the pots")
    return state(table)


def play_at(tournament: Tournament, number: int) -> Hand:
    """A hand dealt and folded to the big blind at table `number`, as its tablet would."""
    return fold_to_end(deal(tournament, number, timezone.now()))


def hand_for_hand_board(page: Any, base: str) -> str:
    page.goto(f"{base}/clock/")
    return str(page.locator(".hand-for-hand").inner_text())


def test_three_tables_to_the_bubble_through_hand_for_hand_to_the_winners_payout(
    desk: Any, tablet: Any, phone: Any, live_server: Any
) -> None:
    tournament = seated_tournament(
        players=18,
        now=timezone.now(),
        name="Three-table Rebuy",
        seats_per_table=7,
        rebuy_chips=REBUY_CHIPS,
        rebuy_price=100,
        rebuy_until_level=2,
        payout_percentages=PAYOUTS,
    )
    assert [len(active(tournament, n)) for n in (1, 2, 3)] == [6, 6, 6]
    dealer = DealerFactory.create(username="dana")
    tables = {t.number: t for t in Table.objects.filter(tournament=tournament)}
    for table in tables.values():
        assign_dealer(table, dealer)
    base = f"{live_server.url}/desk/t/{tournament.pk}"
    sign_in_director(desk, live_server)

    # The dealer deals hand 1 at table 1 on the tablet.
    dealer_sign_in(tablet, live_server, tables[1])
    tap(tablet, "Start next hand")
    hand = Hand.objects.get(table=tables[1], number=1)
    small_blind = Entry.objects.select_related("player").get(
        table=tables[1], seat=hand.small_blind_seat, status=Entry.Status.ACTIVE
    )

    # A rebuy for a player in that hand: the floor waits for the hand.
    rebuy(desk, base, small_blind)
    refusal = f"{small_blind.player.name} is in hand 1 at table 1: record the rebuy when it ends."
    desk.wait_for_selector(f"text={refusal}")
    badge = desk.locator("tr", has_text=small_blind.player.name).locator(".badge--in-hand")
    assert badge.inner_text() == "in hand 1 at table 1"
    screenshot(desk, "desk-rebuy-in-hand")
    small_blind.refresh_from_db()
    assert (small_blind.rebuys, small_blind.chips) == (0, 10000)

    # Busts elsewhere: the players in the hand cannot be picked.
    desk.goto(f"{base}/busts/")
    for entry in active(tournament, 1):
        option = desk.locator(f"select[name=entry] option[value='{entry.pk}']")
        assert option.get_attribute("disabled") is not None
        assert "in hand 1 at table 1" in option.inner_text()
    with pytest.raises(PlaywrightTimeoutError, match="option being selected is not enabled"):
        desk.select_option("select[name=entry]", str(small_blind.pk), timeout=1000)
    for entry in [*active(tournament, 3)[:2], active(tournament, 2)[0]]:
        bust(desk, base, entry)
    assert [len(active(tournament, n)) for n in (1, 2, 3)] == [6, 5, 4]

    # The balancing move from table 1 is confirmed during the hand: it waits for the hand.
    desk.goto(f"{base}/tables/")
    desk.click("text=Confirm moves")
    desk.wait_for_selector("text=Moves after this hand")
    (mover,) = pending_moves(tournament)
    assert (mover.table.number, mover.move_to_table.number) == (1, 3)  # type: ignore[union-attr]
    moves = desk.locator(".pending-moves").inner_text()
    assert mover.player.name in moves
    assert "after hand 1 at table 1" in moves
    assert desk.get_by_role("button", name="Confirm moves").count() == 0
    desk.wait_for_selector("text=moves to")
    screenshot(desk, "desk-moves-after-hand")

    # The hand ends on the tablet: the move happens, and the rebuy is taken on the hand's result.
    final = fold_on_tablet(tablet, tables[1])
    mover.refresh_from_db()
    assert (mover.table.number, mover.move_to_table) == (3, None)  # type: ignore[union-attr]
    assert [len(active(tournament, n)) for n in (1, 2, 3)] == [5, 5, 5]
    desk.goto(f"{base}/tables/")
    desk.wait_for_selector("text=The tables are balanced")
    result = final["finishing_stacks"][str(small_blind.seat)]
    assert result == 10000 - 100  # the small blind folded
    rebuy(desk, base, small_blind)
    desk.wait_for_selector(
        f"text=Rebuy for {small_blind.player.name}: {result + REBUY_CHIPS:,} chips now."
    )
    small_blind.refresh_from_db()
    assert (small_blind.rebuys, small_blind.chips) == (1, result + REBUY_CHIPS)

    # 15 players, 14 paid: the clock page calls for hand-for-hand.
    desk.goto(f"{base}/clock/")
    desk.wait_for_selector("text=One bust from the money")
    desk.get_by_role("button", name="Start hand-for-hand").click()
    desk.wait_for_selector("text=Hand-for-hand is in play")
    board = desk.locator(".hand-for-hand").inner_text()
    assert "hand 1" in board
    assert "0 of 3 tables done" in board

    # The big clock and the phones say so.
    big = desk.context.browser.new_page(viewport={"width": 1600, "height": 900})
    big.goto(f"{live_server.url}/t/{tournament.pk}/clock/")
    big.wait_for_function(
        "() => document.querySelector('[data-clock-status]').textContent.includes('Hand for hand')"
    )
    phone.goto(f"{live_server.url}/t/{tournament.pk}/")
    phone.wait_for_selector("text=every table plays one hand at a time")

    # Hand-for-hand hand 1: table 1 deals exactly one hand on the tablet ...
    tap(tablet, "Start next hand")
    fold_on_tablet(tablet, tables[1])
    start = tablet.locator("form.next-hand__start button[type=submit]")
    expect(start).to_be_disabled()
    # The tablet says why, in the service's words (not "the tournament is paused").
    expect(tablet.locator("form.next-hand__start .dock__hint")).to_contain_text(
        "has played this hand. Wait until every table has finished theirs."
    )
    # ... and a second start, forced past the disabled button, is refused by the server.
    start.evaluate("button => { button.disabled = false; }")
    start.click()
    notice = tablet.get_by_test_id("notice")
    notice.wait_for()
    assert "has played this hand. Wait until every table has finished theirs." in (
        notice.inner_text()
    )

    # The desk shows which tables have finished, which play and which are still to deal.
    board = hand_for_hand_board(desk, base)
    assert "1 of 3 tables done" in board
    assert "Table 1: done" in board
    assert "Table 2: to deal" in board
    play = deal(tournament, 2, timezone.now())
    board = hand_for_hand_board(desk, base)
    assert "Table 2: playing its hand" in board
    assert "Table 3: to deal" in board
    screenshot(desk, "desk-hand-for-hand")
    fold_to_end(play)
    play_at(tournament, 3)

    # Every table has played: hand-for-hand hand 2 opens by itself, and table 1 may deal again.
    board = hand_for_hand_board(desk, base)
    assert "hand 2" in board
    assert "0 of 3 tables done" in board
    tablet.reload()
    tap(tablet, "Start next hand")
    fold_on_tablet(tablet, tables[1])

    # A player out at table 1 on hand 2 is the bubble; hand-for-hand ends when tables 2 and 3
    # have finished theirs.
    bubble = min(active(tournament, 1), key=lambda e: (e.chips, e.pk))
    bust(desk, base, bubble)
    desk.wait_for_selector(f"text={bubble.player.name} out in place 15")
    play_at(tournament, 2)
    tournament.refresh_from_db()
    assert tournament.hand_for_hand
    play_at(tournament, 3)
    tournament.refresh_from_db()
    assert not tournament.hand_for_hand
    assert tournament.status == Tournament.Status.RUNNING
    desk.goto(f"{base}/clock/")
    desk.wait_for_selector("button:has-text('Start hand-for-hand')")
    assert desk.locator("text=Hand-for-hand is in play").count() == 0
    big.wait_for_function(
        "() => !document.querySelector('[data-clock-status]').textContent.includes('Hand for hand')"
    )
    big.close()
    phone.wait_for_selector("text=every table plays one hand at a time", state="detached")

    # Play on to the winner: desk busts, confirming the floor's moves (a table breaks, then the
    # final table is drawn).
    while len(active(tournament)) > 1:
        desk.goto(f"{base}/tables/")
        if desk.get_by_role("button", name="Confirm moves").count():
            desk.click("text=Confirm moves")
            desk.wait_for_selector("text=Confirm moves", state="detached")
        bust(desk, base, min(active(tournament), key=lambda e: (e.chips, e.pk)))
    (winner,) = active(tournament)
    assert winner.finishing_place == 1
    first_prize = prize_table(tournament)[0]
    assert winner.prize == first_prize
    assert first_prize == Decimal(18 * 100 + 100) * 25 / 100  # 18 buy-ins and a rebuy

    # The desk's payouts page and the public one show the winner in first place with the prize.
    desk.goto(f"{base}/payouts/")
    first = desk.locator(".payout-table tbody tr").first
    first.wait_for()
    cells = first.locator("td").all_inner_texts()
    assert cells == ["1", floatformat(first_prize, "-2g"), winner.player.name]
    screenshot(desk, "desk-winner")
    export = desk.locator("a", has_text="Export results").first.get_attribute("href")
    csv = desk.request.get(f"{live_server.url}{export}").text().replace('"', "")
    assert f"1,{winner.player.name}" in csv
    phone.goto(f"{live_server.url}/t/{tournament.pk}/payouts/")
    first = phone.locator(".payout-table tbody tr").first
    first.wait_for()
    assert first.locator("td").all_inner_texts() == cells
