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
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any, TypeAlias

from dealer.engine.errors import ConfigError

OptionValue: TypeAlias = str | bool | int | float
"""One rule option's value as stored and sent: a choice (its string or its member: a StrEnum is
a str), true or false, or a number (a decimal one, such as a rake of 2.5, as a float)."""

# One StrEnum per option that is a choice; the first member is the RULES.md default. A member
# equals its string ("tournament" == Mode.TOURNAMENT), so stored rules and API values are the
# strings; code compares a rule option with a member, never with a string literal.


class Mode(StrEnum):
    CASH = "cash"
    TOURNAMENT = "tournament"


class Game(StrEnum):
    HOLDEM = "holdem"
    SIXPLUS = "sixplus"


class Structure(StrEnum):
    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


class InitialButton(StrEnum):
    DRAW = "draw"
    FIRST_SEATED = "first_seated"


class DrawTiebreak(StrEnum):
    SUIT = "suit"
    DEAL_ORDER = "deal_order"


class ButtonMode(StrEnum):
    MOVING = "moving"
    DEAD = "dead"


class HeadsUpButtonPosts(StrEnum):
    SMALL = "small"
    BIG = "big"


class ShortBlind(StrEnum):
    ALLIN_POST = "allin_post"
    HALF_RULE = "half_rule"


class MissedBlindPolicy(StrEnum):
    S2_CASINO = "S2_casino"
    S0_MISSED_BLINDS = "S0_missed_blinds"
    S3_BLIND_PENALTIES = "S3_blind_penalties"
    TDA_TOURNAMENT = "TDA_tournament"


class MissedSbFallback(StrEnum):
    SB_DEAD = "sb_dead"
    BB_LIVE_S3 = "bb_live_s3"


class FlShortAllin(StrEnum):
    HALF_BET = "half_bet"
    FULL_BET = "full_bet"


class PlFormula(StrEnum):
    STANDARD = "standard"
    S0_LITERAL = "s0_literal"


class PlMinBet(StrEnum):
    BB = "bb"
    STREET_LIMIT = "street_limit"


class PlMinRaise(StrEnum):
    LAST_RAISE = "last_raise"
    STREET_LIMIT = "street_limit"


class ActionThreshold(StrEnum):
    TWO_ACTED = "two_acted"
    TDA_SUBSTANTIAL = "tda_substantial"


class OddChip(StrEnum):
    LEFT_OF_BUTTON = "left_of_button"
    HIGH_CARD_BY_SUIT = "high_card_by_suit"


class PlayBoardClaim(StrEnum):
    TABLE_BOTH = "table_both"
    DECLARE_THEN_MUCK = "declare_then_muck"
    MUCK_OK = "muck_ok"


class EarlyExposedMisdeal(StrEnum):
    FIRST = "first"
    FIRST_OR_SECOND = "first_or_second"
    NONE = "none"


OPTIONS: dict[str, type[StrEnum]] = {
    "mode": Mode,
    "game": Game,
    "structure": Structure,
    "initial_button": InitialButton,
    "draw_tiebreak": DrawTiebreak,
    "button_mode": ButtonMode,
    "heads_up_button_posts": HeadsUpButtonPosts,
    "short_blind": ShortBlind,
    "missed_blind_policy": MissedBlindPolicy,
    "missed_sb_fallback": MissedSbFallback,
    "fl_short_allin": FlShortAllin,
    "pl_formula": PlFormula,
    "pl_min_bet": PlMinBet,
    "pl_min_raise": PlMinRaise,
    "action_threshold": ActionThreshold,
    "odd_chip": OddChip,
    "play_board_claim": PlayBoardClaim,
    "early_exposed_misdeal": EarlyExposedMisdeal,
}
"""The enum of every option that is a choice."""

# Allowed values for every option that is a choice, as strings; the first one is the default.
CHOICES: dict[str, tuple[str, ...]] = {
    key: tuple(member.value for member in enum) for key, enum in OPTIONS.items()
}

