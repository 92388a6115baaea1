"""The card ledger: every card has one place, and the procedures' remedies hold (RULES.md 8).

Seed lines followed (S2 = seeds/002, S4 = seeds/004):
- S2: "If a player's hole card is exposed due to a dealer error, he may not keep the exposed card.
  ... place the exposed card face up on top of the deck. The exposed card will be used as the
  first burn card after all action before the flop is completed."
- S2: "If the dealer turns up the fourth card on the board before the round of betting is
  completed, the card is not in play. After the completion of the betting, the next card is burned
  and the fifth card is put in the fourth card's place. After betting is completed, the dealer will
  reshuffle the deck, including the card that was taken out of play ..."
- S2: "If cards are flopped by the dealer before all the betting is completed, the entire flop is
  taken back and reshuffled. The burn card will remain and no additional burn card will be used."
- S2: "A card placed face up in the deck (boxed card) shall be treated as a 'scrap of paper'."
- S4: "After the first betting round, the dealer discards the top card of the deck. This is called
  Burning" (and again before the turn and the river).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer.engine import (
    HandState,
    Kind,
    Phase,
    RuleViolation,
    Stakes,
    apply,
    deal_board,
    deal_hole,
    deal_setup,
    legal_actions,
    make_rules,
    muck,
    next_to_show,
    show,
    start_hand,
)
from dealer.engine.actions import Action, burn, premature, set_aside
from dealer.engine.cards import Card, DeckKind, deck, parse_cards
from dealer.engine.game import deck_kind_for
from dealer.engine.ledger import Place, card_choice, card_ledger, stub_count
from dealer.engine.phh import parse_phh, state_to_phh, verify
from dealer.engine.procedures import Trigger, remedy
from dealer.engine.snapshot import state_from_json, state_to_json
from dealer.engine.triggers import TRIGGERS
from tests.engine.scripted import play
from tests.examples import examples


def hand(players: int = 4, game: str = "holdem", **options: Any) -> HandState:
    rules = make_rules("casino_cash", {"game": game, **options})
    return start_hand(deal_setup(rules, Stakes(small_blind=5, big_blind=10), [1000] * players))


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def carried_out(state: HandState, trigger: Trigger, **kwargs: Any) -> HandState:
    for action in remedy(state, trigger, **kwargs).actions:
        state = apply(state, action)
    return state


def refused(state: HandState, action: Action) -> RuleViolation:
    with pytest.raises(RuleViolation) as error:
        apply(state, action)
    return error.value


# --- the cases, each failing before the ledger ------------------------------------------


def test_s2_exposed_hole_card_is_the_flop_burn_and_cannot_be_dealt_as_a_flop_card() -> None:
    """S2: the exposed card goes face up on the stub and is the first burn; it is out of play."""
    state = apply(hand(), deal_hole(2, cards("Qs 7d")))
    state = carried_out(state, Trigger.OTHER_HOLE_CARD_EXPOSED, player=2, details={"card": "7d"})
    assert state.holes[2] == (cards("Qs")[0], None)  # the new card is entered when known
    assert card_ledger(state).place_of(cards("7d")[0]) is Place.EXPOSED
    state = play(state, "c c c x")
    error = refused(state, deal_board(cards("7d As Kc")))
    assert error.code == "card_out_of_play"
    assert "burn" in error.detail
    state = play(state, "/As Kc 2h")
    assert state.burns == cards("7d")  # the exposed card was the flop's burn
    assert card_ledger(state).place_of(cards("7d")[0]) is Place.BURN


def test_s2_exposed_card_cannot_be_shown_at_the_showdown_by_the_player_who_lost_it() -> None:
    """S2: "he may not keep the exposed card": it can never win for him."""
    state = apply(hand(2), deal_hole(1, cards("Qs 7d")))
    state = carried_out(state, Trigger.OTHER_HOLE_CARD_EXPOSED, player=1, details={"card": "7d"})
    state = play(state, "a c | /As Kc 2h | /3d | /4c")
    assert state.phase == Phase.SHOWDOWN
    error = refused(state, show(1, cards("Qs 7d")))
    assert error.code == "card_out_of_play"
    state = apply(state, show(1, cards("Qs 7c")))  # his real second card is shown
    assert state.shown[1] == cards("Qs 7c")


def test_s2_exposed_card_named_without_the_seat_is_found_in_the_entered_hands() -> None:
    state = apply(hand(), deal_hole(3, cards("Ah Jc")))
    found = remedy(state, Trigger.OTHER_HOLE_CARD_EXPOSED, details={"card": "Jc"})
    assert found.player == 3
    after = carried_out(state, Trigger.OTHER_HOLE_CARD_EXPOSED, details={"card": "Jc"})
    assert after.holes[3] == (cards("Ah")[0], None)


def test_s2_premature_turn_is_out_of_play_for_the_turn_and_back_for_the_river() -> None:
    """S2: the early fourth card "is not in play"; the next card is burned and dealt as the turn;
    the card taken out is reshuffled into the stub before the river."""
    state = play(hand(), "c c c x | /As Kd 7c | b20")
    state = carried_out(state, Trigger.PREMATURE_TURN, details={"card": "2h"})
    assert card_ledger(state).place_of(cards("2h")[0]) is Place.OUT
    state = play(state, "c c c")
    error = refused(state, deal_board(cards("2h")))
    assert error.code == "card_out_of_play"
    assert "river" in error.detail
    state = play(state, "/9s | x x x x")
    state = play(state, "/2h")  # reshuffled with the stub: it may come as the river
    assert state.board == cards("As Kd 7c 9s 2h")
    # Burns: the flop's, the one before the early card, the one before the real turn; the river
    # is dealt with no burn (premature_river_burn=false, R).
    assert len(state.burns) == 3


def test_r_premature_river_burn_option_burns_before_the_river() -> None:
    state = play(hand(premature_river_burn=True), "c c c x | /As Kd 7c | x x x x | /9s | b20")
    state = carried_out(state, Trigger.PREMATURE_RIVER, details={"card": "2h"})
    state = play(state, "c c c | /3c")
    assert len(state.burns) == 4


def test_s2_premature_flop_keeps_its_burn_and_the_cards_go_back_into_the_stub() -> None:
    """S2: "The burn card will remain and no additional burn card will be used for this flop."""
    state = play(hand(), "c")
    state = carried_out(state, Trigger.PREMATURE_FLOP, details={"cards": "As Kd 7c"})
    assert {card_ledger(state).place_of(c) for c in cards("As Kd 7c")} == {Place.OUT}
    error = refused(state, deal_hole(0, cards("As 2c")))
    assert error.code == "card_out_of_play"
    state = play(state, "c c x | /As 8h 9h")  # reshuffled: As may come again
    assert len(state.burns) == 1
    assert stub_count(state) == 52 - 8 - 3 - 1


