"""The cash floor's chip ledger (issue 25): every change of a seat's chips is one row, written by
one service; a seat's chips are its running total; `check_chips` proves the books of every
table and of the floor; a table change carries the whole stack; a held seat stays held."""

from __future__ import annotations

import ast
import random
import re
from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from common.errors import FloorConflict
from dealer.cash import ledger
from dealer.cash.books import cash_chips_check
from dealer.cash.games import services as games
from dealer.cash.games import waitlist
from dealer.cash.models import CashChips, CashSeat, WaitingListEntry
from dealer.cash.seats import services as cash
from dealer.cash.takings.cage import cash_float
from dealer.cash.takings.services import time_charge_collect
from dealer.services import hand_start, hand_undo
from tests.dealer.test_cash_games import game_table, join, one_two
from tests.dealer.test_cash_services import seat_of
from tests.dealer.test_rake_time import act, play_hand, raked_table
from tests.factories import assign_dealer
from tests.pages import once
from tournaments.models import Table

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def kinds(seat: CashSeat) -> list[tuple[str, int, int | None]]:
    rows = CashChips.objects.filter(sitting=seat.pk).order_by("pk")
    return [(row.kind, row.delta, row.balance) for row in rows]


def test_every_change_of_a_seats_chips_is_a_ledger_row_and_the_chips_are_its_total() -> None:
    table = raked_table(1, seats=3)
    hand = play_hand(table, random.Random(4), to_flop=True)
    assert hand.status == "complete"
    short = CashSeat.objects.filter(table=table).order_by("chips", "seat").first()
    assert short is not None
    cash.cash_seat_top_up(cash_seat=short, amount=200 - short.chips)
    time_charge_collect(cash_seat=seat_of(table, 2), amount=5)
    for seat in CashSeat.objects.filter(table=table):
        rows = kinds(seat)
        assert rows[0] == ("buy_in", 200, 200)
        assert sum(delta for _, delta, _ in rows) == seat.chips
        assert rows[-1][2] == seat.chips
    results = CashChips.objects.filter(hand=hand)
    house = sum(row.delta for row in results if row.sitting is None)
    assert house == hand.rake > 0
    assert sum(row.delta for row in results if row.sitting is not None) == -hand.rake
    assert cash_chips_check() == []


def test_a_hand_end_writes_each_seats_result_as_a_delta() -> None:
    """The hand's end moves each seat by its result, not to an absolute stack: chips written to
    a seat while the hand ran (a correction the floor made behind the player's stack) stay."""
    table = raked_table(1, seats=3)
    hand = hand_start(table=table)
    state = hand.state
    behind = seat_of(table, 1)
    ledger.cash_chips_record(seat=behind, kind="correction", delta=10, note="miscounted rack")
    while state["status"] == "in_progress":
        hand, state = act(hand, state, kind="fold", seat=state["actor_seat"])
    results = {row.seat: row.delta for row in CashChips.objects.filter(hand=hand, kind="hand")}
    assert sum(results.values()) == 0
    assert seat_of(table, 1).chips == 200 + 10 + results.get(1, 0)
    assert cash_chips_check() == []


def test_a_table_change_in_the_same_game_carries_the_whole_stack() -> None:
    """The issue's walk: a player with 402 at a 40-200 game moves to another of its tables;
    the move is no buy-in, so it is not held to the buy-in range."""
    game = one_two()
    first = game_table(game, 11, players=2)
    second = game_table(game, 12, players=1)
    winner = seat_of(first, 1)
    ledger.cash_chips_record(
        seat=winner, kind="correction", delta=302, note="won in hands (test set-up)"
    )
    assert CashSeat.objects.get(pk=winner.pk).chips == 402
    moved = cash.cash_seat_move(cash_seat=winner, to_table=second, to_seat=5)
    assert (moved.table_id, moved.seat, moved.chips) == (second.pk, 5, 402)
    assert not CashSeat.objects.filter(pk=winner.pk).exists()
    out = CashChips.objects.get(sitting=winner.pk, kind="move_out")
    into = CashChips.objects.get(sitting=moved.pk, kind="move_in")
    assert (out.delta, out.other_table_id, into.delta, into.other_table_id) == (
        -402,
        second.pk,
        402,
        first.pk,
    )
    assert cash_float(first).balanced
    assert cash_float(second).balanced
    assert cash_chips_check() == []


