"""Issue 26: what each place and each player gets has one answer (`selectors.payouts_get`), and
an accepted deal is that answer for every reader: the Payouts tab, the public pages, the
payouts and standings API, the results CSV, the screens' board and the player page. The
Payouts tab then shows the deal instead of offering "Calculate a deal".

A deal with any pool: the calculator deals a pool that is not a whole number of prize units
(9 x 55 paid in tens), the part below a unit to the deal's first place, and nothing is lost.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import DirectorFactory, make, seated_tournament
from tournaments.models import Entry, Tournament
from tournaments.selectors import deal_offer, payouts_get
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.deals import tournament_accept_deal
from tournaments.services.entries import entry_set_chips

NOW = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)
STACKS = (50000, 30000, 15000, 5000)  # the four left, biggest first

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("config.request_time.now", lambda: NOW)


def _director() -> tuple[Client, APIClient]:
    user = make(DirectorFactory)
    page, api = Client(), APIClient()
    page.force_login(user)
    api.force_login(user)
    return page, api


def _down_to(players: int, left: int, stacks: tuple[int, ...], **fields: Any) -> Tournament:
    """`players` entries, everyone but `left` out one by one, the last `left` given `stacks`
    (in that order, biggest first)."""
    tournament = seated_tournament(players=players, now=NOW, **fields)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
    for entry in entries[: players - left]:
        entries_bust(
            tournament=tournament,
            busts=[Bust(entry_id=entry.pk, starting_stack=entry.chips)],
            now=NOW,
        )
    for entry, chips in zip(entries[players - left :], stacks, strict=True):
        entry_set_chips(entry=entry, chips=chips, now=NOW, note="final table")
    tournament.refresh_from_db()
    return tournament


def _amount(value: object) -> Decimal | None:
    return None if value in (None, "") else Decimal(str(value))


def test_an_accepted_deal_is_the_payouts_for_every_reader() -> None:
    # 12 x 500 = 6,000 paid 1,980 / 1,152 / 876 / 738 / 456 / 402 / 396.
    tournament = _down_to(
        12, 4, STACKS, buy_in=500, payout_percentages=[33, 19.2, 14.6, 12.3, 7.6, 6.7, 6.6]
    )
    before = payouts_get(tournament).places
    assert before[:4] == tuple(Decimal(p) for p in ("1980", "1152", "876", "738"))
    tournament_accept_deal(tournament=tournament, method="icm")
    tournament.refresh_from_db()
    deal = {int(p["place"]): Decimal(p["amount"]) for p in tournament.deal["players"]}
    by_name = {p["player"]: Decimal(p["amount"]) for p in tournament.deal["players"]}
    assert list(deal.values()) != list(before[:4])  # the deal is not the payout table
    fifth = Entry.objects.get(tournament=tournament, finishing_place=5)
    expected = {**deal, 5: before[4]}
    page, api = _director()

    # The one selector.
    paid = payouts_get(tournament)
    assert {place: paid.places[place - 1] for place in expected} == expected
    assert paid.deal == "icm"
    # The Payouts tab: the deal, not the payout table, and no calculator any more.
    desk = page.get(reverse("payout-list", args=[tournament.pk]))
    assert {p["place"]: p["prize"] for p in desk.context["places"][:5]} == expected
    body = desk.content.decode()
    assert "Calculate a deal" not in body
    assert "Deal accepted (ICM)" in body
    # The public payouts page and the phone page.
    for name in ("public-payouts", "public-standings"):
        public = Client().get(reverse(name, args=[tournament.pk]))
        assert {p["place"]: p["prize"] for p in public.context["places"][:5]} == expected
        assert public.context["standings"].next_payout is None
    # The payouts API, each place and each player.
    places = api.get(reverse("api-payouts", args=[tournament.pk])).json()["places"]
    assert {p["place"]: _amount(p["prize"]) for p in places[:5]} == expected
    assert {p["players"][0]["name"]: _amount(p["players"][0]["prize"]) for p in places[:4]} == (
        by_name
    )
    # The standings API: the pool is the same, and nobody is next to be paid.
    standings = api.get(reverse("api-standings", args=[tournament.pk])).json()
    assert (_amount(standings["prize_pool"]), standings["next_payout"]) == (Decimal(6000), None)
    # The results CSV.
    export = api.get(reverse("api-results-csv", args=[tournament.pk]))
    rows = list(csv.DictReader(io.StringIO(export.content.decode())))
    assert {row["name"]: _amount(row["prize"]) for row in rows[:4]} == by_name
    assert _amount(rows[4]["prize"]) == before[4] == fifth.prize
    # The screens' board: the payout pages and the final result.
    board = api.get(reverse("api-screen-board", args=[tournament.pk])).json()
    pages = [line for page_ in board["payout_pages"] for line in page_]
    assert {line["place"]: _amount(line["prize"]) for line in pages[:5]} == expected
    assert {line["name"]: _amount(line["prize"]) for line in board["result"][:4]} == by_name
    # The player page.
    for name, amount in by_name.items():
        entry = Entry.objects.get(tournament=tournament, player__name=name)
        results = api.get(reverse("api-player-results", args=[entry.player_id])).json()
        assert [_amount(row["prize"]) for row in results["rows"]] == [amount]


def test_the_deal_calculator_says_a_deal_was_accepted_instead_of_offering_another() -> None:
    tournament = _down_to(6, 3, STACKS[:3], payout_percentages=[50, 30, 20])
    tournament_accept_deal(tournament=tournament, method="chip_chop")
    page, api = _director()

    partial = page.get(reverse("icm-deal", args=[tournament.pk])).content.decode()
    again = api.get(reverse("api-icm", args=[tournament.pk]))

    assert "Accept ICM deal" not in partial
    assert "A deal was accepted" in partial
    assert (again.status_code, again.json()["code"]) == (409, "deal_accepted")


# --- deals with any pool ----------------------------------------------------------------------


def test_9_x_55_with_unit_10_is_dealt_and_every_chip_of_the_pool_paid() -> None:
    """The pool of 495 pays 245 / 140 / 110 (first place carries the 5 below a unit); the deal
    used to be refused (409 prizes_not_in_units). Services, API and pages."""
    tournament = _down_to(9, 3, (90000, 60000, 30000), buy_in=55, payout_unit=10)
    assert payouts_get(tournament).places == (Decimal(245), Decimal(140), Decimal(110))
    page, api = _director()

    offer = deal_offer(tournament)
    icm = api.get(reverse("api-icm", args=[tournament.pk]))
    partial = page.get(reverse("icm-deal", args=[tournament.pk])).content.decode()

    assert icm.status_code == 200
    assert "Accept ICM deal" in partial
    for method in ("icm", "chip_chop"):
        amounts = [row[method] for row in offer]
        assert sum(amounts) == Decimal(495)
        assert amounts[0] % 10 == 5  # the biggest stack, first place of the deal
        assert all(amount % 10 == 0 for amount in amounts[1:])
    accepted = api.post(
        reverse("api-tournament-deal", args=[tournament.pk]),
        {"method": "icm", "chips": [90000, 60000, 30000]},
        format="json",
    )
    assert accepted.status_code == 200
    tournament.refresh_from_db()
    prizes = Entry.objects.filter(tournament=tournament, finishing_place__isnull=False)
    assert sum(prize or 0 for prize in prizes.values_list("prize", flat=True)) == Decimal(495)
    assert [row["icm"] for row in offer] == list(payouts_get(tournament).places)
