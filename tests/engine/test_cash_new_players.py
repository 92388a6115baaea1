"""New and returning players under a moving button (S2; RULES.md 2 and 4; issue 13).

S2: "A new player may not sit down in the middle of the blinds. He must wait until the Button
passes." and "The Dealer Button always moves forward and the blinds are adjusted accordingly."

Each test is a worked example over several hands at a 9-seat 1/2 table, moved from hand to hand
the way the service does (`plan_hand`, then `after_hand`): where the button and the blinds go,
who is dealt in, what each player posts. `where` is (button, small blind, big blind); `posts`
maps a seat to (live, dead) for every dealt-in player who posts something.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer.engine import start_hand
from dealer.engine.cash import CashPlan
from dealer.engine.errors import ConfigError
from tests.engine.test_cash_tables import STAKES, Story, posts, waiting, where, why
from tests.examples import examples


def hands(story: Story, count: int) -> list[CashPlan]:
    return [story.deal() for _ in range(count)]


def assert_no_blind_twice_running(plans: list[CashPlan]) -> None:
    """Nobody posts the big blind twice running (T 34), nor, with three or more players in both
    hands, the small blind."""
    for before, after in pairwise(plans):
        assert after.big_blind != before.big_blind, (where(before), where(after))
        if not before.heads_up and not after.heads_up:
            small = after.positions.small_blind
            assert small != before.positions.small_blind, (where(before), where(after))


# --- where the new player sits -------------------------------------------------------------------


def test_s2_new_player_between_button_and_small_blind_waits_for_the_button_no_blind_twice() -> None:
    """S2: "A new player may not sit down in the middle of the blinds. He must wait until the
    Button passes." Seat 2 sits between the button (1) and the small blind (3). The button moves
    past it as if the seat were empty, to seat 3; seat 2, now behind the button, posts its entry
    big blind at once. Giving seat 2 the button would make seats 3 and 5 post the same blinds
    two hands running (the bug of issue 13)."""
    story = Story("1 3 5 7", button=1)
    first = story.deal()
    assert where(first) == (1, 3, 5)
    story.sit(2, choice="post")
    second, third = hands(story, 2)
    assert where(second) == (3, 5, 7)
    assert second.dealt == (5, 7, 1, 2, 3)
    assert posts(second) == {5: (1, 0), 7: (2, 0), 2: (2, 0)}
    assert why(second, 2) == "entry: a live big blind"
    state = start_hand(second.setup(story.rules, STAKES, dict.fromkeys(second.dealt, 200)))
    assert state.bets[second.dealt.index(2)] == 2  # the entry blind is live (S2 option 3)
    assert where(third) == (5, 7, 1)
    assert posts(third) == {7: (1, 0), 1: (2, 0)}  # seat 2 owes nothing any more
    assert_no_blind_twice_running([first, second, third])


def test_s2_new_player_between_small_and_big_blind_is_dealt_in_once_the_button_passes() -> None:
    """S2: "He must wait until the Button passes." Seat 4 sits between the small blind (3) and
    the big blind (5). Next hand it is between the button (3) and the big blind (7): it waits.
    The hand after, the button moves past it (to 5, not onto seat 4) and seat 4 posts."""
    story = Story("1 3 5 7", button=1)
    first = story.deal()
    story.sit(4, choice="post")
    second, third, fourth = hands(story, 3)
    assert where(second) == (3, 5, 7)
    assert 4 not in second.dealt
    assert waiting(second) == {4: "between_blinds"}
    assert posts(second) == {5: (1, 0), 7: (2, 0)}
    assert where(third) == (5, 7, 1)
    assert 4 in third.dealt
    assert posts(third) == {7: (1, 0), 1: (2, 0), 4: (2, 0)}
    assert where(fourth) == (7, 1, 3)
    assert posts(fourth) == {1: (1, 0), 3: (2, 0)}
    assert_no_blind_twice_running([first, second, third, fourth])


def test_s2_new_player_at_the_big_blinds_left_takes_the_big_blind_at_once() -> None:
    """S2 option (3): "post the big blind when he sits down." Seat 6 sits just left of the big
    blind (5): the big blind moves onto it next hand, so its entry is simply that big blind."""
    story = Story("1 3 5 7", button=1)
    first = story.deal()
    story.sit(6, choice="post")
    second, third = hands(story, 2)
    assert where(second) == (3, 5, 6)
    assert posts(second) == {5: (1, 0), 6: (2, 0)}
    assert why(second, 6) == "big blind"
    assert where(third) == (5, 6, 7)
    assert posts(third) == {6: (1, 0), 7: (2, 0)}
    assert_no_blind_twice_running([first, second, third])


def test_s2_option3_new_player_outside_the_next_blinds_posts_beside_them() -> None:
    """S2 option (3). Seat 8 is left of the next big blind (7): not in the middle of the blinds,
    it posts its entry at once, as well as the blinds, which move as usual."""
    story = Story("1 3 5 7", button=1)
    first = story.deal()
    story.sit(8, choice="post")
    second, third = hands(story, 2)
    assert where(second) == (3, 5, 7)
    assert posts(second) == {5: (1, 0), 7: (2, 0), 8: (2, 0)}
    assert where(third) == (5, 7, 8)
    assert posts(third) == {7: (1, 0), 8: (2, 0)}
    assert_no_blind_twice_running([first, second, third])


def test_s2_several_new_players_each_wait_until_the_button_passes_them() -> None:
    """S2: "A new player may not sit down in the middle of the blinds." Five players sit down
    at once around a 1-4-7 table whose button is on 1: seats 2 and 3 (button to small blind),
    5 and 6 (small to big blind), 8 (left of the big blind). The button moves on to 4 as if 2
    and 3 were empty; 8 takes the big blind; 2 and 3 post their entries; 5 and 6 wait one hand
    more, until the button has passed them too."""
    story = Story("1 4 7", button=1)
    first = story.deal()
    assert where(first) == (1, 4, 7)
    for seat in (2, 3, 5, 6, 8):
        story.sit(seat, choice="post")
    second, third, fourth = hands(story, 3)
    assert where(second) == (4, 7, 8)
    assert posts(second) == {7: (1, 0), 8: (2, 0), 2: (2, 0), 3: (2, 0)}
    assert waiting(second) == {5: "between_blinds", 6: "between_blinds"}
    assert where(third) == (7, 8, 1)
    assert posts(third) == {8: (1, 0), 1: (2, 0), 5: (2, 0), 6: (2, 0)}
    assert not third.waiting
    assert where(fourth) == (8, 1, 2)
    assert posts(fourth) == {1: (1, 0), 2: (2, 0)}
    assert_no_blind_twice_running([first, second, third, fourth])


# --- returning players ---------------------------------------------------------------------------


def away_for_an_orbit(policy: str) -> Story:
    """Seat 4 of six sits out before its big blind and comes back when it sits between the
    button (3) and the small blind (5) of the last hand."""
    story = Story("1 2 3 4 5 6", button=1, missed_blind_policy=policy)
    story.deal()  # button 1, blinds 2 and 3
    story.away(4)
    assert [where(p) for p in hands(story, 2)] == [(2, 3, 5), (3, 5, 6)]  # misses both blinds
    assert [where(p) for p in hands(story, 5)][-1] == (3, 5, 6)
    story.back(4)
    return story


@pytest.mark.parametrize("policy", ["S2_casino", "S3_blind_penalties"])
def test_s2_s3_returner_in_the_zone_posts_the_blinds_as_the_button_passes(policy: str) -> None:
    """S2: "If a player leaves the table for any reason and the blinds pass his position, he may
    resume play by posting the total amount of the blinds". Back between the button and the small
    blind, seat 4 is a returner in the middle of the blinds (A9): the button moves past it to 5,
    and seat 4 posts the big blind live and the small blind dead in that hand (S3 the same)."""
    story = away_for_an_orbit(policy)
    first, second = hands(story, 2)
    assert where(first) == (5, 6, 1)
    assert posts(first) == {6: (1, 0), 1: (2, 0), 4: (2, 1)}
    assert why(first, 4) == "missed blinds: 2 live + 1 dead"
    assert where(second) == (6, 1, 2)
    assert posts(second) == {1: (1, 0), 2: (2, 0)}
    assert_no_blind_twice_running([first, second])


def test_s0_returner_waits_for_the_button_anyway_and_posts_after_it_passed() -> None:
    """S0: "If the player were at the table and then sat out for a while and missed his Big
    Blind, he will also have to miss Small Blind and the dealer's button. If you missed the small
    and big blind, you will be required to post an amount equal to the big blind plus a 'dead'
    bet equal to the small blind." Seat 4 sits out the hand the button passes it, then posts."""
    story = away_for_an_orbit("S0_missed_blinds")
    first, second, third = hands(story, 3)
    assert where(first) == (5, 6, 1)
    assert waiting(first) == {4: "button_must_pass"}
    assert where(second) == (6, 1, 2)
    assert posts(second) == {1: (1, 0), 2: (2, 0), 4: (2, 1)}
    assert where(third) == (1, 2, 3)
    assert posts(third) == {2: (1, 0), 3: (2, 0)}
    assert_no_blind_twice_running([first, second, third])


