"""Refusals shown (issue 26): a refused form answers 400 (or 409) with its page re-rendered and
the sentence next to its field, and the desk's boosted forms swap that answer in (htmx swaps
no 4xx by default: the director saw nothing)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import NOW, freeze_pages, staff_client
from tournaments.models import Player, Series
from tournaments.services.players import player_get_or_create, player_update

pytestmark = pytest.mark.django_db

BOOSTED = {"HX-Request": "true", "HX-Boosted": "true"}


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


@pytest.fixture
def jose() -> Player:
    return player_update(player=player_get_or_create(name="José Núñez"), number="1042")


def field_error(body: str, field: str) -> str:
    """The sentence shown under the form field `field`."""
    found = re.search(
        rf'name="{field}"[^>]*>.*?<p class="field__error" role="alert">(.*?)</p>', body, re.S
    )
    assert found, f"no error under {field}"
    return found.group(1)


def swaps(body: str, status: int) -> bool:
    """Whether the page's htmx swaps an answer of that status (its `responseHandling`, first
    matching rule, as htmx reads it)."""
    content = re.search(r'<meta name="htmx-config" content=\'(.*?)\'>', body, re.S)
    assert content
    rules = json.loads(content.group(1)).get("responseHandling")
    assert rules, "htmx's default swaps no 4xx answer"
    rule = next(r for r in rules if re.search(r["code"], str(status)))
    return bool(rule["swap"]) and not rule.get("error")


@pytest.mark.parametrize(("status", "swapped"), [(200, True), (400, True), (409, True)])
def test_the_desk_swaps_a_refusal_in(director: Client, status: int, swapped: bool) -> None:
    body = director.get(reverse("player-list")).content.decode()
    assert swaps(body, status) is swapped


@pytest.mark.parametrize("status", [204, 403, 500, 503])
def test_the_desk_does_not_swap_an_empty_or_failed_answer(director: Client, status: int) -> None:
    body = director.get(reverse("player-list")).content.decode()
    assert not swaps(body, status)


@pytest.mark.parametrize("typed", ["José Núñez", "jose  NUNEZ"])
def test_a_rename_to_an_existing_name_is_shown_next_to_the_name(
    director: Client, jose: Player, typed: str
) -> None:
    ann = player_get_or_create(name="Ann Lee")

    response = director.post(
        reverse("player-detail", args=[ann.pk]), {"name": typed}, headers=BOOSTED
    )

    assert response.status_code == 400
    assert "José Núñez" in field_error(response.content.decode(), "name")
    assert Player.objects.get(pk=ann.pk).name == "Ann Lee"


@pytest.mark.parametrize("typed", ["\u200b", "   ", "\ufeff"])
def test_a_series_without_a_visible_name_is_shown_next_to_the_name(
    director: Client, typed: str
) -> None:
    response = director.post(reverse("series-list"), {"name": typed}, headers=BOOSTED)

    assert response.status_code == 400
    assert field_error(response.content.decode(), "name")
    assert not Series.objects.exists()


def test_a_taken_series_name_is_shown_next_to_the_name(director: Client) -> None:
    director.post(reverse("series-list"), {"name": "Spring Festival"})

    response = director.post(reverse("series-list"), {"name": "SPRING festival"}, headers=BOOSTED)

    assert response.status_code == 400
    assert "already a series called" in field_error(response.content.decode(), "name")
