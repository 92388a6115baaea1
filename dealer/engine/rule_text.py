"""Every rule option in words: what it decides, where it comes from, and what each value means at
the table (RULES.md sections 0-8). The desk's rules editor, the API and the dealer's rules sheet
all read their words here, so a new option cannot ship without them (tests/engine/
test_rule_text.py checks that every field of `Rules` and every allowed value has words).

`describe(rules)` gives a whole set of rules in words, grouped like RULES.md, marking each value
that differs from its profile's default and each option that does not apply to this game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from dealer.engine.errors import ConfigError
from dealer.engine.rules import (
    CHOICES,
    NUMBERS,
    RAKE_OPTIONS,
    Game,
    InitialButton,
    MissedBlindPolicy,
    Mode,
    OptionValue,
    Rules,
    Structure,
    make_rules,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ValueWords:
    """One value of an option: a short label and what it means at the table."""

    label: str
    meaning: str


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionWords:
    """One option: its title, the sentence saying what it decides, its sources and its values
    (choice values by their string, true and false by the booleans; a number by `number`)."""

    key: str
    group: str
    title: str
    decides: str
    source: str
    values: Mapping[OptionValue, ValueWords] = dataclasses.field(default_factory=dict)
    number: Callable[[float], ValueWords] | None = None  # whole numbers but the rake's percent

    def words(self, value: OptionValue) -> ValueWords:
        """The words for one value (a stored string, a boolean or a number: 2.5 for a rake)."""
        if (
            self.number is not None
            and isinstance(value, int | float)
            and not isinstance(value, bool)
        ):
            return self.number(value)
        found = self.values.get(value)
        if found is None:
            return ValueWords(label=str(value), meaning="")
        return found


@dataclass(frozen=True, slots=True, kw_only=True)
class ProfileWords:
    name: str
    label: str
    meaning: str


# The groups of RULES.md, in its order: key and title.
GROUPS: tuple[tuple[str, str], ...] = (
    ("game", "Game and deck"),
    ("button", "Button and seating"),
    ("blinds", "Blinds and missed blinds"),
    ("betting", "Betting"),
    ("showdown", "Showdown and pots"),
    ("rake", "Rake (cash tables)"),
    ("errors", "Dealer errors"),
    ("sixplus", "Texas 6+ ranking"),
)

PROFILE_WORDS: dict[str, ProfileWords] = {
    "casino_cash": ProfileWords(
        name="casino_cash",
        label="Casino cash (S2)",
        meaning="Cash-table rules: a moving button, S2's missed blinds (post them at once), "
        "straddles allowed.",
    ),
    "tda_tournament": ProfileWords(
        name="tda_tournament",
        label="TDA tournament",
        meaning="Tournament rules by the TDA: a dead button, absent players dealt in and "
        "blinded off, every hand face up once all-in, and TDA's substantial action before a "
        "misdeal is ruled out.",
    ),
    "texas_6plus": ProfileWords(
        name="texas_6plus",
        label="Texas 6+ (S0)",
        meaning="The 36-card game as S0 plays it: the button posts the big blind heads-up, "
        "button-draw ties go to the card dealt first, S0's missed blinds, and in cash games "
        "the first player seated takes the button.",
    ),
}


def _yes_no(*, no: tuple[str, str], yes: tuple[str, str]) -> dict[OptionValue, ValueWords]:
    return {
        False: ValueWords(label=no[0], meaning=no[1]),
        True: ValueWords(label=yes[0], meaning=yes[1]),
    }


def _choices(**values: tuple[str, str]) -> dict[OptionValue, ValueWords]:
    return {
        value: ValueWords(label=label, meaning=meaning)
        for value, (label, meaning) in values.items()
    }


def _cap_words(count: float) -> ValueWords:
    raises = count - 1
    after = "no raise" if raises == 0 else f"{raises} raise{'s' if raises > 1 else ''}"
    return ValueWords(
        label=f"{count} bet{'s' if count > 1 else ''}",
        meaning=f"A round is capped after {count} bet{'s' if count > 1 else ''} (a bet and "
        f"{after}): after that, players may only call or fold.",
    )


def _percent_words(percent: float) -> ValueWords:
    if percent == 0:
        return ValueWords(label="0% (no rake)", meaning="The house takes nothing from the pots.")
    shown = f"{percent:g}"  # 2.5, never 2.50 or 2.5000001
    return ValueWords(
        label=f"{shown}%",
        meaning=f"The house takes {shown}% of each pot, rounded down to whole chips.",
    )


def _chips_words(chips: float, *, none: str, some: str) -> ValueWords:
    """Words for a number of chips where 0 means the option is off."""
    if chips == 0:
        return ValueWords(label=f"0 ({none.lower()})", meaning=f"{none}.")
    text = f"{chips} chip{'s' if chips > 1 else ''}"
    return ValueWords(label=text, meaning=some.format(chips=text))


_OPTIONS: tuple[OptionWords, ...] = (
    # --- game and deck ---
    OptionWords(
        key="mode",
        group="game",
        title="Kind of game",
        decides="Whether the table deals a cash game or a tournament; it sets the button, "
        "missed-blind and all-in defaults.",
        source="RULES.md 0; T",
        values=_choices(
            cash=("Cash game", "Players come and go with their own chips; missed blinds are owed."),
            tournament=(
                "Tournament",
                "Absent players are dealt in and blinded off; nobody owes missed blinds (T).",
            ),
        ),
    ),
    OptionWords(
        key="game",
        group="game",
        title="Game",
        decides="Which deck and which lowest straight the table plays.",
        source="RULES.md 1; S0, S1",
        values=_choices(
            holdem=("Texas Hold'em", "52 cards, 2 to ace; the lowest straight is A-2-3-4-5 (S1)."),
            sixplus=(
                "Texas 6+",
                "36 cards, 6 to ace; the lowest straight is A-6-7-8-9, the ace standing in for "
                "the missing 5 (S0).",
            ),
        ),
    ),
    OptionWords(
        key="structure",
        group="game",
        title="Betting structure",
        decides="How much a player may bet or raise.",
        source="RULES.md 5.3-5.5; S0, S1, S2, S3",
        values=_choices(
            no_limit=("No limit", "Any amount from the minimum bet up to the whole stack (S1)."),
            pot_limit=(
                "Pot limit",
                "At most the pot, counted after the player's call (S2, S3).",
            ),
            fixed_limit=(
                "Fixed limit",
                "Every bet and raise is one unit: the small bet before the turn, twice that on "
                "the turn and the river (S0, S3).",
            ),
        ),
    ),
    # --- button and seating ---
    OptionWords(
        key="initial_button",
        group="button",
        title="First button",
        decides="Who has the button for the table's first hand.",
        source="RULES.md 2, X15; S0, S3",
        values=_choices(
            draw=(
                "High-card draw",
                "One card to each player; the highest card takes the button, aces high (S3).",
            ),
            first_seated=(
                "First player seated",
                "The first player to sit down takes the button (S0, cash games).",
            ),
        ),
    ),
    OptionWords(
        key="draw_tiebreak",
        group="button",
        title="Ties in the button draw",
        decides="Who wins the draw for the button when the highest cards are of the same rank.",
        source="RULES.md 2, X5; S0, R, T",
        values=_choices(
            suit=(
                "By suit",
                "Spades beat hearts, hearts beat diamonds, diamonds beat clubs; nobody "
                "draws again (R, T).",
            ),
            deal_order=("First dealt", "Of the tied cards, the one dealt first wins (S0)."),
        ),
    ),
    OptionWords(
        key="button_mode",
        group="button",
        title="Button movement",
        decides="How the button and the blinds move from one hand to the next.",
        source="RULES.md 2, X14; S2, R, T",
        values=_choices(
            moving=(
                "Moving button",
                "The button moves to the next player dealt in and the blinds are the next two; "
                "a player may skip a blind (S2).",
            ),
            dead=(
                "Dead button",
                "The big blind moves one player each hand and the button may stay on an empty "
                "seat; everyone pays each blind once an orbit (T).",
            ),
        ),
    ),
    OptionWords(
        key="heads_up_button_posts",
        group="button",
        title="Heads-up blinds",
        decides="Which blind the button posts when only two players are dealt in.",
        source="RULES.md 2, X4; S0, R, T",
        values=_choices(
            small=(
                "Button posts the small blind",
                "The button posts the small blind, acts first before the flop and last after "
                "it (R, T).",
            ),
            big=(
                "Button posts the big blind",
                "The button posts the big blind; the other player posts the small blind and "
                "acts first on every street (S0).",
            ),
        ),
    ),
    # --- blinds and missed blinds ---
    OptionWords(
        key="short_blind",
        group="blinds",
        title="Short blind",
        decides="What happens when a player has fewer chips than the blind they must post.",
        source="RULES.md 3, X13; S0, S2, R",
        values=_choices(
            allin_post=(
                "Post all-in",
                "The player posts what they have and is all-in; the others still call the full "
                "blind (S0, R).",
            ),
            half_rule=(
                "Half rule",
                "Half the blind or more counts as a full blind; with less, the player is all-in, "
                "the next player posts the blind and the short player skips the button once "
                "(S2, limit games).",
            ),
        ),
    ),
    OptionWords(
        key="bb_ante",
        group="blinds",
        title="Big-blind ante",
        decides="Whether the big blind pays the ante for the whole table.",
        source="RULES.md 3; T",
        values=_yes_no(
            no=("Everyone antes", "Each player dealt in posts the ante (when there is one)."),
            yes=(
                "Big blind pays the ante",
                "Only the big blind posts the ante, one for the whole table (T).",
            ),
        ),
    ),
    OptionWords(
        key="straddle_allowed",
        group="blinds",
        title="Straddle",
        decides="Whether the player left of the big blind may straddle before the deal.",
        source="RULES.md 3; S4",
        values=_yes_no(
            no=("No straddle", "Nobody posts more than the big blind before the deal."),
            yes=(
                "Straddle allowed",
                "The player left of the big blind may post twice the big blind before the "
                "deal, then acts last before the flop (S4).",
            ),
        ),
    ),
    OptionWords(
        key="missed_blind_policy",
        group="blinds",
        title="Missed blinds",
        decides="What a player owes to come back after sitting out while the blinds passed, "
        "and what a new player posts to come in.",
        source="RULES.md 4, X12; S0, S2, S3, T",
        values=_choices(
            S2_casino=(
                "Post them at once (S2)",
                "Missed the big blind: post it live and the small blind dead as soon as the "
                "seat is outside the blinds, or wait for the big blind.",
            ),
            S0_missed_blinds=(
                "Wait for the button (S0)",
                "The same posts, but missing the big blind also means sitting out the small "
                "blind and the button: the player comes back once the button has passed.",
            ),
            S3_blind_penalties=(
                "Blind penalties (S3)",
                "Missing both blinds costs the big blind live and the small blind dead; "
                "missing only the small blind costs a big blind live, on top of the natural "
                "big blind.",
            ),
            TDA_tournament=(
                "Blinded off (tournament)",
                "Nobody misses a blind: absent players are dealt in and pay their blinds and "
                "antes from their stack (T).",
            ),
        ),
    ),
    OptionWords(
        key="missed_sb_fallback",
        group="blinds",
        title="Missed small blind only",
        decides="What a player owes who missed the small blind but not the big blind.",
        source="RULES.md 4, X11; S3, R",
        values=_choices(
            sb_dead=(
                "Small blind dead",
                "The player posts the small blind; it goes to the middle and is not part of "
                "their bet (R).",
            ),
            bb_live_s3=(
                "A big blind live",
                "The player posts a big blind's worth that counts toward their bet (S3).",
            ),
        ),
    ),
    # --- betting ---
    OptionWords(
        key="fl_cap_bets",
        group="betting",
        title="Bets per round",
        decides="How many bets a fixed-limit betting round allows: the bet and the raises "
        "after it.",
        source="RULES.md 5.3; S0, S2, S3",
        number=_cap_words,
    ),
    OptionWords(
        key="fl_headsup_uncapped",
        group="betting",
        title="Cap when heads-up",
        decides="Whether the fixed-limit cap is lifted when only two players are left in the hand.",
        source="RULES.md 5.3, X8; S0, S2, S3, R, T",
        values=_yes_no(
            no=(
                "Always capped",
                "The cap holds even with two players left (S0, S3; TDA in tournaments).",
            ),
            yes=(
                "No cap heads-up",
                "With two players left, neither all-in, they may raise without limit unless "
                "the round was already capped (S2, R).",
            ),
        ),
    ),
    OptionWords(
        key="fl_short_allin",
        group="betting",
        title="Short all-in raise",
        decides="Whether a fixed-limit all-in that raises by less than a full bet reopens the "
        "betting.",
        source="RULES.md 5.3, X10; S2, R, T",
        values=_choices(
            half_bet=(
                "Half a bet reopens",
                "An all-in raising by half a bet or more counts as a full raise; less is only "
                "action, which may be called or completed (R, T).",
            ),
            full_bet=(
                "Only a full bet reopens",
                "An all-in raising by less than a full bet is only action: the next player "
                "calls it or raises a full bet above the previous level (S2).",
            ),
        ),
    ),
    OptionWords(
        key="pl_formula",
        group="betting",
        title="Largest pot-limit raise",
        decides="How the largest pot-limit raise is worked out.",
        source="RULES.md 5.4, X1; S0, S2, S3",
        values=_choices(
            standard=(
                "The pot after the call",
                "Raise by the pot as it is once the player has called (S2, S3, R).",
            ),
            s0_literal=(
                "S0's example",
                "Raise by the pot before the player's call, as S0's worked example reads.",
            ),
        ),
    ),
    OptionWords(
        key="pl_sb_as_bb",
        group="betting",
        title="Small blind as a big blind",
        decides="Whether the small blind counts as a full big blind when the largest "
        "pot-limit opening raise is worked out.",
        source="RULES.md 5.4; R",
        values=_yes_no(
            no=("As posted", "The blinds count for what they are."),
            yes=(
                "As a big blind",
                "The small blind counts as a big blind: the largest opening raise is four big "
                "blinds (R).",
            ),
        ),
    ),
    OptionWords(
        key="pl_min_bet",
        group="betting",
        title="Smallest pot-limit bet",
        decides="The smallest opening bet on a pot-limit street.",
        source="RULES.md 5.4, X16; S2, S3",
        values=_choices(
            bb=("The big blind", "A bet is at least the big blind (S2)."),
            street_limit=(
                "The street's limit",
                "A bet is at least the small bet before the turn and the big bet on the turn "
                "and the river (S3).",
            ),
        ),
    ),
    OptionWords(
        key="pl_min_raise",
        group="betting",
        title="Smallest pot-limit raise",
        decides="How small a pot-limit raise may be.",
        source="RULES.md 5.4, X16; S3, S4, R",
        values=_choices(
            last_raise=(
                "The last raise",
                "A raise is at least the last full bet or raise of the street (S4, R).",
            ),
            street_limit=("The street's limit", "A raise is at least the street's limit (S3)."),
        ),
    ),
    OptionWords(
        key="pl_headsup_overbet_by_agreement",
        group="betting",
        title="Heads-up overbet by agreement",
        decides="Whether two players alone in a pot-limit hand may agree to bet more than the pot.",
        source="RULES.md 5.4, A4; S2",
        values=_yes_no(
            no=("Never above the pot", "Bets stay within the pot limit."),
            yes=(
                "Allowed when both agree",
                "Heads-up and with both agreeing, either may bet any amount; the other calls "
                "all of it or only the pot-size part, and the rest goes back (S2).",
            ),
        ),
    ),
    # --- showdown and pots ---
    OptionWords(
        key="odd_chip",
        group="showdown",
        title="Odd chip",
        decides="Who gets the chip left over when a pot is split.",
        source="RULES.md 6; S3, R, T",
        values=_choices(
            left_of_button=(
                "First winner left of the button",
                "Odd chips go one each to the tied winners, clockwise from the button (S3, R, T).",
            ),
            high_card_by_suit=(
                "Highest card by suit",
                "The odd chip goes to the tied hand holding the highest card; suits rank "
                "spades, hearts, diamonds, clubs (R).",
            ),
        ),
    ),
    OptionWords(
        key="play_board_claim",
        group="showdown",
        title="Playing the board",
        decides="What a player whose best five cards are the board must do to share the pot.",
        source="RULES.md 7, X7; S2, S4, R",
        values=_choices(
            table_both=("Table both cards", "The player shows both hole cards as usual (R)."),
            declare_then_muck=(
                "Announce, then muck",
                "The player must say they play the board before throwing the cards away, or "
                "lose the claim (S4, R).",
            ),
            muck_ok=(
                "May muck",
                "No announcement is needed after a checked-around round or a bet and a call (S2).",
            ),
        ),
    ),
    OptionWords(
        key="table_all_in",
        group="showdown",
        title="Hands face up when all-in",
        decides="Whether every hand is turned face up once a player is all-in and the betting "
        "is over.",
        source="RULES.md 7; R, T",
        values=_yes_no(
            no=("At the showdown", "Hands are shown at the showdown, in the usual order."),
            yes=(
                "Face up at once",
                "Once a player is all-in and no more betting is possible, every hand is turned "
                "face up (T).",
            ),
        ),
    ),
    OptionWords(
        key="run_it_twice_allowed",
        group="showdown",
        title="Run it twice",
        decides="Whether players all in before the river may agree to deal the rest of the "
        "board twice, each pot split between the two runs.",
        source="RULES.md 6.6; RIT",
        values=_yes_no(
            no=("Run once", "The board is dealt once, as usual."),
            yes=(
                "Allowed by agreement",
                "When every player still in is all in (or all but one) and they all agree, the "
                "rest of the board is dealt twice and each pot is split between the runs (RIT).",
            ),
        ),
    ),
    # --- rake ---
    OptionWords(
        key="rake_percent",
        group="rake",
        title="Rake percentage",
        decides="How much of each pot the house takes, in percent to two decimal places (2.5), "
        "before the pot is awarded.",
        source="RULES.md 6.5",
        number=_percent_words,
    ),
    OptionWords(
        key="rake_cap",
        group="rake",
        title="Rake cap",
        decides="The most the house takes from one hand, whatever the pot.",
        source="RULES.md 6.5",
        number=lambda chips: _chips_words(
            chips, none="No cap", some="The rake from a hand is never more than {chips}."
        ),
    ),
    OptionWords(
        key="rake_fixed_drop",
        group="rake",
        title="Fixed drop",
        decides="A set amount the house takes from every raked pot, instead of a percentage.",
        source="RULES.md 6.5",
        number=lambda chips: _chips_words(
            chips,
            none="No fixed drop",
            some="The house takes {chips} from every pot that is raked.",
        ),
    ),
    OptionWords(
        key="rake_min_pot",
        group="rake",
        title="Smallest pot raked",
        decides="The size a pot must reach before the house takes anything from it.",
        source="RULES.md 6.5",
        number=lambda chips: _chips_words(
            chips,
            none="Every pot",
            some="A pot of less than {chips} is not raked.",
        ),
    ),
    OptionWords(
        key="rake_no_flop_no_drop",
        group="rake",
        title="No flop, no drop",
        decides="Whether a hand that ends before the flop is raked.",
        source="RULES.md 6.5",
        values=_yes_no(
            no=("Raked preflop too", "A pot won before the flop is raked like any other."),
            yes=(
                "No flop, no drop",
                "A hand that ends before the flop is dealt pays no rake.",
            ),
        ),
    ),
    OptionWords(
        key="promo_drop",
        group="rake",
        title="Promotional drop",
        decides="Chips taken from each pot for a promotion or a jackpot, beside the rake and "
        "counted apart from it.",
        source="RULES.md 6.5 (the promotional drop: docs/rules.md)",
        number=lambda chips: _chips_words(
            chips,
            none="No promotional drop",
            some="The promotion or jackpot takes {chips} from every pot that reaches its size.",
        ),
    ),
    OptionWords(
        key="promo_drop_min_pot",
        group="rake",
        title="Smallest pot for the promotional drop",
        decides="The size a pot must reach before the promotional drop is taken from it.",
        source="RULES.md 6.5 (the promotional drop: docs/rules.md)",
        number=lambda chips: _chips_words(
            chips,
            none="Every pot",
            some="A pot of less than {chips} pays no promotional drop.",
        ),
    ),
    # --- dealer errors ---
    OptionWords(
        key="action_threshold",
        group="errors",
        title="When a misdeal is ruled out",
        decides="How much action after the blinds ends the chance of a misdeal: from then on, "
        "the hand plays on.",
        source="RULES.md 5.6, 8; S2, R, T 36",
        values=_choices(
            two_acted=(
                "Two players acted",
                "Once two players have acted in turn after the blinds, there is no misdeal "
                "(S2, R).",
            ),
            tda_substantial=(
                "Substantial action (TDA)",
                "Two actions in turn of which one puts chips in, or any three actions; posted "
                "blinds never count (T 36).",
            ),
        ),
    ),
    OptionWords(
        key="r_misdeal_triggers",
        group="errors",
        title="Robert's misdeal causes",
        decides="Whether Robert's further causes of a misdeal apply before the action threshold.",
        source="RULES.md 8; S2, S4, R",
        values=_yes_no(
            no=(
                "The seeds' causes only",
                "Only exposed hole cards and a wrong number of hole cards make a misdeal (S2, S4).",
            ),
            yes=(
                "Robert's causes too",
                "Also a misdeal: two boxed or extra cards, a card out of order, the button out "
                "of place, a seat wrongly dealt in or out (R).",
            ),
        ),
    ),
    OptionWords(
        key="early_exposed_misdeal",
        group="errors",
        title="Early hole card exposed",
        decides="Whether a hole card the dealer exposes at the start of the deal is a misdeal.",
        source="RULES.md 8, X6; S2, S4, R",
        values=_choices(
            first=("First card: misdeal", "Exposing the first card dealt is a misdeal (S4)."),
            first_or_second=(
                "First or second card: misdeal",
                "Exposing either of the first two cards dealt is a misdeal (R).",
            ),
            none=(
                "Never a misdeal",
                "The card is replaced like any other card the dealer exposes (S2).",
            ),
        ),
    ),
    OptionWords(
        key="allow_short_card_fix",
        group="errors",
        title="A player one card short",
        decides="Whether a player dealt one card too few may take the top card of the stub.",
        source="RULES.md 8; R, T",
        values=_yes_no(
            no=(
                "Never completed",
                "A short hand is a misdeal before the action threshold and a dead hand after.",
            ),
            yes=(
                "Button takes the top card",
                "The button, one card short and before acting, takes the top card of the stub "
                "(R, T).",
            ),
        ),
    ),
    OptionWords(
        key="redeal_cut",
        group="errors",
        title="Cut after a reshuffle",
        decides="Whether the dealer cuts after shuffling a bad or premature board card back "
        "into the stub.",
        source="RULES.md 8, X18; S2, S4, R",
        values=_yes_no(
            no=("No cut", "Shuffle only (S2 does not mention a cut)."),
            yes=("Shuffle and cut", "Shuffle, then cut, before the new cards (S4, R)."),
        ),
    ),
    OptionWords(
        key="premature_river_burn",
        group="errors",
        title="Burn before a redealt river",
        decides="Whether a card is burned before the river dealt after a premature turn or river.",
        source="RULES.md 8; S2, R",
        values=_yes_no(
            no=("No burn", "The new river is dealt without a burn (R)."),
            yes=("Burn first", "The dealer burns one card, then deals the new river."),
        ),
    ),
    # --- Texas 6+ ranking ---
    OptionWords(
        key="sixplus_flush_beats_full_house",
        group="sixplus",
        title="Flush beats a full house",
        decides="Whether a flush ranks above a full house in Texas 6+.",
        source="RULES.md 1; S0 (most short-deck rooms play it)",
        values=_yes_no(
            no=("Full house beats a flush", "The usual order of hands (S0)."),
            yes=(
                "Flush beats a full house",
                "A flush ranks above a full house, as most rooms that spread the 36-card game "
                "play it: with four suits of nine cards, a flush is the rarer hand.",
            ),
        ),
    ),
    OptionWords(
        key="sixplus_trips_beat_straight",
        group="sixplus",
        title="Three of a kind beats a straight",
        decides="Whether three of a kind ranks above a straight in Texas 6+.",
        source="RULES.md 1; S0 (some variants)",
        values=_yes_no(
            no=("Straight beats three of a kind", "The usual order of hands (S0)."),
            yes=(
                "Three of a kind beats a straight",
                "Three of a kind ranks above a straight, as some 6+ rooms play it.",
            ),
        ),
    ),
)

OPTION_WORDS: dict[str, OptionWords] = {option.key: option for option in _OPTIONS}
"""The words of every option of `Rules` (all but `profile`), in the order of `GROUPS`."""

# The options a table or tournament is given rather than chooses in the rules editor.
FIXED_OPTIONS = ("mode", "game", "structure")

_FIXED_LIMIT = ("fl_cap_bets", "fl_headsup_uncapped", "fl_short_allin")
_POT_LIMIT = (
    "pl_formula",
    "pl_sb_as_bb",
    "pl_min_bet",
    "pl_min_raise",
    "pl_headsup_overbet_by_agreement",
)
_SIXPLUS = ("sixplus_flush_beats_full_house", "sixplus_trips_beat_straight")


def not_applicable(key: str, values: Mapping[str, object]) -> str:
    """Why option `key` plays no part under these values (plain or members), or "" when it
    does: the fixed-limit and pot-limit options outside their structure, the 6+ ranking in
    hold'em, straddles and the table's big-blind ante in tournaments, the missed small blind
    outside S0 and S2, the draw's tie-break when nobody draws."""
    tournament = values.get("mode") == Mode.TOURNAMENT
    if key in _FIXED_LIMIT and values.get("structure") != Structure.FIXED_LIMIT:
        return "Fixed limit only."
    if key in _POT_LIMIT and values.get("structure") != Structure.POT_LIMIT:
        return "Pot limit only."
    if key in _SIXPLUS and values.get("game") != Game.SIXPLUS:
        return "Texas 6+ only."
    if key in RAKE_OPTIONS and tournament:
        return "Cash tables only: a tournament never rakes."
    if key in ("rake_cap", "rake_min_pot") and not (
        values.get("rake_percent") or values.get("rake_fixed_drop")
    ):
        return "Only when the table rakes (a percentage or a fixed drop)."
    if key == "rake_no_flop_no_drop" and not (
        values.get("rake_percent") or values.get("rake_fixed_drop") or values.get("promo_drop")
    ):
        return "Only when the table rakes or takes a promotional drop."
    if key == "promo_drop_min_pot" and not values.get("promo_drop"):
        return "Only when the table takes a promotional drop."
    if key == "run_it_twice_allowed" and tournament:
        return "Cash tables only: a tournament hand is always run once."
    if key == "straddle_allowed" and tournament:
        return "Cash tables only: nobody straddles in a tournament."
    if key == "bb_ante" and tournament:
        return (
            "In a tournament each level of the blind schedule says whether its ante is a "
            "big-blind ante."
        )
    if key == "missed_sb_fallback" and values.get("missed_blind_policy") not in (
        MissedBlindPolicy.S2_CASINO,
        MissedBlindPolicy.S0_MISSED_BLINDS,
    ):
        return (
            "Only under S2's and S0's missed blinds: S3 charges a big blind live, and in a "
            "tournament nobody misses a blind."
        )
    if key == "draw_tiebreak" and values.get("initial_button") != InitialButton.DRAW:
        return "Only when the first button is drawn."
    return ""


