"""A compact notation for scripted hands in tests.

`play(state, "c r60 f x b20 k")`: f fold, x check, c call, b<N> bet to N, r<N> raise to N,
a all-in, `/As Kd 7c` deal the board cards (or `/-` for one unknown card per card due).
"""

from __future__ import annotations

from dealer.engine import HandState, apply
from dealer.engine.actions import Action, Kind
from dealer.engine.cards import parse_cards

_SIMPLE = {"f": Kind.FOLD, "x": Kind.CHECK, "k": Kind.CHECK, "c": Kind.CALL, "a": Kind.ALL_IN}


def action(token: str) -> Action:
    """One token of the notation as an engine action."""
    if token in _SIMPLE:
        return Action(kind=_SIMPLE[token])
    if token[0] == "b":
        return Action(kind=Kind.BET, amount=int(token[1:]))
    if token[0] == "r":
        return Action(kind=Kind.RAISE, amount=int(token[1:]))
    raise ValueError(f"bad token {token!r}")


def play(state: HandState, script: str) -> HandState:
    """Apply a whole script of actions and board deals."""
    for part in script.split("|"):
        part = part.strip()
        if part.startswith("/"):
            text = part[1:].strip()
            cards = (None,) * state.board_cards_due() if text == "-" else parse_cards(text)
            state = apply(state, Action(kind=Kind.DEAL_BOARD, cards=tuple(cards)))
            continue
        for token in part.split():
            state = apply(state, action(token))
    return state
