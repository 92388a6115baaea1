"""The phone page a player needs (issue 27): the clock's facts at the top (level, blinds, ante,
time left, next level, time to the break), the event's (late registration, buy-in, start), the
field's (players left, average, prize pool); the structure sheet and the payouts a tap away
with a way back; a player out finds their place and prize; the home page keeps the results."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NAMES, NOW, entry_of, freeze_pages, tournament
from tournaments.models import Tournament
from tournaments.services.archive import tournament_archive
from tournaments.services.busts import Bust, entries_bust


@pytest.fixture(autouse=True)
def _frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_pages(monkeypatch, NOW + timedelta(minutes=5))


def _running() -> Tournament:
    return tournament(
        players=NAMES[:8],
        start=True,
        buy_in=Decimal(100),
        fee=Decimal(10),
        late_registration_level=2,
        payout_percentages=[70, 30],
    )


def _text(html: str, selector_attr: str) -> str:
    found = re.search(rf"{selector_attr}(?:\s[^>]*)?>(.*?)</(dd|span|p)>", html, re.S)
    assert found, selector_attr
    return unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


@pytest.mark.django_db
def test_the_phone_page_shows_every_fact_a_player_asks_for(client: Client) -> None:
    event = _running()

    html = client.get(reverse("public-standings", args=[event.pk])).content.decode()

    assert _text(html, 'data-clock-field="label"') == "Level 1"
    assert _text(html, "data-phone-blinds") == "100 / 200"
    assert _text(html, "data-clock-time") == "15:00"
    assert _text(html, 'data-clock-field="next_blinds"') == "200 / 400"
    # Level 1 (15 min left) then level 2 (20 min): the break in 35 minutes.
    assert _text(html, "data-phone-break") == "35:00"
    # Late registration: to the end of level 2 and the break after it (18:00 + 20 + 20 + 10).
    assert _text(html, 'data-fact="late-registration"') == "Until the end of level 2 (about 18:50)"
    assert _text(html, 'data-fact="buy-in"') == "100 + 10"
    assert _text(html, 'data-fact="start"') == "Fri 18:00"
    assert "<dt>Players left</dt><dd>8<small> / 8</small></dd>" in html
    assert "<dt>Average stack</dt><dd>10,000</dd>" in html
    assert "<dt>Prize pool</dt><dd>800</dd>" in html
    assert reverse("public-structure", args=[event.pk]) in html
    assert reverse("public-payouts", args=[event.pk]) in html
    assert f'href="{reverse("public-clock", args=[event.pk])}?back=1"' in html


@pytest.mark.django_db
def test_the_ante_shows_apart_from_the_blinds(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = _running()
    freeze_pages(monkeypatch, NOW + timedelta(minutes=55))  # level 3: 300 / 600, BB ante 600

    html = client.get(reverse("public-standings", args=[event.pk])).content.decode()

    assert _text(html, "data-phone-blinds") == "300 / 600"
    assert "Ante 600" in _text(html, "data-phone-ante")
    assert _text(html, 'data-fact="late-registration"') == "Closed after level 2"


@pytest.mark.django_db
def test_the_structure_sheet_lists_levels_breaks_and_their_start_times(client: Client) -> None:
    event = _running()

    response = client.get(reverse("public-structure", args=[event.pk]))

    html = response.content.decode()
    rows = [
        unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row))).strip()
        for row in re.findall(r"<tr[^>]*data-structure-row>(.*?)</tr>", html, re.S)
    ]
    assert rows == [
        "1 now 100 / 200 \N{EN DASH} 20 now",
        "2 200 / 400 \N{EN DASH} 20 18:20",
        "Break · Colour up 10 18:40",
        "3 300 / 600 600 BB 20 18:50",
    ]
    assert html.index("Late registration closes here") > html.index("Colour up")
    assert 'aria-current="true"' in html
    assert f'href="{reverse("public-standings", args=[event.pk])}"' in html  # the way back


@pytest.mark.django_db
def test_the_payouts_page_has_a_way_back_and_the_clock_offers_one(client: Client) -> None:
    event = _running()
    standings = reverse("public-standings", args=[event.pk])

    payouts = client.get(reverse("public-payouts", args=[event.pk])).content.decode()
    phone_clock = client.get(reverse("public-clock", args=[event.pk]), {"back": "1"})
    tv_clock = client.get(reverse("public-clock", args=[event.pk])).content.decode()

    assert "Back to the standings" in payouts
    assert f'<p class="screen__back"><a href="{standings}">' in phone_clock.content.decode()
    assert "screen__back" not in tv_clock


@pytest.mark.django_db
def test_a_player_out_in_the_money_finds_their_place_and_prize(client: Client) -> None:
    event = _running()
    for name in NAMES[2:8]:
        entries_bust(
            tournament=event,
            busts=[Bust(entry_id=entry_of(event, name).pk, starting_stack=10000)],
            now=NOW,
        )
    entries_bust(
        tournament=event,
        busts=[Bust(entry_id=entry_of(event, "Bruno Costa").pk, starting_stack=10000)],
        now=NOW,
    )

    html = client.get(reverse("public-seat-lookup", args=[event.pk]), {"q": "bruno"})
    out_of_money = client.get(reverse("public-seat-lookup", args=[event.pk]), {"q": "chen"})

    assert "Out &ndash; 2nd &middot; won <strong data-prize>240</strong>" in html.content.decode()
    assert "Out &ndash; 8th" in out_of_money.content.decode()
    assert "won" not in out_of_money.content.decode()


@pytest.mark.django_db
def test_the_home_page_keeps_finished_events_results_but_not_archived_ones(
    client: Client,
) -> None:
    done = tournament(players=NAMES[:2], start=True, name="Monday Turbo")
    test_event = tournament(players=NAMES[:2], start=True, name="Test event")
    for event in (done, test_event):
        Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.FINISHED)
    tournament_archive(tournament=test_event, archived=True)

    html = client.get(reverse("home")).content.decode()

    assert f'href="{reverse("public-payouts", args=[done.pk])}">Monday Turbo</a>' in html
    assert "Test event" not in html
    assert reverse("live-games") in html
