"""The audit log says what changed and whom it concerns (issue 26): a settings change records
each field's old and new value ("buy_in: 50 -> 60"), and the page names the players and
entries an event concerns instead of their bare ids."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import DealerFactory
from tests.pages import NAMES, NOW, entry_of, freeze_pages, staff_client, tournament
from tournaments.models import AuditEvent, Table
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.events import (
    schedule_create,
    schedule_replace_levels,
    tournament_update,
)
from tournaments.services.knockouts import Eliminator
from tournaments.services.players import player_get_or_create, player_update
from tournaments.services.rules import rules_set
from tournaments.services.screens import screen_create, screen_update
from tournaments.services.tables import table_assign_dealer

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    freeze_pages(monkeypatch, NOW)
    return staff_client(client)


def test_a_settings_change_records_old_and_new_values() -> None:
    event = tournament(buy_in=Decimal("50"), name="Friday Deepstack")

    tournament_update(tournament=event, buy_in=Decimal("60"), name="Friday Big Stack")

    audit = AuditEvent.objects.filter(action="tournament_update").latest("id")
    assert audit.detail["changes"] == {
        "buy_in": ["50", "60"],
        "name": ["Friday Deepstack", "Friday Big Stack"],
    }


def test_the_audit_page_shows_old_and_new_values(director: Client) -> None:
    event = tournament(buy_in=Decimal("50"))
    tournament_update(tournament=event, buy_in=Decimal("60"))

    body = director.get(reverse("audit-log", args=[event.pk])).content.decode()

    assert "buy_in: 50 -&gt; 60" in body


def test_a_rename_records_the_old_and_new_name_but_no_contact() -> None:
    player = player_get_or_create(name="Jose Nunez")

    player_update(player=player, name="José Núñez", email="jose@example.org")

    audit = AuditEvent.objects.get(action="player_update")
    assert audit.detail["changes"] == {"name": ["Jose Nunez", "José Núñez"]}
    assert audit.detail["fields"] == ["email", "name"]
    assert "jose@example.org" not in str(audit.detail)


def test_the_audit_page_names_the_eliminator_not_an_id(director: Client) -> None:
    event = tournament(players=NAMES[:4], start=True)
    ann, bob = entry_of(event, NAMES[0]), entry_of(event, NAMES[1])
    entries_bust(
        tournament=event,
        busts=[
            Bust(entry_id=bob.pk, starting_stack=100, eliminated_by=(Eliminator(entry_id=ann.pk),))
        ],
        now=NOW,
    )

    body = director.get(reverse("audit-log", args=[event.pk])).content.decode()
    row = next(line for line in body.splitlines() if "eliminated by" in line)

    assert f"eliminated by: {NAMES[0]}" in row
    assert f"entry: {NAMES[1]}" in row
    assert str(ann.pk) not in row.split("eliminated by:")[1].split(",")[0]


def test_a_rules_change_records_old_and_new_values(director: Client) -> None:
    event = tournament()
    rules_set(target=event, profile="tda_tournament", values={"button_mode": "moving"})
    audit = AuditEvent.objects.filter(action="rules_set").latest("id")

    old, new = audit.detail["changes"]["button_mode"]
    body = director.get(reverse("audit-log", args=[event.pk])).content.decode()

    assert (old, new) == ("dead", "moving")
    assert "button_mode: dead -&gt; moving" in body
    assert "button_mode=moving" not in body  # said once


def test_a_screen_change_records_old_and_new_values_by_the_screens_name(
    director: Client,
) -> None:
    event = tournament()
    screen = screen_create(tournament=event, name="Bar screen", layout="classic")

    screen_update(screen=screen, name="Bar TV", layout="sidebar")

    audit = AuditEvent.objects.filter(action="screen_update").latest("id")
    body = director.get(reverse("audit-log", args=[event.pk])).content.decode()
    assert audit.detail["screen"] == "Bar TV"
    assert audit.detail["changes"] == {
        "name": ["Bar screen", "Bar TV"],
        "layout": ["classic", "sidebar"],
    }
    assert "layout: classic -&gt; sidebar" in body


def test_a_new_dealer_at_a_table_records_the_dealer_before_and_after() -> None:
    event = tournament(players=NAMES[:4], draw=True)
    table = Table.objects.get(tournament=event, number=1)
    first, second = DealerFactory.create(username="mia"), DealerFactory.create(username="noor")

    table_assign_dealer(table=table, dealer_id=first.pk)
    table_assign_dealer(table=table, dealer_id=second.pk)

    changes = [
        e.detail["changes"] for e in AuditEvent.objects.filter(action="table_dealer").order_by("pk")
    ]
    assert changes == [{"dealer": [None, "mia"]}, {"dealer": ["mia", "noor"]}]


def test_a_schedules_new_levels_record_each_level_changed_old_and_new() -> None:
    found = schedule_create(
        name="Sunday turbo",
        levels=[
            {"small_blind": 100, "big_blind": 200, "duration": 600},
            {"small_blind": 200, "big_blind": 400, "duration": 600},
        ],
    )

    schedule_replace_levels(
        schedule=found,
        levels=[
            {"small_blind": 100, "big_blind": 200, "duration": 600},
            {"small_blind": 300, "big_blind": 600, "ante": 600, "bb_ante": True, "duration": 600},
            {"is_break": True, "duration": 300},
            {"small_blind": 400, "big_blind": 800, "duration": 600},
        ],
    )

    audit = AuditEvent.objects.get(action="schedule_edit")
    assert audit.detail["schedule"] == "Sunday turbo"
    assert audit.detail["changes"] == {
        "2": ["200/400, 10 min", "300/600 ante 600 (BB), 10 min"],
        "3": [None, "break, 5 min"],
        "4": [None, "400/800, 10 min"],
    }
