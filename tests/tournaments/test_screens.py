"""What the room's screens show (issue 14, "Screens"): the time to the next break and its note,
the chip leaders live from the ledger, the payouts page by page, the floor's message, the
final result, the smallest prize before the money; and the services that write screens and the
message. Worked examples on the pages' standard schedule (tests.pages.LEVELS): levels 1 and 2
of 20 minutes, a 10-minute break noted "Colour up", then level 3."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest

from common.errors import FloorInvalid, FloorNotFound
from tests.pages import NAMES, NOW, entry_of, tournament
from tournaments.labels import ordinal
from tournaments.models import AuditEvent, Screen, Tournament
from tournaments.selectors import clock_feed, tournament_standings
from tournaments.selectors.screens import final_result, payout_pages, screen_board
from tournaments.selectors.standings import PayoutPlace
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.entries import entry_set_chips
from tournaments.services.events import tournament_finish
from tournaments.services.screens import (
    screen_create,
    screen_delete,
    screen_update,
    tournament_set_floor_message,
)

pytestmark = pytest.mark.django_db


def _running(players: int = 6, **settings: Any) -> Tournament:
    return tournament(players=NAMES[:players], start=True, **settings)


def _fresh(event: Tournament) -> Tournament:
    return Tournament.objects.get(pk=event.pk)


# --- the time to the next break, and the break's note ----------------------------------------


def test_the_next_break_is_counted_from_the_clock_not_stored() -> None:
    event = _running()

    seven_in = clock_feed(event, NOW + timedelta(minutes=7)).as_dict()
    in_level_2 = clock_feed(event, NOW + timedelta(minutes=31)).as_dict()
    on_break = clock_feed(event, NOW + timedelta(minutes=41)).as_dict()

    # Levels 1 and 2 are 40 minutes: the break starts at 18:40 whatever the time now.
    assert seven_in["next_break_at"] == in_level_2["next_break_at"] == "2026-05-01T18:40:00Z"
    assert seven_in["seconds_to_next_break"] == 33 * 60
    assert in_level_2["seconds_to_next_break"] == 9 * 60
    assert on_break["label"] == "Break"


def test_the_break_note_shows_in_the_level_before_the_break_and_during_it() -> None:
    event = _running()

    level_1 = clock_feed(event, NOW + timedelta(minutes=5)).as_dict()
    level_2 = clock_feed(event, NOW + timedelta(minutes=25)).as_dict()
    on_break = clock_feed(event, NOW + timedelta(minutes=45)).as_dict()
    level_3 = clock_feed(event, NOW + timedelta(minutes=55)).as_dict()

    assert level_1["break_note"] == ""  # level 2 comes next, not the break
    assert level_2["break_note"] == "Colour up"
    assert on_break["break_note"] == "Colour up"
    assert level_3["break_note"] == ""


# --- chip leaders, live from the ledger ------------------------------------------------------


def test_chip_leaders_are_the_biggest_stacks_in_play_and_follow_each_count() -> None:
    event = _running(6)
    entry_set_chips(entry=entry_of(event, "Chen Wei"), chips=31000, now=NOW)
    entry_set_chips(entry=entry_of(event, "Eli Cohen"), chips=24000, now=NOW)
    entries_bust(
        tournament=event,
        busts=[Bust(entry_id=entry_of(event, "Ann Lee").pk, starting_stack=10000)],
        now=NOW,
    )
    before = screen_board(_fresh(event))["leaders"]

    entry_set_chips(entry=entry_of(event, "Eli Cohen"), chips=45000, now=NOW)
    after = screen_board(_fresh(event))["leaders"]

    assert [(r["rank"], r["name"], r["chips"]) for r in before[:3]] == [
        (1, "Chen Wei", 31000),
        (2, "Eli Cohen", 24000),
        (3, "Bruno Costa", 10000),
    ]
    assert "Ann Lee" not in {r["name"] for r in before}  # out: no longer a leader
    assert len(before) == 5
    # The count moved the version: the board is built again, not the one kept for the last.
    assert [r["name"] for r in after[:2]] == ["Eli Cohen", "Chen Wei"]


def test_at_most_ten_leaders_are_shown() -> None:
    event = _running(12)

    assert len(screen_board(event)["leaders"]) == 10


# --- the payouts, page by page ------------------------------------------------------------------


def test_payouts_are_cut_into_pages_of_ten_first_place_first() -> None:
    places: list[PayoutPlace] = [
        {"place": n, "prize": Decimal(1000 - 10 * n), "players": [], "seat": ""}
        for n in range(1, 26)
    ]
    places[24]["players"] = [{"name": "Gus Olsen", "prize": Decimal(750)}]

    pages = payout_pages(places)

    assert [len(page) for page in pages] == [10, 10, 5]
    assert [line["place"] for line in pages[1]] == list(range(11, 21))
    assert pages[0][0] == {"place": 1, "prize": "990.00", "players": []}
    assert pages[2][-1] == {"place": 25, "prize": "750.00", "players": ["Gus Olsen"]}


def test_no_paid_places_make_no_pages() -> None:
    assert payout_pages([]) == []


def test_the_board_pages_the_tournaments_own_payout_table() -> None:
    event = _running(12, payout_percentages=[50, 30, 20])  # 12 x 100: 600, 360, 240

    board = screen_board(event)

    assert board["payout_pages"] == [
        [
            {"place": 1, "prize": "600.00", "players": []},
            {"place": 2, "prize": "360.00", "players": []},
            {"place": 3, "prize": "240.00", "players": []},
        ]
    ]


# --- the next payout from the start -------------------------------------------------------------


def test_before_the_money_the_smallest_prize_is_the_min_cash() -> None:
    event = _running(6, payout_percentages=[70, 30])  # 600: 420 and 180

    standings = tournament_standings(event)
    feed = clock_feed(event, NOW).as_dict()

    assert standings.next_payout is None  # the next player out (6th) receives nothing
    assert standings.min_cash == Decimal("180.00")
    assert (feed["next_payout"], feed["min_cash"]) == (None, "180.00")


# --- the floor's message ------------------------------------------------------------------------


def test_a_floor_message_reaches_the_clock_feed_with_a_new_version() -> None:
    event = _running()
    version = event.version

    tournament_set_floor_message(tournament=event, message="  Dinner break\n at 20:30  ")

    event = _fresh(event)
    assert event.floor_message == "Dinner break at 20:30"
    assert event.version > version
    assert clock_feed(event, NOW).as_dict()["floor_message"] == "Dinner break at 20:30"
    assert AuditEvent.objects.filter(tournament=event, action="floor_message").count() == 1


def test_the_same_message_again_changes_nothing_and_blank_takes_it_down() -> None:
    event = _running()
    tournament_set_floor_message(tournament=event, message="Last level of the day")
    version = _fresh(event).version

    tournament_set_floor_message(tournament=event, message="Last level of the day")
    unchanged = _fresh(event).version
    tournament_set_floor_message(tournament=event, message="")

    assert unchanged == version
    assert _fresh(event).floor_message == ""
    assert _fresh(event).version > version


def test_a_message_longer_than_a_screen_line_is_refused() -> None:
    event = _running()

    with pytest.raises(FloorInvalid) as refused:
        tournament_set_floor_message(tournament=event, message="x" * 201)

    assert refused.value.code == "message_too_long"
    assert _fresh(event).floor_message == ""


# --- the final result -------------------------------------------------------------------------


def test_the_final_result_shows_the_winner_first_once_the_event_is_over() -> None:
    event = _running(4, payout_percentages=[60, 40])  # 400: 240 and 160
    for name in ("Dana Kowalski", "Chen Wei", "Bruno Costa"):
        entries_bust(
            tournament=event,
            busts=[Bust(entry_id=entry_of(event, name).pk, starting_stack=10000)],
            now=NOW,
        )
    running = final_result(_fresh(event))

    tournament_finish(tournament=event)
    board = screen_board(_fresh(event))

    assert running == []  # nothing to announce while the event runs
    assert board["result"] == [
        {"place": 1, "name": "Ann Lee", "prize": "240.00"},
        {"place": 2, "name": "Bruno Costa", "prize": "160.00"},
        {"place": 3, "name": "Chen Wei", "prize": None},
        {"place": 4, "name": "Dana Kowalski", "prize": None},
    ]
    assert clock_feed(_fresh(event), NOW).as_dict()["finished"] is True


# --- the screens ---------------------------------------------------------------------------------


def test_a_screen_is_added_changed_and_removed_with_an_audit_line_each() -> None:
    event = _running()

    screen = screen_create(tournament=event, name="  Bar   TV ", layout="sidebar", sound=True)
    changed = screen_update(screen=screen.pk, layout="payouts", sound=False)
    screen_delete(screen=screen)

    assert (screen.name, screen.layout, screen.sound) == ("Bar TV", "sidebar", True)
    assert (changed.name, changed.layout, changed.sound) == ("Bar TV", "payouts", False)
    assert not Screen.objects.filter(pk=screen.pk).exists()
    assert list(
        AuditEvent.objects.filter(tournament=event, action__startswith="screen_")
        .order_by("pk")
        .values_list("action", flat=True)
    ) == ["screen_create", "screen_update", "screen_delete"]


@pytest.mark.parametrize(
    ("name", "layout", "code"),
    [
        ("   ", "classic", "name_required"),
        ("x" * 61, "classic", "name_too_long"),
        ("Bar TV", "ticker", "bad_layout"),
    ],
)
def test_a_screen_needs_a_name_and_a_known_layout(name: str, layout: str, code: str) -> None:
    event = _running()

    with pytest.raises(FloorInvalid) as refused:
        screen_create(tournament=event, name=name, layout=layout)

    assert refused.value.code == code
    assert not Screen.objects.exists()


def test_a_removed_screen_cannot_be_changed() -> None:
    event = _running()
    screen = screen_create(tournament=event, name="Bar TV")
    screen_delete(screen=screen.pk)

    with pytest.raises(FloorNotFound) as refused:
        screen_update(screen=screen.pk, name="Lobby")

    assert refused.value.code == "no_screen"


@pytest.mark.parametrize(
    ("place", "words"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (57, "57th"),
        (101, "101st"),
        (111, "111th"),
    ],
)
def test_places_are_written_as_ordinals(place: int, words: str) -> None:
    assert ordinal(place) == words
