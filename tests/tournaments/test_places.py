"""Issue 10, places: each entry (re-entries included) has its own finishing place; two share one
only when they went out on the same hand with equal starting stacks, or on the same
hand-for-hand hand (RP-8). Places follow from the bust record whatever order the floor worked
in: a re-entry, an undone bust or a reopened hand moves the others' places, never onto one
another."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest

from dealer.models import Hand
from dealer.services import hand_record_action, hand_reopen, hand_start, hand_undo
from tests.factories import seated_tournament
from tournaments.models import Entry, Table, Tournament
from tournaments.selectors.books import chips_check
from tournaments.services.busts import Bust, entries_bust, entries_unbust
from tournaments.services.clocks import tournament_set_hand_for_hand
from tournaments.services.entries import entry_register, entry_set_chips

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
LEVELS = [(100, 200, 0, 36000)]


def places(tournament: Tournament) -> dict[str, int | None]:
    """Each busted entry's place, by "name #entry number"."""
    return {
        f"{e.player.name} #{e.number}": e.finishing_place
        for e in Entry.objects.filter(tournament=tournament, status=Entry.Status.BUSTED)
        .select_related("player")
        .order_by("finishing_place", "pk")
    }


def desk_bust(tournament: Tournament, entry: Entry) -> None:
    entry.refresh_from_db()
    entries_bust(
        tournament=tournament,
        busts=[Bust(entry_id=entry.pk, starting_stack=entry.chips)],
        now=T0,
    )


def named(tournament: Tournament, name: str) -> Entry:
    return Entry.objects.select_related("player").get(
        tournament=tournament, player__name=name, status=Entry.Status.ACTIVE
    )


def test_bug_a_re_entry_never_shares_a_place_with_another_entry() -> None:
    tournament = seated_tournament(
        players=10, now=T0, max_entries_per_player=2, late_registration_level=2
    )
    desk_bust(tournament, named(tournament, "Player 00"))  # 10th of 10
    entry_register(tournament=tournament, player_name="Player 00", now=T0)  # 11 entries now
    desk_bust(tournament, named(tournament, "Player 01"))
    desk_bust(tournament, named(tournament, "Player 00"))  # the re-entry

    assert places(tournament) == {
        "Player 00 #2": 9,
        "Player 01 #1": 10,
        "Player 00 #1": 11,
    }


def test_undoing_a_bust_moves_the_earlier_busts_back_up() -> None:
    tournament = seated_tournament(players=8, now=T0)
    for name in ("Player 00", "Player 01", "Player 02"):
        desk_bust(tournament, named(tournament, name))
    assert places(tournament) == {"Player 02 #1": 6, "Player 01 #1": 7, "Player 00 #1": 8}

    entries_unbust(tournament=tournament, now=T0)  # Player 02 plays on
    desk_bust(tournament, named(tournament, "Player 03"))

    assert places(tournament) == {"Player 03 #1": 6, "Player 01 #1": 7, "Player 00 #1": 8}


def play(hand: Hand, holes: dict[int, list[str]], shover: int, caller: int) -> Hand:
    """`shover` goes all in, `caller` calls, everyone else folds; the board is dealt and the
    hands shown with `holes` (by seat)."""
    board = iter([["Kc", "9d", "4h"], ["Js"], ["3c"]])
    state = hand.state
    while state["phase"] not in ("complete", "void"):
        if state["phase"] == "dealing":
            action: dict[str, Any] = {"kind": "deal_board", "cards": next(board)}
        elif state["phase"] == "showdown":
            seat = state["next_to_show"]
            action = {"kind": "show", "seat": seat, "cards": holes[seat]}
        else:
            seat = state["legal"]["actor"]
            kind = {shover: "all_in", caller: "call"}.get(seat, "fold")
            if kind == "fold" and state["legal"]["can_check"]:
                kind = "check"
            action = {"kind": kind, "seat": seat}
        result = hand_record_action(
            hand=hand, action=action, client_id=uuid.uuid4().hex, version=state["version"]
        )
        hand, state = result.hand, result.answer
    return hand


