"""Cash table pages: the floor's list, a table's seats page and the tablet's pre-deal plan."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from dealer.cash.models import CashSeat, WaitingListEntry
from dealer.cash.seats import services as cash
from dealer.models import Hand
from tests.factories import DealerFactory, DirectorFactory
from tests.pages import once
from tournaments.models import AuditEvent, Table

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}

GAME: dict[str, Any] = {
    "number": 4,
    "name": "1/2 NL",
    "rule_profile": "casino_cash",
    "game": "holdem",
    "structure": "no_limit",
    "small_blind": 1,
    "big_blind": 2,
    "ante": "",
    "min_buy_in": 40,
    "max_buy_in": 200,
    "seat_count": 9,
}


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def director() -> Client:
    return signed_in(DirectorFactory.create())


def open_table(client: Client, **change: Any) -> Table:
    response = client.post(reverse("cash-tables"), {**GAME, **change})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.get(tournament=None, number=GAME["number"])


def seat(client: Client, table: Table, number: int, name: str, **extra: Any) -> Any:
    data = {"seat": number, "player_name": name, "buy_in": 200, "choice": "wait_bb", **extra}
    return client.post(reverse("cash-seat", args=[table.pk]), once(**data), follow=True)


def change(client: Client, table: Table, number: int, action: str, **extra: Any) -> Any:
    row = CashSeat.objects.get(table=table, seat=number)
    url = reverse("cash-seat-change", args=[table.pk, row.pk])
    return client.post(url, once(action=action, **extra), follow=True)


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def waiting_names(page: str) -> list[str]:
    """The names on a table page's waiting list, top first."""
    listed = page[page.index('data-testid="table-waiting-list"') :]
    listed = listed[: listed.index("</ol>")]
    return re.findall(r'<span class="strong">([^<]*)</span>', listed)


def test_director_opens_a_cash_table_with_house_rules() -> None:
    client = director()
    table = open_table(
        client, missed_blind_policy="S3_blind_penalties", button_mode="dead", straddle_allowed="no"
    )
    assert table.rule_overrides == {
        "missed_blind_policy": "S3_blind_penalties",
        "button_mode": "dead",
        "straddle_allowed": False,
    }
    page = text(client.get(reverse("cash-tables")))
    assert "Table 4" in page
    assert "missed_blind_policy=S3_blind_penalties" in page
    refused = client.post(reverse("cash-tables"), {**GAME, "number": 5, "min_buy_in": 500})
    assert refused.status_code == 200
    assert "The minimum buy-in must be at least one big blind" in text(refused)


def test_dealers_may_not_open_tables() -> None:
    dealer = signed_in(DealerFactory.create())
    assert dealer.post(reverse("cash-tables"), GAME).status_code == 403
    assert not Table.objects.filter(tournament=None).exists()


def test_seats_page_shows_states_and_what_each_player_owes() -> None:
    client = director()
    table = open_table(client)
    for number, name in ((1, "Ann"), (3, "Bob"), (5, "Cy"), (7, "Di")):
        seat(client, table, number, name)
    Table.objects.filter(pk=table.pk).update(button_seat=1)
    assert AuditEvent.objects.filter(action="cash_seat").count() == 4
    page = text(client.get(reverse("cash-table", args=[table.pk])))
    # The first hand: everyone in, nobody owes; button 1, blinds 3 and 5.
    assert "Button <strong>seat 1</strong>" in page
    assert "The game starts" in page
    change(client, table, 5, "sit_out")
    CashSeat.objects.filter(table=table, seat=5).update(
        missed_big=True, missed_small=True, new=False
    )
    Table.objects.filter(pk=table.pk).update(button_seat=1, small_blind_seat=3, big_blind_seat=5)
    for other in (1, 3, 7):
        CashSeat.objects.filter(table=table, seat=other).update(new=False, wait_big_blind=False)
    page = text(client.get(reverse("cash-table", args=[table.pk])))
    row = '<span class="strong">Cy</span></td> <td class="num">200</td> <td>Sitting out</td>'
    assert row + " <td>2 live + 1 dead</td>" in page
    response = change(client, table, 5, "back_post")
    assert "Cy is back." in text(response)
    assert not CashSeat.objects.get(table=table, seat=5).away


def test_top_up_and_leave_through_the_page_with_refusals_in_words() -> None:
    client = director()
    table = open_table(client)
    seat(client, table, 2, "Ann", buy_in=100)
    response = change(client, table, 2, "top_up", amount=150)
    assert "At most 100 more: the maximum buy-in at Table 4 is 200." in text(response)
    response = change(client, table, 2, "top_up", amount=100)
    assert "Ann has 200 now." in text(response)
    response = change(client, table, 2, "leave")
    assert "Ann left with 200." in text(response)
    assert not CashSeat.objects.filter(table=table).exists()


def test_waiting_list_add_seat_and_remove() -> None:
    client = director()
    table = open_table(client)
    client.post(reverse("cash-waitlist-add", args=[table.pk]), once(player_name="Wes"))
    client.post(reverse("cash-waitlist-add", args=[table.pk]), once(player_name="Xia"))
    page = text(client.get(reverse("cash-table", args=[table.pk])))
    # Read off the list itself: a name searched in the whole page may also turn up inside a
    # random token (the sign-out form's CSRF token once held "Xia").
    assert waiting_names(page) == ["Wes", "Xia"]
    seat(client, table, 1, "Wes")
    assert WaitingListEntry.objects.get(player__name="Wes").status == "seated"
    xia = WaitingListEntry.objects.get(player__name="Xia")
    client.post(reverse("cash-waitlist-remove", args=[table.pk, xia.pk]), once())
    xia.refresh_from_db()
    assert xia.status == "removed"


