"""PHH hand histories: import (strict replay through the engine), export, and a small CLI.

Variants: NT (no-limit), FT (fixed-limit) and PT (pot-limit Texas hold'em; our code, with NT's
fields). Players are in PHH order: p1 is the first seat left of the button, our index 0.

    history = parse_phh(text)                 # fields checked: PhhError(code, detail)
    state = replay(history)                   # every action applied strictly; may be mid-hand
    state = verify(history)                   # ...and the hand must be over, stacks must match
    text = state_to_phh(state)                # a hand the engine played, as PHH

CLI: `python -m dealer.engine.phh replay FILE...` and `python -m dealer.engine.phh legal FILE`
(see docs/phh.md).
"""

from dealer.engine.phh.history import (
    VARIANTS,
    HandHistory,
    PhhError,
    dumps_phh,
    dumps_phhs,
    history_from_fields,
    parse_phh,
    parse_phhs,
    split_hands,
)
from dealer.engine.phh.play import (
    PhhAction,
    ReplayError,
    apply_action,
    decision,
    default_rules,
    history_from_state,
    history_to_setup,
    parse_action,
    replay,
    state_to_phh,
    verify,
    what_is_due,
)

__all__ = [
    "VARIANTS",
    "HandHistory",
    "PhhAction",
    "PhhError",
    "ReplayError",
    "apply_action",
    "decision",
    "default_rules",
    "dumps_phh",
    "dumps_phhs",
    "history_from_fields",
    "history_from_state",
    "history_to_setup",
    "parse_action",
    "parse_phh",
    "parse_phhs",
    "replay",
    "split_hands",
    "state_to_phh",
    "verify",
    "what_is_due",
]
