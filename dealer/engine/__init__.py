"""The rules of the hand for Texas Hold'em and Texas 6+: pure Python, standard library only.

Typical use::

    rules = make_rules("casino_cash", {"structure": "pot_limit"})
    state = start_hand(deal_setup(rules, Stakes(small_blind=1, big_blind=2), [200, 200, 200]))
    legal_actions(state)            # who acts, call amount, min and max raise-to
    state = apply(state, raise_to(7))
"""

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