def test_bug_a_player_out_again_after_a_reopened_hand_takes_a_place_of_their_own() -> None:
    """Out on a hand at table 1 (12th), then a desk bust at table 2 (11th); the hand is reopened
    and corrected, and the player is out on it again. The hand was played before the desk bust,
    so the places stand as they were: 12th and 11th (they used to share 11th; a later order put
    the corrected hand's bust after the desk bust)."""
    tournament = seated_tournament(players=12, now=T0, seats_per_table=6, levels=LEVELS)
    table = Table.objects.get(tournament=tournament, number=1)
    short, caller = Entry.objects.filter(table=table).select_related("player").order_by("seat")[:2]
    entry_set_chips(entry=caller, chips=caller.chips + short.chips - 300, note="moved over")
    entry_set_chips(entry=short, chips=300, note="moved over")
    holes = {short.seat or 0: ["7s", "2d"], caller.seat or 0: ["Ah", "Ad"]}
    hand = play(hand_start(table=table, now=T0), holes, short.seat or 0, caller.seat or 0)
    assert places(tournament) == {f"{short.player.name} #1": 12}
    other = Entry.objects.filter(tournament=tournament, table__number=2).first()
    assert other is not None
    desk_bust(tournament, other)

    reopened = hand_reopen(
        hand=hand, reason="wrong hand read", client_id="reopen", version=hand.version
    ).hand
    assert places(tournament) == {f"{other.player.name} #1": 12}
    corrected = hand_undo(
        hand=reopened, reason="shown again", client_id="undo", version=reopened.version
    ).hand
    play(corrected, holes, short.seat or 0, caller.seat or 0)

    assert places(tournament) == {
        f"{other.player.name} #1": 11,
        f"{short.player.name} #1": 12,
    }
    assert chips_check(tournament) == []


def test_rp8_players_out_on_one_hand_for_hand_hand_share_the_place_at_every_table() -> None:
    tournament = seated_tournament(players=10, now=T0, seats_per_table=5)
    tournament_set_hand_for_hand(tournament=tournament, on=True, now=T0)
    desk_bust(tournament, named(tournament, "Player 00"))
    desk_bust(tournament, named(tournament, "Player 01"))
    assert places(tournament) == {"Player 00 #1": 9, "Player 01 #1": 9}

    entries_unbust(tournament=tournament, now=T0)  # Player 01 was not out after all

    assert places(tournament) == {"Player 00 #1": 10}


def test_rp8_a_hand_for_hand_hand_reopened_after_the_next_one_opened_keeps_its_shared_place() -> (
    None
):
    """Both tables' hand-for-hand hand 1 bust a player: they share 9th. Every table has played,
    so hand-for-hand hand 2 opens; then table 1's hand is reopened and corrected, and its player
    is out on it again. They went out on hand 1, so they still share 9th with table 2's (they
    used to take hand 2's place, as if out on a later hand)."""
    tournament = seated_tournament(
        players=10, now=T0, seats_per_table=5, levels=LEVELS, payout_percentages=[50, 30, 20]
    )
    tournament_set_hand_for_hand(tournament=tournament, on=True, now=T0)
    ended = []
    for number in (1, 2):
        table = Table.objects.get(tournament=tournament, number=number)
        short, caller = (
            Entry.objects.filter(table=table).select_related("player").order_by("seat")[:2]
        )
        entry_set_chips(entry=caller, chips=caller.chips + short.chips - 300, note="moved over")
        entry_set_chips(entry=short, chips=300, note="moved over")
        holes = {short.seat or 0: ["7s", "2d"], caller.seat or 0: ["Ah", "Ad"]}
        hand = play(hand_start(table=table, now=T0), holes, short.seat or 0, caller.seat or 0)
        ended.append((hand, short, caller, holes))
    tournament.refresh_from_db()
    assert tournament.hand_for_hand_round == 2  # every table played hand 1
    first, short, caller, holes = ended[0]
    shared = {f"{short.player.name} #1": 9, f"{ended[1][1].player.name} #1": 9}
    assert places(tournament) == shared

    reopened = hand_reopen(
        hand=first, reason="wrong hand read", client_id="reopen", version=first.version
    ).hand
    corrected = hand_undo(
        hand=reopened, reason="shown again", client_id="undo", version=reopened.version
    ).hand
    play(corrected, holes, short.seat or 0, caller.seat or 0)

    assert places(tournament) == shared
    assert chips_check(tournament) == []


