"""Issue 10: chip counts on the desk. A count sheet per table (at a break, at the end of a day)
writes the counts typed into the chip ledger together, or nothing when a row is refused."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.pages import NAMES, NOW, deal, fold_to_end, freeze_pages, once, staff_client, tournament
from tournaments.models import ChipMove, Entry, Table, Tournament
from tournaments.selectors.books import chips_check


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


def table_one(event: Tournament) -> tuple[Table, list[Entry]]:
    table = Table.objects.get(tournament=event, number=1)
    return table, list(
        Entry.objects.filter(table=table, status=Entry.Status.ACTIVE)
        .select_related("player")
        .order_by("seat")
    )


def sheet(event: Tournament, table: Table, *, note: str = "", kind: str = "count", **chips):
    """The sheet's form data: `chips={entry_id: "text"}` for the boxes typed."""
    data = once(note=note, kind=kind)
    for entry_id, value in chips.get("chips", {}).items():
        data[f"chips_{entry_id}"] = value
    return reverse("table-counts", args=[event.pk, table.pk]), data


@pytest.mark.django_db
def test_the_count_sheet_lists_each_seated_player_with_their_last_count_and_its_source(
    director: Client,
) -> None:
    event = tournament(players=NAMES[:6], start=True)
    table, seated = table_one(event)

    body = director.get(reverse("table-counts", args=[event.pk, table.pk])).content.decode()

    assert f"Count sheet &middot; Table {table.number}" in body
    for entry in seated:
        assert entry.player.name in body
        assert f'name="chips_{entry.pk}"' in body
    assert "starting stack, 18:00" in body  # where the figure came from, and when
    assert 'name="note"' in body
    assert 'value="colour_up"' in body


@pytest.mark.django_db
def test_counts_typed_go_into_the_ledger_with_the_occasion_and_blank_rows_are_unchanged(
    director: Client,
) -> None:
    event = tournament(players=NAMES[:6], start=True)
    table, seated = table_one(event)
    first, second, third = seated[:3]
    url, data = sheet(
        event,
        table,
        note="at the break",
        chips={first.pk: "12500", second.pk: "7500", third.pk: ""},
    )

    response = director.post(url, data, follow=True)

    for entry in (first, second, third):
        entry.refresh_from_db()
    assert (first.chips, second.chips, third.chips) == (12500, 7500, 10000)
    assert first.chips_source == "counted (at the break)"
    rows = ChipMove.objects.filter(kind=ChipMove.Kind.COUNT).order_by("pk")
    assert [(r.entry_id, r.delta, r.note) for r in rows] == [
        (first.pk, 2500, "at the break"),
        (second.pk, -2500, "at the break"),
    ]
    assert f"Counts recorded at Table {table.number}: 2 players." in response.content.decode()
    assert chips_check(event) == []


@pytest.mark.django_db
def test_a_colour_up_sheet_is_recorded_as_a_colour_up(director: Client) -> None:
    event = tournament(players=NAMES[:6], start=True)
    table, seated = table_one(event)
    url, data = sheet(
        event, table, note="race off the 25s", kind="colour_up", chips={seated[0].pk: "9900"}
    )

    director.post(url, data)

    move = ChipMove.objects.get(entry=seated[0], kind=ChipMove.Kind.COLOUR_UP)
    assert (move.delta, move.note) == (-100, "race off the 25s")


@pytest.mark.django_db
def test_a_player_in_a_hand_refuses_the_whole_sheet_with_the_sentence_on_their_row(
    director: Client,
) -> None:
    event = tournament(players=NAMES[:12], start=True)
    hand = deal(event, 1)
    table, seated = table_one(event)
    in_hand = next(e for e in seated if e.pk in {row["entry"] for row in hand.seats})
    url, data = sheet(event, table, chips={in_hand.pk: "11000"})

    response = director.post(url, data)

    body = response.content.decode()
    assert response.status_code == 200
    assert (
        f"{in_hand.player.name} is in hand {hand.number} at table 1: record the count when it "
        "ends." in body
    )
    assert "row--errors" in body
    assert "in hand 1 at table 1" in body
    assert not ChipMove.objects.filter(kind=ChipMove.Kind.COUNT).exists()