# --- heads-up on the way down and back up --------------------------------------------------------


@pytest.mark.parametrize(("option", "heads_up_where"), [("small", (5, 5, 1)), ("big", (1, 5, 1))])
def test_t34_three_to_two_with_a_new_player_in_the_zone(
    option: str, heads_up_where: tuple[int, int, int]
) -> None:
    """S0: "If there are only two players in the game ... dealer posts Big Blind" (`big`; R and
    T: the button posts the small blind, `small`). The small blind (3) leaves and a new player
    sits at 2, in the middle of the last blinds: the two others play heads-up, nobody posting
    the big blind twice running (T 34); once the button has passed seat 2, the big blind
    reaches it and three play."""
    story = Story("1 3 5", button=1, heads_up_button_posts=option)
    first = story.deal()
    assert where(first) == (1, 3, 5)
    story.leave(3)
    story.sit(2, choice="post")
    second, third, fourth = hands(story, 3)
    assert second.heads_up
    assert where(second) == heads_up_where
    assert waiting(second) == {2: "between_blinds"}
    assert where(third) == (5, 1, 2)
    assert posts(third) == {1: (1, 0), 2: (2, 0)}
    assert where(fourth) == (1, 2, 5)
    assert_no_blind_twice_running([first, second, third, fourth])


