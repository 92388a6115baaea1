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

from typing import TYPE_CHECKING

if TYPE_CHECKING:
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

# The names below are imported on first use (PEP 562): `python -m dealer.engine.phh replay`
# starts through this package, and most hands it replays never need play.py (the strict path).
_MODULES = {
    "VARIANTS": "history",
    "HandHistory": "history",
    "PhhError": "history",
    "dumps_phh": "history",
    "dumps_phhs": "history",
    "history_from_fields": "history",
    "parse_phh": "history",
    "parse_phhs": "history",
    "split_hands": "history",
}


def __getattr__(name: str) -> object:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    module = importlib.import_module(f"{__name__}.{_MODULES.get(name, 'play')}")
    value = getattr(module, name)
    globals()[name] = value
    return value


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
