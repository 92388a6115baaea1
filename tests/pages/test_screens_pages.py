"""The screens' pages (issue 14, "Screens"): the desk's Screens tab and the message form on the
Clock tab, a screen's page in each layout with the clock feed and the board embedded, and the
phone page's clock at the top, places of players out, min cash and accent-insensitive search."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NAMES, NOW, entry_of, freeze_pages, staff_client, tournament
from tournaments.models import Screen, Tournament
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.screens import screen_create, tournament_set_floor_message

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_pages(monkeypatch, NOW + timedelta(minutes=7))


@pytest.fixture
def event() -> Tournament:
    return tournament(players=NAMES[:6], start=True, payout_percentages=[70, 30])


def _embedded(html: str, script_id: str) -> Any:
    found = re.search(
        rf'<script id="{script_id}" type="application/json">(.*?)</script>', html, re.S
    )
    assert found, f"no {script_id} in the page"
    return json.loads(found.group(1))


# --- the desk --------------------------------------------------------------------------------


def test_the_screens_tab_adds_a_screen_and_gives_its_address(
    client: Client, event: Tournament
) -> None:
    desk = staff_client(client)

    added = desk.post(
        reverse("screen-list", args=[event.pk]),
        {"name": "Bar TV", "layout": "sidebar", "sound": "on"},
        follow=True,
    )

    screen = Screen.objects.get(tournament=event)
    body = added.content.decode()
    assert (screen.name, screen.layout, screen.sound) == ("Bar TV", "sidebar", True)
    assert "Screen “Bar TV” added" in body
    assert f"http://testserver/t/{event.pk}/screens/{screen.pk}/" in body
    assert 'aria-current="page">Screens</a>' in body


def test_the_screens_tab_changes_and_removes_a_screen(client: Client, event: Tournament) -> None:
    desk = staff_client(client)
    screen = screen_create(tournament=event, name="Bar TV")

    desk.post(
        reverse("screen-save", args=[event.pk, screen.pk]),
        {"name": "Lobby", "layout": "payouts"},
    )
    screen.refresh_from_db()
    changed = (screen.name, screen.layout, screen.sound)
    desk.post(reverse("screen-delete", args=[event.pk, screen.pk]))

    assert changed == ("Lobby", "payouts", False)
    assert not Screen.objects.filter(pk=screen.pk).exists()


def test_a_screen_without_a_name_is_refused_in_words(client: Client, event: Tournament) -> None:
    desk = staff_client(client)

    answer = desk.post(reverse("screen-list", args=[event.pk]), {"name": "", "layout": "classic"})

    assert answer.status_code == 400
    assert "Give the screen a name." in answer.content.decode()
    assert not Screen.objects.exists()


def test_the_screens_tab_is_the_directors(client: Client, event: Tournament) -> None:
    answer = client.post(reverse("screen-list", args=[event.pk]), {"name": "Bar TV"})

    assert answer.status_code == 302
    assert "/login/" in answer["Location"]
    assert not Screen.objects.exists()


def test_the_clock_tab_sets_the_message_the_screens_and_phones_show(
    client: Client, event: Tournament
) -> None:
    desk = staff_client(client)

    desk.post(reverse("floor-message", args=[event.pk]), {"message": "Dinner break at 20:30"})
    clock_tab = desk.get(reverse("clock-control", args=[event.pk])).content.decode()
    big = Client().get(reverse("public-clock", args=[event.pk])).content.decode()
    phone = Client().get(reverse("public-standings", args=[event.pk])).content.decode()

    assert 'value="Dinner break at 20:30"' in clock_tab
    assert 'data-clock-field="floor_message" role="status">Dinner break at 20:30<' in big
    assert 'data-clock-field="floor_message" role="status">Dinner break at 20:30<' in phone


# --- a screen's page -----------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["classic", "sidebar", "payouts"])
def test_a_screen_shows_its_layout_with_the_clock_feed_and_the_board(
    layout: str, event: Tournament
) -> None:
    screen = screen_create(tournament=event, name="Bar TV", layout=layout)

    html = Client().get(reverse("public-screen", args=[event.pk, screen.pk])).content.decode()
    api_clock = Client().get(reverse("api-clock", args=[event.pk])).json()
    api_board = Client().get(reverse("api-screen-board", args=[event.pk])).json()

    assert f'class="screen screen--{layout}' in html
    assert _embedded(html, "clock-data") == api_clock
    assert _embedded(html, "board-data") == api_board
    assert reverse("api-clock", args=[event.pk]) in html
    assert reverse("api-screen-board", args=[event.pk]) in html
    assert "Break in 33:00" in html  # 18:07; the break starts at 18:40
    assert ("data-screen-payouts" in html) == (layout != "classic")
    assert ("data-screen-leaders" in html) == (layout == "sidebar")


def test_the_payouts_board_shows_the_places_and_the_sidebar_the_leaders(event: Tournament) -> None:
    payouts = Client().get(reverse("public-clock", args=[event.pk]), {"layout": "payouts"})
    sidebar = Client().get(reverse("public-clock", args=[event.pk]), {"layout": "sidebar"})

    assert re.search(
        r'screen__place-no">1st</span><span class="screen__place-prize">420<',
        payouts.content.decode(),
    )
    assert 'screen__leader-name">Ann Lee</span><span class="screen__leader-chips">10,000<' in (
        sidebar.content.decode()
    )


def test_an_unknown_layout_is_the_big_clock(event: Tournament) -> None:
    html = Client().get(reverse("public-clock", args=[event.pk]), {"layout": "<b>"}).content

    assert b'class="screen screen--classic' in html


def test_only_a_screen_with_sound_asks_for_the_click_browsers_need(event: Tournament) -> None:
    quiet = screen_create(tournament=event, name="Lobby")
    loud = screen_create(tournament=event, name="Bar TV", sound=True)

    quiet_html = Client().get(reverse("public-screen", args=[event.pk, quiet.pk])).content
    loud_html = Client().get(reverse("public-screen", args=[event.pk, loud.pk])).content

    assert b"Click to enable sound" not in quiet_html
    assert b"Click to enable sound" in loud_html
    assert b"data-sound" in loud_html


def test_another_tournaments_screen_and_a_planned_tournament_are_not_found(
    event: Tournament,
) -> None:
    other = tournament(players=NAMES[:2], name="Other")
    screen = screen_create(tournament=other, name="Lobby")
    planned = tournament(status="planned", name="Planned")
    hidden = screen_create(tournament=planned, name="Lobby")

    wrong = Client().get(reverse("public-screen", args=[event.pk, screen.pk]))
    not_yet = Client().get(reverse("public-screen", args=[planned.pk, hidden.pk]))

    assert (wrong.status_code, not_yet.status_code) == (404, 404)


def test_hand_for_hand_is_shown_big_only_while_it_is_on(event: Tournament) -> None:
    from tournaments.services.clocks import tournament_set_hand_for_hand

    before = Client().get(reverse("public-clock", args=[event.pk])).content.decode()
    tournament_set_hand_for_hand(tournament=event, on=True, now=NOW + timedelta(minutes=7))
    during = Client().get(reverse("public-clock", args=[event.pk])).content.decode()

    assert "data-screen-h4h></p>" in before
    assert "data-screen-h4h>Hand for hand</p>" in during
    assert "is-hand-for-hand" in during


# --- the phone page --------------------------------------------------------------------------


def test_the_phone_page_starts_with_level_blinds_and_time(event: Tournament) -> None:
    html = Client().get(reverse("public-standings", args=[event.pk])).content.decode()

    top = html.index('class="phone-clock"')
    assert top < html.index('id="seat-title"')
    api_clock = Client().get(reverse("api-clock", args=[event.pk])).json()
    assert _embedded(html, "phone-clock") == api_clock
    assert 'data-clock-field="label">Level 1<' in html
    assert "data-phone-blinds>100 / 200<" in html  # phone.js keeps it current from the feed
    assert "data-clock-time>13:00<" in html


def test_before_the_money_the_next_payout_is_the_min_cash(event: Tournament) -> None:
    html = Client().get(reverse("public-state", args=[event.pk])).content.decode()

    assert "<dt>Next payout</dt><dd>180<small> min cash</small></dd>" in html


def test_the_desk_payouts_page_gives_the_same_min_cash_as_the_phone(event: Tournament) -> None:
    """One answer: the desk's "Next payout" is the phone's, min cash included, not a dash."""
    html = staff_client(Client()).get(reverse("payout-list", args=[event.pk])).content.decode()

    assert "<dt>Next payout</dt><dd>180<small> min cash</small></dd>" in html


def test_a_player_out_is_shown_with_the_place_they_finished(event: Tournament) -> None:
    entries_bust(
        tournament=event,
        busts=[Bust(entry_id=entry_of(event, "Chen Wei").pk, starting_stack=10000)],
        now=NOW,
    )

    html = Client().get(reverse("public-seat-lookup", args=[event.pk]), {"q": "chen"}).content

    assert "Out &ndash; 6th" in html.decode()


def test_jose_finds_jose_with_the_accent_on_the_page_and_its_partial() -> None:
    event = tournament(players=["José Núñez", "Ann Lee"], start=True)

    page = Client().get(reverse("public-standings", args=[event.pk]), {"q": "jose"})
    partial = Client().get(reverse("public-seat-lookup", args=[event.pk]), {"q": "nunez"})

    for html in (page.content.decode(), partial.content.decode()):
        assert '<span class="seat-result__name">José Núñez</span>' in html
        assert "Nobody called" not in html


def test_a_message_on_the_phone_page_is_not_there_when_none_is_set(event: Tournament) -> None:
    tournament_set_floor_message(tournament=event, message="")

    html = Client().get(reverse("public-standings", args=[event.pk])).content.decode()

    assert 'data-clock-field="floor_message" role="status"></p>' in html
