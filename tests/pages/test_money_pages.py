"""Issue 26 on the desk: the settings page refuses a price entries have paid (409) and links to
the repricing page; the rebuy and add-on buttons only in their windows; late registration
within the schedule, refused next to its field."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NAMES, NOW, freeze_pages, once, staff_client, tournament
from tests.pages.test_running_settings_and_deals import settings_data
from tournaments.models import AuditEvent, Entry

pytestmark = pytest.mark.django_db

# The pages' levels: level 1 (0-20 min), level 2 (20-40), a break (40-50), level 3 (50-70).
ON_THE_BREAK = NOW + timedelta(minutes=45)
IN_LEVEL_3 = NOW + timedelta(minutes=55)


@pytest.fixture
def director(client: Client) -> Client:
    return staff_client(client)


def test_bug_the_settings_page_refuses_a_new_buy_in_once_entries_have_paid(
    director: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    freeze_pages(monkeypatch, NOW)
    event = tournament(players=NAMES[:4], start=True)
    url = reverse("tournament-settings", args=[event.pk])

    page = director.get(url).content.decode()
    response = director.post(url, settings_data(event, buy_in="150"))

    assert reverse("tournament-reprice", args=[event.pk]) in page
    assert "Locked: entries have paid this price" in page
    assert response.status_code == 409
    assert "The buy-in cannot change: 4 entries have paid it" in response.content.decode()
    event.refresh_from_db()
    assert event.buy_in == 100


def test_the_repricing_page_corrects_the_buy_in_with_a_reason(
    director: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    freeze_pages(monkeypatch, NOW)
    event = tournament(players=NAMES[:2], start=True)
    url = reverse("tournament-reprice", args=[event.pk])
    data = {"buy_in": "120", "fee": "0", "rebuy_price": "0", "addon_price": "0", "bounty": "0"}

    page = director.get(url).content.decode()
    refused = director.post(url, {**data, "buy_in": "100", "reason": "no change"})
    response = director.post(url, {**data, "reason": "the poster said 120"}, follow=True)

    assert "2 entries have paid" in page
    assert refused.status_code == 400
    assert "Prices corrected: 2 entries repriced" in response.content.decode()
    audit = AuditEvent.objects.get(action="tournament_reprice")
    assert audit.detail["entries"] == [
        f"{e} (entry {e.pk}): 100.00 -> 120.00"
        for e in Entry.objects.filter(tournament=event).order_by("pk")
    ]


REBUYS: dict[str, Any] = {"rebuy_chips": 5000, "rebuy_until_level": 2, "addon_chips": 8000}


def _entries_page(director: Client, event_pk: int) -> str:
    return director.get(reverse("entry-list", args=[event_pk])).content.decode()


def test_bug_the_rebuy_button_goes_and_the_add_on_button_comes_with_their_windows(
    director: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    freeze_pages(monkeypatch, NOW)
    event = tournament(players=NAMES[:2], start=True, **REBUYS)
    ann = Entry.objects.filter(tournament=event).order_by("pk").first()
    assert ann is not None
    rebuy, addon = (reverse(n, args=[event.pk, ann.pk]) for n in ("entry-rebuy", "entry-addon"))

    in_level_1 = _entries_page(director, event.pk)
    freeze_pages(monkeypatch, ON_THE_BREAK)
    on_the_break = _entries_page(director, event.pk)
    freeze_pages(monkeypatch, IN_LEVEL_3)
    in_level_3 = _entries_page(director, event.pk)
    refused = director.post(addon, once(), follow=True).content.decode()

    assert (rebuy in in_level_1, addon in in_level_1) == (True, False)
    assert (rebuy in on_the_break, addon in on_the_break) == (True, True)
    assert (rebuy in in_level_3, addon in in_level_3) == (False, False)
    assert "The add-on is taken on the break after level 2; it is now level 3." in refused


def test_bug_late_registration_past_the_schedule_is_refused_next_to_its_field(
    director: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    freeze_pages(monkeypatch, NOW)
    event = tournament()
    url = reverse("tournament-settings", args=[event.pk])

    response = director.post(url, settings_data(event, late_registration_level="99"))

    assert response.status_code == 400
    errors = response.context["form"].errors["late_registration_level"]
    assert "the schedule has 3 playing levels" in errors[0]