def test_s4_every_street_burns_one_card_and_the_ledger_counts_them() -> None:
    """S4: a card is burned before the flop, the turn and the river, entered or not."""
    state = play(hand(), "c c c x | /- | x x x x | /- | x x x x | /-")
    assert state.burns == (None, None, None)
    counts = card_ledger(state).counts
    assert counts[Place.BURN] == 3
    assert counts[Place.HOLE] == 8
    assert counts[Place.BOARD] == 5
    assert counts[Place.DECK] == 52 - 16
    assert stub_count(state) == counts[Place.DECK]


def test_the_dealer_may_enter_the_burn_card_and_it_is_then_out_of_play() -> None:
    state = play(hand(), "c c c x")
    state = apply(state, burn(cards("5s")))
    error = refused(state, deal_board(cards("5s As Kd")))
    assert error.code == "card_out_of_play"
    state = play(state, "/As Kd 7c")
    assert state.burns == cards("5s")


def test_s2_boxed_card_is_scrap_paper_for_the_rest_of_the_hand() -> None:
    state = play(hand(), "c")
    state = carried_out(state, Trigger.BOXED_CARD, details={"card": "Th"})
    assert card_ledger(state).place_of(cards("Th")[0]) is Place.DEAD
    state = play(state, "c c x")
    assert refused(state, deal_board(cards("Th 2c 3c"))).code == "card_out_of_play"
    state = play(state, "/2c 3c 4c | x x x x | /5c | x x x x")
    assert refused(state, deal_board(cards("Th"))).code == "card_out_of_play"