def test_a_move_to_a_table_of_another_game_is_refused() -> None:
    first = game_table(one_two(), 11, players=1)
    other = game_table(one_two(name="2/5 NL", small_blind=2, big_blind=5), 12, players=0)
    with pytest.raises(FloorConflict) as refused:
        cash.cash_seat_move(cash_seat=seat_of(first, 1), to_table=other, to_seat=1)
    assert refused.value.code == "other_game"
    assert seat_of(first, 1).chips == 100


def test_a_seat_held_for_a_called_player_is_not_given_to_a_walk_in(director: Any) -> None:
    """The issue's walk: her phone said "Your seat is ready", a walk-in got seat 5, and
    "Seated" for her then said "Seat 5 is taken"."""
    game = one_two()
    table = game_table(game, 4, players=9)
    (ann,) = join(game, "Ann")
    cash.cash_seat_leave(cash_seat=seat_of(table, 5))  # seat 5 opens: Ann is called to it
    ann.refresh_from_db()
    assert (ann.status, ann.call_seat) == ("called", 5)
    with pytest.raises(FloorConflict) as refused:
        cash.cash_seat_take(table=table, seat=5, player_name="Walk-in", buy_in=100)
    assert refused.value.code == "seat_held"
    assert "held for Ann" in refused.value.detail
    page = director.get(f"/cash/{table.pk}/").content.decode()
    assert "Held for Ann" in page
    assert '<option value="5">' not in page  # not offered to "Seat a player"
    body = director.get(f"/api/cash-tables/{table.pk}/").json()
    assert 5 not in body["open_seats"]
    assert body["seats"][4]["held_for"] == "Ann"
    games.game_waitlist_seat(entry=ann, buy_in=100)
    assert seat_of(table, 5).player.name == "Ann"


def test_a_held_seat_is_given_once_its_hold_ran_out_and_nobody_else_waits() -> None:
    game = one_two()
    table = game_table(game, 4, players=9)
    (ann,) = join(game, "Ann")
    cash.cash_seat_leave(cash_seat=seat_of(table, 5))
    ann.refresh_from_db()
    assert ann.hold_until is not None
    waitlist.waitlist_expire_calls(now=ann.hold_until + timedelta(seconds=1))
    cash.cash_seat_take(table=table, seat=5, player_name="Walk-in", buy_in=100)
    assert seat_of(table, 5).player.name == "Walk-in"


def test_check_chips_proves_the_cash_books_and_names_a_stack_changed_outside_the_ledger() -> None:
    table = raked_table(1, seats=3)
    play_hand(table, random.Random(4), to_flop=True)
    out = StringIO()
    call_command("check_chips", "--cash", stdout=out)
    assert "Cash floor:" in out.getvalue()
    assert "balances" in out.getvalue()
    CashSeat.objects.filter(table=table, seat=2).update(chips=999)  # no service does this
    with pytest.raises(CommandError):
        call_command("check_chips", "--cash", stdout=StringIO(), stderr=StringIO())
    problems = cash_chips_check()
    assert any("has 999 chips, its ledger" in problem for problem in problems)
    assert any(problem.startswith("Table 1:") for problem in problems)


def test_a_hand_that_made_chips_is_named() -> None:
    table = raked_table(1, seats=2)
    hand = play_hand(table, random.Random(4), to_flop=True)
    CashChips.objects.filter(hand=hand, kind="rake").update(delta=hand.rake + 3)
    assert f"cash hand {hand.pk} made -3 chips" in cash_chips_check()


def test_a_ledger_row_never_leaves_a_seat_below_zero() -> None:
    table = raked_table(1, seats=1)
    seat = seat_of(table, 1)
    with pytest.raises(FloorConflict) as refused:
        ledger.cash_chips_record(seat=seat, kind="time", delta=-201)
    assert refused.value.code == "short_stack"
    assert seat_of(table, 1).chips == 200
    assert not CashChips.objects.filter(kind="time").exists()


def _chip_writes(path: Path) -> list[str]:
    """Assignments to a `chips` attribute and `chips=` keywords of `update`/`create` calls."""
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Attribute) and target.attr in ("chips", "bought_in"):
                found.append(f"{path.relative_to(ROOT)}:{target.lineno}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("update", "create", "get_or_create", "update_or_create")
        ):
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno}"
                for keyword in node.keywords
                if keyword.arg in ("chips", "bought_in")
            ]
    return found


