"""KO-1: who eliminated a player is whoever won the pot that took their last chips, each
winner with their share of it."""

from __future__ import annotations

from dealer.engine import (
    HandState,
    Stakes,
    apply,
    deal_setup,
    make_rules,
    misdeal,
    muck,
    next_to_show,
    show,
    start_hand,
)
from dealer.engine.cards import parse_cards
from dealer.engine.knockouts import Knockout, busting_pot, knockouts
from tests.engine.scripted import play


def hand(stacks: list[int], holes: str, **options: object) -> HandState:
    """A hold'em hand at 5/10; player 0 is the small blind, the last player the button."""
    rules = make_rules("tda_tournament", dict(options))
    cards = [parse_cards(h) for h in holes.split(",")]
    return start_hand(deal_setup(rules, Stakes(small_blind=5, big_blind=10), stacks, holes=cards))


def show_down(state: HandState, mucks: tuple[int, ...] = ()) -> HandState:
    while (player := next_to_show(state)) is not None:
        state = apply(state, muck(player) if player in mucks else show(player))
    return state


def test_ko1_a_split_pot_shares_the_knockout_by_the_chips_each_winner_took() -> None:
    state = hand([105, 1000, 1000], "2h 3h,Kh Kd,Kc Ks")
    state = show_down(play(state, "c a c c | /7c 8d 9s | x x | /Jd | x x | /4c | x x"))
    # 315 in the main pot, split 158 / 157 (the odd chip to the first winner from the button).
    assert knockouts(state) == (Knockout(busted=0, pot=0, eliminators=(1, 2), shares=(158, 157)),)


def test_ko1_two_players_out_on_one_hand_are_eliminated_by_the_winners_of_different_pots() -> None:
    # Player 0 (105) is only in the main pot, which player 1 wins with the best hand; player 3
    # (1,000) loses the last side pot, which only players 2 and 3 contest, to player 2.
    state = hand([105, 310, 1000, 1000], "2c 3d,As Ad,Kh Kd,Qc Qs")
    state = show_down(play(state, "a c c c | /7c 8d 9s | /Jd | /4c"))
    assert state.stacks == (0, 1035, 1380, 0)
    assert [a.pot for a in state.awards] == [2, 1, 0]
    assert knockouts(state) == (
        Knockout(busted=0, pot=0, eliminators=(1,), shares=(420,)),
        Knockout(busted=3, pot=2, eliminators=(2,), shares=(1380,)),
    )


def test_ko1_a_player_only_in_the_main_pot_is_not_eliminated_by_the_side_pot_winner() -> None:
    # Player 0 (105) and player 1 (310, the best hand) are all in preflop; players 2 and 3 bet
    # on into a side pot that player 2 wins. Player 0's chips are all in the main pot: player 1
    # eliminated them, not player 2.
    state = hand([105, 310, 1000, 1000], "2c 3d,As Ad,Kh Kd,Qc Qs")
    state = play(state, "r400 c a a | /7c 8d 9s | b100 c | /Jd | x x | /4c | x x")
    state = show_down(state)
    assert state.stacks == (0, 1035, 880, 500)
    assert busting_pot(state, 0) == 0
    assert knockouts(state) == (Knockout(busted=0, pot=0, eliminators=(1,), shares=(420,)),)


def test_ko1_a_busted_player_who_mucks_is_eliminated_by_the_pot_their_chips_went_to() -> None:
    # Without T 16's tabling of every hand, the all-in player may muck: their chips still
    # went into the main pot, and its winner eliminated them.
    state = hand([105, 1000, 1000], "2c 3d,As Ad,Kh Kd", table_all_in=False)
    state = play(state, "c a c c | /7c 8d 9s | x x | /Jd | x x | /4c | x x")
    state = show_down(state, mucks=(0,))
    assert state.stacks[0] == 0
    (knockout,) = knockouts(state)
    assert knockout.busted == 0
    assert knockout.eliminators == (1,)


def test_ko1_a_misdeal_and_a_hand_in_play_eliminate_nobody() -> None:
    state = hand([105, 1000, 1000], "2c 3d,As Ad,Kh Kd")
    assert knockouts(state) == ()
    assert knockouts(apply(state, misdeal())) == ()


def test_ko1_nobody_out_when_every_player_keeps_chips() -> None:
    state = hand([500, 500, 500], "2c 3d,As Ad,Kh Kd")
    state = show_down(play(state, "c c x | /7c 8d 9s | x x x | /Jd | x x x | /4c | x x x"))
    assert state.awards
    assert knockouts(state) == ()
