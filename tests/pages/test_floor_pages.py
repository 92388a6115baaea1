"""The tables page at scale: the overview of every table, the search that jumps to a table or a
player (accents aside, without JavaScript: a GET and a redirect to the table's anchor), and the
forms for a seat move, a seat lock, a new table and closing one."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NOW, freeze_pages, once, staff_client, tournament
from tournaments.models import AuditEvent, Entry, Table, Tournament
from tournaments.services.floor import entry_move_seat, table_add, table_close, table_lock_seat

PLAYERS = ["José Álvarez", "Joseph Stone", "Ann Lee", *[f"Player {n:02d}" for n in range(1, 22)]]


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


def entry(event: Tournament, name: str) -> Entry:
    return Entry.objects.select_related("table").get(tournament=event, player__name=name)


def table_number(found: Entry) -> int:
    assert found.table is not None
    return found.table.number


def url(event: Tournament) -> str:
    return reverse("table-list", args=[event.pk])


@pytest.mark.django_db
def test_the_overview_has_a_tile_per_table_with_its_players_and_state(director: Client) -> None:
    event = tournament(players=PLAYERS, start=True)  # 24 players: 8, 8, 8
    first = Table.objects.get(tournament=event, number=1)
    taken = set(Entry.objects.filter(table=first).values_list("seat", flat=True))
    table_lock_seat(table=first, seat=min(set(range(1, 10)) - taken), locked=True)
    table_add(tournament=event, number=4)
    table_close(table=Table.objects.get(tournament=event, number=4))

    response = director.get(url(event))

    body = response.content.decode()
    tiles = response.context["overview"].tiles
    assert [t.number for t in tiles] == [1, 2, 3, 4]
    assert [t.players for t in tiles[:3]] == [8, 8, 8]
    assert tiles[3].is_broken
    assert (tiles[0].locked, tiles[1].locked) == (1, 0)
    assert tiles[0].dots.count("locked") == 1
    assert body.count('<li class="table-tile') == 4
    assert 'class="table-tile table-tile--broken"' in body
    assert body.count("dot dot--taken") == 24 + 1  # the legend has one of each
    assert "css/floor.css" in body


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["jose alvarez", "JOSÉ Á", "álvarez"])
def test_a_search_for_one_player_opens_the_page_at_their_table(
    director: Client, query: str
) -> None:
    event = tournament(players=PLAYERS, start=True)
    jose = entry(event, "José Álvarez")
    assert jose.table is not None

    response = director.get(url(event), {"q": query})
    page = director.get(response["Location"])

    number = jose.table.number
    assert response.status_code == 302
    assert response["Location"].endswith(f"at={number}#table-{number}")
    body = page.content.decode()
    assert "José Álvarez</strong>:" in body
    assert f'href="#table-{number}">table {number}</a> seat {jose.seat}' in body
    assert body.count("poker-table--found") == 1
    assert body.count("table-tile--found") == 1


@pytest.mark.django_db
def test_a_table_number_jumps_to_that_table(director: Client) -> None:
    event = tournament(players=PLAYERS, start=True)

    answers = [director.get(url(event), {"q": q}) for q in ("2", "t2", "Table 2")]

    assert [a["Location"].rsplit("#", 1)[1] for a in answers] == ["table-2"] * 3


@pytest.mark.django_db
def test_a_search_with_players_at_several_tables_lists_them(director: Client) -> None:
    event = tournament(players=PLAYERS, start=True)
    jose, joseph = entry(event, "José Álvarez"), entry(event, "Joseph Stone")
    if jose.table_id == joseph.table_id:  # seat Joseph at another table
        other = Table.objects.get(tournament=event, number=2 if table_number(jose) == 1 else 1)
        taken = set(Entry.objects.filter(table=other).values_list("seat", flat=True))
        entry_move_seat(entry=joseph, table=other, seat=min(set(range(1, 10)) - taken))

    response = director.get(url(event), {"q": "jose"})

    assert response.status_code == 200
    matches = response.context["overview"].matches
    assert [m.name for m in matches] == ["José Álvarez", "Joseph Stone"]
    assert response.content.decode().count('class="floor-move"') == 2


@pytest.mark.django_db
def test_nothing_found_says_so(director: Client) -> None:
    event = tournament(players=PLAYERS, start=True)

    body = director.get(url(event), {"q": "zed"}).content.decode()

    assert "Nothing found for &ldquo;zed&rdquo;" in body


@pytest.mark.django_db
def test_the_move_form_moves_the_player_and_returns_to_their_new_table(director: Client) -> None:
    event = tournament(players=PLAYERS, start=True)
    ann = entry(event, "Ann Lee")
    target = 1 if ann.table and ann.table.number != 1 else 2
    taken = set(
        Entry.objects.filter(tournament=event, table__number=target).values_list("seat", flat=True)
    )
    seat = min(set(range(1, 10)) - taken)

    response = director.post(
        reverse("seat-move", args=[event.pk]), once(entry=ann.pk, table=target, seat=seat)
    )
    page = director.get(url(event))

    ann.refresh_from_db()
    assert response["Location"].endswith(f"#table-{target}")
    assert (table_number(ann), ann.seat) == (target, seat)
    assert f"Ann Lee moved to table {target} seat {seat}." in page.content.decode()


@pytest.mark.django_db
def test_a_refused_move_shows_the_sentence(director: Client) -> None:
    event = tournament(players=PLAYERS, start=True)
    ann = entry(event, "Ann Lee")
    taken_by = Entry.objects.filter(tournament=event, table__number=3).exclude(pk=ann.pk).first()
    assert taken_by is not None

    response = director.post(
        reverse("seat-move", args=[event.pk]),
        once(entry=ann.pk, table=3, seat=taken_by.seat),
        follow=True,
    )
    missing = director.post(
        reverse("seat-move", args=[event.pk]), once(entry=ann.pk, table=40, seat=1), follow=True
    )

    assert f"Table 3 seat {taken_by.seat} is not free: {taken_by.player.name} sits there." in (
        response.content.decode()
    )
    assert "There is no table 40 in this event." in missing.content.decode()


@pytest.mark.django_db
def test_lock_and_unlock_buttons_on_the_table(director: Client) -> None:
    event = tournament(players=PLAYERS, start=True)
    table = Table.objects.get(tournament=event, number=1)
    taken = set(Entry.objects.filter(table=table).values_list("seat", flat=True))
    seat = min(set(range(1, 10)) - taken)
    lock = reverse("seat-lock", args=[event.pk, table.pk])

    locked = director.post(lock, {"seat": seat, "locked": "1"})
    body = director.get(url(event)).content.decode()
    director.post(lock, {"seat": seat, "locked": "0"})

    assert locked["Location"].endswith("#table-1")
    assert f"Table 1 seat {seat} locked: nobody is seated there." in body
    assert 'class="seat__name seat__name--locked"' in body
    assert f'aria-label="Unlock table 1 seat {seat}"' in body
    table.refresh_from_db()
    assert table.locked_seats == []
    assert AuditEvent.objects.filter(tournament=event, action="seat_unlock").count() == 1


@pytest.mark.django_db
def test_add_a_table_then_close_it(director: Client) -> None:
    event = tournament(players=PLAYERS, start=True)

    added = director.post(reverse("table-add", args=[event.pk]), once(number="", seat_count=""))
    new = Table.objects.get(tournament=event, number=4)
    closed = director.post(reverse("table-close", args=[event.pk, new.pk]), once(), follow=True)

    assert added["Location"].endswith("#table-4")
    assert new.seat_count == 9
    new.refresh_from_db()
    assert new.is_broken
    assert "Table 4 is closed: 0 players to move." in closed.content.decode()


@pytest.mark.django_db
def test_closing_a_full_floors_table_is_refused_on_the_page(director: Client) -> None:
    event = tournament(players=[f"P{n}" for n in range(18)], start=True)  # two full tables
    table = Table.objects.get(tournament=event, number=2)

    response = director.post(reverse("table-close", args=[event.pk, table.pk]), once(), follow=True)

    assert "Table 2 has 9 players and the other tables 0 open seats" in response.content.decode()
    table.refresh_from_db()
    assert not table.is_broken


@pytest.mark.django_db
def test_tables_set_up_before_the_draw_show_with_the_draw_button(director: Client) -> None:
    event = tournament(players=PLAYERS[:6])
    director.post(reverse("table-add", args=[event.pk]), once(number="7", seat_count="6"))
    table = Table.objects.get(tournament=event, number=7)
    director.post(reverse("seat-lock", args=[event.pk, table.pk]), {"seat": 1, "locked": "1"})

    body = director.get(url(event)).content.decode()
    drawn = director.post(reverse("seat-draw", args=[event.pk]), follow=True)

    assert "Draw seats" in body
    assert "The draw seats players at the tables set up below first" in body
    assert "Seats drawn at 2 tables." in drawn.content.decode()  # 6 seats, one locked: 5 + 1
    assert not Entry.objects.filter(tournament=event, table=table, seat=1).exists()
