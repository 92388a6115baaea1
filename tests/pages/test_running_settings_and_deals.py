"""Issue 10 on the desk: the settings page of a running tournament (locked fields and levels),
and accepting a deal from the deal calculator."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NAMES, NOW, deal, freeze_pages, once, staff_client, tournament
from tournaments.forms import LevelForm
from tournaments.models import AuditEvent, Entry, Tournament
from tournaments.services.entries import entry_set_chips

IN_LEVEL_2 = NOW + timedelta(minutes=25)  # level 1 played, level 2 in play


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, IN_LEVEL_2)
    return staff_client(client)


def settings_data(event: Tournament, **changes: Any) -> dict[str, Any]:
    """What the settings page posts: every field as shown (locked ones too) and every level."""
    data: dict[str, Any] = {
        "name": event.name,
        "game": event.game,
        "structure": event.structure,
        "buy_in": str(event.buy_in),
        "fee": str(event.fee),
        "starting_stack": str(event.starting_stack),
        "seats_per_table": str(event.seats_per_table),
        "late_registration_level": str(event.late_registration_level),
        "max_entries_per_player": str(event.max_entries_per_player),
        "rebuy_price": "0",
        "rebuy_chips": "0",
        "rebuy_until_level": "0",
        "addon_price": "0",
        "addon_chips": "0",
        "payout_percentages": "",
        "payout_unit": "1",
        "guarantee": "0",
        "icm_enabled": "on",
    }
    levels = list(event.levels.all())
    data["levels-TOTAL_FORMS"] = str(len(levels))
    data["levels-INITIAL_FORMS"] = str(len(levels))
    for index, level in enumerate(levels):
        for name, value in LevelForm.initial_from(level).items():
            if value is not False:
                data[f"levels-{index}-{name}"] = str(value)
    data.update(changes)
    return data


@pytest.mark.django_db
def test_bug_a_running_tournament_is_renamed_on_its_settings_page(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)

    response = director.post(
        reverse("tournament-settings", args=[event.pk]), settings_data(event, name="Renamed")
    )

    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "Renamed"


@pytest.mark.django_db
def test_the_settings_page_shows_locked_fields_and_the_levels_played(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)

    response = director.get(reverse("tournament-settings", args=[event.pk]))

    form = response.context["form"]
    assert [n for n in ("game", "structure", "starting_stack") if form.fields[n].disabled] == [
        "game",
        "structure",
        "starting_stack",
    ]
    assert not form.fields["name"].disabled
    locked = [row.locked_row is not None for _, row in response.context["level_rows"]]
    assert locked == [True, True, False, False]  # level 1 played, level 2 in play
    assert response.content.decode().count("locked: played or in play") == 2


@pytest.mark.django_db
def test_a_later_break_note_and_level_change_on_the_page(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)
    data = settings_data(event, **{"levels-2-note": "Chip race", "levels-3-minutes": "30"})
    data["levels-0-minutes"] = "45"  # a played level: shown locked, what is posted is not taken

    response = director.post(reverse("tournament-settings", args=[event.pk]), data)

    assert response.status_code == 302
    levels = list(event.levels.all())
    assert [level.duration for level in levels] == [1200, 1200, 600, 1800]
    assert levels[2].note == "Chip race"


@pytest.mark.django_db
def test_the_deal_calculator_offers_the_deal_and_accepting_it_finishes(director: Client) -> None:
    event = tournament(players=NAMES[:3], start=True, payout_percentages=[50, 30, 20])

    partial = director.get(reverse("icm-deal", args=[event.pk])).content.decode()
    response = director.post(
        reverse("deal-accept", args=[event.pk]), once(method="chip_chop"), follow=True
    )

    assert reverse("deal-accept", args=[event.pk]) in partial
    assert 'name="form_token"' in partial
    assert "Deal accepted" in response.content.decode()
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    places = sorted(Entry.objects.filter(tournament=event).values_list("finishing_place", "prize"))
    assert [place for place, _ in places] == [1, 2, 3]
    assert sum(prize or 0 for _, prize in places) == 300


@pytest.mark.django_db
def test_the_deal_form_carries_the_stacks_shown_and_a_changed_count_refuses_it(
    director: Client,
) -> None:
    event = tournament(players=NAMES[:3], start=True, payout_percentages=[50, 30, 20])
    partial = director.get(reverse("icm-deal", args=[event.pk])).content.decode()
    shown = re.search(r'name="chips" value="([0-9,]+)"', partial)
    assert shown is not None
    leader = Entry.objects.filter(tournament=event).order_by("-chips", "pk").first()
    assert leader is not None
    entry_set_chips(entry=leader, chips=leader.chips + 500, note="recount")

    response = director.post(
        reverse("deal-accept", args=[event.pk]),
        once(method="icm", chips=shown.group(1)),
        follow=True,
    )

    assert "The chip counts have changed since this deal was shown" in response.content.decode()
    event.refresh_from_db()
    assert event.status != Tournament.Status.FINISHED


@pytest.mark.django_db
def test_a_deal_form_sent_twice_is_recorded_once(director: Client) -> None:
    event = tournament(players=NAMES[:3], start=True)
    data = once(method="icm")
    url = reverse("deal-accept", args=[event.pk])

    director.post(url, data)
    again = director.post(url, data, follow=True)

    assert "Already recorded" in again.content.decode()
    assert AuditEvent.objects.filter(tournament=event, action="deal_accept").count() == 1


@pytest.mark.django_db
def test_the_deal_is_refused_while_a_player_is_in_a_hand(director: Client) -> None:
    event = tournament(players=NAMES[:3], start=True)
    deal(event, 1, IN_LEVEL_2)

    response = director.post(
        reverse("deal-accept", args=[event.pk]), once(method="icm"), follow=True
    )

    assert "accept the deal when the hand is over" in response.content.decode()
    event.refresh_from_db()
    assert event.status == Tournament.Status.RUNNING


@pytest.mark.django_db
def test_finishing_with_players_left_is_refused_in_plain_words(director: Client) -> None:
    event = tournament(players=NAMES[:3], start=True)

    response = director.post(reverse("tournament-finish", args=[event.pk]), follow=True)

    assert "3 players are still in: finish when one is left, or accept a deal." in (
        response.content.decode()
    )