@pytest.mark.parametrize(
    ("option", "seat", "heads_up_hands", "three_handed"),
    [
        # The button (5) posted the small blind, 1 the big: seat 7 is in the middle of the
        # blinds and waits one hand; seat 3 is outside them and takes the big blind at once.
        ("small", 3, 0, (5, 1, 3)),
        ("small", 7, 1, (1, 5, 7)),
        # S0: the button (5) posted the big blind, 1 the small: seat 3, between the small and
        # the big blind, waits one hand; seat 7 takes the big blind at once.
        ("big", 3, 1, (5, 1, 3)),
        ("big", 7, 0, (1, 5, 7)),
    ],
)
def test_t34_two_to_three_the_new_player_never_makes_a_blind_repeat(
    option: str, seat: int, heads_up_hands: int, three_handed: tuple[int, int, int]
) -> None:
    """S2: "The Dealer Button always moves forward and the blinds are adjusted accordingly";
    T 34: nobody posts the big blind twice running. Out of a heads-up hand the big blind goes to
    the next player after the last one, here the new player, whose entry it is; the small blind
    and the button fall in behind it. (Giving the new player the button instead, as before, made
    the S0 big blind post twice running.)"""
    story = Story("1 5", button=5, heads_up_button_posts=option)
    first = story.deal()
    assert first.heads_up
    assert first.button == 5
    story.sit(seat, choice="post")
    plans = hands(story, heads_up_hands + 2)
    assert all(p.heads_up and seat not in p.dealt for p in plans[:heads_up_hands])
    assert all(waiting(p) == {seat: "between_blinds"} for p in plans[:heads_up_hands])
    entry = plans[heads_up_hands]
    assert not entry.heads_up
    assert where(entry) == three_handed
    assert entry.big_blind == seat
    assert posts(entry)[seat] == (2, 0)
    assert why(entry, seat) == "big blind"
    assert_no_blind_twice_running([first, *plans])


# --- what does not change ------------------------------------------------------------------------