# Issue 26: the TDA places players out on the same hand at the same table by the stack they
# started it with, even hand-for-hand; only players out at different tables on the same
# hand-for-hand hand tie (docs/rules.md, "Finishing places").

H4H_PAYOUTS = [40, 20, 12, 9.4, 7.1, 6, 5.5]  # of 12 x 500 = 6,000: 5th 426, 6th 360


def at_table(tournament: Tournament, number: int) -> list[Entry]:
    return list(
        Entry.objects.filter(
            tournament=tournament, table__number=number, status=Entry.Status.ACTIVE
        )
        .select_related("player")
        .order_by("seat")
    )


def six_left_hand_for_hand(**fields: Any) -> Tournament:
    """12 players at two tables of 6; three out at each table, then hand-for-hand with 6 left
    (7 paid, so the places at stake are 5th and 6th, paid 426 and 360)."""
    tournament = seated_tournament(
        players=12,
        now=T0,
        seats_per_table=6,
        buy_in=500,
        payout_percentages=H4H_PAYOUTS,
        **fields,
    )
    for number in (1, 2):
        for entry in at_table(tournament, number)[:3]:
            desk_bust(tournament, entry)
    tournament_set_hand_for_hand(tournament=tournament, on=True, now=T0)
    tournament.refresh_from_db()
    return tournament


def out(tournament: Tournament, *busts: tuple[Entry, int]) -> None:
    """One bust typed on the desk: the players out on one hand, with their starting stacks."""
    entries_bust(
        tournament=tournament,
        busts=[Bust(entry_id=entry.pk, starting_stack=stack) for entry, stack in busts],
        now=T0,
    )


def place_and_prize(entry: Entry) -> tuple[int | None, Decimal | None]:
    entry.refresh_from_db()
    return entry.finishing_place, entry.prize


def test_t_hand_for_hand_two_out_at_one_table_the_bigger_starting_stack_finishes_higher() -> None:
    """The director's case: both were placed 5th, sharing 5th and 6th (393 / 393); the one who
    started the hand with more chips finishes 5th, the other 6th."""
    tournament = six_left_hand_for_hand()
    big, small = at_table(tournament, 1)[:2]

    out(tournament, (small, 2000), (big, 6500))

    assert place_and_prize(big) == (5, Decimal("426"))
    assert place_and_prize(small) == (6, Decimal("360"))


def test_t_hand_for_hand_equal_stacks_at_one_table_share_the_places_they_cover() -> None:
    tournament = six_left_hand_for_hand()
    one, two = at_table(tournament, 1)[:2]

    out(tournament, (one, 3000), (two, 3000))

    assert place_and_prize(one) == (5, Decimal("393"))  # (426 + 360) / 2
    assert place_and_prize(two) == (5, Decimal("393"))


def test_t_hand_for_hand_one_tables_busts_typed_one_by_one_are_still_one_hand() -> None:
    """Each table deals one hand-for-hand hand: two busts typed apart at one table went out on
    that hand, and are placed by their stacks whichever is typed first."""
    tournament = six_left_hand_for_hand()
    big, small = at_table(tournament, 1)[:2]

    out(tournament, (big, 6500))
    out(tournament, (small, 2000))

    assert place_and_prize(big) == (5, Decimal("426"))
    assert place_and_prize(small) == (6, Decimal("360"))