def allowed_values(key: str, values: Mapping[str, object]) -> tuple[OptionValue, ...]:
    """The values option `key` may take with these values of the others: a choice's values
    (the missed-blind policy follows the mode), true and false, or a number's range (low,
    high)."""
    if key == "missed_blind_policy":
        tournament = values.get("mode") == Mode.TOURNAMENT
        return tuple(
            value
            for value in CHOICES[key]
            if (value == MissedBlindPolicy.TDA_TOURNAMENT) == tournament
        )
    if key in CHOICES:
        return CHOICES[key]
    if key in NUMBERS:
        return NUMBERS[key]
    return (False, True)


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleLine:
    """One option of a set of rules in words."""

    key: str
    title: str
    decides: str
    source: str
    value: OptionValue
    label: str
    meaning: str
    default: OptionValue
    default_label: str
    differs: bool
    not_applicable: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleGroup:
    key: str
    title: str
    lines: tuple[RuleLine, ...]


def rule_line(
    key: str, values: Mapping[str, OptionValue], defaults: Mapping[str, OptionValue]
) -> RuleLine:
    """Option `key` in words, with its value in `values` and its default in `defaults`."""
    words = OPTION_WORDS[key]
    value, default = _plain(values[key]), _plain(defaults[key])
    said = words.words(value)
    return RuleLine(
        key=key,
        title=words.title,
        decides=words.decides,
        source=words.source,
        value=value,
        label=said.label,
        meaning=said.meaning,
        default=default,
        default_label=words.words(default).label,
        differs=value != default,
        not_applicable=not_applicable(key, values),
    )


