"""Rake and time at cash tables (issue 15): the engine's rake recorded on each hand with its
dealer, time collected per seat per half hour, and the cage's report over a whole evening, which
reconciles: every hand's starting chips = its finishing chips + its rake, and every chip bought
in is in front of a player, in the rake or in the time collected."""

from __future__ import annotations

import datetime as dt
import random
import uuid
from collections.abc import Mapping
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from common.errors import FloorError
from config.exceptions import status_of
from dealer.cash.models import CashChips, CashSeat, TimeCharge
from dealer.cash.seats import services as cash
from dealer.cash.takings.cage import cage_report
from dealer.cash.takings.services import time_charge_collect, time_period_start
from dealer.engine.cards import DeckKind, deck
from dealer.models import Hand
from dealer.services import hand_record_action, hand_start
from tests.factories import DealerFactory, make
from tests.pages import once
from tournaments.models import Table

pytestmark = pytest.mark.django_db

RAKE = {"rake_percent": 5, "rake_cap": 5, "rake_no_flop_no_drop": True}


def raked_table(number: int, dealer: Any = None, seats: int = 4) -> Table:
    table = cash.cash_table_create(
        number=number,
        name="1/2 NL",
        game="holdem",
        structure="no_limit",
        rule_profile="casino_cash",
        rule_overrides=RAKE,
        small_blind=1,
        big_blind=2,
        min_buy_in=40,
        max_buy_in=200,
    )
    for seat in range(1, seats + 1):
        cash.cash_seat_take(table=table, seat=seat, player_name=f"T{number}P{seat}", buy_in=200)
    Table.objects.filter(pk=table.pk).update(dealer=dealer, button_seat=1)
    table.refresh_from_db()
    return table


def act(hand: Hand, state: Mapping[str, Any], **action: Any) -> tuple[Hand, Mapping[str, Any]]:
    result = hand_record_action(
        hand=hand, action=action, client_id=uuid.uuid4().hex, version=state["version"]
    )
    return result.hand, result.answer


def play_hand(
    table: Table, rng: random.Random, *, to_flop: bool, raise_to: int | None = None
) -> Hand:
    """The first to act raises and everyone calls to the flop, where the first to act bets and
    takes it; or (not `to_flop`) everyone folds to the big blind: a no-flop hand."""
    hand = hand_start(table=table)
    state = hand.state
    legal = state["legal"]
    if to_flop and legal["min_raise_to"] is not None:
        wanted = raise_to or rng.choice((6, 10, 20, 40))
        amount = min(max(wanted, legal["min_raise_to"]), legal["max_raise_to"])
        hand, state = act(hand, state, kind="raise", amount=amount, seat=state["actor_seat"])
    while (
        state["status"] == "in_progress"
        and state["phase"] == "betting"
        and not (to_flop and state["street"] != "preflop")
    ):
        live = [p for p in state["players"] if not p["folded"]]
        legal = state["legal"]
        if not to_flop and len(live) > 1:
            kind = "fold"
        else:
            kind = "check" if legal["can_check"] else "call"
        hand, state = act(hand, state, kind=kind, seat=state["actor_seat"])
    if state["status"] != "in_progress":
        return hand
    cards = [str(c) for c in rng.sample(deck(DeckKind.STANDARD), 3)]
    hand, state = act(hand, state, kind="deal_board", cards=cards)
    hand, state = act(
        hand, state, kind="bet", amount=rng.choice((4, 10, 40)), seat=state["actor_seat"]
    )
    while state["status"] == "in_progress":
        hand, state = act(hand, state, kind="fold", seat=state["actor_seat"])
    return hand


def test_a_cash_hand_records_its_rake_and_its_dealer() -> None:
    dealer = make(DealerFactory)
    table = raked_table(1, dealer)
    hand = play_hand(table, random.Random(1), to_flop=True, raise_to=15)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.COMPLETE
    pot = sum(award["amount"] + award["rake"] for award in hand.state["awards"])
    assert pot == 60  # four players in for 15 preflop; the flop bet was not called
    assert hand.rake == 3  # 5% of 60
    assert hand.dealt_by_id == dealer.pk


def test_no_flop_no_drop_a_hand_won_preflop_records_no_rake() -> None:
    table = raked_table(1)
    hand = play_hand(table, random.Random(1), to_flop=False)
    hand.refresh_from_db()
    assert hand.rake == 0
    assert hand.dealt_by_id is None


def test_a_raked_pot_shows_rake_on_the_awards_and_in_the_api_state() -> None:
    table = raked_table(1, seats=3)
    CashSeat.objects.filter(table=table).update(chips=200)
    hand = hand_start(table=table)
    state = hand.state
    # Everyone raises to 40 preflop, the flop is dealt, the first bets, the others fold.
    hand, state = act(hand, state, kind="raise", amount=40, seat=state["actor_seat"])
    while state["phase"] == "betting" and state["street"] == "preflop":
        hand, state = act(hand, state, kind="call", seat=state["actor_seat"])
    hand, state = act(hand, state, kind="deal_board", cards=["Ah", "9c", "4d"])
    hand, state = act(hand, state, kind="bet", amount=10, seat=state["actor_seat"])
    while state["status"] == "in_progress":
        hand, state = act(hand, state, kind="fold", seat=state["actor_seat"])
    assert state["rake"] == 5  # 5% of 120 is 6, capped at 5
    (award,) = state["awards"]
    assert (award["amount"], award["rake"]) == (115, 5)
    hand.refresh_from_db()
    assert hand.rake == 5


