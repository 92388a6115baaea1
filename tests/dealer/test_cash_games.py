"""Games and their waiting lists through the services: calling in order with a no-show whose
hold runs out, must-move tables feeding the main game first, stakes changed only between
hands, and breaking a game onto the top of a list."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from common.errors import FloorError
from dealer.cash.games import services as games
from dealer.cash.games import waitlist
from dealer.cash.games.selectors import cash_game_view, waitlist_place
from dealer.cash.models import CashGame, CashSeat, WaitingListEntry
from dealer.cash.seats import services as cash
from dealer.models import Hand
from dealer.services import hand_start
from tests.dealer.test_cash_services import cash_table, seat_of
from tournaments.models import AuditEvent, Table

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)
Status = WaitingListEntry.Status


def one_two(**values: Any) -> CashGame:
    fields: dict[str, Any] = {"name": "1/2 NL", "small_blind": 1, "big_blind": 2}
    fields.update(values)
    return games.cash_game_create(hold_seconds=180, **fields)


def game_table(game: CashGame, number: int, players: int, seat_count: int = 9) -> Table:
    """A cash table dealing `game`, its first `players` seats taken by P<number>-<seat>."""
    table = cash_table(number=number, seat_count=seat_count)
    games.cash_game_table_attach(game=game, table=table)
    for seat in range(1, players + 1):
        cash.cash_seat_take(table=table, seat=seat, player_name=f"P{number}-{seat}", buy_in=100)
    table.refresh_from_db()
    return table


def join(game: CashGame, *names: str) -> list[WaitingListEntry]:
    return [waitlist.game_waitlist_join(game=game, player_name=name) for name in names]


def state(entry: WaitingListEntry) -> tuple[str, int | None, int | None]:
    entry.refresh_from_db()
    number = entry.call_table.number if entry.call_table else None
    return entry.status, number, entry.call_seat


def test_a_list_calls_three_players_in_order_and_the_third_when_the_second_no_shows() -> None:
    """The issue's worked example: Ann, Bob, Cy wait for 1/2 NL (hold 3 minutes). Seat 9 at
    table 4 opens: Ann is called, sits. Seat 3 opens: Bob is called, does not come; when his
    hold runs out Cy is called to the same seat."""
    game = one_two()
    table = game_table(game, 4, players=8)
    ann, bob, cy = join(game, "Ann", "Bob", "Cy")
    assert [waitlist_place(e.code).place for e in (ann, bob, cy)] == [1, 2, 3]

    called = waitlist.game_waitlist_call_next(game=game, now=T0)
    assert called.pk == ann.pk
    assert state(ann) == (Status.CALLED, 4, 9)
    assert ann.hold_until == T0 + timedelta(seconds=180)
    assert waitlist_place(bob.code).place == 1
    games.game_waitlist_seat(entry=ann, buy_in=100)
    assert seat_of(table, 9).player.name == "Ann"
    assert state(ann)[0] == Status.SEATED

    left = cash.cash_seat_leave(cash_seat=seat_of(table, 3))  # a seat opens: Bob is called
    assert left.called is not None
    assert left.called.pk == bob.pk
    assert state(bob) == (Status.CALLED, 4, 3)
    place = waitlist_place(bob.code)
    assert (place.call_table, place.call_seat) == (4, 3)

    held = bob.hold_until  # the seat opened now: held for the game's 180 seconds from now
    assert held is not None
    assert waitlist.waitlist_expire_calls(now=held - timedelta(seconds=1)) == 0
    assert state(cy)[0] == Status.WAITING
    later = held + timedelta(seconds=1)
    assert waitlist.waitlist_expire_calls(now=later) == 1
    assert state(bob)[0] == Status.NO_SHOW
    assert state(cy) == (Status.CALLED, 4, 3)
    cy.refresh_from_db()
    assert cy.hold_until == later + timedelta(seconds=180)
    assert waitlist.waitlist_expire_calls(now=later) == 0  # run again: nothing more
    actions = AuditEvent.objects.filter(action__startswith="cash_list").values_list(
        "action", flat=True
    )
    assert list(actions.order_by("pk")) == [
        "cash_list_join",
        "cash_list_join",
        "cash_list_join",
        "cash_list_call",
        "cash_list_call",
        "cash_list_call_expired",
        "cash_list_call",
    ]


def test_a_no_show_marked_by_the_floor_calls_the_next_player_to_the_held_seat() -> None:
    game = one_two()
    game_table(game, 4, players=8)
    ann, bob = join(game, "Ann", "Bob")
    waitlist.game_waitlist_call_next(game=game, now=T0)
    nxt = waitlist.game_waitlist_no_show(entry=ann, now=T0 + timedelta(seconds=30))
    assert nxt is not None
    assert nxt.pk == bob.pk
    assert state(ann)[0] == Status.NO_SHOW
    assert state(bob) == (Status.CALLED, 4, 9)


def test_call_next_with_no_open_seat_or_nobody_waiting_is_refused() -> None:
    game = one_two()
    game_table(game, 4, players=9)
    join(game, "Ann")
    with pytest.raises(FloorError) as full:
        waitlist.game_waitlist_call_next(game=game, now=T0)
    assert full.value.code == "no_open_seat"
    other = one_two(name="2/5 NL", small_blind=2, big_blind=5)
    game_table(other, 5, players=2)
    with pytest.raises(FloorError) as empty:
        waitlist.game_waitlist_call_next(game=other, now=T0)
    assert empty.value.code == "list_empty"


def test_joining_twice_or_while_playing_the_game_is_refused() -> None:
    game = one_two()
    game_table(game, 4, players=2)
    join(game, "Ann")
    for name, code in (("ann", "already_waiting"), ("P4-1", "already_seated")):
        with pytest.raises(FloorError) as refused:
            waitlist.game_waitlist_join(game=game, player_name=name)
        assert refused.value.code == code


def test_must_move_players_go_to_the_main_table_longest_waiting_first_before_the_list() -> None:
    """Table 1 is the main game, table 2 its must-move table. A seat at table 1 goes to the
    must-move player seated earliest; that player's seat at table 2 then goes to the list."""
    game = one_two()
    main = game_table(game, 1, players=9)
    feeder = cash_table(number=2)
    games.cash_game_table_attach(game=game, table=feeder)
    games.cash_table_must_move_set(table=feeder, main=main)
    for seat, name in ((5, "Early"), (2, "Later")):
        cash.cash_seat_take(table=feeder, seat=seat, player_name=name, buy_in=60)
    CashSeat.objects.filter(table=feeder, seat=5).update(seated_at=T0 - timedelta(minutes=40))
    CashSeat.objects.filter(table=feeder, seat=2).update(seated_at=T0 - timedelta(minutes=10))
    (ann,) = join(game, "Ann")

    cash.cash_seat_leave(cash_seat=seat_of(main, 4))
    early = WaitingListEntry.objects.get(player__name="Early", status=Status.CALLED)
    assert state(early) == (Status.CALLED, 1, 4)
    assert state(ann)[0] == Status.WAITING

    moved = games.game_waitlist_seat(entry=early)
    assert (moved.table_id, moved.seat, moved.chips) == (main.pk, 4, 60)
    assert not CashSeat.objects.filter(table=feeder, seat=5).exists()
    assert state(ann) == (Status.CALLED, 2, 5)  # the must-move seat goes to the list

    cash.cash_seat_leave(cash_seat=seat_of(main, 7))
    later = WaitingListEntry.objects.get(player__name="Later", status=Status.CALLED)
    assert state(later) == (Status.CALLED, 1, 7)