# Whole-number options and their allowed range (inclusive).
NUMBERS: dict[str, tuple[int, int]] = {
    "fl_cap_bets": (1, 100),
    # The house's take at cash tables (RULES.md 6.5): all 0 (no rake) unless the room sets them.
    "rake_percent": (0, 25),
    "rake_cap": (0, 1_000_000),
    "rake_fixed_drop": (0, 1_000_000),
    "rake_min_pot": (0, 1_000_000),
    "promo_drop": (0, 1_000_000),
    "promo_drop_min_pot": (0, 1_000_000),
}

# Number options that take decimals, and how many places: a rake of 2.5% (issue 25). Kept as an
# int when whole and as a float otherwise, so that they store as JSON numbers; the engine reads
# them in hundredths (`hundredths`), never as a float.
DECIMALS: dict[str, int] = {"rake_percent": 2}

# The rake options: cash tables only (a tournament's prize pool is its fee, never a rake).
RAKE_OPTIONS = (
    "rake_percent",
    "rake_cap",
    "rake_fixed_drop",
    "rake_min_pot",
    "rake_no_flop_no_drop",
    "promo_drop",
    "promo_drop_min_pot",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """Every rule option of RULES.md with its default. Build one with `make_rules`."""

    profile: str = "custom"
    mode: Mode = Mode.CASH
    game: Game = Game.HOLDEM
    structure: Structure = Structure.NO_LIMIT
    # Section 2: seating and button.
    initial_button: InitialButton = InitialButton.DRAW
    draw_tiebreak: DrawTiebreak = DrawTiebreak.SUIT
    button_mode: ButtonMode = ButtonMode.MOVING
    heads_up_button_posts: HeadsUpButtonPosts = HeadsUpButtonPosts.SMALL
    # Section 3: blinds, antes, straddle.
    short_blind: ShortBlind = ShortBlind.ALLIN_POST
    bb_ante: bool = False
    straddle_allowed: bool = False
    # Section 4: missed blinds.
    missed_blind_policy: MissedBlindPolicy = MissedBlindPolicy.S2_CASINO
    missed_sb_fallback: MissedSbFallback = MissedSbFallback.SB_DEAD
    # Section 5: betting.
    fl_cap_bets: int = 4
    fl_headsup_uncapped: bool = True
    fl_short_allin: FlShortAllin = FlShortAllin.HALF_BET
    pl_formula: PlFormula = PlFormula.STANDARD
    pl_sb_as_bb: bool = False
    pl_min_bet: PlMinBet = PlMinBet.BB
    pl_min_raise: PlMinRaise = PlMinRaise.LAST_RAISE
    pl_headsup_overbet_by_agreement: bool = False
    action_threshold: ActionThreshold = ActionThreshold.TWO_ACTED
    # Sections 6-7: pots and showdown.
    odd_chip: OddChip = OddChip.LEFT_OF_BUTTON
    play_board_claim: PlayBoardClaim = PlayBoardClaim.TABLE_BOTH
    table_all_in: bool = False
    run_it_twice_allowed: bool = False  # cash only (docs/rules.md "Run it twice")
    # Section 6.5: the rake (cash tables only; 0 = none).
    rake_percent: float = 0  # percent of the pot, to two places (2.5); read with `hundredths`
    rake_cap: int = 0  # chips; 0 = no cap
    rake_fixed_drop: int = 0  # chips from every raked pot, instead of a percentage
    rake_min_pot: int = 0  # chips; a smaller pot is not raked
    rake_no_flop_no_drop: bool = False
    promo_drop: int = 0  # chips for a promotion or jackpot from every pot that reaches the next
    promo_drop_min_pot: int = 0  # chips; a smaller pot pays no promotional drop
    # Section 8: dealer-error procedures.
    r_misdeal_triggers: bool = True
    early_exposed_misdeal: EarlyExposedMisdeal = EarlyExposedMisdeal.FIRST
    allow_short_card_fix: bool = True
    redeal_cut: bool = True
    premature_river_burn: bool = False
    # Section 1: Texas 6+ ranking options.
    sixplus_flush_beats_full_house: bool = False
    sixplus_trips_beat_straight: bool = False

    def __post_init__(self) -> None:
        # Rules read back from storage (`Rules(**hand.rules)`) arrive as strings: make them members.
        for key, enum in OPTIONS.items():
            value = getattr(self, key)
            if type(value) is not enum:
                object.__setattr__(self, key, enum(value))

    def as_dict(self) -> dict[str, Any]:
        """All options as plain values (for storage, the API and PHH export): `OptionValue`s.
        Typed `Any` since they go back in as `Rules(**rules.as_dict())`, each to its field."""
        return {
            key: value.value if isinstance(value, StrEnum) else value
            for key, value in dataclasses.asdict(self).items()
        }

    @property
    def is_tournament(self) -> bool:
        return self.mode is Mode.TOURNAMENT


# What each profile changes from the defaults above (RULES.md section 0).
PROFILES: dict[str, dict[str, OptionValue]] = {
    "casino_cash": {"straddle_allowed": True},
    "tda_tournament": {"mode": Mode.TOURNAMENT},
    "texas_6plus": {
        "game": Game.SIXPLUS,
        "heads_up_button_posts": HeadsUpButtonPosts.BIG,
        "draw_tiebreak": DrawTiebreak.DEAL_ORDER,
        "missed_blind_policy": MissedBlindPolicy.S0_MISSED_BLINDS,
        "initial_button": InitialButton.FIRST_SEATED,
    },
}

# Keys that follow the mode (over the profile's values) unless the caller overrides them:
# a tournament uses the dead button, the TDA absent-player policy, a drawn button, no straddle,
# hands tabled once all-in, TDA's action threshold and the cap kept until the event is heads-up.
TOURNAMENT_DEFAULTS: dict[str, OptionValue] = {
    "button_mode": ButtonMode.DEAD,
    "missed_blind_policy": MissedBlindPolicy.TDA_TOURNAMENT,
    "initial_button": InitialButton.DRAW,
    "straddle_allowed": False,
    "table_all_in": True,
    "action_threshold": ActionThreshold.TDA_SUBSTANTIAL,
    "fl_headsup_uncapped": False,
}

# The ranking choices a Texas 6+ game offers (S0): chosen when a game is set up, by the
# desk's form and the API alike.
SIXPLUS_RANKING_OPTIONS = ("sixplus_flush_beats_full_house", "sixplus_trips_beat_straight")

# Keys that follow the game (over the profile's and the mode's values) unless the caller
# overrides them: Texas 6+ plays by S0, whose fixed limit allows "a maximum of 4 bets ... during
# any betting round" with no heads-up exception (X8), and whose button draw goes to "that player
# who receives the card of maximum value first" (X5).
SIXPLUS_DEFAULTS: dict[str, OptionValue] = {
    "fl_headsup_uncapped": False,
    "draw_tiebreak": DrawTiebreak.DEAL_ORDER,
}

_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}


