"""Players across the series (issue 14): the one writer of players keeps the folded search name
with the name, numbers are unique, "#1042" at the desk finds its player; the director's search
folds accents and matches any part of a name; a player's results cover every event."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.errors import FloorError
from config.exceptions import status_of
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, make
from tournaments.models import AuditEvent, Entry, Knockout, Player, Series, Tournament
from tournaments.selectors.players import player_results, player_search
from tournaments.services.entries import entry_register
from tournaments.services.players import player_get_or_create, player_update
from tournaments.services.series import series_create

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


def names(query: str, **options: Any) -> list[str]:
    return [row.name for row in player_search(query, **options).rows]


# --- the one writer ------------------------------------------------------------------------


def test_a_new_player_gets_the_folded_search_name() -> None:
    player = player_get_or_create(name="  José   Núñez ")

    assert (player.name, player.search_name) == ("José Núñez", "jose nunez")
    assert player_get_or_create(name="josé núñez") == player  # case and spacing


def test_an_update_keeps_the_search_name_in_step_and_is_audited() -> None:
    player = player_get_or_create(name="Jose Nunez")

    player_update(
        player=player, name="José  Núñez", number="#a-12", email=" j@x.org ", phone="+34 600"
    )

    player.refresh_from_db()
    assert (player.name, player.search_name) == ("José Núñez", "jose nunez")
    assert (player.number, player.email, player.phone) == ("A-12", "j@x.org", "+34 600")
    audit = AuditEvent.objects.get(action="player_update")
    assert audit.detail == {
        "player": "José Núñez",
        "fields": ["email", "name", "number", "phone"],
        # The name and number with their old values (issue 26), never the contact.
        "changes": {"name": ["Jose Nunez", "José Núñez"], "number": ["", "A-12"]},
    }
    assert "j@x.org" not in str(audit.detail)  # the contact stays out of the log


def test_a_number_is_one_players_only() -> None:
    ann = player_get_or_create(name="Ann")
    bob = player_get_or_create(name="Bob")
    player_update(player=ann, number="1042")

    with pytest.raises(FloorError) as refused:
        player_update(player=bob, number="# 1042")

    assert (refused.value.code, status_of(refused.value)) == ("number_taken", 409)
    assert "already Ann's" in refused.value.detail
    player_update(player=ann, number="")  # cleared: free again
    assert player_update(player=bob, number="1042").number == "1042"


def test_a_name_another_player_has_is_a_conflict_whatever_its_case() -> None:
    player_get_or_create(name="Ann Lee")
    bob = player_get_or_create(name="Bob")

    with pytest.raises(FloorError) as refused:
        player_update(player=bob, name="ann  LEE")

    assert (refused.value.code, status_of(refused.value)) == ("name_taken", 409)


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("name", "  ", "name_required"),
        ("name", "#7", "bad_name"),
        ("number", "12 34!", "bad_number"),
        ("email", "not an address", "bad_email"),
        ("phone", "call me", "bad_phone"),
    ],
)
def test_a_malformed_value_is_refused_with_its_code(field: str, value: str, code: str) -> None:
    player = player_get_or_create(name="Ann")

    with pytest.raises(FloorError) as refused:
        player_update(player=player, **{field: value})  # type: ignore[arg-type]

    assert (refused.value.code, status_of(refused.value)) == (code, 400)


def test_a_known_number_at_registration_finds_the_player() -> None:
    ann = player_get_or_create(name="Ann Lee")
    player_update(player=ann, number="1042")
    event = make(TournamentFactory)

    entry = entry_register(tournament=event, player_name="#1042", now=T0)

    assert entry.player == ann
    assert Player.objects.count() == 1
    with pytest.raises(FloorError) as refused:
        entry_register(tournament=event, player_name="#9999", now=T0)
    assert (refused.value.code, status_of(refused.value)) == ("unknown_player_number", 400)


# --- the search ----------------------------------------------------------------------------


@pytest.fixture
def room() -> None:
    for name in ("José Núñez", "Josephine Ma", "Ann Jose-Maria", "Bruno Costa", "Mary Jones"):
        player_get_or_create(name=name)
    player_update(player=Player.objects.get(name="Bruno Costa"), number="1042")


@pytest.mark.usefixtures("room")
@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("jose", ["Ann Jose-Maria", "José Núñez", "Josephine Ma"]),  # accents folded
        ("JOSÉ", ["Ann Jose-Maria", "José Núñez", "Josephine Ma"]),
        ("nunez", ["José Núñez"]),  # a later part of the name
        ("jo nu", ["José Núñez"]),  # every word must start a part
        ("maria", ["Ann Jose-Maria"]),  # after a hyphen
        ("osé", []),  # the middle of a word is not a start
        ("#1042", ["Bruno Costa"]),
        ("1042", ["Bruno Costa"]),
        ("#9", []),
    ],
)
def test_the_search_folds_accents_and_matches_word_starts(query: str, found: list[str]) -> None:
    assert names(query) == found


def test_the_search_pages_through_the_players_by_name() -> None:
    Player.objects.bulk_create(
        Player(name=f"Player {n:03}", search_name=f"player {n:03}") for n in range(120)
    )

    first = player_search("play", page=1)
    last = player_search("play", page=3)
    beyond = player_search("play", page=99)

    assert (first.count, first.pages, len(first.rows)) == (120, 3, 50)
    assert first.rows[0].name == "Player 000"
    assert [r.name for r in last.rows] == [f"Player {n}" for n in range(100, 120)]
    assert beyond.page == 3  # past the end: the last page


def test_a_search_page_costs_three_queries_whatever_the_field() -> None:
    Player.objects.bulk_create(
        Player(name=f"Player {n:04}", search_name=f"player {n:04}") for n in range(2000)
    )
    with CaptureQueriesContext(connection) as queries:
        found = player_search("player 1", page=2)

    assert len(found.rows) == 50
    assert len(queries) == 3  # the count, the page, the entries of the page's players


# --- a player's results ----------------------------------------------------------------------


def test_a_players_results_cover_every_event_with_totals() -> None:
    series = series_create(name="Spring Festival")
    ann = make(PlayerFactory, name="Ann Lee")
    main = make(TournamentFactory, name="Main Event", series=series, buy_in=400, fee=40)
    sat = make(TournamentFactory, name="Mega Sat", satellite_target=main, seat_value=440)
    side = make(TournamentFactory, name="Side Event", status=Tournament.Status.FINISHED)
    planned = make(TournamentFactory, name="Next Week", status=Tournament.Status.PLANNED)
    won = make(EntryFactory, tournament=sat, player=ann, finishing_place=2, prize=Decimal("440"))
    make(EntryFactory, tournament=main, player=ann, ticket_from=won)
    make(EntryFactory, tournament=side, player=ann, status="busted", finishing_place=9)
    make(
        EntryFactory,
        tournament=side,
        player=ann,
        number=2,
        status="busted",
        finishing_place=3,
        prize=Decimal("250"),
    )
    make(EntryFactory, tournament=planned, player=ann)

    results = player_results(ann, public=True)
    desk = player_results(ann, public=False)

    rows = {(r.tournament, r.entry_number): r for r in results.rows}
    assert set(rows) == {("Mega Sat", 1), ("Main Event", 1), ("Side Event", 1), ("Side Event", 2)}
    assert (rows["Mega Sat", 1].seat_in, rows["Mega Sat", 1].prize) == ("Main Event", None)
    assert rows["Main Event", 1].ticket_from == "Mega Sat"
    assert rows["Main Event", 1].series == "Spring Festival"
    assert rows["Side Event", 2].entries_in_event == 2
    assert (results.events, results.entries, results.cashes) == (3, 4, 1)
    assert (results.winnings, results.seats, results.tickets) == (250, 1, 440)
    assert desk.entries == 5  # the director sees the planned event too


def test_a_series_name_is_used_once() -> None:
    series_create(name="Spring Festival")

    with pytest.raises(FloorError) as refused:
        series_create(name=" spring  festival ")

    assert (refused.value.code, status_of(refused.value)) == ("series_taken", 409)
    assert Series.objects.count() == 1
    assert Entry.objects.count() == 0


def test_the_bounties_a_player_won_count_in_the_winnings() -> None:
    ann, bob = make(PlayerFactory, name="Ann Lee"), make(PlayerFactory, name="Bob")
    pko = make(
        TournamentFactory, name="Bounty Night", bounty_kind=Tournament.Bounty.FIXED, bounty=50
    )
    hunter = make(EntryFactory, tournament=pko, player=ann)
    out = make(EntryFactory, tournament=pko, player=bob, status="busted", finishing_place=2)
    Knockout.objects.create(
        tournament=pko, busted=out, eliminator=hunter, bust_group=1, created_at=T0
    )

    results = player_results(ann)

    assert results.rows[0].bounty == Decimal("50.00")
    assert (results.bounties, results.winnings) == (Decimal("50.00"), Decimal("50.00"))
