"""What the public screens (the phone page and the big clock) and their API twins show of the
chips and of hand-for-hand (issue 10): chips in play as issued, each count with its source and
time, and "Hand for hand" rather than "Paused" while RP-8 stops the clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from config import request_time
from tests.pages import NAMES, NOW, entry_of, freeze_pages, staff_client, tournament
from tournaments.models import Tournament
from tournaments.selectors import deal_offer, tournament_standings
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import clock_pause, tournament_set_hand_for_hand
from tournaments.services.entries import entry_set_chips

LATER = NOW + timedelta(hours=1, minutes=42)


@pytest.fixture(autouse=True)
def _frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_pages(monkeypatch, LATER)
    monkeypatch.setattr(request_time, "now", lambda: LATER)


def _event(players: int = 8) -> Tournament:
    return tournament(players=NAMES[:players], start=True, payout_percentages=[70, 30])


@pytest.mark.django_db
def test_bug_a_desk_bust_leaves_chips_in_play_and_the_average_as_issued(client: Client) -> None:
    event = _event(8)  # 8 buy-ins of 10,000: 80,000 chips issued
    ann = entry_of(event, "Ann Lee")
    # Ann won a pot from Bruno at a table without a tablet; the floor counted her at the break,
    # then Bruno and Chen went out and the desk recorded their busts (their chips went to other
    # players, whose counts do not show them yet).
    entry_set_chips(entry=ann, chips=14000, note="at the break", now=LATER)
    busts = [
        Bust(entry_id=entry_of(event, name).pk, starting_stack=5000)
        for name in ("Bruno Costa", "Chen Wei")
    ]
    entries_bust(tournament=event, busts=busts, now=LATER)

    standings = tournament_standings(event)
    api = APIClient().get(f"/api/tournaments/{event.pk}/standings/").json()
    api_clock = APIClient().get(f"/api/tournaments/{event.pk}/clock/").json()
    clock_json = client.get(reverse("api-clock", args=[event.pk])).json()
    phone = client.get(reverse("public-standings", args=[event.pk])).content.decode()
    polled = client.get(reverse("public-state", args=[event.pk])).content.decode()
    big_clock = client.get(reverse("public-clock", args=[event.pk])).content.decode()

    # Chips in play stay the 80,000 issued; the average is over the 6 players left (the old
    # code summed the counts: 64,000 and 10,666).
    assert (standings.players_left, standings.total_chips) == (6, 80000)
    assert standings.average_stack == 80000 // 6 == 13333
    assert standings.counted_chips == 64000  # Ann 14,000 + five starting stacks
    assert (api["total_chips"], api["average_stack"], api["counted_chips"]) == (
        80000,
        13333,
        64000,
    )
    assert (api_clock["players_left"], api_clock["average_stack"]) == (6, 13333)
    assert (clock_json["players_left"], clock_json["average_stack"]) == (6, 13333)
    for page in (phone, polled):
        assert "<dd>80,000</dd>" in page
        assert "<dd>13,333</dd>" in page
        assert "64,000" not in page  # the counts' total is the desk's business
    assert 'data-clock-number="average_stack">13,333<' in big_clock
    # Each player's count says where it comes from and when, in a small line under the name.
    source = '</span><small class="chips-source">'
    ann_line = f"Ann Lee{source}counted (at the break) &middot; 19:42</small>"
    dana_line = f"Dana Kowalski{source}starting stack &middot; 18:00</small>"
    assert ann_line in polled
    assert dana_line in polled
    assert "Bruno Costa" not in polled  # out: no longer in the chip counts
    assert "director" not in polled


@pytest.mark.django_db
def test_bug_a_the_icm_deal_uses_the_counts_and_says_when_they_fall_short(client: Client) -> None:
    event = _event(8)
    entries_bust(
        tournament=event,
        busts=[Bust(entry_id=entry_of(event, "Bruno Costa").pk, starting_stack=10000)],
        now=LATER,
    )
    director = staff_client(client)

    deal = deal_offer(event)
    body = director.get(reverse("icm-deal", args=[event.pk])).content.decode()

    # The deal shares the prizes by the players' counts (7 x 10,000), not by chips nobody holds.
    assert [row["chips"] for row in deal] == [10000] * 7
    assert "The counts add up to 70,000 of 80,000 chips in play" in body
    entry_set_chips(entry=entry_of(event, "Ann Lee"), chips=20000, note="at the break", now=LATER)
    counted = director.get(reverse("icm-deal", args=[event.pk])).content.decode()
    assert "The counts add up to" not in counted  # control: counted again, nothing to say


@pytest.mark.django_db
def test_rp8_the_big_clock_and_the_phone_page_say_hand_for_hand_not_paused(
    client: Client,
) -> None:
    event = _event(4)
    clock_url = reverse("api-clock", args=[event.pk])
    state_url = reverse("public-state", args=[event.pk])
    api_url = f"/api/tournaments/{event.pk}/clock/"
    before_clock, before_state = client.get(clock_url), client.get(state_url)
    before_api = APIClient().get(api_url)

    tournament_set_hand_for_hand(tournament=event, on=True, now=LATER)

    clock = client.get(clock_url, HTTP_IF_NONE_MATCH=before_clock["ETag"])
    state = client.get(state_url, HTTP_IF_NONE_MATCH=before_state["ETag"])
    api = APIClient().get(api_url, HTTP_IF_NONE_MATCH=before_api["ETag"])
    big_clock = client.get(reverse("public-clock", args=[event.pk])).content.decode()
    phone = client.get(reverse("public-standings", args=[event.pk])).content.decode()

    assert before_clock.json()["hand_for_hand"] is False
    assert before_api.json()["hand_for_hand"] is False
    assert "Hand for hand" not in before_state.content.decode()
    # The polled state changes (200 with a new ETag) and says so.
    assert (clock.status_code, clock.json()["hand_for_hand"]) == (200, True)
    assert clock.json()["status"] == "paused"  # RP-8 stops the clock...
    assert clock["ETag"] != before_clock["ETag"]
    assert (api.status_code, api.json()["hand_for_hand"]) == (200, True)
    assert state.status_code == 200
    assert state["ETag"] != before_state["ETag"]
    assert "Hand for hand" in state.content.decode()
    # ...but the screens say "Hand for hand", not "Paused".
    assert "data-clock-status>Hand for hand</span>" in big_clock
    assert "Paused" not in big_clock
    assert "Hand for hand" in phone


@pytest.mark.django_db
def test_rp8_control_a_plain_pause_still_says_paused(client: Client) -> None:
    event = _event(4)
    clock_pause(tournament=event, now=LATER)

    data = client.get(reverse("api-clock", args=[event.pk])).json()
    big_clock = client.get(reverse("public-clock", args=[event.pk])).content.decode()
    phone = client.get(reverse("public-standings", args=[event.pk])).content.decode()

    assert (data["status"], data["hand_for_hand"]) == ("paused", False)
    assert "data-clock-status>Paused</span>" in big_clock
    assert "Hand for hand" not in big_clock
    assert "Hand for hand" not in phone
