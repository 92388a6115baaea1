"""The card ledger's own actions: burns, cards set aside, premature board cards (RULES.md 8).

The dealer-error procedures (procedures.py) answer with these actions; `hand.apply` runs them
here. Each one moves cards between the places of ledger.py and refuses a card that is already
somewhere else, so that a card out of play can never be dealt or shown afterwards.
"""

from __future__ import annotations

from dealer.engine.actions import Action, Kind
from dealer.engine.cards import Card
from dealer.engine.errors import RuleViolation
from dealer.engine.game import check_cards_fit, seen_cards
from dealer.engine.ledger import stub_count
from dealer.engine.state import STREET_NAMES, HandState, Phase, evolve, replace_at

__all__ = ["ledger_action"]


def ledger_action(state: HandState, action: Action) -> HandState:
    """Apply a BURN, SET_ASIDE or PREMATURE action (see actions.py)."""
    if action.kind == Kind.BURN:
        new = _burn(state, action)
    elif action.kind == Kind.SET_ASIDE:
        new = _set_aside(state, action)
    else:
        new = _premature(state, action)
    if stub_count(new) < 0:
        raise RuleViolation("There are not that many cards left in the stub.", code="stub_empty")
    return new


def _taken_from(state: HandState, action: Action) -> HandState:
    """When the action names a player, its card leaves that player's hand (the player gets the
    next card of the stub instead: S2). Returns the state with the hand updated; refuses a card
    that is not the player's as entered."""
    player = action.player
    if player is None:
        return state
    if not 0 <= player < state.player_count:
        raise RuleViolation("Say which player this is for.", code="player_required")
    if state.street > 0:
        raise RuleViolation(
            "A hole card is replaced only on the deal, before the flop (S2).",
            code="deal_over",
        )
    if len(action.cards) != 1:
        raise RuleViolation("Name the one card taken from the hand.", code="wrong_card_count")
    card = action.cards[0]
    known = state.holes[player]
    if known is None or all(c is None for c in known):
        return state
    if card is None:
        cleared: tuple[Card | None, ...] = (None,) * len(known)  # which one is not known
    elif card in known:
        cleared = tuple(None if c == card else c for c in known)
    elif all(c is not None for c in known):
        hand = " ".join(str(c) for c in known if c is not None)
        raise RuleViolation(
            f"{card} is not one of {state.seat_name(player)}'s cards as entered ({hand}).",
            code="cards_conflict",
        )
    else:
        cleared = known
    return evolve(state, holes=replace_at(state.holes, player, cleared))


def _check(state: HandState, cards: tuple[Card | None, ...]) -> None:
    check_cards_fit(state.setup.rules, cards, seen_cards(state))


def _burn(state: HandState, action: Action) -> HandState:
    if state.street >= 3 or state.phase in (Phase.SHOWDOWN, Phase.COMPLETE, Phase.VOID):
        raise RuleViolation(
            "Every board card is out: there is no burn left to record.", code="no_burn_due"
        )
    new = _taken_from(state, action)
    _check(new, action.cards)
    if action.player is not None:
        # S2: the exposed card goes face up on the stub and is the next burn.
        return evolve(new, next_burn=(*(state.next_burn or ()), *action.cards))
    pending = [card for card in state.next_burn or () if card is not None]
    if pending:
        shown = ", ".join(str(card) for card in pending)
        raise RuleViolation(
            f"The next burn is already set: {shown}, taken from a hand (S2).",
            code="burn_already_set",
        )
    return evolve(new, next_burn=action.cards)


def _set_aside(state: HandState, action: Action) -> HandState:
    back = action.amount
    if back is not None and not state.street < back <= 3:
        raise RuleViolation(
            "Cards set aside go back into the stub at a street still to come.",
            code="bad_street",
        )
    if not action.cards:
        raise RuleViolation("Name the cards set aside (?? when unknown).", code="no_cards")
    new = _taken_from(state, action)
    _check(new, action.cards)
    return evolve(new, aside=(*new.aside, *((card, back) for card in action.cards)))


def _premature(state: HandState, action: Action) -> HandState:
    """S2: board cards turned before the betting before them was over are taken out of play.
    A premature flop goes back into the stub for the flop's redeal, which keeps the first burn;
    a premature turn or river goes back for the river, dealt without a burn unless
    `premature_river_burn` (R)."""
    street = action.amount
    if street not in (1, 2, 3):
        raise RuleViolation("Say which street came too soon.", code="bad_street")
    name = STREET_NAMES[street]
    if state.phase != Phase.BETTING or state.street != street - 1:
        raise RuleViolation(
            f"The {name} is not early: the {STREET_NAMES[street - 1]} betting is not under way.",
            code="not_premature",
        )
    due = 3 if street == 1 else 1
    if len(action.cards) != due:
        raise RuleViolation(
            f"The {name} is {due} card{'s' if due > 1 else ''}: enter them (?? when unknown).",
            code="wrong_card_count",
        )
    _check(state, action.cards)
    burned = state.next_burn if state.next_burn is not None else (None,)
    back = 1 if street == 1 else 3
    # The deal that takes no burn: the flop's redeal (S2), or the river (R, unless the option).
    river_skip = 0 if state.setup.rules.premature_river_burn else 3
    skip = 1 if street == 1 else river_skip
    return evolve(
        state,
        burns=state.burns + burned,
        next_burn=None,
        aside=(*state.aside, *((card, back) for card in action.cards)),
        skip_burn=skip,
    )
