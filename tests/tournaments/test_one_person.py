"""One person, one player (issue 26): a name with nothing visible is refused everywhere a name
is taken; registration asks before creating a second player whose name folds to a known one;
two players can be merged."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from common.errors import FloorConflict, FloorError
from dealer.cash.games import services as games
from dealer.cash.games import waitlist
from dealer.cash.models import CashSeat
from dealer.cash.seats import services as cash
from tests.factories import DirectorFactory, EntryFactory, TournamentFactory, make
from tournaments.errors import LikelySamePlayerError
from tournaments.models import AuditEvent, Player, Tournament
from tournaments.names import clean_name
from tournaments.services.entries import entry_register
from tournaments.services.players import player_get_or_create, player_update, players_merge

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)

INVISIBLE = [
    "",
    "   ",
    "\u200b",  # zero-width space
    "\ufeff",  # byte order mark
    "\u200d\u200c",  # zero-width joiner and non-joiner
    "\u0301",  # a lone combining acute
    " \u0301\u0308 ",  # lone combining accents between spaces
    "\u2060\u00a0\u3000",  # word joiner, no-break and ideographic spaces
]


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("  José   Núñez ", "José Núñez"),
        ("Jose\u0301", "José"),  # the accent on its letter is kept (NFC)
        ("Jo\u200bsé", "José"),
        ("\ufeffAnna", "Anna"),
        ("\u0301Anna", "Anna"),
        ("Ann\ta\nB", "Ann a B"),
    ],
)
def test_a_name_is_kept_without_what_cannot_be_seen(typed: str, kept: str) -> None:
    assert clean_name(typed) == kept


@pytest.mark.parametrize("typed", INVISIBLE)
def test_a_name_with_nothing_visible_cleans_to_nothing(typed: str) -> None:
    assert clean_name(typed) == ""


@pytest.mark.parametrize("typed", INVISIBLE)
def test_a_player_with_nothing_visible_is_refused(typed: str) -> None:
    with pytest.raises(FloorError) as raised:
        player_get_or_create(name=typed)
    assert raised.value.code == "name_required"
    assert not Player.objects.exists()


@pytest.mark.parametrize("typed", INVISIBLE[2:])
def test_registration_refuses_an_invisible_name(typed: str) -> None:
    tournament = make(TournamentFactory, status=Tournament.Status.REGISTERING)
    with pytest.raises(FloorError) as raised:
        entry_register(tournament=tournament, player_name=typed, now=T0)
    assert raised.value.code == "name_required"
    assert not Player.objects.exists()


def _table() -> Any:
    return cash.cash_table_create(
        number=1,
        name="1/2 NLH",
        game="holdem",
        structure="no_limit",
        rule_profile="casino_cash",
        small_blind=1,
        big_blind=2,
        min_buy_in=40,
        max_buy_in=200,
    )


@pytest.mark.parametrize("typed", ["\u200b", "\ufeff", "\u0301"])
def test_cash_seats_and_lists_refuse_an_invisible_name(typed: str) -> None:
    table = _table()
    game = games.cash_game_create(name="1/2 NL", small_blind=1, big_blind=2)
    games.cash_game_open(game=game)
    refusals = []
    for write in (
        lambda: cash.cash_seat_take(table=table, seat=1, player_name=typed, buy_in=100),
        lambda: cash.cash_waitlist_add(table=table, player_name=typed),
        lambda: waitlist.game_waitlist_join(game=game, player_name=typed),
        lambda: waitlist.game_waitlist_join(game=game, player_name=typed, public=True),
    ):
        with pytest.raises(FloorError) as raised:
            write()
        refusals.append(raised.value.code)
    assert refusals == ["name_required"] * 4
    assert not Player.objects.exists()


def test_a_cash_seat_stores_the_cleaned_name() -> None:
    cash.cash_seat_take(table=_table(), seat=1, player_name="\ufeffAnna\u200b  Lee ", buy_in=100)
    assert list(Player.objects.values_list("name", flat=True)) == ["Anna Lee"]


# --- registration asks before creating a second player -------------------------------------


@pytest.fixture
def jose() -> Player:
    return player_update(player=player_get_or_create(name="José Núñez"), number="1042")


@pytest.mark.parametrize("typed", ["Jose Nunez", "JOSE  NUNEZ", "jose nuñez"])
def test_registration_asks_before_a_second_player_of_a_folded_name(
    jose: Player, typed: str
) -> None:
    tournament = make(TournamentFactory, status=Tournament.Status.REGISTERING)

    with pytest.raises(LikelySamePlayerError) as raised:
        entry_register(tournament=tournament, player_name=typed, now=T0)

    assert raised.value.code == "likely_same_player"
    assert raised.value.detail == (
        "José Núñez #1042 is already a player: register them, or create a new player."
    )
    assert raised.value.candidates == [{"id": jose.pk, "name": "José Núñez", "number": "1042"}]
    assert Player.objects.count() == 1
    assert not tournament.entries.exists()


def test_the_same_name_in_another_case_is_the_same_player(jose: Player) -> None:
    tournament = make(TournamentFactory, status=Tournament.Status.REGISTERING)

    entry = entry_register(tournament=tournament, player_name="josé NÚÑEZ", now=T0)

    assert entry.player == jose


def test_registration_of_the_candidate_by_id(jose: Player) -> None:
    tournament = make(TournamentFactory, status=Tournament.Status.REGISTERING)

    entry = entry_register(tournament=tournament, player=jose.pk, now=T0)

    assert entry.player == jose
    assert Player.objects.count() == 1


def test_registration_as_a_new_player_when_told(jose: Player) -> None:
    tournament = make(TournamentFactory, status=Tournament.Status.REGISTERING)

    entry = entry_register(tournament=tournament, player_name="Jose Nunez", new_player=True, now=T0)

    assert entry.player.name == "Jose Nunez"
    assert Player.objects.count() == 2


def test_registration_of_an_unknown_player_id_is_not_found() -> None:
    tournament = make(TournamentFactory, status=Tournament.Status.REGISTERING)

    with pytest.raises(FloorError) as raised:
        entry_register(tournament=tournament, player=999999, now=T0)

    assert raised.value.code == "not_found"


def test_several_candidates_are_all_named(jose: Player) -> None:
    player_get_or_create(name="Jose Nunez")  # a second one, made before this release
    tournament = make(TournamentFactory, status=Tournament.Status.REGISTERING)

    with pytest.raises(LikelySamePlayerError) as raised:
        entry_register(tournament=tournament, player_name="JOSÉ NUNEZ ", now=T0)

    assert [c["name"] for c in raised.value.candidates] == ["Jose Nunez", "José Núñez"]
    assert "Jose Nunez and José Núñez #1042 are already players" in raised.value.detail


# --- two players merged ---------------------------------------------------------------------


def _entered(player: Player, status: str, **fields: Any) -> Any:
    tournament = make(TournamentFactory, status=status)
    return make(EntryFactory, tournament=tournament, player=player, **fields)


def test_a_merge_moves_entries_results_and_seats_to_the_kept_player(jose: Player) -> None:
    twin = player_update(player=player_get_or_create(name="Jose Nunez"), email="j@example.org")
    result = _entered(twin, Tournament.Status.FINISHED, finishing_place=3)
    shared = result.tournament
    make(EntryFactory, tournament=shared, player=jose, number=1, status="busted")
    seat = cash.cash_seat_take(table=_table(), seat=1, player_name="Jose Nunez", buy_in=100)
    director = make(DirectorFactory)

    kept = players_merge(keep=jose, merge=twin, actor=director)

    assert kept == jose
    assert not Player.objects.filter(pk=twin.pk).exists()
    result.refresh_from_db()
    assert (result.player, result.finishing_place) == (jose, 3)
    assert sorted(shared.entries.values_list("number", flat=True)) == [1, 2]
    assert CashSeat.objects.get(pk=seat.pk).player == jose
    assert kept.email == "j@example.org"  # a contact the kept player lacked
    event = AuditEvent.objects.get(action="players_merge")
    assert event.actor == director
    assert event.detail["player"] == "José Núñez #1042"
    assert event.detail["merged"] == f"Jose Nunez (player {twin.pk})"
    assert event.detail["entries"] == 1


@pytest.mark.parametrize(
    "status", [Tournament.Status.RUNNING, Tournament.Status.PAUSED, Tournament.Status.REGISTERING]
)
def test_a_merge_is_refused_when_both_play_the_same_event(jose: Player, status: str) -> None:
    twin = player_get_or_create(name="Jose Nunez")
    entry = _entered(twin, status)
    make(EntryFactory, tournament=entry.tournament, player=jose)

    with pytest.raises(FloorError) as raised:
        players_merge(keep=jose, merge=twin)

    assert raised.value.code == "both_playing"
    assert isinstance(raised.value, FloorConflict)
    assert "José Núñez #1042 and Jose Nunez both play" in raised.value.detail
    assert Player.objects.filter(pk=twin.pk).exists()


def test_a_player_is_not_merged_with_themselves(jose: Player) -> None:
    with pytest.raises(FloorError) as raised:
        players_merge(keep=jose, merge=jose.pk)

    assert raised.value.code == "same_player"


def test_a_merge_with_a_missing_player_is_not_found(jose: Player) -> None:
    with pytest.raises(FloorError) as raised:
        players_merge(keep=jose, merge=999999)

    assert raised.value.code == "not_found"
