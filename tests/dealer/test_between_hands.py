"""Issue 10, between hands: who the next hand deals in, and the moves that wait for a hand.

- A misdeal is dealt again with the same button, blinds and players: a move that waited for the
  hand waits for the redeal's end (it used to happen at the misdeal, and the redeal missed the
  mover).
- "After a final-table redraw a seated player is shown as an empty seat and not dealt in": the
  redraw's button draw resets the table's positions, so every seated player is dealt in, and the
  tablet and the desk show everyone seated.
- A seat the next hand will not deal in says why, on the tablet and the desk (T 10-A).
"""

from __future__ import annotations

import random
import re
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.errors import FloorError
from dealer.models import Hand
from dealer.selectors import check_hand_chips
from dealer.services import hand_record_action, hand_start
from tests.factories import (
    DirectorFactory,
    EntryFactory,
    PlayerFactory,
    assign_dealer,
    seated_tournament,
)
from tests.pages import NOW, deal, fold_to_end, freeze_pages, tournament
from tournaments import balancing
from tournaments.models import Entry, Table, Tournament
from tournaments.selectors.books import chips_check
from tournaments.selectors.tables import seats_waiting
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.tables import (
    tournament_balance_plan,
    tournament_confirm_moves,
)

pytestmark = pytest.mark.django_db

WAITS = "waits for the button (T 10-A)"