def test_r_missed_burn_found_before_betting_burns_on_the_redeal_double_does_not() -> None:
    base = play(hand(), "c c c x | /As Kd 7c | x x x x | /2h")
    missed = carried_out(base, Trigger.MISSED_OR_DOUBLE_BURN, details={"burn": "missed"})
    assert len(play(missed, "/2h").burns) == 2  # the missed burn is made on the redeal
    double = carried_out(base, Trigger.MISSED_OR_DOUBLE_BURN, details={"burn": "double"})
    assert len(play(double, "/2h").burns) == 2  # the first burn stays; no new one


def test_flop_with_too_many_cards_keeps_its_burn() -> None:
    """S2: "it will be taken back and reshuffled except the burn card will remain burned."""
    state = play(hand(), "c c c x | /As Kd 7c")
    state = carried_out(state, Trigger.FLOP_TOO_MANY_CARDS)
    assert state.burns == (None,)
    state = play(state, "/As Kd 8c")
    assert state.burns == (None,)


def test_a_card_is_refused_in_a_sixplus_deck_and_the_stub_has_36_cards() -> None:
    state = hand(game="sixplus")
    assert card_ledger(state).size == 36
    assert stub_count(state) == 36 - 8
    assert refused(state, deal_hole(0, cards("2c 7d"))).code == "card_not_in_deck"


def test_ledger_fields_survive_the_json_snapshot() -> None:
    state = apply(hand(), deal_hole(2, cards("Qs 7d")))
    state = carried_out(state, Trigger.OTHER_HOLE_CARD_EXPOSED, player=2, details={"card": "7d"})
    state = carried_out(play(state, "c c c x | /As Kc 2h | b20"), Trigger.PREMATURE_TURN)
    back = state_from_json(state_to_json(state))
    assert back.__dict__ == state.__dict__


def test_a_card_named_for_a_procedure_that_is_already_in_play_is_refused_before_confirming() -> (
    None
):
    state = apply(play(hand(), "c"), deal_hole(1, cards("As Ks")))
    with pytest.raises(RuleViolation) as error:
        remedy(state, Trigger.BOXED_CARD, details={"card": "Ks"}, player=2)
    assert error.value.code == "duplicate_card"
    burned = apply(play(hand(), "c c c x"), burn(cards("5s")))
    with pytest.raises(RuleViolation) as error:
        remedy(burned, Trigger.CARDS_EXPOSED_BEFORE_FLOP, details={"cards": "5s"})
    assert error.value.code == "card_out_of_play"


# --- the property: no card in two places, every card from the deck -------------------------------

# Details a trigger may be given, beside a player and named cards.
_ANSWERS: dict[str, list[Any]] = {
    "count": ["too_many", "too_few"],
    "burn": ["missed", "double", None],
    "acted": [True, False, None],
    "action": ["fold", "check_call", "bet_raise", "all_in", None],
}


# --- the card picker's answer: which cards may be named now (issue 24) ---------------------------


def out_of_play(state: HandState) -> set[Card]:
    return set(card_choice(state).out_of_play)


def test_s2_premature_flop_cards_are_out_of_play_during_the_betting_and_pickable_for_the_flop() -> (
    None
):
    """S2: the early flop "is taken back and reshuffled": out of play while the preflop betting
    goes on, back in the stub (pickable) when the flop is due."""
    state = carried_out(play(hand(), "c"), Trigger.PREMATURE_FLOP, details={"cards": "As Kd 7c"})
    assert out_of_play(state) == set(cards("As Kd 7c"))
    state = play(state, "c c x")
    assert state.phase is Phase.DEALING
    assert out_of_play(state) == set()
    assert len(card_choice(state).pickable) == 52
    state = play(state, "/As Kd 7c")  # the engine takes what the picker offers
    assert out_of_play(state) == set(cards("As Kd 7c"))


def test_s2_premature_turn_card_is_pickable_for_the_river_only() -> None:
    state = play(hand(), "c c c x | /As Kd 7c | b20")
    state = carried_out(state, Trigger.PREMATURE_TURN, details={"card": "2h"})
    state = play(state, "c c c")
    assert state.phase is Phase.DEALING
    assert cards("2h")[0] in out_of_play(state)  # the turn is due: it comes back for the river
    state = play(state, "/9s | x x x x")
    assert cards("2h")[0] not in out_of_play(state)
    assert out_of_play(state) == set(cards("As Kd 7c 9s"))


