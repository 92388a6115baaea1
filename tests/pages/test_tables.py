"""Seat draw, seat cards, the tables overview and the balancing plan's "Confirm moves"."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NOW, freeze_pages, once, staff_client, table_of, tournament
from tournaments.models import Entry
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.tables import tournament_balance_plan

PLAYERS = [f"Player {n:02d}" for n in range(1, 19)]  # 18 players: two full tables of 9


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


@pytest.mark.django_db
def test_seat_draw_then_seat_cards(director: Client) -> None:
    event = tournament(players=PLAYERS[:12])

    before = director.get(reverse("table-list", args=[event.pk])).content.decode()
    response = director.post(reverse("seat-draw", args=[event.pk]), follow=True)
    cards = director.get(reverse("seat-cards", args=[event.pk]))

    assert "Draw seats" in before
    assert "Seats drawn at 2 tables. Print the seat cards." in response.content.decode()
    body = cards.content.decode()
    assert cards.status_code == 200
    assert body.count('class="seat-card"') == 12
    for entry in Entry.objects.filter(tournament=event).select_related("table", "player"):
        assert entry.table is not None
        card = body[body.index(entry.player.name) :]
        card = card[: card.index("</article>")]
        assert f'seat-card__big">{entry.table.number}<' in card
        assert f'seat-card__big">{entry.seat}<' in card
    assert "css/print.css" in body


@pytest.mark.django_db
def test_one_players_seat_card(director: Client) -> None:
    event = tournament(players=PLAYERS[:4], draw=True)
    entry = Entry.objects.filter(tournament=event).first()
    assert entry is not None

    body = director.get(
        reverse("seat-cards", args=[event.pk]), {"entry": entry.pk}
    ).content.decode()

    assert body.count('class="seat-card"') == 1
    assert entry.player.name in body


@pytest.mark.django_db
def test_a_second_draw_is_refused_in_plain_words(director: Client) -> None:
    event = tournament(players=PLAYERS[:4], draw=True)

    response = director.post(reverse("seat-draw", args=[event.pk]), follow=True)

    assert "Seats are already drawn." in response.content.decode()


@pytest.mark.django_db
def test_the_tables_show_seats_names_chips_and_the_button(director: Client) -> None:
    event = tournament(players=PLAYERS[:12], start=True)

    response = director.get(reverse("table-list", args=[event.pk]))

    body = response.content.decode()
    tables = response.context["tables"]
    assert [t.number for t in tables] == [1, 2]
    assert sum(t.players for t in tables) == 12
    assert all(any(seat.button for seat in t.seats) for t in tables)
    assert body.count('class="dealer-button"') == 2
    for name in PLAYERS[:12]:
        assert name in body
    assert "10,000" in body
    assert "The tables are balanced: nothing to move." in body


def _short_table(event_pk: int, table: int, busts: int) -> None:
    from tournaments.models import Tournament

    event = Tournament.objects.get(pk=event_pk)
    out = Entry.objects.filter(tournament=event, table__number=table, status="active")[:busts]
    for entry in out:
        entries_bust(tournament=event, busts=[Bust(entry_id=entry.pk, starting_stack=10)], now=NOW)


@pytest.mark.django_db
def test_the_plan_is_shown_with_halted_tables_and_confirmed(director: Client) -> None:
    event = tournament(players=PLAYERS, start=True)
    _short_table(event.pk, 1, 4)  # table 1 has 5, table 2 has 9: halt, then move 2
    plan = tournament_balance_plan(event)
    assert plan.halted_tables == (1,)
    assert len(plan.moves) == 2

    page = director.get(reverse("table-list", args=[event.pk])).content.decode()
    response = director.post(reverse("moves-confirm", args=[event.pk]), once(), follow=True)

    for line in plan.describe():
        assert line in page
    assert '<li class="plan-lines__halt">' in page
    assert "poker-table--halted" in page
    assert "Confirm moves" in page
    moved = Entry.objects.get(pk=plan.moves[0].entry_id)
    assert moved.player.name in page
    assert (table_of(moved), moved.seat) == (plan.moves[0].to_table, plan.moves[0].to_seat)
    assert "2 moves confirmed." in response.content.decode()
    assert tournament_balance_plan(event).is_empty
    assert "The tables are balanced" in response.content.decode()


@pytest.mark.django_db
def test_confirming_a_balanced_floor_changes_nothing(director: Client) -> None:
    event = tournament(players=PLAYERS[:12], start=True)

    response = director.post(reverse("moves-confirm", args=[event.pk]), once(), follow=True)

    assert "Nothing to move: the tables are balanced." in response.content.decode()