def describe_values(
    values: Mapping[str, OptionValue], defaults: Mapping[str, OptionValue] | None = None
) -> tuple[RuleGroup, ...]:
    """Every option in words, grouped like RULES.md; `defaults` (the profile's values) marks
    the values that differ from them (none without)."""
    defaults = values if defaults is None else defaults
    return tuple(
        RuleGroup(
            key=group,
            title=title,
            lines=tuple(
                rule_line(option.key, values, defaults)
                for option in _OPTIONS
                if option.group == group
            ),
        )
        for group, title in GROUPS
    )


def describe(rules: Rules, defaults: Rules | None = None) -> tuple[RuleGroup, ...]:
    """A whole set of rules in words (see `describe_values`); the defaults are the profile's
    for this mode, game and structure (`profile_defaults`) unless given."""
    base = profile_defaults(rules) if defaults is None else defaults
    return describe_values(rules.as_dict(), base.as_dict())


def profile_defaults(rules: Rules) -> Rules:
    """The rules the profile of `rules` gives its mode, game and structure with no option
    changed: what `describe` compares with. Rules of an unknown profile are their own
    defaults."""
    fixed = {key: getattr(rules, key) for key in FIXED_OPTIONS}
    try:
        return make_rules(rules.profile, fixed)
    except ConfigError:
        return rules


def profile_words(name: str) -> ProfileWords:
    """A profile's label and sentence (a name unknown here is shown as it is)."""
    return PROFILE_WORDS.get(name) or ProfileWords(name=name, label=name, meaning="")


def _plain(value: OptionValue) -> OptionValue:
    """A stored value as the words are keyed: a member as its string."""
    return value.value if isinstance(value, StrEnum) else value


def option_phrases(option: str | None) -> tuple[str, ...]:
    """The rule options a procedure cites (`Remedy.option`, "key=value, key=value") in words:
    "When a misdeal is ruled out: Substantial action (TDA)". A key unknown here stays as it is."""
    phrases = []
    for part in (option or "").split(","):
        key, _, text = part.strip().partition("=")
        words = OPTION_WORDS.get(key)
        if words is None:
            if part.strip():
                phrases.append(part.strip())
            continue
        value: OptionValue = text
        if text in ("true", "false"):
            value = text == "true"
        elif text.isdigit():
            value = int(text)
        phrases.append(f"{words.title}: {words.words(value).label}")
    return tuple(phrases)