def test_s2_exposed_burn_and_boxed_cards_are_out_of_play_for_the_picker() -> None:
    state = apply(hand(), deal_hole(2, cards("Qs 7d")))
    state = carried_out(state, Trigger.OTHER_HOLE_CARD_EXPOSED, player=2, details={"card": "7d"})
    state = carried_out(state, Trigger.BOXED_CARD, details={"card": "Th"})
    assert out_of_play(state) == set(cards("7d Th"))
    state = play(state, "c c c x")
    assert out_of_play(state) == set(cards("7d Th"))  # the burn due is the exposed card


def test_a_hole_card_not_shown_stays_pickable_the_secret_is_the_players() -> None:
    """The choice is public (it travels in the hand's state, one body for every caller): a hole
    card entered but not shown is not disabled; the engine still refuses it when named."""
    state = play(apply(hand(), deal_hole(0, cards("Qs Qd"))), "c c c x")
    assert not out_of_play(state) & set(cards("Qs Qd"))
    assert refused(state, deal_board(cards("Qs 2c 3c"))).code == "duplicate_card"


def test_sixplus_choice_is_the_36_card_deck() -> None:
    choice = card_choice(hand(game="sixplus"))
    assert choice.deck is DeckKind.SIXPLUS
    assert len(choice.pickable) == 36
    assert set(choice.pickable) == set(
        deck(deck_kind_for(make_rules("casino_cash", {"game": "sixplus"})))
    )


def check_choice(state: HandState) -> None:
    """The picker's answer splits the game's deck; when a board deal is due, a card it disables
    is refused for the deal, and a card it offers (not in a hidden hand) is not refused for
    being elsewhere."""
    choice = card_choice(state)
    assert not set(choice.pickable) & set(choice.out_of_play)
    assert set(choice.pickable) | set(choice.out_of_play) == set(
        deck(deck_kind_for(state.setup.rules))
    )
    due = state.board_cards_due()
    if not due:
        return
    holes = {card for hole in state.holes for card in hole or () if card is not None}
    unknown: tuple[Card | None, ...] = (None,) * (due - 1)
    for card in choice.out_of_play[:3]:
        assert refused(state, deal_board((card, *unknown))).code in (
            "card_out_of_play",
            "duplicate_card",
        )
    for card in [c for c in choice.pickable if c not in holes][:3]:
        code = None
        try:
            apply(state, deal_board((card, *unknown)))
        except RuleViolation as error:
            code = error.code
        assert code in (None, "stub_empty"), f"{card} offered but refused: {code}"


def check_ledger(state: HandState) -> None:
    """No card is in two places; every entered card is of the game's deck; the counts add up."""
    ledger = card_ledger(state)
    known = [entry.card for entry in ledger.entries if entry.card is not None]
    doubled = [card for card, n in Counter(known).items() if n > 1]
    assert not doubled, f"cards in two places: {doubled}"
    game_deck = set(deck(deck_kind_for(state.setup.rules)))
    assert set(known) <= game_deck, "a card that is not in the deck"
    assert ledger.stub == stub_count(state) >= 0
    assert sum(ledger.counts.values()) == ledger.size
    for player, shown in enumerate(state.shown):
        if shown is not None:  # a shown card is the player's own
            assert state.holes[player] is not None
            assert set(shown) <= set(state.holes[player] or ())
    for card in state.board:
        if card is not None:
            assert ledger.place_of(card) is Place.BOARD


def some_cards(rng: random.Random, pool: list[Card], count: int) -> tuple[Card | None, ...]:
    """Cards to enter: a mix of unknown ones and cards of the deck, in play or not."""
    return tuple(None if rng.random() < 0.3 else rng.choice(pool) for _ in range(count))


