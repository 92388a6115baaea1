"""The registration desk and the bust picker at a big field (issue 26): a registration by the
desk's htmx form is answered with its own row and the counts, never the list; the player out
is found by typing (a name without its accents, a player number, a table and seat), at most 20
at a time, and a search that cannot be run says why."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NAMES, NOW, entry_of, freeze_pages, once, staff_client, tournament
from tournaments.models import Entry, Player
from tournaments.selectors.desk import PICK_LIMIT
from tournaments.services.players import player_update

HTMX = {"HX-Request": "true"}


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


def rows_of(body: str) -> int:
    return len(re.findall(r'<tr class="entry-row', body))


# --- registering --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_registering_by_the_htmx_form_answers_its_row_and_the_counts_not_the_list(
    director: Client,
) -> None:
    event = tournament(players=NAMES)
    url = reverse("entry-list", args=[event.pk])

    page = director.get(url).content.decode()
    response = director.post(url, once(name="Mia Novak"), headers=HTMX)

    body = response.content.decode()
    assert rows_of(page) == len(NAMES)
    assert response.status_code == 200
    assert rows_of(body) == 1
    assert "Mia Novak" in body
    assert not any(name in body for name in NAMES)  # nobody else's row
    assert 'hx-swap-oob="afterbegin:#entry-rows"' in body
    assert re.search(r'id="entry-counts" hx-swap-oob="true"', body)
    assert re.search(r'data-testid="count-entries">13<', body)
    assert re.search(r'data-testid="count-left">13<', body)
    assert "Registered Mia Novak." in body
    assert len(response.content) < 8_000
    assert Entry.objects.filter(tournament=event, player__name="Mia Novak").count() == 1


@pytest.mark.django_db
def test_the_htmx_answer_draws_a_fresh_form_so_the_next_name_registers(director: Client) -> None:
    event = tournament()
    url = reverse("entry-list", args=[event.pk])

    first = director.post(url, once(name="Ann Lee"), headers=HTMX).content.decode()
    token = re.search(r'name="form_token" value="([0-9a-f]+)"', first)
    assert token is not None
    second = director.post(url, {"name": "Bruno Costa", "form_token": token[1]}, headers=HTMX)

    assert second.status_code == 200
    assert "Registered Bruno Costa." in second.content.decode()
    assert Entry.objects.filter(tournament=event).count() == 2


@pytest.mark.django_db
def test_a_refused_registration_answers_the_form_with_the_sentence_by_the_name(
    director: Client,
) -> None:
    event = tournament(players=["Ann Lee", "Bruno Costa"])
    url = reverse("entry-list", args=[event.pk])

    response = director.post(url, once(name="ann lee"), headers=HTMX)

    body = response.content.decode()
    assert response.status_code == 409
    assert 'id="register-card"' in body
    assert re.search(r'class="field__error" role="alert">Ann Lee is already registered', body)
    assert rows_of(body) == 0
    assert "Bruno Costa" not in body
    assert Entry.objects.filter(tournament=event).count() == 2


@pytest.mark.django_db
def test_a_likely_same_player_is_asked_in_the_form_and_either_answer_stays_on_it(
    director: Client,
) -> None:
    event = tournament(players=["José Núñez"])
    url = reverse("entry-list", args=[event.pk])

    response = director.post(url, once(name="Jose Nunez"), headers=HTMX)

    body = response.content.decode()
    assert response.status_code == 409
    assert 'data-testid="likely-player"' in body
    assert body.count('hx-target="#register-card"') == 3  # the form and both answers
    assert "Create a new player Jose Nunez" in body
    assert Player.objects.count() == 1


@pytest.mark.django_db
def test_a_form_sent_twice_by_htmx_registers_once_and_says_so(director: Client) -> None:
    event = tournament()
    url = reverse("entry-list", args=[event.pk])
    data = once(name="Ann Lee")

    director.post(url, data, headers=HTMX)
    again = director.post(url, data, headers=HTMX)

    assert again.status_code == 200
    assert "Already recorded: that form was sent twice." in again.content.decode()
    assert Entry.objects.filter(tournament=event).count() == 1


@pytest.mark.django_db
def test_a_boosted_or_plain_post_still_draws_the_whole_page(director: Client) -> None:
    event = tournament(players=NAMES[:3])
    url = reverse("entry-list", args=[event.pk])

    plain = director.post(url, once(name="Mia Novak"))
    boosted = director.post(
        url, once(name="ann lee"), headers={**HTMX, "HX-Boosted": "true"}
    ).content.decode()

    assert plain.status_code == 302
    assert rows_of(boosted) == 4
    assert "Ann Lee is already registered" in boosted


# --- the bust picker ----------------------------------------------------------------------------


def big_table_event() -> tuple[Entry, Entry]:
    """24 players seated (more than the picker shows at once), José Núñez #1042 among them."""
    names = [*NAMES, "José Núñez", *(f"Player {n:02d}" for n in range(11))]
    event = tournament(players=names, start=True)
    jose = entry_of(event, "José Núñez")
    player_update(player=jose.player, number="1042")
    return jose, entry_of(event, "Ann Lee")


