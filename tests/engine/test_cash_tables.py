"""Cash tables across hands: the seat lifecycle, missed blinds, button and blinds (RULES.md 2-4).

Each test is a story told hand by hand at a 9-seat 1/2 table: who sits out when, who comes back,
what they post, where the button goes. `Story` keeps the seats between hands the way the service
does (`plan_hand`, then `after_hand`), and each `deal()` returns the plan of the hand dealt.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.engine import make_rules, start_hand
from dealer.engine.cash import CashPlan, CashSeat, Positions, after_hand, plan_hand
from dealer.engine.errors import ConfigError
from dealer.engine.setup import Stakes
from dealer.engine.state import HandState
from tests.examples import examples

STAKES = Stakes(small_blind=1, big_blind=2)


class Story:
    def __init__(
        self,
        seats: str,
        *,
        button: int,
        profile: str = "casino_cash",
        stakes: Stakes = STAKES,
        seat_count: int = 9,
        **options: Any,
    ) -> None:
        self.rules = make_rules(profile, options)
        self.stakes = stakes
        self.seat_count = seat_count
        self.seats: dict[int, CashSeat] = {}
        self.keys = 0
        for seat in seats.split():
            self.sit(int(seat), new=False)
        self.first_button: int | None = button
        self.last: Positions | None = None

    def sit(self, seat: int, *, new: bool = True, stack: int = 200, choice: str = "post") -> None:
        self.keys += 1
        self.seats[seat] = CashSeat(
            seat=seat,
            stack=stack,
            key=self.keys,
            new=new,
            wait_big_blind=choice == "wait_bb",
            wait_button=choice == "button_pass",
        )

    def away(self, *seats: int) -> None:
        for seat in seats:
            self.seats[seat] = replace(self.seats[seat], away=True)

    def back(self, seat: int, *, choice: str = "post") -> None:
        self.seats[seat] = replace(self.seats[seat], away=False, wait_big_blind=choice == "wait_bb")

    def leave(self, seat: int) -> None:
        del self.seats[seat]

    def stack(self, seat: int, chips: int) -> None:
        self.seats[seat] = replace(self.seats[seat], stack=chips)

    def plan(self) -> CashPlan:
        return plan_hand(
            self.rules,
            self.stakes,
            self.seat_count,
            list(self.seats.values()),
            self.last,
            first_button=self.first_button,
        )

    def deal(self) -> CashPlan:
        plan = self.plan()
        for seat in after_hand(self.rules, list(self.seats.values()), plan.after):
            self.seats[seat.seat] = seat
        self.last = plan.positions
        self.first_button = None
        return plan


def posts(plan: CashPlan) -> dict[int, tuple[int, int]]:
    """Seat -> (live, dead) for every dealt-in player who posts something."""
    return {p.seat: (p.live, p.dead) for p in plan.posts if p.live or p.dead}


def why(plan: CashPlan, seat: int) -> str:
    post = plan.post_of(seat)
    assert post is not None
    return post.why


def acting(plan: CashPlan, state: HandState) -> int:
    """The seat of the player to act."""
    assert state.actor is not None
    return plan.dealt[state.actor]


def waiting(plan: CashPlan) -> dict[int, str]:
    return {w.seat: w.code for w in plan.waiting}


def where(plan: CashPlan) -> tuple[int | None, int | None, int | None]:
    return plan.button, plan.positions.small_blind, plan.big_blind


# --- button and blinds -------------------------------------------------------------------------


def test_first_hand_button_is_the_given_seat_and_blinds_are_the_next_two() -> None:
    story = Story("1 3 5 7", button=3)
    plan = story.deal()
    assert where(plan) == (3, 5, 7)
    assert plan.dealt == (5, 7, 1, 3)  # the engine's order: left of the button, button last
    assert posts(plan) == {5: (1, 0), 7: (2, 0)}
    assert plan.restart


def test_s2_moving_button_moves_to_the_next_player_each_hand() -> None:
    story = Story("1 3 5 7", button=3)
    assert [where(story.deal()) for _ in range(5)] == [
        (3, 5, 7),
        (5, 7, 1),
        (7, 1, 3),
        (1, 3, 5),
        (3, 5, 7),
    ]


def test_r2a_moving_button_a_player_can_skip_a_blind_when_the_big_blind_leaves() -> None:
    story = Story("1 2 3 4", button=1)
    assert where(story.deal()) == (1, 2, 3)
    story.leave(3)
    # The button goes to the next player (2), the blinds to the next two: seat 4 posted no small
    # blind before this big blind, and nobody owes anything.
    plan = story.deal()
    assert where(plan) == (2, 4, 1)
    assert not plan.waiting


def test_t32_dead_button_stays_on_the_empty_seat_and_the_small_blind_is_dead() -> None:
    story = Story("1 2 3 4 5", button=1, button_mode="dead")
    assert where(story.deal()) == (1, 2, 3)
    story.leave(3)  # last hand's big blind leaves
    plan = story.deal()
    # The big blind moves one player on (4); the small blind is seat 3, empty: nobody posts it;
    # the button is last hand's small blind seat, 2.
    assert where(plan) == (2, 3, 4)
    assert posts(plan) == {4: (2, 0)}
    assert plan.dealt == (4, 5, 1, 2)
    plan = story.deal()
    assert where(plan) == (3, 4, 5)  # the button on the empty seat: a dead button
    assert plan.dealt == (4, 5, 1, 2)
    assert (
        start_hand(
            plan.setup(story.rules, STAKES, dict.fromkeys(plan.dealt, 200))
        ).setup.button_index
        is None
    )


def test_t32_moving_button_skips_the_empty_seat_instead() -> None:
    story = Story("1 2 3 4 5", button=1)
    story.deal()
    story.leave(3)
    assert where(story.deal()) == (2, 4, 5)


# --- new players -------------------------------------------------------------------------------


def test_s2_new_player_between_the_button_and_the_big_blind_is_not_dealt_in() -> None:
    story = Story("1 3 5 7", button=1)
    story.deal()  # button 1, blinds 3 and 5
    story.sit(4, choice="post")  # sits between the next button (3) and big blind (7)
    plan = story.deal()
    assert where(plan) == (3, 5, 7)
    assert 4 not in plan.dealt
    assert waiting(plan) == {4: "between_blinds"}
    # S2 "He must wait until the Button passes": the button moves past seat 4 as if it were
    # empty (giving it the button would make seats 5 and 7 post the same blinds again), and seat
    # 4, now behind the button, posts the entry big blind.
    plan = story.deal()
    assert where(plan) == (5, 7, 1)
    assert posts(plan) == {4: (2, 0), 7: (1, 0), 1: (2, 0)}
    assert why(plan, 4).startswith("entry")
    plan = story.deal()  # seat 4 plays on, owing nothing
    assert where(plan) == (7, 1, 3)
    assert posts(plan) == {1: (1, 0), 3: (2, 0)}


def test_s2_option3_new_player_outside_the_blinds_posts_a_big_blind_at_once() -> None:
    story = Story("1 3 5 7", button=1)
    story.deal()  # button 1, blinds 3 and 5
    story.sit(8, choice="post")
    plan = story.deal()  # button 3, blinds 5 and 7: seat 8 is outside them
    assert where(plan) == (3, 5, 7)
    assert posts(plan) == {5: (1, 0), 7: (2, 0), 8: (2, 0)}
    state = start_hand(plan.setup(story.rules, STAKES, dict.fromkeys(plan.dealt, 200)))
    # The entry big blind is live: it counts toward seat 8's bet, which then has the option.
    assert state.bets[plan.dealt.index(8)] == 2
    assert acting(plan, state) == 8  # first to act, left of the big blind
    assert not story.seats[8].new


def test_s2_option1_new_player_waiting_for_the_big_blind_gets_it_when_it_comes() -> None:
    story = Story("1 3 5", button=1)
    story.deal()  # button 1, blinds 3, 5
    story.sit(6, choice="wait_bb")
    plan = story.deal()  # button 3, small blind 5, big blind: the next player back, seat 6
    assert where(plan) == (3, 5, 6)
    assert posts(plan) == {5: (1, 0), 6: (2, 0)}
    assert story.seats[6].new is False


def test_s2_option1_waiting_player_not_dealt_in_until_the_big_blind_reaches_them() -> None:
    story = Story("1 3 5 7", button=1)
    story.deal()  # button 1, blinds 3, 5
    story.sit(2, choice="wait_bb")
    plans = [story.deal() for _ in range(2)]
    assert [where(p) for p in plans] == [(3, 5, 7), (5, 7, 1)]
    assert [waiting(p) for p in plans] == [{2: "waiting_for_big_blind"}] * 2
    plan = story.deal()
    assert where(plan) == (7, 1, 2)  # the big blind reaches seat 2
    assert posts(plan) == {1: (1, 0), 2: (2, 0)}


def test_s2_option2_let_the_button_pass_then_post() -> None:
    story = Story("1 3 5 7", button=1)
    story.deal()  # button 1, blinds 3, 5
    story.sit(4, choice="button_pass")  # waits for the button whatever the seat
    plan = story.deal()
    assert where(plan) == (3, 5, 7)
    assert waiting(plan) == {4: "button_must_pass"}
    plan = story.deal()  # the button passes seat 4 (with "post" seat 4 would be dealt in now)
    assert where(plan) == (5, 7, 1)
    assert waiting(plan) == {4: "button_must_pass"}
    plan = story.deal()
    assert where(plan) == (7, 1, 3)
    assert posts(plan) == {1: (1, 0), 3: (2, 0), 4: (2, 0)}


def test_s2_post_choice_comes_in_as_the_button_passes_where_button_pass_waits_a_hand() -> None:
    story = Story("1 3 5 7", button=1)
    story.deal()
    story.sit(4, choice="post")
    story.deal()
    plan = story.deal()  # the button passes seat 4, which posts at once (option 2 waits on)
    assert where(plan) == (5, 7, 1)
    assert 4 in plan.dealt


# --- missed blinds -----------------------------------------------------------------------------


def six(profile: str = "casino_cash", **options: Any) -> Story:
    """Six players; seat 4 sits out just before the big blind reaches it, for one orbit."""
    story = Story("1 2 3 4 5 6", button=1, profile=profile, **options)
    assert where(story.deal()) == (1, 2, 3)
    story.away(4)
    plan = story.deal()
    assert where(plan) == (2, 3, 5)
    assert plan.after.missed_big == (4,)
    plan = story.deal()
    assert where(plan) == (3, 5, 6)
    assert plan.after.missed_small == (4,)
    assert where(story.deal()) == (5, 6, 1)  # the button passes seat 4
    assert where(story.deal()) == (6, 1, 2)
    story.back(4)
    return story


@pytest.mark.parametrize("profile", ["casino_cash", "texas_6plus"])
def test_w14_return_after_missing_both_blinds_posts_big_live_and_small_dead(profile: str) -> None:
    story = six(profile)
    assert story.seats[4].missed_big
    assert story.seats[4].missed_small
    plan = story.deal()
    assert where(plan) == (1, 2, 3)
    assert posts(plan) == {2: (1, 0), 3: (2, 0), 4: (2, 1)}
    assert why(plan, 4) == "missed blinds: 2 live + 1 dead"
    state = start_hand(plan.setup(story.rules, STAKES, dict.fromkeys(plan.dealt, 200)))
    assert state.dead == 1  # the small blind is dead money in the middle
    assert state.bets[plan.dealt.index(4)] == 2  # the big blind is live
    assert acting(plan, state) == 4  # and seat 4, left of the big blind, acts first
    assert not story.seats[4].owes


def test_s3_missing_both_blinds_posts_big_live_and_small_dead_bet() -> None:
    story = six(missed_blind_policy="S3_blind_penalties")
    assert posts(story.deal())[4] == (2, 1)


def test_player_sitting_out_for_orbits_owes_one_set_of_blinds() -> None:
    story = Story("1 2 3 4 5 6", button=1)
    story.deal()
    story.away(4)
    for _ in range(11):  # two orbits and more
        story.deal()
    assert where(story.plan()) == (3, 5, 6)
    assert story.seats[4].missed_big
    assert story.seats[4].missed_small
    story.back(4)
    story.deal()  # seat 4 between the button and the big blind: waits
    plan = story.deal()  # the button passes it (S2), and it posts BB live + SB dead
    assert where(plan) == (5, 6, 1)
    assert posts(plan) == {4: (2, 1), 6: (1, 0), 1: (2, 0)}


def test_s2_missed_blinds_a_blind_passing_a_sitting_out_seat_is_a_miss() -> None:
    story = Story("1 3 5 7", button=7)
    assert where(story.deal()) == (7, 1, 3)
    story.away(5)
    plan = story.deal()  # button 1, small blind 3, big blind 7: it passes seat 5
    assert where(plan) == (1, 3, 7)
    assert plan.after.missed_big == (5,)
    assert plan.after.missed_small == ()
    plan = story.deal()  # button 3, small blind 7: passes 5 too
    assert where(plan) == (3, 7, 1)
    assert plan.after.missed_small == (5,)
    assert story.seats[5].missed_big
    assert story.seats[5].missed_small


def test_s2_x12_returner_posts_at_once_when_the_button_has_passed() -> None:
    story = Story("1 3 5 7", button=7)
    story.deal()  # button 7, blinds 1, 3
    story.away(5)
    story.deal()  # button 1, blinds 3, 7: misses the big blind
    story.back(5)
    plan = story.deal()  # button 3; seat 5 sits between it and the big blind (1)
    assert where(plan) == (3, 7, 1)
    assert waiting(plan) == {5: "between_blinds"}
    plan = story.deal()  # the button passes seat 5 as if it were empty; seat 5 posts (A9)
    assert where(plan) == (7, 1, 3)
    assert posts(plan)[5] == (2, 1)


def test_s0_missing_the_big_blind_also_misses_the_small_blind_and_the_button() -> None:
    story = Story("1 3 5 7", button=7, profile="texas_6plus")
    story.deal()  # button 7, blinds 1, 3
    story.away(5)
    plan = story.deal()
    assert where(plan) == (1, 3, 7)
    assert plan.after.missed_big == (5,)
    assert story.seats[5].wait_button
    story.back(5)
    plan = story.deal()
    assert where(plan) == (3, 7, 1)
    assert waiting(plan) == {5: "button_must_pass"}
    plan = story.deal()  # S0: still out (S2 would deal seat 5 in here, posting)
    assert where(plan) == (7, 1, 3)
    assert waiting(plan) == {5: "button_must_pass"}
    plan = story.deal()  # the button has passed: seat 5 is in (here the big blind reaches it)
    assert where(plan) == (1, 3, 5)
    assert posts(plan) == {3: (1, 0), 5: (2, 0)}


def test_x12_s2_the_same_return_posts_the_hand_the_button_passes() -> None:
    story = Story("1 3 5 7", button=7)
    story.deal()
    story.away(5)
    story.deal()  # button 1, blinds 3 and 7: seat 5 misses the big blind
    story.back(5)
    plan = story.deal()
    assert where(plan) == (3, 7, 1)
    assert waiting(plan) == {5: "between_blinds"}
    plan = story.deal()  # S0 would keep seat 5 out one hand more (the test above)
    assert where(plan) == (7, 1, 3)
    assert posts(plan) == {5: (2, 1), 1: (1, 0), 3: (2, 0)}


def test_s0_returner_may_instead_wait_for_the_big_blind_and_owes_nothing_then() -> None:
    story = Story("1 3 5 7", button=7, profile="texas_6plus")
    story.deal()
    story.away(5)
    story.deal()
    story.back(5, choice="wait_bb")
    assert [5 in story.deal().dealt for _ in range(2)] == [False, False]
    plan = story.deal()
    assert where(plan) == (1, 3, 5)
    assert posts(plan)[5] == (2, 0)
    assert not story.seats[5].owes


def sb_only(profile: str = "casino_cash", **options: Any) -> tuple[Story, CashPlan]:
    """Seat 3 plays the big blind, sits out while the small blind passes, comes back."""
    story = Story("1 3 5 7", button=7, profile=profile, **options)
    assert where(story.deal()) == (7, 1, 3)
    story.away(3)
    plan = story.deal()  # button 1, small blind: next settled after 1 is 5: passes seat 3
    assert where(plan) == (1, 5, 7)
    assert plan.after.missed_small == (3,)
    assert plan.after.missed_big == ()
    story.back(3)
    plan = story.deal()  # seat 3 sat in the last zone: the button passes it; it posts now
    assert where(plan) == (5, 7, 1)
    assert 3 in plan.dealt
    return story, plan


def test_x11_s2_missing_only_the_small_blind_posts_it_dead() -> None:
    _, plan = sb_only()
    assert posts(plan)[3] == (0, 1)
    assert why(plan, 3) == "missed blinds: 1 dead"


def test_w15_s3_missing_only_the_small_blind_posts_a_big_blind_live_in_addition() -> None:
    _story, plan = sb_only(missed_blind_policy="S3_blind_penalties")
    assert posts(plan)[3] == (2, 0)
    # The natural big blind posts too: the penalty is in addition to it (A1).
    assert plan.big_blind != 3
    assert posts(plan)[plan.big_blind] == (2, 0)


def test_x11_s0_missing_only_the_small_blind_falls_back_to_the_option() -> None:
    _, plan = sb_only("texas_6plus")
    assert posts(plan)[3] == (0, 1)  # missed_sb_fallback=sb_dead (default)
    _, plan = sb_only("texas_6plus", missed_sb_fallback="bb_live_s3")
    assert posts(plan)[3] == (2, 0)


def test_returner_reached_by_the_big_blind_posts_only_the_big_blind() -> None:
    story = Story("1 3 5 7", button=7)
    story.deal()  # button 7, blinds 1, 3
    story.away(5)
    assert story.deal().after.missed_big == (5,)
    assert story.deal().after.missed_small == (5,)
    story.back(5, choice="wait_bb")
    assert 5 not in story.deal().dealt
    plan = story.deal()
    assert where(plan) == (1, 3, 5)
    assert posts(plan) == {3: (1, 0), 5: (2, 0)}


def test_consequences_skip_a_seat_taken_by_someone_else_since_the_plan() -> None:
    story = Story("1 3 5 7", button=7)
    story.deal()
    story.away(5)
    plan = story.plan()
    assert plan.after.missed_big == (5,)
    story.leave(5)
    story.sit(5, choice="post")  # a new player in the seat before the hand ends
    seats = after_hand(story.rules, list(story.seats.values()), plan.after)
    newcomer = next(s for s in seats if s.seat == 5)
    assert newcomer.new
    assert not newcomer.missed_big


# --- heads-up ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("option", "button_posts"), [("small", "small"), ("big", "big")])
def test_heads_up_button_posts_by_the_option(option: str, button_posts: str) -> None:
    story = Story("2 6", button=2, heads_up_button_posts=option)
    plans = [story.deal() for _ in range(4)]
    for plan in plans:
        assert plan.heads_up
        button = plan.button
        blind = posts(plan)[button][0]
        assert blind == (1 if button_posts == "small" else 2)
    bigs = [p.positions.big_blind for p in plans]
    assert bigs == [6, 2, 6, 2] if option == "small" else [2, 6, 2, 6]


def test_w13_heads_up_small_button_acts_first_preflop_and_big_non_button_acts_first() -> None:
    for option, first_is_button in (("small", True), ("big", False)):
        story = Story("2 6", button=2, heads_up_button_posts=option)
        plan = story.deal()
        state = start_hand(plan.setup(story.rules, STAKES, {2: 200, 6: 200}))
        assert (acting(plan, state) == plan.button) is first_is_button


@pytest.mark.parametrize("option", ["small", "big"])
def test_t34_becoming_heads_up_nobody_posts_the_big_blind_twice_in_a_row(option: str) -> None:
    for leaver in (1, 3, 5):
        story = Story("1 3 5", button=1, heads_up_button_posts=option)
        story.deal()  # button 1, small blind 3, big blind 5
        last_big = 5
        story.leave(leaver)
        for _ in range(4):
            plan = story.deal()
            assert plan.heads_up
            assert plan.big_blind != last_big, (option, leaver)
            last_big = plan.big_blind


@pytest.mark.parametrize("option", ["small", "big"])
def test_heads_up_back_to_three_players_keeps_the_blinds_moving(option: str) -> None:
    story = Story("1 5", button=1, heads_up_button_posts=option)
    story.deal()
    story.deal()
    story.sit(3, choice="wait_bb")
    plan = next(p for p in (story.deal() for _ in range(3)) if 3 in p.dealt)
    assert not plan.heads_up
    assert plan.big_blind == 3


# --- straddle ----------------------------------------------------------------------------------


def test_w16_straddle_offered_left_of_the_big_blind_and_straddler_acts_last() -> None:
    story = Story("1 2 3 4 5", button=1)
    plan = story.plan()
    assert plan.straddle_seat == 4
    setup = plan.setup(story.rules, STAKES, dict.fromkeys(plan.dealt, 200), straddle=True)
    state = start_hand(setup)
    assert state.bets[plan.dealt.index(4)] == 4
    assert acting(plan, state) == 5  # first to act: left of the straddler
    from dealer.engine import apply
    from dealer.engine.actions import Action, Kind

    for _ in range(4):  # seat 5, the button (1), the small blind (2), the big blind (3) call 4
        state = apply(state, Action(kind=Kind.CALL))
    assert acting(plan, state) == 4  # the straddler acts last, with the option
    assert state.street == 0


def test_straddle_not_offered_where_not_allowed_or_short_handed() -> None:
    story = Story("1 2 3 4", button=1, straddle_allowed=False)
    assert story.plan().straddle_seat is None
    with pytest.raises(ConfigError) as error:
        story.plan().setup(story.rules, STAKES, dict.fromkeys((1, 2, 3, 4), 200), straddle=True)
    assert error.value.code == "straddle_not_allowed"
    assert Story("1 2", button=1).plan().straddle_seat is None


def test_straddle_not_offered_to_a_player_already_posting_a_make_up() -> None:
    story = Story("1 2 3 4", button=1)
    story.deal()  # button 1, blinds 2, 3
    story.sit(6, choice="post")
    plan = story.deal()  # button 2, blinds 3, 4; seat 6 posts its entry just left of the BB
    assert where(plan) == (2, 3, 4)
    assert posts(plan)[6] == (2, 0)
    assert plan.straddle_seat is None


# --- short blinds ------------------------------------------------------------------------------


def test_w17_x13_allin_post_short_big_blind_keeps_the_blind_and_is_all_in() -> None:
    story = Story("1 2 3 4", button=1)
    story.stack(3, 1)
    plan = story.plan()
    assert posts(plan)[3] == (2, 0)  # posted at its size: the engine takes what there is
    state = start_hand(plan.setup(story.rules, STAKES, {1: 200, 2: 200, 3: 1, 4: 200}))
    assert state.high == 2
    assert state.stacks[plan.dealt.index(3)] == 0


def test_w17_half_rule_short_big_blind_next_player_posts_and_short_player_skips_button() -> None:
    stakes = Stakes(small_blind=5, big_blind=10)
    story = Story("1 2 3 4", button=1, stakes=stakes, short_blind="half_rule")
    story.stack(3, 3)
    plan = story.deal()
    assert posts(plan)[3] == (3, 0)  # all-in for what is there
    assert posts(plan)[4] == (10, 0)  # the next player posts the big blind
    assert plan.bring_in == 4
    assert story.seats[3].skip_button
    story.stack(3, 100)  # won the pot
    assert where(story.deal())[0] == 2
    assert where(story.deal())[0] == 4  # seat 3 is skipped for the button this orbit
    assert not story.seats[3].skip_button
    other = Story("1 2 3 4", button=1, stakes=stakes, short_blind="half_rule")
    other.stack(3, 6)
    assert posts(other.plan())[3] == (10, 0)  # 6 is half the blind or more: a full blind


def test_player_without_chips_is_not_dealt_in_and_misses_the_blinds() -> None:
    story = Story("1 3 5 7", button=7)
    story.deal()
    story.stack(5, 0)
    plan = story.deal()
    assert waiting(plan) == {5: "no_chips"}
    assert plan.after.missed_big == (5,)


# --- the game starting -------------------------------------------------------------------------


def test_no_button_before_the_first_hand_is_refused() -> None:
    story = Story("1 2", button=1)
    story.first_button = None
    with pytest.raises(ConfigError) as error:
        story.plan()
    assert error.value.code == "no_button"


def test_fewer_than_two_players_in_is_refused() -> None:
    story = Story("1 2", button=1)
    story.away(2)
    with pytest.raises(ConfigError) as error:
        story.plan()
    assert error.value.code == "not_enough_players"


def test_a_game_restarting_from_one_player_forgives_entries() -> None:
    story = Story("1 2", button=1)
    story.deal()
    story.leave(2)
    story.sit(5, choice="post")
    story.sit(7, choice="wait_bb")
    plan = story.deal()
    assert plan.restart
    assert set(plan.dealt) == {1, 5, 7}
    assert posts(plan) == {
        plan.positions.small_blind: (1, 0),
        plan.big_blind: (2, 0),
    }


def test_tournament_rules_are_refused() -> None:
    with pytest.raises(ConfigError) as error:
        plan_hand(
            make_rules("tda_tournament"),
            STAKES,
            9,
            [CashSeat(seat=1, stack=10), CashSeat(seat=2, stack=10)],
            None,
            first_button=1,
        )
    assert error.value.code == "not_cash"


# --- properties over random evenings -----------------------------------------------------------

EVENTS = st.lists(
    st.tuples(
        st.sampled_from(["deal", "away", "back", "leave", "sit", "broke"]), st.integers(1, 9)
    ),
    min_size=1,
    max_size=40,
)


@settings(max_examples=examples(150), deadline=None)
@given(
    events=EVENTS,
    profile=st.sampled_from(["casino_cash", "texas_6plus"]),
    options=st.fixed_dictionaries(
        {
            "button_mode": st.sampled_from(["moving", "dead"]),
            "missed_blind_policy": st.sampled_from(
                ["S2_casino", "S0_missed_blinds", "S3_blind_penalties"]
            ),
            "short_blind": st.sampled_from(["allin_post", "half_rule"]),
            "heads_up_button_posts": st.sampled_from(["small", "big"]),
        }
    ),
    choice=st.sampled_from(["post", "wait_bb", "button_pass"]),
)
def test_every_plan_is_dealable_and_keeps_owing_players_out_of_the_blinds(
    events: list[tuple[str, int]], profile: str, options: dict[str, Any], choice: str
) -> None:
    story = Story("1 4 7", button=1, profile=profile, **options)
    for event, seat in events:
        occupied = seat in story.seats
        if event == "sit" and not occupied:
            story.sit(seat, choice=choice)
        elif event == "away" and occupied:
            story.away(seat)
        elif event == "back" and occupied:
            story.back(seat, choice=choice if choice != "button_pass" else "post")
        elif event == "leave" and occupied and len(story.seats) > 2:
            story.leave(seat)
        elif event == "broke" and occupied:
            story.stack(seat, seat % 3)  # 0, 1 or 2 chips
        elif event == "deal":
            before = dict(story.seats)
            if sum(not s.away and s.stack >= 1 for s in before.values()) < 2:
                with pytest.raises(ConfigError, match="at least two players"):
                    story.deal()
                continue
            check_plan(story, before, story.deal())


def check_plan(story: Story, before: dict[int, CashSeat], plan: CashPlan) -> None:
    dealt = set(plan.dealt)
    assert len(dealt) >= 2
    assert plan.big_blind in dealt
    assert dealt | {w.seat for w in plan.waiting} == set(before)
    assert not dealt & {w.seat for w in plan.waiting}
    assert all(not before[s].away and before[s].stack >= 1 for s in dealt)
    assert plan.heads_up == (len(dealt) == 2)
    button, big = plan.button, plan.big_blind
    assert button is not None
    assert big is not None
    for seat in dealt - {big}:
        owed = before[seat].owes or before[seat].wait_button
        if owed and not plan.restart and len(dealt) > 2:
            assert not 0 < (seat - button) % 9 < (big - button) % 9, (seat, plan)
    bigs = [p for p in plan.posts if p.why.startswith("big blind")]
    assert len(bigs) in (1, 2)  # the big blind, or a short one and its replacement
    stacks = {s: before[s].stack for s in dealt}
    state = start_hand(plan.setup(story.rules, story.stakes, stacks))
    assert sum(state.stacks) + sum(state.contributed) + state.dead == sum(stacks.values())


# --- antes and the option of a make-up post ----------------------------------------------------


def test_s2_antes_are_paid_by_every_player_dealt_in_and_by_nobody_waiting() -> None:
    story = Story("1 3 5 7", button=1, stakes=Stakes(small_blind=1, big_blind=2, ante=1))
    story.deal()
    story.sit(4, choice="post")  # between the button and the big blind next hand
    plan = story.deal()
    assert 4 not in plan.dealt
    assert {p.seat: p.ante for p in plan.posts} == {5: 1, 7: 1, 1: 1, 3: 1}
    state = start_hand(plan.setup(story.rules, story.stakes, dict.fromkeys(plan.dealt, 200)))
    assert state.pot_total == 4 + 1 + 2


def test_s2_make_up_big_blind_is_live_and_carries_the_option() -> None:
    from dealer.engine import apply
    from dealer.engine.actions import Action, Kind

    story = Story("1 2 3 4 5 6", button=1)
    story.deal()  # button 1, blinds 2, 3
    story.sit(8, choice="post")
    plan = story.deal()  # button 2, blinds 3, 4; seat 8 posts its entry 2 live
    assert where(plan) == (2, 3, 4)
    assert posts(plan)[8] == (2, 0)
    state = start_hand(plan.setup(story.rules, STAKES, dict.fromkeys(plan.dealt, 200)))
    order = []
    while acting(plan, state) != 8:  # seats 5 and 6 call the 2
        order.append(acting(plan, state))
        state = apply(state, Action(kind=Kind.CALL))
    assert order == [5, 6]
    assert state.bets[plan.dealt.index(8)] == 2  # already matched: the post is live
    state = apply(state, Action(kind=Kind.CHECK))  # seat 8 may check: it has the option
    for _ in range(4):  # seat 1, the button and the small blind call, the big blind checks
        state = apply(state, Action(kind=Kind.CALL if acting(plan, state) != 4 else Kind.CHECK))
    assert state.actor is None  # nobody raised: the round is over, the flop is due
    assert state.board_cards_due() == 3