def test_only_the_ledger_writes_a_cash_seats_chips() -> None:
    """One owner: no module of the cash floor but `dealer/cash/ledger.py` assigns a seat's
    chips (the tournament's entries have their own ledger, `tournaments/services/ledger.py`)."""
    modules = [
        path
        for folder in ("common", "dealer", "tournaments", "config")
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts and "engine" not in path.parts
    ]
    cash_modules = [path for path in modules if "CashSeat" in path.read_text()]
    assert ROOT / "dealer/cash/ledger.py" in cash_modules  # the scan reads the right files
    writes = [w for path in cash_modules for w in _chip_writes(path)]
    assert writes
    assert all(w.startswith("dealer/cash/ledger.py:") for w in writes), writes


def test_moving_players_between_tables_locks_in_one_order() -> None:
    """Two tables of one game: the move locks both tables (by id), so the player is never
    seated twice and the books balance after moves both ways."""
    game = one_two()
    first = game_table(game, 1, players=2)
    second = game_table(game, 2, players=2)
    there = cash.cash_seat_move(cash_seat=seat_of(first, 1), to_table=second, to_seat=7)
    back = cash.cash_seat_move(cash_seat=seat_of(second, 1), to_table=first, to_seat=1)
    assert Table.objects.get(pk=first.pk).cash_seats.count() == 2
    assert there.player.name == "P1-1"
    assert back.player.name == "P2-1"
    assert cash_chips_check() == []