def test_only_the_assigned_dealer_or_a_director_changes_seats() -> None:
    client = director()
    table = open_table(client)
    mine, other = DealerFactory.create(), DealerFactory.create()
    Table.objects.filter(pk=table.pk).update(dealer=mine)
    assert seat(signed_in(other), table, 1, "Ann").status_code == 403
    assert seat(signed_in(mine), table, 1, "Ann").status_code == 200
    assert CashSeat.objects.filter(table=table, seat=1).exists()
    assert Client().get(reverse("cash-table", args=[table.pk])).status_code == 302


def test_button_draw_from_the_page_is_recorded() -> None:
    client = director()
    table = open_table(client)
    seat(client, table, 2, "Ann")
    seat(client, table, 6, "Bob")
    response = client.post(reverse("cash-button-draw", args=[table.pk]), once(), follow=True)
    table.refresh_from_db()
    assert table.button_seat in (2, 6)
    assert f"the button goes to seat {table.button_seat}" in text(response)


def tablet_start(client: Client, table: Table, **data: Any) -> Any:
    page = client.get(reverse("deal-table", args=[table.pk])).content.decode()
    signature = re.search(r'name="plan" value="([0-9a-f]+)"', page)
    assert signature is not None
    body = {"last_hand": 0, "plan": signature.group(1), **data}
    return client.post(reverse("deal-start", args=[table.pk]), body, headers=HTMX)


def test_tablet_shows_the_posts_before_the_deal_and_starts_with_exactly_them() -> None:
    client = director()
    table = open_table(client)
    for number in (1, 2, 3, 4, 5):
        seat(client, table, number, f"P{number}")
    Table.objects.filter(pk=table.pk).update(button_seat=1)
    page = text(client.get(reverse("deal-table", args=[table.pk])))
    assert "Next hand: who posts what" in page
    assert '<tr data-post-seat="2"><td>2</td><td>P2</td><td class="num">1</td>' in page
    assert '<tr data-post-seat="3"><td>3</td><td>P3</td><td class="num">2</td>' in page
    assert "Seat 4 P4 straddles (4)" in page
    response = tablet_start(client, table, straddle="on")
    assert response.status_code == 200
    hand = Hand.objects.get(table=table)
    assert [(row["seat"], row["blind"]) for row in hand.seats] == [
        (2, 1),
        (3, 2),
        (4, 4),
        (5, 0),
        (1, 0),
    ]
    assert hand.state["actor_seat"] == 5


def test_tablet_start_refused_when_the_seats_changed_since_shown() -> None:
    client = director()
    table = open_table(client)
    for number in (1, 3, 5):
        seat(client, table, number, f"P{number}")
    Table.objects.filter(pk=table.pk).update(button_seat=1)
    page = client.get(reverse("deal-table", args=[table.pk])).content.decode()
    shown = re.search(r'name="plan" value="([0-9a-f]+)"', page)
    assert shown is not None
    cash.cash_seat_sit_out(cash_seat=CashSeat.objects.get(table=table, seat=5))
    response = client.post(
        reverse("deal-start", args=[table.pk]),
        {"last_hand": 0, "plan": shown.group(1)},
        headers=HTMX,
    )
    assert response.status_code == 409
    assert "The seats changed since this screen was drawn" in text(response)
    assert not Hand.objects.filter(table=table).exists()


def test_admin_lists_cash_seats_and_the_waiting_list() -> None:
    client = Client()
    client.force_login(DirectorFactory.create(is_superuser=True))
    table = open_table(client)
    seat(client, table, 1, "Ann")
    client.post(reverse("cash-waitlist-add", args=[table.pk]), once(player_name="Wes"))
    seats = client.get("/admin/cash/cashseat/")
    assert seats.status_code == 200
    assert "Ann" in seats.content.decode()
    waiting = client.get("/admin/cash/waitinglistentry/")
    assert waiting.status_code == 200
    assert "Wes" in waiting.content.decode()


def test_tablet_poll_sees_seat_changes_and_the_button_draw() -> None:
    client = director()
    table = open_table(client)
    seat(client, table, 2, "Ann")
    seat(client, table, 6, "Bob")
    url = reverse("deal-state", args=[table.pk])
    first = client.get(url, headers=HTMX)
    assert "No hand can start: The table has no button yet" in text(first)
    etag = first["ETag"]
    assert client.get(url, headers={**HTMX, "If-None-Match": etag}).status_code == 304
    client.post(reverse("cash-button-draw", args=[table.pk]), once())
    drawn = client.get(url, headers={**HTMX, "If-None-Match": etag})
    assert drawn.status_code == 200
    assert "Next hand: who posts what" in text(drawn)
    etag = drawn["ETag"]
    change(client, table, 6, "sit_out")
    assert client.get(url, headers={**HTMX, "If-None-Match": etag}).status_code == 200