def test_t32_dead_button_moves_the_big_blind_one_player_and_new_players_wait_the_same() -> None:
    """T 32 and R 2b (`button_mode=dead`): the big blind moves on one player each hand, the
    small blind sits where the big blind was and the button where the small blind was. A new
    player in the middle of the blinds (4) waits until the button has passed it (S2)."""
    story = Story("1 3 5 7", button=1, button_mode="dead")
    first = story.deal()
    story.sit(4, choice="post")
    plans = hands(story, 4)
    assert [where(p) for p in plans] == [(3, 5, 7), (5, 7, 1), (7, 1, 3), (1, 3, 4)]
    assert waiting(plans[0]) == {4: "between_blinds"}
    assert posts(plans[1])[4] == (2, 0)
    for before, after in zip([first, *plans], plans, strict=False):
        assert after.positions.small_blind == before.big_blind
        assert after.button == before.positions.small_blind
    assert_no_blind_twice_running([first, *plans])


def test_first_hand_deals_everyone_in_and_nobody_owes_an_entry() -> None:
    """Before the first hand (`last=None`) the game starts: a player seated between the button
    and the blinds is dealt in without an entry, and the blinds are the next two players."""
    story = Story("1 3 5", button=1)
    story.sit(2, choice="post")
    first, second = hands(story, 2)
    assert first.restart
    assert where(first) == (1, 2, 3)
    assert posts(first) == {2: (1, 0), 3: (2, 0)}
    assert where(second) == (2, 3, 5)
    assert_no_blind_twice_running([first, second])


def test_a_restart_from_one_settled_player_forgives_the_new_player_in_the_zone() -> None:
    """A game restarting (fewer than two players owing nothing) deals everybody in and nobody
    owes, wherever they sit: the zone applies from the next hand on."""
    story = Story("1 5", button=1)
    story.deal()
    story.leave(5)
    story.sit(3, choice="post")
    story.sit(7, choice="post")
    plan = story.deal()
    assert plan.restart
    assert set(plan.dealt) == {1, 3, 7}
    assert posts(plan) == {plan.positions.small_blind: (1, 0), plan.big_blind: (2, 0)}


# --- over random evenings ------------------------------------------------------------------------

EVENTS = st.lists(
    st.tuples(
        st.sampled_from(["deal", "deal", "away", "back", "leave", "sit", "broke"]),
        st.integers(1, 9),
    ),
    min_size=1,
    max_size=40,
)


@settings(max_examples=examples(200), deadline=None)
@given(
    events=EVENTS,
    options=st.fixed_dictionaries(
        {
            "button_mode": st.sampled_from(["moving", "dead"]),
            "missed_blind_policy": st.sampled_from(
                ["S2_casino", "S0_missed_blinds", "S3_blind_penalties"]
            ),
            "heads_up_button_posts": st.sampled_from(["small", "big"]),
        }
    ),
    choice=st.sampled_from(["post", "wait_bb", "button_pass"]),
)
def test_s2_t34_no_player_posts_the_same_blind_twice_running(
    events: list[tuple[str, int]], options: dict[str, Any], choice: str
) -> None:
    """Whatever players do between hands, the same player never posts the big blind two hands
    running (T 34), nor the small blind while three or more play (S2 "the blinds are adjusted
    accordingly"), except when the game restarts."""
    story = Story("1 4 7", button=1, **options)
    last: tuple[CashPlan, dict[int, int]] | None = None
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
            story.stack(seat, seat % 3)
        elif event == "deal":
            keys = {s.seat: s.key for s in story.seats.values()}
            try:
                plan = story.deal()
            except ConfigError:
                last = None
                continue
            if last is not None and not plan.restart:
                check_blinds_moved(last, plan, keys)
            last = (plan, keys)


def check_blinds_moved(
    last: tuple[CashPlan, dict[int, int]], plan: CashPlan, keys: dict[int, int]
) -> None:
    before, before_keys = last
    big = plan.big_blind
    assert not (big == before.big_blind and keys[big] == before_keys.get(big)), (
        where(before),
        where(plan),
    )
    small = plan.positions.small_blind
    if before.heads_up or plan.heads_up or small is None:
        return
    assert not (small == before.positions.small_blind and keys[small] == before_keys.get(small)), (
        where(before),
        where(plan),
    )
