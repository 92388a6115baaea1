"""Eliminations: players out on one hand with their starting stacks, and the undo."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import (
    NAMES,
    NOW,
    entry_of,
    freeze_pages,
    once,
    staff_client,
    table_of,
    tournament,
)
from tournaments.models import Entry
from tournaments.services.entries import entry_set_chips


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


@pytest.mark.django_db
def test_the_form_lists_the_seated_players(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)
    ann = entry_of(event, "Ann Lee")

    body = director.get(reverse("bust-list", args=[event.pk])).content.decode()

    assert f'<option value="{ann.pk}"' in body
    assert f"T{table_of(ann)} S{ann.seat} &middot; Ann Lee (10,000)" in body


@pytest.mark.django_db
def test_picking_a_player_prefills_their_chips(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)
    ann = entry_of(event, "Ann Lee")
    entry_set_chips(entry=ann, chips=12345)

    response = director.get(reverse("bust-row", args=[event.pk]), {"entry": ann.pk})

    body = response.content.decode()
    assert response.status_code == 200
    assert body.strip().startswith("<tr")
    assert 'value="12345"' in body
    assert f'<option value="{ann.pk}" selected>' in body


@pytest.mark.django_db
def test_two_players_out_on_one_hand_are_placed_by_starting_stack(director: Client) -> None:
    event = tournament(players=NAMES[:6], start=True, payout_percentages=[70, 30])
    ann, bruno = entry_of(event, "Ann Lee"), entry_of(event, "Bruno Costa")

    response = director.post(
        reverse("bust-list", args=[event.pk]),
        once(entry=[str(ann.pk), str(bruno.pk), ""], stack=["3000", "8000", ""]),
        follow=True,
    )

    ann.refresh_from_db()
    bruno.refresh_from_db()
    assert (ann.status, ann.finishing_place) == (Entry.Status.BUSTED, 6)
    assert (bruno.status, bruno.finishing_place) == (Entry.Status.BUSTED, 5)
    body = response.content.decode()
    assert "Bruno Costa out in place 5; Ann Lee out in place 6." in body
    assert "Undo last bust" in body


@pytest.mark.django_db
def test_undo_last_bust_puts_the_hand_back(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)
    ann = entry_of(event, "Ann Lee")
    seat, chips = (ann.table_id, ann.seat), ann.chips
    director.post(reverse("bust-list", args=[event.pk]), once(entry=[str(ann.pk)], stack=["7000"]))

    response = director.post(reverse("bust-undo", args=[event.pk]), once(), follow=True)

    ann.refresh_from_db()
    assert ann.status == Entry.Status.ACTIVE
    assert ann.chips == chips  # what the bust took off the ledger
    assert (ann.table_id, ann.seat) == seat
    assert ann.finishing_place is None
    assert "Bust undone: Ann Lee back in play." in response.content.decode()


@pytest.mark.django_db
def test_undo_with_nothing_to_undo_is_said_in_plain_words(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)

    response = director.post(reverse("bust-undo", args=[event.pk]), once(), follow=True)

    assert "No bust to undo." in response.content.decode()


@pytest.mark.django_db
def test_a_refused_bust_is_shown_at_the_top_of_the_form(director: Client) -> None:
    event = tournament(players=NAMES[:2], start=True)
    ann, bruno = entry_of(event, "Ann Lee"), entry_of(event, "Bruno Costa")

    response = director.post(
        reverse("bust-list", args=[event.pk]),
        once(entry=[str(ann.pk), str(bruno.pk)], stack=["1", "2"]),
    )

    body = response.content.decode()
    assert response.status_code == 200
    assert "At least one player must remain: the last one wins." in body
    assert 'class="form-errors"' in body
    assert f'<option value="{ann.pk}" selected>' in body  # the rows are kept
    assert not Entry.objects.filter(status=Entry.Status.BUSTED).exists()


@pytest.mark.django_db
def test_a_row_without_a_stack_is_refused(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)
    ann = entry_of(event, "Ann Lee")

    response = director.post(
        reverse("bust-list", args=[event.pk]), once(entry=[str(ann.pk)], stack=[""])
    )

    assert "Row 1: enter the chips the player started the hand with" in (response.content.decode())


@pytest.mark.django_db
def test_an_empty_form_asks_for_a_player(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)

    response = director.post(reverse("bust-list", args=[event.pk]), once(entry=[""], stack=[""]))

    assert "Pick at least one player who is out." in response.content.decode()


@pytest.mark.django_db
def test_t_hand_for_hand_two_out_at_one_table_are_placed_by_starting_stack(
    director: Client,
) -> None:
    """Issue 26 on the desk: hand-for-hand, two players out on one hand at one table were both
    placed 5th; the bigger starting stack finishes 5th, the other 6th."""
    event = tournament(players=NAMES[:6], start=True, payout_percentages=[50, 30, 20])
    ann, bruno = entry_of(event, "Ann Lee"), entry_of(event, "Bruno Costa")
    assert table_of(ann) == table_of(bruno)
    director.post(reverse("hand-for-hand", args=[event.pk]), once(on="1"), follow=True)
    event.refresh_from_db()
    assert event.hand_for_hand

    response = director.post(
        reverse("bust-list", args=[event.pk]),
        once(entry=[str(ann.pk), str(bruno.pk), ""], stack=["3000", "8000", ""]),
        follow=True,
    )

    assert "Bruno Costa out in place 5; Ann Lee out in place 6." in response.content.decode()