def search(director: Client, entry: Entry, query: str) -> tuple[int, str]:
    url = reverse("bust-search", args=[entry.tournament_id])
    response = director.get(url, {"q": query}, headers=HTMX)
    return response.status_code, response.content.decode()


def offered(body: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'<option value="(\d+)"', body)]


@pytest.mark.django_db
def test_the_bust_picker_finds_jose_by_jose_without_accents(director: Client) -> None:
    jose, _ = big_table_event()

    status, body = search(director, jose, "jose")

    assert status == 200
    assert offered(body) == [jose.pk]
    assert "José Núñez #1042" in body
    assert "1 found" in body


@pytest.mark.django_db
@pytest.mark.parametrize("typed", ["#1042", "1042", "NUÑEZ", " núñez "])
def test_the_bust_picker_finds_a_player_by_number_or_any_spelling(
    director: Client, typed: str
) -> None:
    jose, _ = big_table_event()

    _, body = search(director, jose, typed)

    assert offered(body) == [jose.pk]


@pytest.mark.django_db
def test_the_bust_picker_finds_the_player_in_a_seat_and_a_tables_players(
    director: Client,
) -> None:
    jose, _ = big_table_event()
    assert jose.table is not None
    table = jose.table.number
    mates = set(Entry.objects.filter(table=jose.table).values_list("pk", flat=True))

    by_seat = [offered(search(director, jose, f"{table}{sep}{jose.seat}")[1]) for sep in "-/ "]
    by_words = offered(search(director, jose, f"T{table} S{jose.seat}")[1])
    by_table = offered(search(director, jose, f"t{table}")[1])

    assert by_seat == [[jose.pk]] * 3
    assert by_words == [jose.pk]
    assert set(by_table) == mates


@pytest.mark.django_db
def test_the_bust_picker_offers_at_most_twenty_and_says_when_nobody_matches(
    director: Client,
) -> None:
    jose, _ = big_table_event()

    _, everyone = search(director, jose, "")
    _, players = search(director, jose, "player")
    _, nobody = search(director, jose, "zzz")

    assert Entry.objects.filter(tournament=jose.tournament).count() > PICK_LIMIT
    assert len(offered(everyone)) == PICK_LIMIT
    assert len(offered(players)) == 11
    assert offered(nobody) == []
    assert "Nobody seated matches &ldquo;zzz&rdquo;" in nobody


@pytest.mark.django_db
def test_a_search_too_long_is_refused_by_the_picker_with_a_sentence(director: Client) -> None:
    jose, _ = big_table_event()

    status, body = search(director, jose, "x" * 81)

    assert status == 400
    assert 'class="field__error" role="alert">Type at most 80 characters of the name.' in body


@pytest.mark.django_db
def test_without_javascript_find_reloads_the_page_with_the_players_found(
    director: Client,
) -> None:
    jose, _ = big_table_event()
    url = reverse("bust-list", args=[jose.tournament_id])

    page = director.get(url, {"q": "jose"}).content.decode()
    whole = director.get(url).content.decode()

    assert 'form="bust-find"' in page
    assert offered(page) == [jose.pk]
    assert 'value="jose"' in page
    assert len(offered(whole)) == PICK_LIMIT  # the first seats, by table and seat


@pytest.mark.django_db
def test_picking_the_player_found_keeps_the_search_and_offers_their_table_mates(
    director: Client,
) -> None:
    jose, _ = big_table_event()
    url = reverse("bust-row", args=[jose.tournament_id])

    body = director.get(url, {"entry": str(jose.pk), "q": "jose"}, headers=HTMX).content.decode()

    assert 'value="jose"' in body
    assert f'<option value="{jose.pk}" selected>' in body
    rivals = body.split(f'name="eliminated_by_{jose.pk}"')[1].split("</select>")[0]
    mates = Entry.objects.filter(table=jose.table).exclude(pk=jose.pk)
    assert sorted(offered(rivals)) == sorted(mates.values_list("pk", flat=True))


@pytest.mark.django_db
@pytest.mark.parametrize("sent", ["²", "99999999999999999999", "-3", "x"])
def test_a_picked_id_no_row_can_have_answers_an_empty_row_not_a_server_error(
    director: Client, sent: str
) -> None:
    jose, _ = big_table_event()

    row = director.get(reverse("bust-row", args=[jose.tournament_id]), {"entry": sent})
    posted = director.post(
        reverse("bust-list", args=[jose.tournament_id]),
        once(entry=[sent, str(jose.pk)], stack=["100", "x"], **{f"eliminated_by_{jose.pk}": sent}),
    )

    assert row.status_code == 200
    assert "Pick the player out first" in row.content.decode()
    assert posted.status_code == 200
    assert "Row 1: pick a player from the list." in posted.content.decode()