def test_bug_a_wrong_award_at_a_cash_table_is_corrected_by_reopening_the_hand(
    director: Any,
) -> None:
    """The issue's walk: `POST /api/hands/{h}/reopen/` answered 409 "A cash hand is final once
    it ends". Now the hand's result and rake are reversed through the ledger, the dealer undoes
    the wrong fold, and the hand's new end writes the corrected result: the stacks, the cage
    and the books agree at every step."""
    table = raked_table(1, seats=3)
    start = {row.seat: row.chips for row in CashSeat.objects.filter(table=table)}
    hand = hand_start(table=table)
    state = hand.state
    while state["status"] == "in_progress":  # everyone folds to the big blind: a wrong fold
        hand, state = act(hand, state, kind="fold", seat=state["actor_seat"])
    ended = {row.seat: row.chips for row in CashSeat.objects.filter(table=table)}
    assert ended != start
    answer = director.post(
        f"/api/hands/{hand.pk}/reopen/",
        {"reason": "the wrong player folded", "client_id": "r1", "version": state["version"]},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["status"] == "in_progress"
    assert {row.seat: row.chips for row in CashSeat.objects.filter(table=table)} == start
    reversed_rows = CashChips.objects.filter(hand=hand, kind="hand_reversed")
    assert reversed_rows.exists()
    assert all("the wrong player folded" in row.note for row in reversed_rows)
    assert cash_chips_check() == []
    state = answer.json()
    undone = hand_undo(hand=hand, reason="Wrong action", client_id="u1", version=state["version"])
    hand, state = undone.hand, undone.answer
    # The right ending: the small blind calls, the flop comes, a bet takes it.
    while state["phase"] == "betting" and state["street"] == "preflop":
        legal = state["legal"]
        assert legal is not None
        kind = "check" if legal["can_check"] else "call"
        hand, state = act(hand, state, kind=kind, seat=state["actor_seat"])
    hand, state = act(hand, state, kind="deal_board", cards=["Ah", "9c", "4d"])
    hand, state = act(hand, state, kind="bet", amount=2, seat=state["actor_seat"])
    while state["status"] == "in_progress":
        hand, state = act(hand, state, kind="fold", seat=state["actor_seat"])
    assert cash_chips_check() == []
    results = CashChips.objects.filter(hand=hand).exclude(kind__endswith="_reversed")
    assert sum(row.delta for row in results) == 0
    assert cash_float(table).balanced


def test_a_cash_hand_is_not_reopened_once_a_player_of_it_has_left(director: Any) -> None:
    table = raked_table(1, seats=3)
    hand = play_hand(table, random.Random(4), to_flop=False)
    cash.cash_seat_leave(cash_seat=seat_of(table, 2))
    answer = director.post(
        f"/api/hands/{hand.pk}/reopen/",
        {"reason": "wrong award", "client_id": "r1", "version": hand.version},
        format="json",
    )
    assert answer.status_code == 409
    assert answer.json()["code"] == "player_left"
    assert cash_chips_check() == []


def test_the_move_api_carries_the_stack_and_the_seats_page_offers_the_move(
    director: Any,
) -> None:
    game = one_two()
    first = game_table(game, 11, players=2)
    second = game_table(game, 12, players=1)
    mover = seat_of(first, 1)
    ledger.cash_chips_record(seat=mover, kind="correction", delta=302, note="test set-up")
    page = director.get(f"/cash/{first.pk}/")
    assert page.status_code == 200
    assert f'value="{second.pk}:2"' in page.content.decode()
    answer = director.post(
        f"/api/cash-tables/{first.pk}/seats/{mover.pk}/move/",
        {"to_table": second.pk, "to_seat": 4},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    seated = {row["seat"]: row for row in answer.json()["seats"] if row.get("player")}
    assert seated[4]["player"] == "P11-1"
    assert seated[4]["chips"] == 402
    again = director.post(
        f"/api/cash-tables/{first.pk}/seats/{mover.pk}/move/",
        {"to_table": second.pk, "to_seat": 5},
        format="json",
    )
    assert again.status_code == 404
    assert cash_chips_check() == []


def test_a_game_tables_seats_page_shows_the_games_one_list(director: Any) -> None:
    """The issue's walk: a table's seats page said "Nobody is waiting" while its game had 9
    waiting."""
    game = one_two()
    table = game_table(game, 4, players=9)
    join(game, *[f"W{n}" for n in range(1, 10)])
    page = director.get(f"/cash/{table.pk}/").content.decode()
    assert "Nobody is waiting" not in page
    assert "Waiting list for 1/2 NL" in page
    assert all(f"W{n}" in page for n in range(1, 10))
    body = director.get(f"/api/cash-tables/{table.pk}/").json()
    assert [entry["player"] for entry in body["waiting_list"]] == [f"W{n}" for n in range(1, 10)]
    listed = director.get("/api/cash-tables/").json()
    assert next(row for row in listed if row["id"] == table.pk)["waiting"] == 9


def test_bug_deal_it_at_a_seated_table_of_another_game_asks_first_then_takes_the_games_rules() -> (
    None
):
    """The issue's walk: "Deal it at" turned a seated 2/4 limit table into 1/2 NL in one click,
    kept its name "2/4 Limit" and took no rake while the game's other tables rake 5%."""
    raked = {"rake_percent": 5, "rake_cap": 5}
    nl = games.cash_game_create(
        name="1/2 NL", small_blind=1, big_blind=2, rule_overrides=raked, hold_seconds=180
    )
    limit = games.cash_game_create(
        name="2/4 Limit", structure="fixed_limit", small_blind=2, big_blind=4, hold_seconds=180
    )
    table = game_table(limit, 5, players=3)
    Table.objects.filter(pk=table.pk).update(name="2/4 Limit")
    with pytest.raises(FloorConflict) as refused:
        games.cash_game_table_attach(game=nl, table=table)
    assert refused.value.code == "table_in_use"
    assert "3 players sit at Table 5, playing 2/4 Limit" in refused.value.detail
    table.refresh_from_db()
    assert (table.cash_game_id, table.structure, table.big_blind) == (limit.pk, "fixed_limit", 4)
    games.cash_game_table_attach(game=nl, table=table, confirm=True)
    table.refresh_from_db()
    assert (table.name, table.structure, table.big_blind) == ("1/2 NL", "no_limit", 2)
    assert table.rule_overrides == raked
    empty = game_table(limit, 6, players=0)
    games.cash_game_table_attach(game=nl, table=empty)  # nobody sits there: no question
    empty.refresh_from_db()
    assert (empty.name, empty.rule_overrides) == ("1/2 NL", raked)


def test_bug_a_double_click_on_top_up_30_adds_30_once(director: Any) -> None:
    """The issue's walk: a double click on "Top up 30" added 60. The seats page's forms carry a
    one-time token: the second submission is answered "Already recorded" and changes nothing."""
    table = raked_table(1, seats=1)
    seat = seat_of(table, 1)
    ledger.cash_chips_record(seat=seat, kind="time", delta=-50)
    page = director.get(f"/cash/{table.pk}/").content.decode()
    assert 'name="form_token"' in page
    form = once(action="top_up", amount=30)
    for _ in range(2):
        answer = director.post(f"/cash/{table.pk}/seats/{seat.pk}/", form, follow=True)
        assert answer.status_code == 200
    assert seat_of(table, 1).chips == 180
    assert "Already recorded" in answer.content.decode()
    assert CashChips.objects.filter(kind="top_up").count() == 1


def test_time_is_collected_from_the_whole_table_in_one_step(director: Any) -> None:
    """One step for the table: each seat pays the half hour once; a seat that paid already is
    passed over and named, and the books balance."""
    table = raked_table(1, seats=3)
    time_charge_collect(cash_seat=seat_of(table, 2), amount=5)
    answer = director.post(f"/api/cash-tables/{table.pk}/time/", {"amount": 5}, format="json")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert [charge["seat"] for charge in body["charged"]] == [1, 3]
    assert [(row["seat"], "already paid time" in row["why"]) for row in body["passed"]] == [
        (2, True)
    ]
    assert [seat_of(table, n).chips for n in (1, 2, 3)] == [195, 195, 195]
    page = director.post(f"/cash/{table.pk}/time/", once(amount=5), follow=True)
    assert "Seat 1 passed over" in page.content.decode()
    assert cash_chips_check() == []


def test_bug_the_cash_tables_list_names_house_rules_in_words_not_option_keys(
    director: Any,
) -> None:
    raked_table(1)
    page = director.get("/cash/").content.decode()
    visible = re.sub(r'title="[^"]*"', "", page)
    assert "rake_percent" not in visible
    assert "Rake" in visible


def test_bug_breaking_a_game_moves_its_players_with_their_stacks_not_to_the_cage() -> None:
    """The issue's walk: breaking a game cashed everyone out. Now its players go with their
    stacks to the open seats of the game they are sent to, the rest to the top of its list
    carrying their stacks; seated from the list, they sit down with them."""
    low = one_two()
    high = one_two(name="2/5 NL", small_blind=2, big_blind=5)
    breaking = game_table(high, 7, players=4)
    staying = game_table(low, 8, players=7)  # two seats open
    stacks = {seat.player.name: seat.chips for seat in CashSeat.objects.filter(table=breaking)}
    listed = games.cash_game_break(game=high, to_game=low)
    moved = CashSeat.objects.filter(table=staying, player__name__in=stacks)
    assert {seat.player.name: seat.chips for seat in moved} == {"P7-1": 100, "P7-2": 100}
    assert [(entry.player.name, entry.carried_chips) for entry in listed] == [
        ("P7-3", 100),
        ("P7-4", 100),
    ]
    assert not CashChips.objects.filter(kind="cash_out").exists()
    assert cash_chips_check() == []
    cash.cash_seat_leave(cash_seat=seat_of(staying, 1))  # a seat opens: P7-3 is called
    called = type(listed[0]).objects.get(pk=listed[0].pk)
    assert called.status == "called"
    games.game_waitlist_seat(entry=called)
    assert seat_of(staying, 1).player.name == "P7-3"
    assert seat_of(staying, 1).chips == 100
    assert cash_chips_check() == []


def test_closing_one_table_moves_its_players_in_the_floors_order(director: Any) -> None:
    game = one_two()
    closing = game_table(game, 1, players=3)
    other = game_table(game, 2, players=8)  # one seat open
    third = seat_of(closing, 3)
    answer = director.post(
        f"/api/cash-tables/{closing.pk}/close/", {"order": [third.pk]}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    assert seat_of(other, 9).player.name == "P1-3"  # moved first, to the one open seat
    waiting = WaitingListEntry.objects.filter(game=game, status="waiting").order_by("queued_at")
    assert [(e.player.name, e.carried_chips) for e in waiting] == [("P1-1", 100), ("P1-2", 100)]
    assert not Table.objects.get(pk=closing.pk).is_open
    assert cash_chips_check() == []
    # Taken off the list, a player's stack is cashed out on the ledger: the books still hold.
    waitlist.game_waitlist_remove(entry=waiting[0])
    out = CashChips.objects.get(kind="cash_out")
    assert (out.delta, out.table_id) == (-100, closing.pk)
    assert cash_chips_check() == []


def test_a_player_carrying_a_stack_who_misses_the_call_waits_again() -> None:
    game = one_two()
    closing = game_table(game, 1, players=1)
    other = game_table(game, 2, players=9)
    (entry,) = games.cash_table_close(table=closing).listed
    cash.cash_seat_leave(cash_seat=seat_of(other, 4))
    entry.refresh_from_db()
    assert entry.status == "called"
    assert entry.hold_until is not None
    waitlist.waitlist_expire_calls(now=entry.hold_until + timedelta(seconds=1))
    entry.refresh_from_db()
    assert (entry.status, entry.carried_chips) == ("waiting", 100)
    assert cash_chips_check() == []


def test_a_cash_hand_is_not_reopened_once_a_player_it_left_even_has_gone(director: Any) -> None:
    """Found by the floor's state machine: a player dealt in who folded without a chip in the
    pot has no ledger row for the hand; they left, the hand was reopened, and its new end had
    no seat for them. Every player dealt in counts."""
    table = raked_table(1, seats=4)
    hand = hand_start(table=table)
    state = hand.state
    first = state["actor_seat"]  # under the gun: folds with nothing in
    while state["status"] == "in_progress":
        hand, state = act(hand, state, kind="fold", seat=state["actor_seat"])
    assert not CashChips.objects.filter(hand=hand, seat=first).exists()
    cash.cash_seat_leave(cash_seat=seat_of(table, first))
    answer = director.post(
        f"/api/hands/{hand.pk}/reopen/",
        {"reason": "wrong award", "client_id": "r1", "version": state["version"]},
        format="json",
    )
    assert answer.status_code == 409
    assert answer.json()["code"] == "player_left"
    assert cash_chips_check() == []


def test_a_seat_change_request_is_offered_the_next_seat_before_the_waiting_list(
    director: Any,
) -> None:
    """A seated player asks for another table of the game: the next seat that opens goes to
    them before the list, they move with their stack, and their old seat goes to the list."""
    game = one_two()
    first = game_table(game, 1, players=9)
    second = game_table(game, 2, players=9)
    (bob,) = join(game, "Bob")
    asker = seat_of(first, 3)
    ledger.cash_chips_record(seat=asker, kind="correction", delta=150, note="test set-up")
    answer = director.post(
        f"/api/cash-tables/{first.pk}/seats/{asker.pk}/seat-change/", {}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["seats"][2]["seat_change"] is True
    page = director.get(f"/cash/games/{game.pk}/").content.decode()
    assert 'P1-3</span> <small class="muted">at table 1, seat 3' in page
    cash.cash_seat_leave(cash_seat=seat_of(second, 6))  # seat 6 at table 2 opens
    called = WaitingListEntry.objects.get(status="called")
    assert (called.player.name, called.call_table_id, called.call_seat) == ("P1-3", second.pk, 6)
    bob.refresh_from_db()
    assert bob.status == "waiting"
    games.game_waitlist_seat(entry=called)
    assert (seat_of(second, 6).player.name, seat_of(second, 6).chips) == ("P1-3", 250)
    bob.refresh_from_db()
    assert (bob.status, bob.call_table_id, bob.call_seat) == ("called", first.pk, 3)
    assert cash_chips_check() == []


def test_a_cash_api_write_sent_twice_with_its_client_id_is_answered_once(director: Any) -> None:
    """A device resends a top-up after a lost answer: the same `client_id` gets the first
    answer again and the chips are added once; a refused write keeps its id free."""
    table = raked_table(1, seats=1)
    seat = seat_of(table, 1)
    ledger.cash_chips_record(seat=seat, kind="time", delta=-60)
    url = f"/api/cash-tables/{table.pk}/seats/{seat.pk}/top-up/"
    refused = director.post(url, {"amount": 99, "client_id": "top-up-0001"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "over_maximum")
    first = director.post(url, {"amount": 30, "client_id": "top-up-0001"}, format="json")
    again = director.post(url, {"amount": 30, "client_id": "top-up-0001"}, format="json")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert seat_of(table, 1).chips == 170
    assert CashChips.objects.filter(kind="top_up").count() == 1
    elsewhere = director.post(
        f"/api/cash-tables/{table.pk}/time/",
        {"amount": 5, "client_id": "top-up-0001"},
        format="json",
    )
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (409, "client_id_reused")
    bad = director.post(url, {"amount": 1, "client_id": "x"}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_client_id")
    assert cash_chips_check() == []


def test_review_a_carried_stack_is_not_lost_when_the_floor_seats_its_player_another_way() -> None:
    """Found in review: a player waiting with the stack of a closed table was seated with a
    walk-in's buy-in, and the stack vanished from the books."""
    game = one_two()
    closing = game_table(game, 1, players=1)
    other = game_table(game, 2, players=9)
    (entry,) = games.cash_table_close(table=closing).listed
    cash.cash_seat_leave(cash_seat=seat_of(other, 9))
    with pytest.raises(FloorConflict) as refused:
        cash.cash_seat_take(table=other, seat=9, player_name="P1-1", buy_in=40)
    assert refused.value.code in ("carries_stack", "seat_held")
    entry.refresh_from_db()
    games.game_waitlist_seat(entry=entry)
    assert seat_of(other, 9).chips == 100
    assert cash_chips_check() == []


def test_review_breaking_into_a_game_a_player_already_plays_joins_their_stacks() -> None:
    """Found in review: a player of the broken game who also played the game it went to wasted
    every free seat on refused tries, and their stack was lost when they were called."""
    low = one_two()
    high = one_two(name="2/5 NL", small_blind=2, big_blind=5)
    breaking = game_table(low, 1, players=2)
    target = game_table(high, 3, players=1)
    both = seat_of(breaking, 1)  # P1-1 plays 2/5 at table 3 too
    cash.cash_seat_take(table=target, seat=5, player_name="P1-1", buy_in=100)
    listed = games.cash_game_break(game=low, to_game=high)
    assert listed == []
    rows = {row.player.name: (row.seat, row.chips) for row in CashSeat.objects.filter(table=target)}
    assert rows["P1-1"] == (5, 200)  # her two stacks, one seat
    assert "P1-2" in rows  # the free seats were not used up by her
    assert not CashSeat.objects.filter(pk=both.pk).exists()
    assert cash_chips_check() == []


def test_review_another_users_client_id_gets_no_stored_answer(director: Any) -> None:
    """Found in review: the dealer of another table sent table 1's client id and got table 1's
    stored answer (201) where the write itself is refused (403)."""
    table = raked_table(1, seats=0)
    first = director.post(
        f"/api/cash-tables/{table.pk}/seats/",
        {"seat": 1, "player_name": "Ann", "buy_in": 100, "client_id": "seat-ann-0001"},
        format="json",
    )
    assert first.status_code == 201
    other = raked_table(2, seats=0)
    stranger = APIClient()
    stranger.force_authenticate(assign_dealer(other))
    again = stranger.post(
        f"/api/cash-tables/{table.pk}/seats/",
        {"seat": 1, "player_name": "Ann", "buy_in": 100, "client_id": "seat-ann-0001"},
        format="json",
    )
    assert again.status_code in (403, 409)
    assert "seats" not in again.json()


def test_review_a_seated_table_made_a_game_table_never_seats_a_player_twice() -> None:
    game = one_two()
    game_table(game, 1, players=1)  # P1-1
    loose = raked_table(5, seats=0)
    cash.cash_seat_take(table=loose, seat=1, player_name="P1-1", buy_in=100)
    with pytest.raises(FloorConflict) as refused:
        games.cash_game_table_attach(game=game, table=loose, confirm=True)
    assert refused.value.code == "already_seated"
    assert "P1-1 already sits at another 1/2 NL table" in refused.value.detail


def test_review_a_hand_from_before_the_ledger_is_not_half_reversed() -> None:
    table = raked_table(1, seats=3)
    hand = play_hand(table, random.Random(4), to_flop=True)
    CashChips.objects.filter(hand=hand).update(before_ledger=True, sitting=None, balance=None)
    with pytest.raises(FloorConflict) as refused:
        cash.cash_hand_reopen(hand=hand, reason="wrong award")
    assert refused.value.code == "before_ledger"


def test_a_decimal_rake_and_the_promotional_drop_are_two_rows_of_the_books() -> None:
    """Issue 25: "Rake as a decimal percentage (2.5%) ... plus a separate promotional/jackpot
    drop line": a hand raked 2.5% that pays a jackpot drop of 1 writes a rake row and a drop row;
    the books, the float and the cage keep them apart."""
    from django.utils import timezone

    from dealer.cash.takings.cage import cage_report

    table = cash.cash_table_create(
        number=7,
        name="1/2 NL",
        game="holdem",
        structure="no_limit",
        rule_profile="casino_cash",
        rule_overrides={"rake_percent": 2.5, "promo_drop": 1, "promo_drop_min_pot": 20},
        small_blind=1,
        big_blind=2,
        min_buy_in=40,
        max_buy_in=200,
    )
    for seat in (1, 2, 3):
        cash.cash_seat_take(table=table, seat=seat, player_name=f"D{seat}", buy_in=200)
    Table.objects.filter(pk=table.pk).update(button_seat=1)
    table.refresh_from_db()
    hand = play_hand(table, random.Random(1), to_flop=True, raise_to=40)
    pot = sum(a["amount"] + a["rake"] for a in hand.state["awards"])
    assert pot >= 120
    rake = pot * 25 // 1000  # 2.5%, rounded down
    house = {row.kind: row.delta for row in CashChips.objects.filter(hand=hand, sitting=None)}
    assert house == {"rake": rake, "drop": 1}
    assert hand.state["rake"] == rake + 1
    assert hand.state["drop"] == 1
    assert hand.rake == rake
    floor = cash_float(table)
    assert (floor.rake, floor.drop, floor.difference) == (rake, 1, 0)
    report = cage_report(start=timezone.localdate())
    assert (report.rake, report.drop) == (rake, 1)
    assert cash_chips_check() == []


# --- the floor's correction of a stack (issue 25: "correction with who and why") -------------


def test_the_floor_corrects_a_miscounted_stack_with_who_and_why_through_the_api(
    director: Any,
) -> None:
    """The issue: "the seats page can only add chips, so the stacks and the cage stay wrong".
    The floor sets a stack to what is on the table, with a reason; the ledger keeps who and why,
    the books still prove, and the float counts the correction."""
    table = raked_table(1, seats=2)
    seat = seat_of(table, 2)
    url = f"/api/cash-tables/{table.pk}/seats/{seat.pk}/correct/"
    answer = director.post(url, {"chips": 175, "reason": "rack miscounted at the buy-in"})
    assert answer.status_code == 200, answer.json()
    assert next(r for r in answer.json()["seats"] if r.get("seat") == 2)["chips"] == 175
    row = CashChips.objects.get(kind="correction")
    assert (row.delta, row.balance, row.note) == (-25, 175, "rack miscounted at the buy-in")
    assert row.actor is not None
    assert row.actor.is_staff
    assert cash_float(table).corrections == -25
    assert cash_chips_check() == []


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"chips": 150}, 400, "invalid"),  # no reason
        ({"chips": 150, "reason": "   "}, 400, "reason_required"),
        ({"chips": -1, "reason": "x"}, 400, "invalid"),
        ({"chips": 200, "reason": "counted again"}, 409, "no_change"),
    ],
)
def test_a_correction_without_a_reason_or_a_change_is_refused_with_a_sentence(
    director: Any, body: dict[str, Any], status: int, code: str
) -> None:
    table = raked_table(1, seats=2)
    seat = seat_of(table, 1)
    answer = director.post(f"/api/cash-tables/{table.pk}/seats/{seat.pk}/correct/", body)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert answer.json()["detail"]
    assert not CashChips.objects.filter(kind="correction").exists()


def test_only_the_floor_corrects_a_stack_not_the_tables_dealer() -> None:
    table = raked_table(1, seats=2)
    dealer = assign_dealer(table)
    client = APIClient()
    client.force_authenticate(dealer)
    seat = seat_of(table, 1)
    answer = client.post(
        f"/api/cash-tables/{table.pk}/seats/{seat.pk}/correct/", {"chips": 150, "reason": "x"}
    )
    assert (answer.status_code, answer.json()["code"]) == (403, "floor_only")
    assert seat_of(table, 1).chips == 200


def test_a_correction_waits_for_the_hand_the_seat_is_in() -> None:
    from common.errors import FloorConflict as Conflict

    table = raked_table(1, seats=2)
    hand_start(table=table)
    with pytest.raises(Conflict) as refused:
        cash.cash_seat_correct(cash_seat=seat_of(table, 1), chips=150, reason="x", actor=None)
    assert refused.value.code == "in_hand"


def test_the_seats_page_corrects_a_stack_for_the_floor(director: Any) -> None:
    table = raked_table(1, seats=2)
    seat = seat_of(table, 1)
    page = director.get(f"/cash/{table.pk}/").content.decode()
    assert f'action="/cash/{table.pk}/seats/{seat.pk}/correct/"' in page
    url = f"/cash/{table.pk}/seats/{seat.pk}/correct/"
    form = once(chips="210", reason="chips found under the rail")
    done = director.post(url, form, follow=True)
    assert "has 210 now" in done.content.decode()
    assert seat_of(table, 1).chips == 210
    again = director.post(url, form)  # a double click: the same one-time token
    assert again.status_code == 302
    assert CashChips.objects.filter(kind="correction").count() == 1
    assert cash_chips_check() == []
