"""Cash tables through the services: the game, seats between hands, the waiting list, and hands
started from the plan, hand after hand, with what each hand settles or leaves owed."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

from common.errors import FloorError
from config.exceptions import status_of
from dealer.cash.models import CashSeat, WaitingListEntry
from dealer.cash.seats import plan as cash_plan
from dealer.cash.seats import services as cash
from dealer.models import Hand
from dealer.services import hand_record_action, hand_run_procedure, hand_start
from tournaments.models import AuditEvent, ButtonDraw, Table

pytestmark = pytest.mark.django_db


def cash_table(number: int = 1, **values: Any) -> Table:
    game: dict[str, Any] = {
        "number": number,
        "name": "1/2 No-Limit Hold'em",
        "game": "holdem",
        "structure": "no_limit",
        "rule_profile": "casino_cash",
        "small_blind": 1,
        "big_blind": 2,
        "min_buy_in": 40,
        "max_buy_in": 200,
    }
    game.update(values)
    return cash.cash_table_create(**game)


def seat_of(table: Table, seat: int) -> CashSeat:
    return CashSeat.objects.select_related("player", "table").get(table=table, seat=seat)


def seated(seats: str, *, button: int | None = None, **values: Any) -> Table:
    """A cash table with players at `seats` (buy-in 200 each); `button` given by hand."""
    table = cash_table(**values)
    for seat in seats.split():
        cash.cash_seat_take(table=table, seat=int(seat), player_name=f"P{seat}", buy_in=200)
    if button is not None:
        Table.objects.filter(pk=table.pk).update(button_seat=button)
        table.refresh_from_db()
    return table


def play_out(hand: Hand) -> Hand:
    """Everyone folds to the last player: the hand ends quickly and is complete."""
    state = hand.state
    while state["status"] == "in_progress":
        live = [p for p in state["players"] if not p["folded"]]
        kind = "fold" if len(live) > 1 else "check"
        result = hand_record_action(
            hand=hand,
            action={"kind": kind, "seat": state["actor_seat"]},
            client_id=uuid.uuid4().hex,
            version=state["version"],
        )
        hand, state = result.hand, result.answer
    return hand


def deal(table: Table, **options: Any) -> Hand:
    hand = hand_start(table=table, **options)
    return play_out(hand)


def posted(hand: Hand) -> dict[int, tuple[int, int]]:
    return {
        row["seat"]: (row["blind"], row["dead"])
        for row in hand.seats
        if row["blind"] or row["dead"]
    }


# --- the game ----------------------------------------------------------------------------------


def test_cash_table_create_checks_stakes_buy_in_and_rules() -> None:
    table = cash_table()
    assert table.is_cash
    assert cash_plan.cash_table_rules(table).missed_blind_policy == "S2_casino"
    cases: list[tuple[dict[str, Any], str]] = [
        ({"small_blind": 3}, "bad_stakes"),
        ({"min_buy_in": 1}, "bad_buy_in"),
        ({"min_buy_in": 300}, "bad_buy_in"),
        ({"rule_overrides": {"missed_blind_policy": "nonsense"}}, "bad_option_value"),
        ({"rule_overrides": {"no_such_key": True}}, "unknown_option"),
        ({"rule_profile": "tda_tournament"}, "not_cash"),
    ]
    for number, (change, code) in enumerate(cases, start=2):
        with pytest.raises(FloorError) as error:
            cash_table(number=number, **change)
        assert error.value.code == code
        assert status_of(error.value) == 400
    with pytest.raises(FloorError) as error:
        cash_table(number=1)
    assert error.value.code == "table_number_taken"


def test_texas_6plus_profile_plays_the_36_card_game_with_s0_missed_blinds() -> None:
    table = cash_table(rule_profile="texas_6plus", game="holdem")
    rules = cash_plan.cash_table_rules(table)
    assert table.game == "sixplus"
    assert rules.game == "sixplus"
    assert rules.missed_blind_policy == "S0_missed_blinds"
    assert rules.heads_up_button_posts == "big"


# --- seats -------------------------------------------------------------------------------------


def test_seat_take_checks_buy_in_seat_and_player() -> None:
    table = cash_table()
    cash.cash_seat_take(table=table, seat=3, player_name="Ada", buy_in=100)
    cases: list[tuple[dict[str, Any], str, int]] = [
        ({"seat": 4, "player_name": "Bo", "buy_in": 39}, "bad_buy_in", 400),
        ({"seat": 4, "player_name": "Bo", "buy_in": 201}, "bad_buy_in", 400),
        ({"seat": 10, "player_name": "Bo", "buy_in": 100}, "bad_seat", 400),
        ({"seat": 3, "player_name": "Bo", "buy_in": 100}, "seat_taken", 409),
        ({"seat": 4, "player_name": "Ada", "buy_in": 100}, "already_seated", 409),
        ({"seat": 4, "player_name": " ", "buy_in": 100}, "name_required", 400),
        ({"seat": 4, "player_name": "Bo", "buy_in": 100, "choice": "x"}, "bad_choice", 400),
    ]
    for values, code, status in cases:
        with pytest.raises(FloorError) as error:
            cash.cash_seat_take(table=table, **values)
        assert (error.value.code, status_of(error.value)) == (code, status)
    assert CashSeat.objects.filter(table=table).count() == 1


def test_s0_offers_no_let_the_button_pass_entry() -> None:
    table = cash_table(rule_profile="texas_6plus")
    with pytest.raises(FloorError) as error:
        cash.cash_seat_take(table=table, seat=1, player_name="A", buy_in=100, choice="button_pass")
    assert error.value.code == "choice_not_offered"


def test_x15_first_seated_gets_the_button_in_the_6plus_profile() -> None:
    table = cash_table(rule_profile="texas_6plus")
    cash.cash_seat_take(table=table, seat=6, player_name="First", buy_in=100)
    cash.cash_seat_take(table=table, seat=2, player_name="Second", buy_in=100)
    table.refresh_from_db()
    assert table.button_seat == 6
    (recorded,) = AuditEvent.objects.filter(action="cash_button_first_seated")
    assert recorded.detail == {"table": 1, "seat": 6, "player": "First"}
    hand = hand_start(table=table)
    assert hand.button_seat == 6
    assert hand.big_blind_seat == 6  # heads-up, S0: the dealer posts the big blind


def test_x15_draw_for_the_button_is_recorded_with_the_cards() -> None:
    table = seated("1 4 7")
    table.refresh_from_db()
    assert table.button_seat is None
    with pytest.raises(FloorError) as error:
        hand_start(table=table)
    assert error.value.code == "no_button"
    draw = cash.cash_table_draw_button(table=table, rng=random.Random(7))
    assert ButtonDraw.objects.get(pk=draw.pk).seats == [1, 4, 7]
    assert len(draw.cards.split()) == 3
    table.refresh_from_db()
    assert table.button_seat == draw.winner_seat
    assert hand_start(table=table).button_seat == draw.winner_seat
    with pytest.raises(FloorError) as error:
        cash.cash_table_draw_button(table=table, rng=random.Random(7))
    assert error.value.code == "already_dealing"


def test_table_stakes_top_up_between_hands_up_to_the_maximum() -> None:
    table = seated("1 2 3", button=1)
    seat = seat_of(table, 2)
    with pytest.raises(FloorError) as error:
        cash.cash_seat_top_up(cash_seat=seat, amount=1)
    assert error.value.code == "at_maximum"
    CashSeat.objects.filter(pk=seat.pk).update(chips=150)
    with pytest.raises(FloorError) as error:
        cash.cash_seat_top_up(cash_seat=seat, amount=60)
    assert error.value.code == "over_maximum"
    assert "At most 50 more" in error.value.detail
    hand = hand_start(table=table)
    with pytest.raises(FloorError) as error:  # no buying chips during a hand (S1, S2)
        cash.cash_seat_top_up(cash_seat=seat, amount=50)
    assert error.value.code == "in_hand"
    play_out(hand)  # seat 2, the small blind, folds: 149 left
    assert cash.cash_seat_top_up(cash_seat=seat, amount=51).chips == 200
    assert seat_of(table, 2).bought_in == 251


def test_chips_won_above_the_maximum_stay() -> None:
    table = seated("1 2 3", button=1)
    hand = deal(table)  # button 1: seats 2 and 3 post; 1 and 2 fold: seat 3 wins the blinds
    assert hand.status == "complete"
    assert seat_of(table, 3).chips == 201
    with pytest.raises(FloorError) as error:
        cash.cash_seat_top_up(cash_seat=seat_of(table, 3), amount=1)
    assert error.value.code == "at_maximum"


def test_rebuy_after_losing_everything_takes_at_least_the_minimum() -> None:
    table = seated("1 2", button=1)
    seat = seat_of(table, 2)
    CashSeat.objects.filter(pk=seat.pk).update(chips=0)
    with pytest.raises(FloorError) as error:
        cash.cash_seat_top_up(cash_seat=seat, amount=10)
    assert error.value.code == "under_minimum"
    assert cash.cash_seat_top_up(cash_seat=seat, amount=40).chips == 40


def test_a_player_in_the_hand_cannot_leave_until_it_is_over() -> None:
    table = seated("1 2 3", button=1)
    hand = hand_start(table=table)
    with pytest.raises(FloorError) as error:
        cash.cash_seat_leave(cash_seat=seat_of(table, 2))
    assert error.value.code == "in_hand"
    play_out(hand)
    assert cash.cash_seat_leave(cash_seat=seat_of(table, 2)).chips == 199
    assert not CashSeat.objects.filter(table=table, seat=2).exists()
    assert AuditEvent.objects.filter(action="cash_leave").count() == 1


# --- hands from the plan -----------------------------------------------------------------------


def test_hands_move_the_button_and_write_stacks_back() -> None:
    table = seated("1 3 5 7", button=1)
    buttons = []
    for _ in range(5):
        hand = deal(table)
        buttons.append((hand.button_seat, hand.small_blind_seat, hand.big_blind_seat))
    assert buttons == [(1, 3, 5), (3, 5, 7), (5, 7, 1), (7, 1, 3), (1, 3, 5)]
    chips = sorted(CashSeat.objects.filter(table=table).values_list("chips", flat=True))
    assert sum(chips) == 800
    assert chips != [200, 200, 200, 200]


def test_w14_returning_player_posts_big_live_and_small_dead_in_the_dealt_hand() -> None:
    table = seated("1 2 3 4 5 6", button=1)
    deal(table)  # button 1, blinds 2, 3
    cash.cash_seat_sit_out(cash_seat=seat_of(table, 4))
    deal(table)  # the big blind passes seat 4
    deal(table)  # the small blind passes it
    returner = seat_of(table, 4)
    assert returner.missed_big
    assert returner.missed_small
    deal(table)
    deal(table)
    cash.cash_seat_return(cash_seat=seat_of(table, 4), choice="post")
    table.refresh_from_db()  # the positions of the last hand
    plan = cash_plan.cash_table_plan(table)
    assert plan.post_of(4) is not None
    hand = hand_start(table=table, expected_plan=cash_plan.plan_signature(plan))
    assert posted(hand) == {2: (1, 0), 3: (2, 0), 4: (2, 1)}
    assert hand.state["pot_total"] == 6  # 1 + 2 for the blinds, 2 live + 1 dead for seat 4
    reasons = {post["seat"]: post["why"] for post in hand.plan["posts"]}
    assert reasons == {2: "small blind", 3: "big blind", 4: "missed blinds: 2 live + 1 dead"}
    play_out(hand)
    assert not seat_of(table, 4).owes


def test_new_player_between_the_button_and_the_big_blind_waits_then_posts() -> None:
    table = seated("1 3 5 7", button=1)
    deal(table)  # button 1, blinds 3, 5
    cash.cash_seat_take(table=table, seat=4, player_name="New", buy_in=100, choice="post_now")
    hand = deal(table)  # button 3, blinds 5, 7: seat 4 waits
    assert 4 not in [row["seat"] for row in hand.seats]
    assert hand.plan["waiting"] == [
        {
            "seat": 4,
            "code": "between_blinds",
            "reason": "Between the button and the big blind: comes in once the button has passed.",
        }
    ]
    hand = deal(table)  # the button passes seat 4 (S2), which posts its entry big blind
    assert (hand.button_seat, hand.big_blind_seat) == (5, 1)
    assert posted(hand) == {4: (2, 0), 7: (1, 0), 1: (2, 0)}
    assert not seat_of(table, 4).new


def test_a_misdeal_leaves_what_is_owed_as_it_was() -> None:
    table = seated("1 2 3 4 5 6", button=1)
    deal(table)
    cash.cash_seat_sit_out(cash_seat=seat_of(table, 4))
    hand = hand_start(table=table)  # this hand's big blind passes seat 4 ...
    hand_run_procedure(
        hand=hand,
        trigger="two_or_more_exposed_on_deal",
        client_id="misdeal-1",
        version=hand.version,
    )
    hand.refresh_from_db()
    assert hand.status == "void"
    assert not seat_of(table, 4).missed_big  # ... but it was void
    redeal = hand_start(table=table)
    assert (redeal.button_seat, redeal.big_blind_seat) == (hand.button_seat, hand.big_blind_seat)
    play_out(redeal)
    assert seat_of(table, 4).missed_big


def test_straddle_starts_with_the_straddle_posted_and_left_of_it_to_act() -> None:
    table = seated("1 2 3 4 5", button=1)
    plan = cash_plan.cash_table_plan(table)
    assert plan.straddle_seat == 4
    hand = hand_start(table=table, straddle=True)
    assert posted(hand)[4] == (4, 0)
    assert hand.state["actor_seat"] == 5
    assert hand.plan["straddle"] is True


def test_straddle_refused_when_not_offered() -> None:
    table = seated("1 2 3 4", button=1, rule_overrides={"straddle_allowed": False})
    with pytest.raises(FloorError) as error:
        hand_start(table=table, straddle=True)
    assert error.value.code == "straddle_not_offered"
    assert not Hand.objects.filter(table=table).exists()


def test_start_refused_when_the_seats_changed_since_the_plan_was_shown() -> None:
    table = seated("1 3 5", button=1)
    shown = cash_plan.plan_signature(cash_plan.cash_table_plan(table))
    cash.cash_seat_sit_out(cash_seat=seat_of(table, 5))
    with pytest.raises(FloorError) as error:
        hand_start(table=table, expected_plan=shown)
    assert error.value.code == "plan_changed"
    assert hand_start(
        table=table, expected_plan=cash_plan.plan_signature(cash_plan.cash_table_plan(table))
    )


# --- the waiting list --------------------------------------------------------------------------


def test_waiting_list_first_come_and_closed_when_seated() -> None:
    table = seated("1 2", button=1)
    first = cash.cash_waitlist_add(table=table, player_name="Wendy")
    cash.cash_waitlist_add(table=table, player_name="Xavier")
    with pytest.raises(FloorError) as error:
        cash.cash_waitlist_add(table=table, player_name="Wendy")
    assert error.value.code == "already_waiting"
    with pytest.raises(FloorError) as error:
        cash.cash_waitlist_add(table=table, player_name="P1")
    assert error.value.code == "already_seated"
    waiting = WaitingListEntry.objects.filter(table=table, status="waiting")
    assert [w.player.name for w in waiting] == ["Wendy", "Xavier"]
    cash.cash_seat_take(table=table, seat=5, player_name="Wendy", buy_in=100)
    first.refresh_from_db()
    assert first.status == "seated"
    cash.cash_waitlist_remove(entry=WaitingListEntry.objects.get(player__name="Xavier"))
    assert not WaitingListEntry.objects.filter(table=table, status="waiting").exists()


@pytest.mark.parametrize(
    ("profile", "tiebreak"), [("casino_cash", "suit"), ("texas_6plus", "deal_order")]
)
def test_x5_button_draw_breaks_ties_by_the_tables_rule(profile: str, tiebreak: str) -> None:
    table = cash_table(rule_profile=profile, rule_overrides={"initial_button": "draw"})
    for seat in (1, 2, 3):
        cash.cash_seat_take(table=table, seat=seat, player_name=f"P{seat}", buy_in=100)
    draw = cash.cash_table_draw_button(table=table, rng=random.Random(3))
    assert draw.tiebreak == tiebreak
    deck = set("6789TJQKA") if profile == "texas_6plus" else set("23456789TJQKA")
    assert {card[0] for card in draw.cards.split()} <= deck


@pytest.mark.django_db(transaction=True)
def test_every_seat_write_takes_its_own_transaction_when_called_outside_one() -> None:
    """The seats page calls the services outside any transaction: each must open its own (its
    table lock is refused outside one on PostgreSQL: a leave answered 500 there)."""
    table = cash_table(number=9)
    for seat, name in ((1, "Ann"), (2, "Bob")):
        cash.cash_seat_take(table=table, seat=seat, player_name=name, buy_in=100)
    cash.cash_seat_top_up(cash_seat=seat_of(table, 1), amount=50)
    cash.cash_seat_sit_out(cash_seat=seat_of(table, 2))
    assert cash.cash_seat_leave(cash_seat=seat_of(table, 1)).chips == 150
    assert not CashSeat.objects.filter(table=table, seat=1).exists()
