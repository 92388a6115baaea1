"""Bet sizes: what the player to act may do, and the limits of each structure (RULES.md 5.2-5.5)."""

from __future__ import annotations

from dataclasses import dataclass

from dealer.engine.rules import PlFormula, PlMinBet, PlMinRaise, Structure
from dealer.engine.state import HandState, Phase


@dataclass(frozen=True, slots=True, kw_only=True)
class LegalActions:
    """The decision due now. Amounts for bets and raises are totals for this street ("raise to").

    `min_raise_to`/`max_raise_to` are None when no bet or raise is possible; when the player has
    less than a full raise, both are the all-in total. `pot_raise_to` is the pot-sized bet or raise
    (in pot limit it is the maximum: the dealer's POT button); `half_pot_raise_to` raises by half
    of that, offered only when it lies strictly between the minimum and the pot size.
    """

    actor: int
    can_fold: bool
    can_check: bool
    call: int  # chips the player adds to call (0 when checking); an all-in call is capped
    is_bet: bool  # True when an aggressive action is a bet (nothing to call yet this street)
    min_raise_to: int | None
    max_raise_to: int | None
    pot_raise_to: int | None
    half_pot_raise_to: int | None
    all_in_to: int  # the player's bet if they push every chip

    def as_dict(self) -> dict[str, object]:
        return {
            "actor": self.actor,
            "can_fold": self.can_fold,
            "can_check": self.can_check,
            "call": self.call,
            "is_bet": self.is_bet,
            "min_raise_to": self.min_raise_to,
            "max_raise_to": self.max_raise_to,
            "pot_raise_to": self.pot_raise_to,
            "half_pot_raise_to": self.half_pot_raise_to,
            "all_in_to": self.all_in_to,
        }


def limit_unit(state: HandState) -> int:
    """Fixed-limit bet size: the small bet preflop and on the flop, doubled later (S3)."""
    small = state.setup.small_bet
    return small if state.street < 2 else 2 * small


def to_call(state: HandState, player: int) -> int:
    return max(0, state.high - state.bets[player])


def legal_actions(state: HandState) -> LegalActions | None:
    """What the player to act may do now; None when no betting decision is due."""
    if state.phase != Phase.BETTING or state.actor is None:
        return None
    player = state.actor
    owed = to_call(state, player)
    call = min(owed, state.stacks[player])
    all_in_to = state.bets[player] + state.stacks[player]
    low: int | None = None
    high: int | None = None
    pot: int | None = None
    half: int | None = None
    if may_raise(state, player):
        low, high = raise_bounds(state, player)
        full_pot = pot_limit_max(state, player)
        pot = min(max(full_pot, low), high)
        half_size = state.high + (full_pot - state.high) // 2
        half = half_size if low < half_size < pot else None
    return LegalActions(
        actor=player,
        can_fold=True,  # folding when a check is possible is legal (S3)
        can_check=owed == 0,
        call=call,
        is_bet=state.high == 0,
        min_raise_to=low,
        max_raise_to=high,
        pot_raise_to=pot,
        half_pot_raise_to=half,
        all_in_to=all_in_to,
    )


def may_raise(state: HandState, player: int) -> bool:
    """Whether the player may bet or raise at all, whatever the size."""
    return raise_refusal(state, player) is None


def raise_refusal(state: HandState, player: int) -> tuple[str, str] | None:
    """Why the player may not bet or raise now, as (code, sentence); None when they may."""
    name = state.seat_name(player).capitalize()
    if state.stacks[player] <= to_call(state, player):
        return "not_enough_to_raise", f"{name} has only enough chips to call."
    if not any(
        i != player and not state.folded[i] and state.bets[i] + state.stacks[i] > state.high
        for i in range(state.player_count)
    ):
        return (
            "nobody_to_raise",
            "Nobody left in the hand has chips to call a raise: call or fold.",
        )
    rules = state.setup.rules
    if state.acted[player] >= 0 and not _reopened(state, player):
        return (
            "action_not_reopened",
            f"{name} already acted and the all-in since then was "
            "not a full raise, so betting is not reopened: call or fold (T 47).",
        )
    if rules.structure is Structure.FIXED_LIMIT and _capped_now(state):
        return (
            "betting_capped",
            f"Betting is capped at {rules.fl_cap_bets} bets this round: call or fold.",
        )
    return None


def _reopened(state: HandState, player: int) -> bool:
    # T 47 / R: only a full raise (or short all-ins adding up to one) reopens the action.
    if state.setup.rules.structure is Structure.FIXED_LIMIT:
        return state.full_level > state.acted[player]
    return state.high - state.acted[player] >= state.last_full_raise


def _capped_now(state: HandState) -> bool:
    rules = state.setup.rules
    if state.raise_count < rules.fl_cap_bets:
        return False
    return state.capped or not headsup_lift(state)


def headsup_lift(state: HandState) -> bool:
    """`fl_headsup_uncapped`: no cap while at most two players can still bet (S2; R; A3)."""
    if not state.setup.rules.fl_headsup_uncapped:
        return False
    return sum(1 for i in range(state.player_count) if state.can_act(i)) <= 2


def raise_bounds(state: HandState, player: int) -> tuple[int, int]:
    """(minimum, maximum) bet or raise-to total for the player; assumes raising is allowed."""
    all_in_to = state.bets[player] + state.stacks[player]
    structure = state.setup.rules.structure
    if structure is Structure.FIXED_LIMIT:
        target = state.full_level + limit_unit(state)
        return min(target, all_in_to), min(target, all_in_to)
    low = min_raise_to(state)
    if structure is Structure.NO_LIMIT:
        top = all_in_to
    else:
        top = min(pot_limit_max(state, player), all_in_to)
    if structure is Structure.POT_LIMIT and _overbet_agreed(state):
        top = all_in_to
    low = min(low, all_in_to)
    return low, max(low, top)


def min_raise_to(state: HandState) -> int:
    """No limit and pot limit: the least bet or raise-to (S1, S4, R; `pl_min_bet`, `pl_min_raise`).

    A bet is at least the big blind; a raise adds at least the last full bet or raise.
    """
    rules = state.setup.rules
    if rules.structure is Structure.POT_LIMIT:
        street_limit = limit_unit(state)
        if state.high == 0 and rules.pl_min_bet is PlMinBet.STREET_LIMIT:
            return street_limit
        if state.high > 0 and rules.pl_min_raise is PlMinRaise.STREET_LIMIT:
            return state.high + street_limit
    return state.high + state.last_full_raise


def pot_limit_max(state: HandState, player: int) -> int:
    """The pot-limit maximum: raise-to = high + pot + to_call (S2, S3; R).

    `pot` is everything in the middle including this street's bets. Preflop a short blind counts
    in full (T 54-B) and, with `pl_sb_as_bb`, the small blind counts as a big blind (R). With
    `pl_formula=s0_literal` the raise is the pot before the call (S0's own example, X1).
    """
    pot = state.pot_total + (state.pl_preflop_extra if state.street == 0 else 0)
    if state.setup.rules.pl_formula is PlFormula.S0_LITERAL:
        return state.high + pot
    return state.high + pot + to_call(state, player)


def _overbet_agreed(state: HandState) -> bool:
    # S2: two-handed, the players may agree to bet any amount (A4).
    return state.setup.rules.pl_headsup_overbet_by_agreement and len(state.in_hand()) == 2
