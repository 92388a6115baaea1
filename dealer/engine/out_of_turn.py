"""Action out of turn (T 53; docs/rules.md "Action out of turn"): what a declaration may be and
when it stands. The hand (`hand.py`) records it and applies it when the player's turn comes.

The action is backed up to the player skipped. The out-of-turn action then waits: it stands
(is binding) if the action to that player has not changed by their turn, that is if the bet to
match is still the one they faced when they acted (a check, call or fold by a skipped player
changes nothing). If a skipped player bet or raised, it does not stand: the chips are returned
and the player has every option. A fold out of turn always stands, at once.
"""

from __future__ import annotations

from dealer.engine.actions import BETTING_KINDS, Action
from dealer.engine.errors import RuleViolation
from dealer.engine.state import HandState, OutOfTurn, Phase


def declared_action(state: HandState, action: Action) -> Action:
    """The betting action that `action` (a `Kind.OUT_OF_TURN` entry) declares, for its player,
    refused when it is not an action out of turn: nobody is to act, the player is the one to act,
    has nothing to decide now, or already acted out of turn on this street (T 53-A)."""
    if state.phase != Phase.BETTING or state.actor is None:
        raise RuleViolation("No betting action is due now.", code="not_betting")
    player = action.player
    if player is None or not 0 <= player < state.player_count:
        raise RuleViolation("Say which player acted out of turn.", code="player_required")
    if action.declared not in BETTING_KINDS:
        raise RuleViolation(
            "Say what the player did: fold, check, call, bet or raise.", code="bad_details"
        )
    name = state.seat_name(player).capitalize()
    if player == state.actor:
        raise RuleViolation(
            f"It is {state.seat_name(player)}'s turn: enter the action as usual.", code="in_turn"
        )
    if not state.needs_to_act(player):
        raise RuleViolation(
            f"{name} has no decision to make now, so this is not an action out of turn.",
            code="nothing_to_decide",
        )
    if state.pending_of(player) is not None:
        raise RuleViolation(
            f"{name} already acted out of turn: that action waits for the turn.",
            code="already_pending",
        )
    declared = action.declared
    assert declared is not None
    return Action(kind=declared, player=player, amount=action.amount)


def stands(state: HandState, entry: OutOfTurn) -> bool:
    """T 53-A: at the player's turn, the action out of turn is binding when the action to the
    player has not changed: the bet to match is still the one faced when it was made."""
    return state.high == entry.facing


def skipped(state: HandState, player: int) -> tuple[int, ...]:
    """The players the action out of turn by `player` skipped: from the player to act up to
    `player`, the ones who still owe a decision."""
    count = state.player_count
    actor = state.actor if state.actor is not None else player
    seats = ((actor + step) % count for step in range(count))
    out: list[int] = []
    for seat in seats:
        if seat == player:
            break
        if state.needs_to_act(seat):
            out.append(seat)
    return tuple(out)


def without(state: HandState, player: int) -> tuple[OutOfTurn, ...]:
    """The waiting actions out of turn but the player's."""
    return tuple(entry for entry in state.pending if entry.player != player)


__all__ = ["OutOfTurn", "declared_action", "skipped", "stands", "without"]