# --- time ------------------------------------------------------------------------------------


def test_time_is_charged_once_per_seat_per_half_hour() -> None:
    table = raked_table(1)
    seat = CashSeat.objects.get(table=table, seat=2)
    at = dt.datetime(2025, 3, 1, 20, 10, tzinfo=timezone.get_current_timezone())
    charge = time_charge_collect(cash_seat=seat, amount=6, now=at)
    assert charge.period_start == time_period_start(at)
    assert timezone.localtime(charge.period_start).strftime("%H:%M") == "20:00"
    assert CashSeat.objects.get(pk=seat.pk).chips == 194
    with pytest.raises(FloorError) as twice:
        time_charge_collect(cash_seat=seat, amount=6, now=at + dt.timedelta(minutes=15))
    assert twice.value.code == "already_charged"
    assert status_of(twice.value) == 409
    later = time_charge_collect(cash_seat=seat, amount=6, now=at + dt.timedelta(minutes=25))
    assert timezone.localtime(later.period_start).strftime("%H:%M") == "20:30"
    assert CashSeat.objects.get(pk=seat.pk).chips == 188


def test_time_is_refused_during_the_players_hand_and_beyond_their_chips() -> None:
    table = raked_table(1)
    seat = CashSeat.objects.get(table=table, seat=3)
    with pytest.raises(FloorError) as short:
        time_charge_collect(cash_seat=seat, amount=201)
    assert short.value.code == "short_stack"
    with pytest.raises(FloorError) as nothing:
        time_charge_collect(cash_seat=seat, amount=0)
    assert nothing.value.code == "bad_amount"
    hand_start(table=table)
    with pytest.raises(FloorError) as busy:
        time_charge_collect(cash_seat=seat, amount=5)
    assert busy.value.code == "in_hand"
    assert not TimeCharge.objects.exists()


