"""The rules of the hand for Texas Hold'em and Texas 6+: pure Python, standard library only.

Typical use::

    rules = make_rules("casino_cash", {"structure": "pot_limit"})
    state = start_hand(deal_setup(rules, Stakes(small_blind=1, big_blind=2), [200, 200, 200]))
    legal_actions(state)            # who acts, call amount, min and max raise-to
    state = apply(state, raise_to(7))
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dealer.engine.actions import (
        Action,
        Kind,
        all_in,
        award,
        bet,
        call,
        check,
        claim_board,
        deal_board,
        deal_hole,
        fold,
        kill,
        misdeal,
        muck,
        raise_to,
        reveal_board,
        run_twice,
        show,
        take_back_board,
    )
    from dealer.engine.betting import LegalActions, legal_actions
    from dealer.engine.cards import Card, CardError, DeckKind, format_cards, parse_cards
    from dealer.engine.errors import ConfigError, EngineError, RuleViolation
    from dealer.engine.hand import apply, start_hand, threshold_passed
    from dealer.engine.pots import Pot, side_pots
    from dealer.engine.procedures import TRIGGER_LABELS, Effect, Remedy, Trigger, remedy
    from dealer.engine.ranking import Category, HandRank, Ranker
    from dealer.engine.rules import PROFILES, Rules, make_rules
    from dealer.engine.setup import HandSetup, PlayerSetup, Stakes, deal_setup
    from dealer.engine.showdown import (
        before_award,
        next_to_show,
        pushes,
        showdown_order,
        showdown_pots,
    )
    from dealer.engine.state import Award, HandState, Phase

# The names below are imported from their modules on first use (PEP 562), so that a program that
# needs a few of them (the PHH command line's start-up) does not import the whole engine.
_MODULES = {
    "Action": "actions",
    "Kind": "actions",
    "all_in": "actions",
    "award": "actions",
    "bet": "actions",
    "call": "actions",
    "check": "actions",
    "claim_board": "actions",
    "deal_board": "actions",
    "deal_hole": "actions",
    "fold": "actions",
    "kill": "actions",
    "misdeal": "actions",
    "muck": "actions",
    "raise_to": "actions",
    "reveal_board": "actions",
    "run_twice": "actions",
    "show": "actions",
    "take_back_board": "actions",
    "LegalActions": "betting",
    "legal_actions": "betting",
    "Card": "cards",
    "CardError": "cards",
    "DeckKind": "cards",
    "format_cards": "cards",
    "parse_cards": "cards",
    "ConfigError": "errors",
    "EngineError": "errors",
    "RuleViolation": "errors",
    "apply": "hand",
    "start_hand": "hand",
    "threshold_passed": "hand",
    "Pot": "pots",
    "side_pots": "pots",
    "TRIGGER_LABELS": "procedures",
    "Effect": "procedures",
    "Remedy": "procedures",
    "Trigger": "procedures",
    "remedy": "procedures",
    "Category": "ranking",
    "HandRank": "ranking",
    "Ranker": "ranking",
    "PROFILES": "rules",
    "Rules": "rules",
    "make_rules": "rules",
    "HandSetup": "setup",
    "PlayerSetup": "setup",
    "Stakes": "setup",
    "deal_setup": "setup",
    "before_award": "showdown",
    "next_to_show": "showdown",
    "pushes": "showdown",
    "showdown_order": "showdown",
    "showdown_pots": "showdown",
    "Award": "state",
    "HandState": "state",
    "Phase": "state",
}


def __getattr__(name: str) -> object:
    module_name = _MODULES.get(name)
    if module_name is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module_name}"), name)
    globals()[name] = value
    return value


__all__ = [
    "PROFILES",
    "TRIGGER_LABELS",
    "Action",
    "Award",
    "Card",
    "CardError",
    "Category",
    "ConfigError",
    "DeckKind",
    "Effect",
    "EngineError",
    "HandRank",
    "HandSetup",
    "HandState",
    "Kind",
    "LegalActions",
    "Phase",
    "PlayerSetup",
    "Pot",
    "Ranker",
    "Remedy",
    "RuleViolation",
    "Rules",
    "Stakes",
    "Trigger",
    "all_in",
    "apply",
    "award",
    "before_award",
    "bet",
    "call",
    "check",
    "claim_board",
    "deal_board",
    "deal_hole",
    "deal_setup",
    "fold",
    "format_cards",
    "kill",
    "legal_actions",
    "make_rules",
    "misdeal",
    "muck",
    "next_to_show",
    "parse_cards",
    "pushes",
    "raise_to",
    "remedy",
    "reveal_board",
    "run_twice",
    "show",
    "showdown_order",
    "showdown_pots",
    "side_pots",
    "start_hand",
    "take_back_board",
    "threshold_passed",
]
