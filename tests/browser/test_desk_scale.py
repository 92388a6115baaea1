"""The desk at scale in Chromium at 1920 x 1080: 120 tables in the overview (many per row), the
search box finding "jose" at table 57 in one step, a manual seat move from the search's answer
and a seat lock on the table, with the screenshots the README shows."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import screenshot, sign_in_director
from tests.factories import DealerFactory, TournamentFactory
from tests.pages import NOW, deal
from tournaments.models import Entry, Player, Table, Tournament
from tournaments.names import fold
from tournaments.services.clocks import clock_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLES = 120
FIRST = ["Ana", "Ben", "Chloé", "Dmitri", "Elif", "Farid", "Greta", "Hiro", "Inès", "Jonas"]
LAST = ["Moreau", "Novak", "Okafor", "Park", "Quinn", "Rossi", "Silva", "Tanaka", "Ueda", "Vega"]


@pytest.fixture
def wide(browser: Any) -> Iterator[Any]:
    """The floor's big monitor: 1920 x 1080."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.set_default_timeout(20_000)
    yield context.new_page()
    context.close()


def big_field() -> Tournament:
    """120 tables of 9, nearly full (a field that needs every table), written in a few bulk
    statements: José Martínez at table 57 seat 3, table 58 three short (so the plan moves two
    players there and halts it), a seat locked at tables 12 and 40, three hands in progress,
    two tables closed."""
    rng = random.Random(14)
    event = TournamentFactory.create(name="Spring Series Main Event", seats_per_table=9)
    dealers = [DealerFactory.create(username=f"dealer{n:02d}") for n in range(1, 13)]
    tables = Table.objects.bulk_create(
        Table(
            tournament=event,
            number=n,
            seat_count=9,
            button_seat=1,
            dealer=dealers[n % len(dealers)] if n % 5 else None,
        )
        for n in range(1, TABLES + 1)
    )
    rows: list[tuple[str, Table, int]] = []
    for table in tables:
        size = 6 if table.number == 58 else 8 if table.number in (5, 33, 71, 104) else 9
        for seat in sorted(rng.sample(range(1, 10), size)):
            name = f"{rng.choice(FIRST)} {rng.choice(LAST)} {table.number:03d}{seat}"
            rows.append((name, table, seat))
    rows = [r for r in rows if not (r[1].number == 57 and r[2] == 3)]
    rows.append(("José Martínez", tables[56], 3))
    if not any(r[1].number == 57 and r[2] == 1 for r in rows):
        rows.append(("Ana Silva 0571", tables[56], 1))  # the button's seat is taken
    players = Player.objects.bulk_create(
        Player(name=name, search_name=fold(name)) for name, _, _ in rows
    )
    Entry.objects.bulk_create(
        Entry(tournament=event, player=player, table=table, seat=seat, chips=10_000)
        for player, (_, table, seat) in zip(players, rows, strict=True)
    )
    Table.objects.filter(tournament=event, number__in=[119, 120]).update(is_broken=True)
    Entry.objects.filter(tournament=event, table__number__in=[119, 120]).update(
        status=Entry.Status.BUSTED, table=None, seat=None
    )
    for number, seat in ((12, 9), (40, 9)):
        Table.objects.filter(tournament=event, number=number).update(locked_seats=[seat])
        Entry.objects.filter(tournament=event, table__number=number, seat=seat).delete()
    clock_start(tournament=event, now=NOW)
    for number in (3, 21, 88):
        deal(event, number)
    return event


def tiles_in_first_row(page: Any) -> int:
    return int(
        page.evaluate(
            """() => { const tiles = [...document.querySelectorAll('.table-tile')];
                 const top = tiles[0].getBoundingClientRect().top;
                 return tiles.filter(t => Math.abs(t.getBoundingClientRect().top - top) < 2).length;
            }"""
        )
    )


def test_a_director_finds_moves_and_locks_on_a_120_table_floor(wide: Any, live_server: Any) -> None:
    event = big_field()
    url = f"{live_server.url}/desk/t/{event.pk}/tables/"
    sign_in_director(wide, live_server)
    wide.goto(url)

    # The overview: every table, many per row on a wide screen.
    assert wide.locator(".table-tile").count() == TABLES
    assert tiles_in_first_row(wide) >= 8
    assert wide.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    wide.locator(".floor-overview").scroll_into_view_if_needed()
    wide.evaluate("window.scrollTo(0, 0)")
    screenshot(wide, "director-tables-overview", full_page=False)

    # "jose" and Enter: the page opens at José's table, highlighted.
    wide.fill("#table-search", "jose")
    wide.press("#table-search", "Enter")
    wide.wait_for_url(re.compile(r"#table-57$"))
    card = wide.locator('section.poker-table[data-table="57"]')
    assert "poker-table--found" in (card.get_attribute("class") or "")
    box = wide.locator("#table-57").bounding_box()  # the card's heading, in view
    assert box is not None
    assert 0 <= box["y"] < 1080
    assert "José Martínez" in card.inner_text()

    # Move him to an open seat at table 58 from the search's answer.
    taken = set(
        Entry.objects.filter(tournament=event, table__number=58).values_list("seat", flat=True)
    )
    seat = min(set(range(1, 10)) - taken)
    found = wide.locator(".floor-found")
    found.get_by_label("Move to table").fill("58")
    found.get_by_label("seat").fill(str(seat))
    wide.evaluate("window.scrollTo(0, 0)")
    screenshot(wide, "director-seat-move", full_page=False)
    found.get_by_role("button", name="Move").click()
    wide.wait_for_url(re.compile(r"#table-58$"))
    target = wide.locator('section.poker-table[data-table="58"]')
    assert "José Martínez" in target.inner_text()
    jose = Entry.objects.select_related("table").get(player__name="José Martínez")
    assert jose.table is not None
    assert (jose.table.number, jose.seat) == (58, seat)

    # Lock another open seat at table 58.
    free = min(set(range(1, 10)) - taken - {seat})
    target.get_by_role("button", name=f"Lock table 58 seat {free}", exact=True).click()
    wide.wait_for_url(re.compile(r"#table-58$"))
    unlock = wide.locator('section.poker-table[data-table="58"]').get_by_role(
        "button", name=f"Unlock table 58 seat {free}"
    )
    assert unlock.count() == 1
    assert Table.objects.get(tournament=event, number=58).locked_seats == [free]