def test_stakes_change_is_refused_during_a_hand_and_applies_to_every_table_between_hands() -> None:
    game = one_two()
    first = game_table(game, 1, players=3)
    second = game_table(game, 2, players=0)
    Table.objects.filter(pk=first.pk).update(button_seat=1)
    first.refresh_from_db()
    hand = hand_start(table=first)
    for change in (
        lambda: games.cash_game_stakes_change(game=game, small_blind=2, big_blind=5),
        lambda: games.cash_table_stakes_change(table=first, small_blind=2, big_blind=5),
    ):
        with pytest.raises(FloorError) as refused:
            change()
        assert refused.value.code == "hand_in_progress"
    Hand.objects.filter(pk=hand.pk).update(status=Hand.Status.COMPLETE)
    games.cash_game_stakes_change(
        game=game, small_blind=2, big_blind=5, min_buy_in=100, max_buy_in=500
    )
    blinds = Table.objects.filter(pk__in=[first.pk, second.pk]).values_list(
        "small_blind", "big_blind", "min_buy_in", "max_buy_in"
    )
    assert set(blinds) == {(2, 5, 100, 500)}
    with pytest.raises(FloorError) as bad:
        games.cash_table_stakes_change(table=second, small_blind=5, big_blind=200)
    assert bad.value.code == "bad_buy_in"


def test_breaking_a_game_puts_its_players_on_top_of_the_list_in_seat_order() -> None:
    game = one_two()
    three = game_table(game, 3, players=0)
    for seat, name in ((6, "Fay"), (2, "Bo")):
        cash.cash_seat_take(table=three, seat=seat, player_name=name, buy_in=100)
    seven = game_table(game, 7, players=0)
    cash.cash_seat_take(table=seven, seat=1, player_name="Al", buy_in=100)
    (zed,) = join(game, "Zed")

    entries = games.cash_game_break(game=game, now=T0)

    assert [e.player.name for e in entries] == ["Bo", "Fay", "Al"]
    view = cash_game_view(game)
    assert [(e.place, e.player) for e in view.entries] == [
        (1, "Bo"),
        (2, "Fay"),
        (3, "Al"),
        (4, "Zed"),
    ]
    assert view.tables == ()
    assert not CashSeat.objects.filter(table__in=[three, seven]).exists()
    assert waitlist_place(zed.code).place == 4
    # Ahead of Zed on the list, but "since" is when they were really put on it, not before Zed.
    zed.refresh_from_db()
    since = {e.player: e.since for e in view.entries}
    assert all(since[name] >= zed.created_at for name in ("Bo", "Fay", "Al"))
    event = AuditEvent.objects.get(action="cash_game_break")
    assert event.detail["players"] == ["3-2 Bo (100)", "3-6 Fay (100)", "7-1 Al (100)"]


def test_breaking_into_another_game_and_closing_the_broken_one() -> None:
    game = one_two()
    other = one_two(name="1/3 NL", big_blind=3)
    table = game_table(game, 3, players=2)
    with pytest.raises(FloorError) as busy:
        games.cash_game_close(game=game)
    assert busy.value.code == "game_has_players"
    games.cash_game_break(game=game, to_game=other, now=T0)
    assert [e.player for e in cash_game_view(other).entries] == ["P3-1", "P3-2"]
    games.cash_game_close(game=game)
    table.refresh_from_db()
    game.refresh_from_db()
    assert (game.is_open, table.is_open) == (False, False)
    with pytest.raises(FloorError) as closed:
        waitlist.game_waitlist_join(game=game, player_name="Late")
    assert closed.value.code == "game_closed"


def test_the_old_per_table_list_joins_the_game_list_at_a_game_table() -> None:
    game = one_two()
    table = game_table(game, 4, players=2)
    entry = cash.cash_waitlist_add(table=table, player_name="Ann")
    assert (entry.game_id, entry.table_id, bool(entry.code)) == (game.pk, None, True)