@pytest.fixture(autouse=True)
def _pages_now(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_pages(monkeypatch, NOW)


def bust(event: Tournament, entries: list[Entry]) -> None:
    for entry in entries:
        entries_bust(tournament=event, busts=[Bust(entry_id=entry.pk, starting_stack=10)], now=NOW)


def misdeal(hand: Hand) -> Hand:
    result = hand_record_action(
        hand=hand,
        action={"kind": "misdeal", "reason": "a card exposed on the deal"},
        client_id=uuid.uuid4().hex,
        version=hand.version,
    )
    assert result.hand.status == Hand.Status.VOID
    return result.hand


def dealt(hand: Hand) -> set[int]:
    return {row["entry"] for row in hand.seats}


def place(entry: Entry) -> tuple[int, int | None]:
    """The table number and seat the entry sits at now."""
    entry.refresh_from_db()
    assert entry.table is not None
    return entry.table.number, entry.seat


def seats_taken(table: Table) -> dict[int, int]:
    rows = Entry.objects.filter(table=table, status="active").values_list("seat", "pk")
    return {seat: pk for seat, pk in rows if seat is not None}


def text(response: Any) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- a misdeal and the moves that wait for the hand -------------------------------------------


def test_a_move_that_waits_for_the_hand_waits_for_the_redeal_after_a_misdeal() -> None:
    event = tournament(players=[f"Player {n:02d}" for n in range(1, 19)], start=True)
    bust(event, list(Entry.objects.filter(tournament=event, table__number=2)[:3]))
    plan = tournament_balance_plan(event)
    assert len(plan.moves) == 1
    move = plan.moves[0]
    hand = deal(event, move.from_table)
    mover = Entry.objects.get(pk=move.entry_id)
    assert mover.pk in dealt(hand)
    tournament_confirm_moves(tournament=event)

    misdeal(hand)
    mover.refresh_from_db()
    assert place(mover) == (move.from_table, move.from_seat)
    assert mover.move_to_seat == move.to_seat

    redeal = deal(event, move.from_table)
    assert mover.pk in dealt(redeal)  # same button, blinds and players
    assert dealt(redeal) == dealt(hand)
    assert redeal.button_seat == hand.button_seat
    fold_to_end(redeal)
    mover.refresh_from_db()
    assert place(mover) == (move.to_table, move.to_seat)
    assert mover.move_to_table_id is None
    assert chips_check(event) == []
    assert check_hand_chips(event) == []


def test_a_misdeal_at_a_broken_table_moves_its_players_at_once() -> None:
    event = seated_tournament(players=20, now=NOW)  # three tables of 7, 7 and 6
    bust(event, list(Entry.objects.filter(tournament=event, status="active")[:4]))
    plan = tournament_balance_plan(event)
    assert len(plan.broken_tables) == 1
    broken = plan.broken_tables[0]
    hand = deal(event, broken, NOW)
    tournament_confirm_moves(tournament=event)
    waiting = set(
        Entry.objects.filter(tournament=event, move_to_table__isnull=False).values_list(
            "pk", flat=True
        )
    )
    assert waiting == dealt(hand)

    misdeal(hand)

    # The broken table deals no redeal: its players take their new seats now.
    assert not Entry.objects.filter(tournament=event, move_to_table__isnull=False).exists()
    assert not Entry.objects.filter(pk__in=waiting, table__number=broken).exists()


# --- the final-table redraw ----------------------------------------------------------------------


def test_bug_after_the_final_table_redraw_every_seated_player_is_dealt_in() -> None:
    event = seated_tournament(players=12, now=NOW)  # two tables of 6
    final = Table.objects.get(tournament=event, number=1)
    fold_to_end(deal(event, 1, NOW))  # the final table's positions are those of its hand 1
    fold_to_end(deal(event, 2, NOW))
    bust(event, list(Entry.objects.filter(tournament=event, table__number=2)[:3]))
    assert tournament_balance_plan(event).redraw_final_table

    tournament_confirm_moves(tournament=event, rng=random.Random(3))

    seated = list(Entry.objects.filter(tournament=event, status="active").select_related("player"))
    assert len(seated) == 9
    assert {e.table_id for e in seated} == {final.pk}
    director = signed_in(DirectorFactory())
    tablet = text(director.get(reverse("deal-table", args=[final.pk])))
    desk = text(director.get(reverse("table-list", args=[event.pk])))
    for entry in seated:
        assert f"{entry.seat} {entry.player.name}" in tablet
        assert f"{entry.seat} {entry.player.name}" in desk
    assert tablet.count(" Open ") == 0  # nine seats, nine players
    assert WAITS not in tablet
    assert WAITS not in desk

    hand = hand_start(table=final, now=NOW)
    assert dealt(hand) == {e.pk for e in seated}
    assert hand.button_seat == Table.objects.get(pk=final.pk).button_seat


# --- a seat the next hand will not deal in says why ----------------------------------------------


def table_with_a_newcomer_between_the_button_and_the_small_blind() -> tuple[Table, Entry]:
    """Four players at seats 1, 3, 5 and 7, the button drawn at 7: hand 1 has the small blind
    at 1 and the big blind at 3, so the next button is 1 and the next small blind 3. A new
    player then sits at seat 2, between them."""
    event = seated_tournament(players=4, now=NOW)
    table = Table.objects.get(tournament=event)
    for entry, seat in zip(
        Entry.objects.filter(table=table).order_by("pk"), (1, 3, 5, 7), strict=True
    ):
        Entry.objects.filter(pk=entry.pk).update(seat=seat)
    Table.objects.filter(pk=table.pk).update(button_seat=7)
    table.refresh_from_db()
    first = hand_start(table=table, now=NOW)
    assert (first.button_seat, first.small_blind_seat, first.big_blind_seat) == (7, 1, 3)
    fold_to_end(first)
    newcomer = EntryFactory.create(
        tournament=event, table=table, seat=2, player=PlayerFactory(name="Zoe Newcomer")
    )
    table.refresh_from_db()
    return table, newcomer


def test_t10a_the_wait_reason_is_the_rule_of_the_next_hands_positions() -> None:
    positions = balancing.NextHand(seats=9, button=1, small_blind=3, big_blind=5)
    assert positions.wait_reason(2) == WAITS
    assert positions.wait_reason(4) == positions.wait_reason(3) == ""
    first = balancing.NextHand(seats=9, button=1, small_blind=3, big_blind=5, first_hand=True)
    assert first.wait_reason(2) == ""


def test_a_seat_the_next_hand_will_not_deal_in_says_why_on_the_tablet_and_the_desk() -> None:
    table, newcomer = table_with_a_newcomer_between_the_button_and_the_small_blind()
    occupied = seats_taken(table)
    assert seats_waiting(table, occupied) == {2: WAITS}

    dealer = signed_in(assign_dealer(table))
    tablet = dealer.get(reverse("deal-table", args=[table.pk]))
    desk = signed_in(DirectorFactory()).get(reverse("table-list", args=[table.tournament_id]))
    assert "Seat 2 Zoe Newcomer: waits for the button (T 10-A)" in text(tablet)
    assert "Waits for the button (T 10-A)" in text(tablet)  # on the seat itself
    assert "Zoe Newcomer waits for the button (T 10-A)" in text(desk)
    assert text(desk).count(WAITS) == 1

    second = hand_start(table=table, now=NOW)
    assert newcomer.pk not in dealt(second)
    in_hand = signed_in(DirectorFactory()).get(reverse("table-list", args=[table.tournament_id]))
    assert WAITS not in text(in_hand)  # during a hand the desk says who is in it instead
    fold_to_end(second)
    occupied = seats_taken(table)
    table.refresh_from_db()
    assert seats_waiting(table, occupied) == {}  # the button has passed seat 2
    assert newcomer.pk in dealt(hand_start(table=table, now=NOW))


def test_t10a_a_hand_with_one_player_dealt_in_is_refused_with_who_waits() -> None:
    """Found by the floor-and-tablets state machine: two players left at a table, one of them
    new between the button and the small blind, made the engine refuse a one-player hand (an
    engine error, not the floor's sentence)."""
    table, newcomer = table_with_a_newcomer_between_the_button_and_the_small_blind()
    others = Entry.objects.filter(table=table, status=Entry.Status.ACTIVE).exclude(pk=newcomer.pk)
    stay = Entry.objects.get(table=table, seat=3)  # the next small blind: one player remains
    bust(newcomer.tournament, [e for e in others.order_by("seat") if e.pk != stay.pk])

    with pytest.raises(FloorError) as refused:
        hand_start(table=table, now=NOW)

    assert refused.value.code == "not_enough_players"
    assert refused.value.detail == (
        f"Only one player at {table} may be dealt in: Zoe Newcomer waits for the button "
        "(T 10-A). Balance the tables, or move a player here."
    )
    assert not Hand.objects.filter(table=table, status=Hand.Status.IN_PROGRESS).exists()