def test_rp8_hand_for_hand_out_at_different_tables_tie_whatever_their_stacks() -> None:
    tournament = six_left_hand_for_hand()
    (first,) = at_table(tournament, 1)[:1]
    (second,) = at_table(tournament, 2)[:1]

    out(tournament, (first, 9000))
    out(tournament, (second, 1000))

    assert place_and_prize(first) == (5, Decimal("393"))
    assert place_and_prize(second) == (5, Decimal("393"))


def test_a11_hand_for_hand_two_out_at_one_table_and_one_at_another() -> None:
    """Table 1's order stands (the bigger stack above); the shortest out at each table tie."""
    tournament = seated_tournament(
        players=12, now=T0, seats_per_table=6, buy_in=500, payout_percentages=H4H_PAYOUTS
    )
    for number in (1, 2):
        for entry in at_table(tournament, number)[:2]:
            desk_bust(tournament, entry)
    tournament_set_hand_for_hand(tournament=tournament, on=True, now=T0)
    big, small = at_table(tournament, 1)[:2]
    (other,) = at_table(tournament, 2)[:1]

    out(tournament, (big, 6500), (small, 2000))
    out(tournament, (other, 9000))

    assert places(tournament)[f"{big.player.name} #1"] == 6
    assert places(tournament)[f"{small.player.name} #1"] == 7
    assert places(tournament)[f"{other.player.name} #1"] == 7


def play_two_out(hand: Hand, holes: dict[int, list[str]], shorts: list[int], caller: int) -> Hand:
    """Both `shorts` go all in, `caller` calls and wins (by `holes`), everyone else folds."""
    board = iter([["Kc", "9d", "4h"], ["Js"], ["3c"]])
    state = hand.state
    while state["phase"] not in ("complete", "void"):
        if state["phase"] == "dealing":
            action: dict[str, Any] = {"kind": "deal_board", "cards": next(board)}
        elif state["phase"] == "showdown":
            seat = state["next_to_show"]
            action = {"kind": "show", "seat": seat, "cards": holes[seat]}
        else:
            seat = state["legal"]["actor"]
            kind = "all_in" if seat in shorts else "call" if seat == caller else "fold"
            if kind == "fold" and state["legal"]["can_check"]:
                kind = "check"
            action = {"kind": kind, "seat": seat}
        result = hand_record_action(
            hand=hand, action=action, client_id=uuid.uuid4().hex, version=state["version"]
        )
        hand, state = result.hand, result.answer
    return hand


def test_t_a_reopened_hand_for_hand_hand_keeps_the_order_of_its_table() -> None:
    """Two players out on one tablet hand at table 1 in hand-for-hand: the bigger starting
    stack 5th, the other 6th; reopened, corrected and ended again, the places stand."""
    tournament = six_left_hand_for_hand(levels=LEVELS)
    table = Table.objects.get(tournament=tournament, number=1)
    big, small, caller = at_table(tournament, 1)
    chips = big.chips + small.chips + caller.chips
    entry_set_chips(entry=big, chips=1500, note="counted")
    entry_set_chips(entry=small, chips=700, note="counted")
    entry_set_chips(entry=caller, chips=chips - 2200, note="counted")
    seats = (big.seat or 0, small.seat or 0, caller.seat or 0)
    holes = {seats[0]: ["7s", "2d"], seats[1]: ["6h", "2c"], seats[2]: ["Ah", "Ad"]}
    hand = play_two_out(hand_start(table=table, now=T0), holes, list(seats[:2]), seats[2])
    assert place_and_prize(big)[0] == 5
    assert place_and_prize(small)[0] == 6

    reopened = hand_reopen(
        hand=hand, reason="wrong hand read", client_id="reopen", version=hand.version
    ).hand
    corrected = hand_undo(
        hand=reopened, reason="shown again", client_id="undo", version=reopened.version
    ).hand
    play_two_out(corrected, holes, list(seats[:2]), seats[2])

    assert place_and_prize(big)[0] == 5
    assert place_and_prize(small)[0] == 6
    assert chips_check(tournament) == []