def random_step(rng: random.Random, state: HandState, pool: list[Card]) -> list[Action]:
    """One thing a dealer might enter now, legal or not (the engine decides)."""
    roll = rng.random()
    n = state.player_count
    if roll < 0.15:
        trigger = rng.choice(list(TRIGGERS))
        info = TRIGGERS[trigger]
        details: dict[str, Any] = {}
        if info.question is not None:
            details[info.question.key] = rng.choice(_ANSWERS[info.question.key])
        if info.amount:
            details["amount"] = rng.choice([None, 5, 20, 40, 100, 1000])
        if rng.random() < 0.6:
            picked = some_cards(rng, pool, 3 if trigger == Trigger.PREMATURE_FLOP else 1)
            details["cards"] = " ".join("??" if c is None else str(c) for c in picked)
        player = rng.randrange(n) if rng.random() < 0.7 else None
        try:
            return list(remedy(state, trigger, player=player, details=details).actions)
        except RuleViolation:
            return []
    if roll < 0.25:
        return [deal_hole(rng.randrange(n), some_cards(rng, pool, 2))]
    if roll < 0.3:
        kind = rng.choice([Kind.BURN, Kind.SET_ASIDE, Kind.PREMATURE])
        picked = some_cards(rng, pool, rng.choice([1, 1, 3]))
        if kind == Kind.BURN:
            return [burn(picked, player=rng.choice([None, rng.randrange(n)]))]
        if kind == Kind.SET_ASIDE:
            return [set_aside(picked, rng.choice([None, 1, 2, 3]))]
        return [premature(picked, rng.randrange(1, 4))]
    if state.phase == Phase.DEALING:
        return [deal_board(some_cards(rng, pool, state.board_cards_due()))]
    if state.phase == Phase.SHOWDOWN:
        due = next_to_show(state)
        player = due if due is not None and rng.random() < 0.8 else rng.randrange(n)
        if rng.random() < 0.5:
            return [muck(player)]
        return [show(player, some_cards(rng, pool, 2) if rng.random() < 0.7 else ())]
    legal = legal_actions(state)
    if legal is None:
        return []
    if legal.can_fold and rng.random() < 0.1:
        return [Action(kind=Kind.FOLD)]
    if legal.min_raise_to is not None and rng.random() < 0.2:
        kind = Kind.BET if legal.is_bet else Kind.RAISE
        return [Action(kind=kind, amount=legal.min_raise_to)]
    return [Action(kind=Kind.CALL if legal.call else Kind.CHECK)]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 10),
    game=st.sampled_from(["holdem", "sixplus"]),
)
def test_no_card_is_ever_in_two_places_in_random_hands_with_random_procedures(
    seed: int, players: int, game: str
) -> None:
    rng = random.Random(seed)
    rules = make_rules("casino_cash", {"game": game})
    stacks = [rng.choice([30, 200, 1000]) for _ in range(players)]
    state = start_hand(deal_setup(rules, Stakes(small_blind=5, big_blind=10), stacks))
    pool = list(deck(deck_kind_for(rules)))
    check_ledger(state)
    for _ in range(200):
        if state.is_over:
            break
        for action in random_step(rng, state, pool):
            try:
                state = apply(state, action)
            except RuleViolation:
                break
            check_ledger(state)
            check_choice(state)
    # The log replays to the same hand, ledger included.
    replayed = start_hand(state.setup)
    for action in state.log:
        replayed = apply(replayed, action)
    assert replayed.__dict__ == state.__dict__


def test_a_hand_with_procedures_exports_to_phh_with_its_final_hole_cards() -> None:
    """PHH has no burns or cards set aside: the export leaves the ledger's actions out, gives
    each player the cards the hand ended with (the replacement, never the exposed card), and
    replays to the same result."""
    state = apply(hand(2), deal_hole(1, cards("Qs 7d")))
    state = carried_out(state, Trigger.OTHER_HOLE_CARD_EXPOSED, player=1, details={"card": "7d"})
    state = play(state, "c x | /As Kc 2h | b20")
    state = carried_out(state, Trigger.PREMATURE_TURN, details={"card": "3s"})
    state = play(state, "c | /9d | x x | /3s | x x")
    state = apply(state, show(0, cards("Ah Ad")))
    state = apply(state, show(1, cards("Qs 7c")))
    assert state.is_over
    text = state_to_phh(state)
    assert "7d" not in text
    assert "Qs7c" in text
    assert verify(parse_phh(text), state.setup.rules).stacks == state.stacks