def make_rules(
    profile: str = "casino_cash", overrides: Mapping[str, object] | None = None
) -> Rules:
    """Build the rules from a profile plus single-key overrides, refusing anything invalid.

    The mode's defaults (`TOURNAMENT_DEFAULTS`), then the game's (`SIXPLUS_DEFAULTS`), go over
    the profile's values; every key the caller overrides wins over all of them."""
    if profile not in PROFILES:
        names = ", ".join(sorted(PROFILES))
        raise ConfigError(
            f"Unknown rule profile '{profile}': choose one of {names}.", code="unknown_profile"
        )
    overrides = dict(overrides or {})
    for key in overrides:
        if key not in _FIELDS or key == "profile":
            raise ConfigError(f"Unknown rule option '{key}'.", code="unknown_option")
    # Each value is checked against its field by `_check_value` below; `Rules(**values)` then
    # takes them as the fields' own types, which one dict's value type cannot say.
    values: dict[str, Any] = dict(PROFILES[profile])
    mode = overrides.get("mode", values.get("mode", Mode.CASH))
    if mode == Mode.TOURNAMENT:
        values.update(TOURNAMENT_DEFAULTS)
    if overrides.get("game", values.get("game", Game.HOLDEM)) == Game.SIXPLUS:
        values.update(SIXPLUS_DEFAULTS)
    values.update(overrides)
    for key, value in values.items():
        values[key] = _check_value(key, value)
    rules = Rules(profile=profile, **values)
    check_rules(rules)
    return rules


