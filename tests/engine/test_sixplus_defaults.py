"""Texas 6+ plays by S0 by default, whatever the profile (issue 13; RULES.md 5.3, X5, X8).

S0: "In Limit poker a maximum of 4 bets is allowed during any betting round." No heads-up
exception, so `fl_headsup_uncapped=false` whenever `game=sixplus` (X8).
S0: "that player who receives the card of maximum value first, becomes a dealer." Ties in the
button draw go to the card dealt first: `draw_tiebreak=deal_order` (X5).

Tournaments and cash tables pass `game` as an override of their profile (`tournament_rules`,
`cash_table_rules`), so these tests build the rules the same way; a key the caller sets itself
still wins.
"""

from __future__ import annotations

from typing import Any

import pytest

from dealer.engine import HandState, Stakes, deal_setup, legal_actions, make_rules, start_hand
from dealer.engine.cards import parse_cards
from dealer.engine.draw import button_draw
from dealer.engine.rules import Rules
from tests.engine.scripted import play

# Every way a 6+ game is configured: the S0 profile, and a tournament or a cash table picking
# game=sixplus on its own profile (as `tournament_rules` and `cash_table_rules` do).
SIXPLUS_WAYS = [
    pytest.param("texas_6plus", {}, id="texas_6plus"),
    pytest.param("texas_6plus", {"game": "sixplus"}, id="texas_6plus-game"),
    pytest.param("casino_cash", {"game": "sixplus"}, id="casino_cash-sixplus"),
    pytest.param("tda_tournament", {"game": "sixplus", "mode": "tournament"}, id="tda-sixplus"),
]

# Four bets on the flop, heads-up: bet, raise, re-raise, cap (S0 "bet, raise, re-raise, and
# final raise"). Fixed limit 5/10: the flop unit is 10.
FOUR_BETS_ON_THE_FLOP = "c x | /As Kd 7c | b10 r20 r30 r40"


def heads_up_flop(profile: str, overrides: dict[str, Any]) -> HandState:
    rules = make_rules(profile, {"structure": "fixed_limit", **overrides})
    setup = deal_setup(rules, Stakes(small_blind=5, big_blind=10), [1000, 1000])
    return play(start_hand(setup), FOUR_BETS_ON_THE_FLOP)


def max_raise_after_four_bets(profile: str, overrides: dict[str, Any]) -> int | None:
    options = legal_actions(heads_up_flop(profile, overrides))
    assert options is not None
    assert options.call == 10  # the player facing the fourth bet may still call it
    return options.min_raise_to


# --- X8: the fixed-limit cap heads-up ------------------------------------------------------------


@pytest.mark.parametrize(("profile", "overrides"), SIXPLUS_WAYS)
def test_x8_s0_heads_up_sixplus_fixed_limit_is_capped_at_four_bets(
    profile: str, overrides: dict[str, Any]
) -> None:
    """S0: "a maximum of 4 bets is allowed during any betting round", heads-up too."""
    assert make_rules(profile, overrides).fl_headsup_uncapped is False
    assert max_raise_after_four_bets(profile, overrides) is None


def test_x8_s2_heads_up_holdem_cash_is_still_uncapped() -> None:
    """S2: "There is no limit on raises with only two players having bet during a betting
    round." Hold'em cash keeps the RULES.md default (`fl_headsup_uncapped=true`)."""
    assert make_rules("casino_cash", {"game": "holdem"}).fl_headsup_uncapped is True
    assert max_raise_after_four_bets("casino_cash", {"game": "holdem"}) == 50


def test_x8_an_explicit_override_lifts_the_sixplus_cap_again() -> None:
    """The game's default gives way to a key the caller sets itself."""
    overrides = {"game": "sixplus", "fl_headsup_uncapped": True}
    assert max_raise_after_four_bets("casino_cash", overrides) == 50
    assert max_raise_after_four_bets("texas_6plus", {"fl_headsup_uncapped": True}) == 50


# --- X5: button draw ties ------------------------------------------------------------------------


@pytest.mark.parametrize(("profile", "overrides"), SIXPLUS_WAYS)
def test_x5_s0_sixplus_draw_tie_goes_to_the_card_dealt_first(
    profile: str, overrides: dict[str, Any]
) -> None:
    """S0: "that player who receives the card of maximum value first, becomes a dealer". Three
    kings: the first one dealt (diamonds) wins, not the spade the suit rule would pick."""
    rules = make_rules(profile, overrides)
    assert rules.draw_tiebreak == "deal_order"
    cards = parse_cards("7c Kd Ks Kh 9s")
    assert button_draw(cards, rules.draw_tiebreak) == 1
    assert button_draw(cards, "suit") == 2  # the card the hold'em default would give it to


@pytest.mark.parametrize("profile", ["casino_cash", "tda_tournament"])
def test_x5_holdem_draw_ties_stay_by_suit(profile: str) -> None:
    """R and T: ties by suit, spades highest, for the 52-card game."""
    rules = make_rules(profile, {"game": "holdem"})
    assert rules.draw_tiebreak == "suit"
    assert button_draw(parse_cards("Kd Ks Kh"), rules.draw_tiebreak) == 1


@pytest.mark.parametrize("profile", ["casino_cash", "tda_tournament", "texas_6plus"])
def test_x5_an_explicit_override_keeps_suit_ties_in_sixplus(profile: str) -> None:
    rules = make_rules(profile, {"game": "sixplus", "draw_tiebreak": "suit"})
    assert rules.draw_tiebreak == "suit"


# --- the other keys ------------------------------------------------------------------------------


def sixplus_keys(rules: Rules) -> tuple[str, ...]:
    return (
        rules.game,
        rules.heads_up_button_posts,
        rules.missed_blind_policy,
        rules.initial_button,
        rules.button_mode,
    )


def test_the_game_sets_only_the_s0_cap_and_draw_keys() -> None:
    """The 6+ profile keeps its own keys; a hold'em profile playing 6+ keeps the rest of its
    own, and a tournament the rest of the tournament floor rules."""
    assert sixplus_keys(make_rules("texas_6plus")) == (
        "sixplus",
        "big",
        "S0_missed_blinds",
        "first_seated",
        "moving",
    )
    assert sixplus_keys(make_rules("casino_cash", {"game": "sixplus"})) == (
        "sixplus",
        "small",
        "S2_casino",
        "draw",
        "moving",
    )
    tournament = make_rules("tda_tournament", {"game": "sixplus"})
    assert sixplus_keys(tournament) == ("sixplus", "small", "TDA_tournament", "draw", "dead")
    assert make_rules("casino_cash", {"game": "sixplus"}).straddle_allowed is True
