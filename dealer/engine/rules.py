"""Rule options as one validated, immutable configuration (RULES.md sections 0-9).

A table or tournament starts from a named profile (`tda_tournament`, `casino_cash`,
`texas_6plus`) and may override single keys. Every key of RULES.md is a field of `Rules`, with the
default written there; `make_rules` refuses an unknown key or an impossible value with a sentence
that names the key and the values it accepts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dealer.engine.errors import ConfigError

# Allowed values for every option that is a choice; the first one is the RULES.md default.
CHOICES: dict[str, tuple[str, ...]] = {
    "mode": ("cash", "tournament"),
    "game": ("holdem", "sixplus"),
    "structure": ("no_limit", "pot_limit", "fixed_limit"),
    "initial_button": ("draw", "first_seated"),
    "draw_tiebreak": ("suit", "deal_order"),
    "button_mode": ("moving", "dead"),
    "heads_up_button_posts": ("small", "big"),
    "short_blind": ("allin_post", "half_rule"),
    "missed_blind_policy": (
        "S2_casino",
        "S0_missed_blinds",
        "S3_blind_penalties",
        "TDA_tournament",
    ),
    "missed_sb_fallback": ("sb_dead", "bb_live_s3"),
    "fl_short_allin": ("half_bet", "full_bet"),
    "pl_formula": ("standard", "s0_literal"),
    "pl_min_bet": ("bb", "street_limit"),
    "pl_min_raise": ("last_raise", "street_limit"),
    "action_threshold": ("two_acted", "tda_substantial"),
    "odd_chip": ("left_of_button", "high_card_by_suit"),
    "play_board_claim": ("table_both", "declare_then_muck", "muck_ok"),
    "early_exposed_misdeal": ("first", "first_or_second", "none"),
}

# Whole-number options and their allowed range (inclusive).
NUMBERS: dict[str, tuple[int, int]] = {"fl_cap_bets": (1, 100)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """Every rule option of RULES.md with its default. Build one with `make_rules`."""

    profile: str = "custom"
    mode: str = "cash"
    game: str = "holdem"
    structure: str = "no_limit"
    # Section 2: seating and button.
    initial_button: str = "draw"
    draw_tiebreak: str = "suit"
    button_mode: str = "moving"
    heads_up_button_posts: str = "small"
    # Section 3: blinds, antes, straddle.
    short_blind: str = "allin_post"
    bb_ante: bool = False
    straddle_allowed: bool = False
    # Section 4: missed blinds.
    missed_blind_policy: str = "S2_casino"
    missed_sb_fallback: str = "sb_dead"
    # Section 5: betting.
    fl_cap_bets: int = 4
    fl_headsup_uncapped: bool = True
    fl_short_allin: str = "half_bet"
    pl_formula: str = "standard"
    pl_sb_as_bb: bool = False
    pl_min_bet: str = "bb"
    pl_min_raise: str = "last_raise"
    pl_headsup_overbet_by_agreement: bool = False
    action_threshold: str = "two_acted"
    # Sections 6-7: pots and showdown.
    odd_chip: str = "left_of_button"
    play_board_claim: str = "table_both"
    table_all_in: bool = False
    # Section 8: dealer-error procedures.
    r_misdeal_triggers: bool = True
    early_exposed_misdeal: str = "first"
    allow_short_card_fix: bool = True
    redeal_cut: bool = True
    premature_river_burn: bool = False
    # Section 1: Texas 6+ ranking options.
    sixplus_flush_beats_full_house: bool = False
    sixplus_trips_beat_straight: bool = False

    def as_dict(self) -> dict[str, Any]:
        """All options as plain values (for storage, the API and PHH export)."""
        return dataclasses.asdict(self)

    @property
    def is_tournament(self) -> bool:
        return self.mode == "tournament"


# What each profile changes from the defaults above (RULES.md section 0).
PROFILES: dict[str, dict[str, Any]] = {
    "casino_cash": {"straddle_allowed": True},
    "tda_tournament": {"mode": "tournament"},
    "texas_6plus": {
        "game": "sixplus",
        "heads_up_button_posts": "big",
        "draw_tiebreak": "deal_order",
        "missed_blind_policy": "S0_missed_blinds",
        "initial_button": "first_seated",
    },
}

# Keys that follow the mode (over the profile's values) unless the caller overrides them:
# a tournament uses the dead button, the TDA absent-player policy, a drawn button, no straddle,
# hands tabled once all-in, TDA's action threshold and the cap kept until the event is heads-up.
TOURNAMENT_DEFAULTS: dict[str, Any] = {
    "button_mode": "dead",
    "missed_blind_policy": "TDA_tournament",
    "initial_button": "draw",
    "straddle_allowed": False,
    "table_all_in": True,
    "action_threshold": "tda_substantial",
    "fl_headsup_uncapped": False,
}

_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}


def make_rules(profile: str = "casino_cash", overrides: Mapping[str, Any] | None = None) -> Rules:
    """Build the rules from a profile plus single-key overrides, refusing anything invalid."""
    if profile not in PROFILES:
        names = ", ".join(sorted(PROFILES))
        raise ConfigError(
            f"Unknown rule profile '{profile}': choose one of {names}.", code="unknown_profile"
        )
    overrides = dict(overrides or {})
    for key in overrides:
        if key not in _FIELDS or key == "profile":
            raise ConfigError(f"Unknown rule option '{key}'.", code="unknown_option")
    values: dict[str, Any] = dict(PROFILES[profile])
    mode = overrides.get("mode", values.get("mode", "cash"))
    if mode == "tournament":
        values.update(TOURNAMENT_DEFAULTS)
    values.update(overrides)
    for key, value in values.items():
        values[key] = _check_value(key, value)
    rules = Rules(profile=profile, **values)
    check_rules(rules)
    return rules


def _check_value(key: str, value: Any) -> Any:
    default = _FIELDS[key].default
    if key in CHOICES:
        if value not in CHOICES[key]:
            allowed = ", ".join(CHOICES[key])
            raise ConfigError(
                f"Rule option '{key}' cannot be '{value}': use one of {allowed}.",
                code="bad_option_value",
            )
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(
                f"Rule option '{key}' must be true or false, not '{value}'.",
                code="bad_option_value",
            )
        return value
    if key in NUMBERS:
        low, high = NUMBERS[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(
                f"Rule option '{key}' must be a whole number from {low} to {high}.",
                code="bad_option_value",
            )
        return value
    raise ConfigError(f"Rule option '{key}' cannot be set.", code="unknown_option")


def check_rules(rules: Rules) -> None:
    """Refuse combinations that cannot be played (each message says which keys clash)."""
    if rules.game != "sixplus" and (
        rules.sixplus_flush_beats_full_house or rules.sixplus_trips_beat_straight
    ):
        raise ConfigError(
            "The options sixplus_flush_beats_full_house and "
            "sixplus_trips_beat_straight apply only to Texas 6+ (game=sixplus).",
            code="bad_option_combination",
        )
    if rules.is_tournament and rules.straddle_allowed:
        raise ConfigError(
            "Straddles are for cash tables only: straddle_allowed must be false in a tournament.",
            code="bad_option_combination",
        )
    if (rules.missed_blind_policy == "TDA_tournament") != rules.is_tournament:
        raise ConfigError(
            "missed_blind_policy=TDA_tournament goes with mode=tournament, and only there.",
            code="bad_option_combination",
        )