def test_time_api_charges_and_refuses_a_second_charge(director: APIClient) -> None:
    table = raked_table(1)
    seat = CashSeat.objects.get(table=table, seat=1)
    url = reverse("api-cash-seat-time", args=[table.pk, seat.pk])
    answer = director.post(url, {"amount": 5}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["amount"] == 5
    assert answer.json()["seat"] == 1
    again = director.post(url, {"amount": 5}, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "already_charged"
    bad = director.post(url, {"amount": "lots"}, format="json")
    assert bad.status_code == 400


def test_time_page_button_charges_the_seat(director: APIClient) -> None:
    table = raked_table(1)
    seat = CashSeat.objects.get(table=table, seat=1)
    page = director.get(reverse("cash-table", args=[table.pk])).content.decode()
    assert reverse("cash-seat-time", args=[table.pk, seat.pk]) in page
    answer = director.post(
        reverse("cash-seat-time", args=[table.pk, seat.pk]), once(amount="4"), follow=True
    )
    assert "Seat 1 paid 4 of time" in answer.content.decode()
    assert TimeCharge.objects.get().amount == 4


def test_a_dealer_of_another_table_may_not_charge_time() -> None:
    table = raked_table(1)
    seat = CashSeat.objects.get(table=table, seat=1)
    client = APIClient()
    client.force_login(make(DealerFactory))
    url = reverse("api-cash-seat-time", args=[table.pk, seat.pk])
    assert client.post(url, {"amount": 5}, format="json").status_code == 403
    assert client.get(reverse("api-cash-cage")).status_code == 403


# --- the cage over an evening ----------------------------------------------------------------


def test_an_evening_of_hands_reconciles_in_the_cage_report(director: APIClient) -> None:
    rng = random.Random(15)
    ann, bob = make(DealerFactory, username="ann"), make(DealerFactory, username="bob")
    tables = [raked_table(1, ann), raked_table(2, bob, seats=5)]
    bought = sum(row.bought_in for row in CashSeat.objects.all())
    for round_number in range(12):
        for table in tables:
            play_hand(table, rng, to_flop=round_number % 3 != 0)
            table.refresh_from_db()
    charged = 0
    for row in CashSeat.objects.filter(table=tables[0]).order_by("seat"):
        time_charge_collect(cash_seat=row, amount=3)
        charged += 3
    hands = Hand.objects.filter(status=Hand.Status.COMPLETE).order_by("pk")
    assert hands.count() == 24
    for hand in hands:  # each hand: starting stacks = final stacks + rake
        started = sum(seat["stack"] for seat in hand.seats)
        assert started == sum(hand.state["finishing_stacks"].values()) + hand.rake
        assert hand.rake == hand.state["rake"]
    rake = sum(hand.rake for hand in hands)
    assert rake > 0
    assert any(hand.rake == 0 for hand in hands)  # the no-flop hands
    report = cage_report(start=timezone.localdate())
    assert report.reconciled
    assert (report.hands, report.rake, report.time) == (24, rake, charged)
    by_table = {line.label: (line.hands, line.rake, line.time) for line in report.tables}
    assert by_table == {
        "Table 1": (12, sum(h.rake for h in hands if h.table_id == tables[0].pk), charged),
        "Table 2": (12, sum(h.rake for h in hands if h.table_id == tables[1].pk), 0),
    }
    assert [line.label for line in report.dealers] == ["ann", "bob"]
    assert [line.total for line in report.days] == [rake + charged]
    # Every chip bought in is in front of a player, in the rake or in the time.
    chips = sum(row.chips for row in CashSeat.objects.all())
    assert chips + rake + charged == bought
    answer = director.get(reverse("api-cash-cage"))
    assert answer.status_code == 200
    body = answer.json()
    assert (body["rake"], body["time"], body["reconciled"]) == (rake, charged, True)
    page = director.get(reverse("cash-cage")).content.decode()
    assert "Every hand reconciles" in page
    # The rail: what was bought in today, and every chip since the record began accounted for.
    assert (body["bought_in"], body["cashed_out"]) == (bought, 0)
    assert body["float_now"] == {
        "came_in": bought,
        "went_out": 0,
        "rake": rake,
        "drop": 0,
        "time": charged,
        "corrections": 0,
        "between_tables": 0,
        "at_tables": chips,
        "expected": chips,
        "difference": 0,
        "balanced": True,
    }
    assert "Every chip is accounted for." in page


def test_the_rail_counts_buy_ins_top_ups_and_cash_outs_but_not_a_must_move() -> None:
    """Chips in and out over the rail for the cage; a must-move player changing tables with
    their chips is neither, and the float balances through a raked hand, time and a leave."""
    table = raked_table(1, seats=3)  # 3 x 200 bought in
    play_hand(table, random.Random(4), to_flop=True)  # raked
    short = CashSeat.objects.filter(table=table).order_by("chips", "seat").first()
    assert short is not None
    assert short.chips < 200
    cash.cash_seat_top_up(cash_seat=short, amount=200 - short.chips)  # back to the maximum
    time_charge_collect(cash_seat=CashSeat.objects.get(table=table, seat=2), amount=5)
    left = cash.cash_seat_leave(cash_seat=CashSeat.objects.get(table=table, seat=3))
    # A must-move move: leave with the chips and sit down with them at the main table.
    main = raked_table(2, seats=0)
    Table.objects.filter(pk=table.pk).update(must_move_to=main)
    mover = CashSeat.objects.get(table=table, seat=2)
    carried = mover.chips
    cash.cash_seat_move(cash_seat=mover, to_table=main, to_seat=5)
    rows = CashChips.objects.order_by("pk")
    top_ups = sum(row.delta for row in rows if row.kind == "top_up")
    assert top_ups > 0
    report = cage_report(start=timezone.localdate())
    assert report.bought_in == 600 + top_ups
    assert report.cashed_out == left.chips
    hands = Hand.objects.filter(status=Hand.Status.COMPLETE)
    rake = sum(hand.rake for hand in hands)
    assert rake > 0
    float_now = report.float_now
    assert float_now is not None
    assert float_now.balanced, float_now
    assert float_now.at_tables == 600 + top_ups - left.chips - rake - 5
    assert [(row.kind, row.delta, row.table_id) for row in rows if row.kind.startswith("move")] == [
        ("move_out", -carried, table.pk),
        ("move_in", carried, main.pk),
    ]


def test_chips_changed_outside_the_record_show_in_the_float(director: APIClient) -> None:
    table = raked_table(1, seats=2)
    CashSeat.objects.filter(table=table, seat=1).update(chips=230)  # 30 chips from nowhere
    float_now = cage_report(start=timezone.localdate()).float_now
    assert float_now is not None
    assert (float_now.balanced, float_now.difference) == (False, 30)
    page = director.get(reverse("cash-cage")).content.decode()
    assert "The tables hold 30 chips more than the record says" in page


def test_the_cage_report_names_a_hand_that_does_not_add_up() -> None:
    table = raked_table(1)
    hand = play_hand(table, random.Random(3), to_flop=True)
    # A wrong figure in the ledger (no service writes one: a row changed in the database).
    CashChips.objects.filter(hand=hand, kind="rake").update(delta=hand.rake + 7)
    report = cage_report(start=timezone.localdate())
    assert not report.reconciled
    (mismatch,) = report.mismatches
    assert (mismatch.table, mismatch.number) == (1, hand.number)


def test_the_cage_api_refuses_a_bad_day(director: APIClient) -> None:
    answer = director.get(reverse("api-cash-cage"), {"start": "yesterday"})
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_date"
    reverse_order = director.get(
        reverse("api-cash-cage"), {"start": "2025-03-02", "end": "2025-03-01"}
    )
    assert reverse_order.status_code == 400