def _check_value(key: str, value: object) -> OptionValue:
    default = _FIELDS[key].default
    if key in OPTIONS:
        if value not in CHOICES[key]:
            allowed = ", ".join(CHOICES[key])
            raise ConfigError(
                f"Rule option '{key}' cannot be '{value}': use one of {allowed}.",
                code="bad_option_value",
            )
        return OPTIONS[key](str(value))  # one of the strings of CHOICES
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(
                f"Rule option '{key}' must be true or false, not '{value}'.",
                code="bad_option_value",
            )
        return value
    if key in DECIMALS:
        return _check_decimal(key, value)
    if key in NUMBERS:
        low, high = NUMBERS[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(
                f"Rule option '{key}' must be a whole number from {low} to {high}.",
                code="bad_option_value",
            )
        return value
    raise ConfigError(f"Rule option '{key}' cannot be set.", code="unknown_option")


def _check_decimal(key: str, value: object) -> int | float:
    """A decimal option (`DECIMALS`) from a JSON number or its text: at most its places, within
    its range; an int when whole."""
    low, high = NUMBERS[key]
    places = DECIMALS[key]
    number: Decimal | None = None
    if isinstance(value, int | float | str) and not isinstance(value, bool):
        try:
            number = Decimal(str(value).strip())
        except InvalidOperation:
            number = None
    if (
        number is None
        or not number.is_finite()
        or int(number.normalize().as_tuple().exponent) < -places
        or not low <= number <= high
    ):
        raise ConfigError(
            f"Rule option '{key}' must be a number from {low} to {high}, "
            f"with at most {places} decimal places (2.5).",
            code="bad_option_value",
        )
    if number == number.to_integral_value():
        return int(number)
    return float(number)


def hundredths(value: float) -> int:
    """A decimal option (`DECIMALS`, two places) as a whole number of hundredths: 2.5 -> 250,
    exactly (through its shortest text, never float arithmetic)."""
    return int(Decimal(str(value)).scaleb(2).to_integral_value())


def check_rules(rules: Rules) -> None:
    """Refuse combinations that cannot be played (each message says which keys clash)."""
    if rules.game is not Game.SIXPLUS and (
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
    _check_rake(rules)
    if rules.is_tournament and rules.run_it_twice_allowed:
        raise ConfigError(
            "Running it twice is for cash tables only: run_it_twice_allowed must be false in a "
            "tournament.",
            code="bad_option_combination",
        )
    if (rules.missed_blind_policy is MissedBlindPolicy.TDA_TOURNAMENT) != rules.is_tournament:
        raise ConfigError(
            "missed_blind_policy=TDA_tournament goes with mode=tournament, and only there.",
            code="bad_option_combination",
        )


def _check_rake(rules: Rules) -> None:
    """A tournament never rakes; a cash table rakes by a percentage or by a fixed drop, not both
    (RULES.md 6.5)."""
    if rules.is_tournament and any(getattr(rules, key) for key in RAKE_OPTIONS):
        raise ConfigError(
            "Rake is for cash tables only: a tournament takes its fee with the buy-in, so the "
            "rake options stay 0 (and no flop, no drop off) in a tournament.",
            code="bad_option_combination",
        )
    if rules.rake_percent and rules.rake_fixed_drop:
        raise ConfigError(
            "Rake either by a percentage or by a fixed drop: set rake_percent or "
            "rake_fixed_drop, not both.",
            code="bad_option_combination",
        )