@pytest.mark.django_db
def test_one_refused_row_writes_nothing_and_each_refused_row_says_why(director: Client) -> None:
    event = tournament(players=NAMES[:6], start=True)
    table, seated = table_one(event)
    good, zero, negative = seated[:3]
    url, data = sheet(event, table, chips={good.pk: "15000", zero.pk: "0", negative.pk: "-5"})

    response = director.post(url, data)

    body = response.content.decode()
    assert body.count("A playing entry has at least one chip: record a bust instead.") == 2
    good.refresh_from_db()
    assert good.chips == 10000
    assert not ChipMove.objects.filter(kind=ChipMove.Kind.COUNT).exists()


@pytest.mark.django_db
def test_a_count_that_is_not_a_number_is_a_field_error(director: Client) -> None:
    event = tournament(players=NAMES[:6], start=True)
    table, seated = table_one(event)
    url, data = sheet(event, table, chips={seated[0].pk: "12k"})

    response = director.post(url, data)

    assert "Enter a whole number." in response.content.decode()
    assert not ChipMove.objects.filter(kind=ChipMove.Kind.COUNT).exists()


@pytest.mark.django_db
def test_an_empty_sheet_asks_for_a_count(director: Client) -> None:
    event = tournament(players=NAMES[:6], start=True)
    table, _ = table_one(event)
    url, data = sheet(event, table)

    response = director.post(url, data)

    assert "Enter the chips of at least one player." in response.content.decode()


@pytest.mark.django_db
def test_a_count_sheet_sent_twice_records_once(director: Client) -> None:
    event = tournament(players=NAMES[:6], start=True)
    table, seated = table_one(event)
    url, data = sheet(event, table, chips={seated[0].pk: "12000"})

    director.post(url, data)
    second = director.post(url, data, follow=True)

    assert ChipMove.objects.filter(kind=ChipMove.Kind.COUNT).count() == 1
    assert "Already recorded: that form was sent twice." in second.content.decode()


@pytest.mark.django_db
def test_the_tables_page_links_each_table_to_its_count_sheet(director: Client) -> None:
    event = tournament(players=NAMES[:12], start=True)

    body = director.get(reverse("table-list", args=[event.pk])).content.decode()

    for table in Table.objects.filter(tournament=event):
        assert reverse("table-counts", args=[event.pk, table.pk]) in body


@pytest.mark.django_db
def test_a_table_of_another_tournament_has_no_count_sheet_here(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)
    other = tournament(players=NAMES[4:8], start=True, name="Other")
    table = Table.objects.get(tournament=other, number=1)

    response = director.get(reverse("table-counts", args=[event.pk, table.pk]))

    assert response.status_code == 404


@pytest.mark.django_db
def test_after_the_hand_ends_the_count_is_recorded(director: Client) -> None:
    event = tournament(players=NAMES[:6], start=True)
    table, seated = table_one(event)
    fold_to_end(deal(event, 1))
    url, data = sheet(event, table, note="end of day 1", chips={seated[0].pk: "9000"})

    director.post(url, data)

    seated[0].refresh_from_db()
    assert seated[0].chips == 9000
    assert seated[0].chips_source == "counted (end of day 1)"
    assert chips_check(event) == []


@pytest.mark.django_db
def test_the_count_sheet_is_for_directors_only(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    freeze_pages(monkeypatch, NOW)
    event = tournament(players=NAMES[:4], start=True)
    table, seated = table_one(event)
    url, data = sheet(event, table, chips={seated[0].pk: "5000"})

    anonymous = client.post(url, data)
    client.force_login(get_user_model().objects.create_user("player", password="x"))
    signed_in = client.post(url, data)

    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login"))
    assert signed_in.status_code == 403
    assert not ChipMove.objects.filter(kind=ChipMove.Kind.COUNT).exists()
