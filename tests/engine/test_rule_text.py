"""Every rule option in words (issue 13: "the tablet shows rule codes ('S2_casino',
'action_threshold=tda_substantial') instead of words"). A new option of `Rules`, or a new value of
a choice, fails here until it has its title, its sentence, its source and a label per value."""

from __future__ import annotations

import dataclasses

import pytest

from dealer.engine import rule_text
from dealer.engine.rule_text import (
    GROUPS,
    OPTION_WORDS,
    PROFILE_WORDS,
    allowed_values,
    describe,
    describe_values,
    not_applicable,
)
from dealer.engine.rules import CHOICES, NUMBERS, PROFILES, Rules, make_rules

OPTION_KEYS = [f.name for f in dataclasses.fields(Rules) if f.name != "profile"]
YES_NO_KEYS = [
    f.name for f in dataclasses.fields(Rules) if isinstance(f.default, bool) and f.name != "profile"
]


def test_every_option_of_rules_has_words_and_nothing_else_does() -> None:
    """RULES.md 0-8: each option key of `Rules` has a title, what it decides and its source."""
    assert sorted(OPTION_WORDS) == sorted(OPTION_KEYS)
    for key, words in OPTION_WORDS.items():
        assert words.key == key
        assert words.title, key
        assert words.decides.endswith("."), key
        assert words.source.startswith("RULES.md "), key
        assert words.group in dict(GROUPS), key


@pytest.mark.parametrize(
    ("key", "value"), [(key, value) for key, values in CHOICES.items() for value in values]
)
def test_every_choice_value_has_a_label_and_a_meaning(key: str, value: str) -> None:
    words = OPTION_WORDS[key].words(value)
    assert words.label
    assert words.label != value
    assert words.meaning.endswith(".")


@pytest.mark.parametrize("key", sorted(CHOICES))
def test_no_words_for_a_value_the_engine_does_not_accept(key: str) -> None:
    assert set(OPTION_WORDS[key].values) <= set(CHOICES[key])


@pytest.mark.parametrize("key", YES_NO_KEYS)
def test_every_yes_no_option_says_what_true_and_false_mean(key: str) -> None:
    yes, no = OPTION_WORDS[key].words(True), OPTION_WORDS[key].words(False)
    assert yes.label
    assert no.label
    assert yes.label != no.label
    assert yes.meaning.endswith(".")
    assert no.meaning.endswith(".")


@pytest.mark.parametrize("key", sorted(NUMBERS))
def test_every_number_option_has_words_for_its_whole_range(key: str) -> None:
    low, high = NUMBERS[key]
    for value in (low, 4, high):
        words = OPTION_WORDS[key].words(value)
        assert str(value) in words.label
        assert words.meaning.endswith(".")


def test_the_fixed_limit_cap_says_bets_and_raises_s3() -> None:
    """RULES.md 5.3 (S3): `fl_cap_bets=4` is a bet and three raises."""
    words = OPTION_WORDS["fl_cap_bets"].words(4)
    assert words.label == "4 bets"
    assert "a bet and 3 raises" in words.meaning
    assert "no raise" in OPTION_WORDS["fl_cap_bets"].words(1).meaning


def test_every_profile_has_a_label_and_a_sentence() -> None:
    assert set(PROFILE_WORDS) == set(PROFILES)
    for name, words in PROFILE_WORDS.items():
        assert words.name == name
        assert words.label
        assert words.meaning.endswith(".")


def test_the_s2_casino_policy_is_said_in_words_not_its_code() -> None:
    """The issue's own example: 'S2_casino' shown as words (RULES.md 4)."""
    words = OPTION_WORDS["missed_blind_policy"].words("S2_casino")
    assert "S2_casino" not in words.label + words.meaning
    assert "big blind live" not in words.label  # the label is short; the meaning explains
    assert "live" in words.meaning
    assert "dead" in words.meaning


def test_describe_lists_every_option_once_grouped_like_rules_md() -> None:
    groups = describe(make_rules("casino_cash"))
    keys = [line.key for group in groups for line in group.lines]
    assert sorted(keys) == sorted(OPTION_KEYS)
    assert [group.key for group in groups] == [key for key, _ in GROUPS]
    assert groups[0].title == "Game and deck"


def _line(groups: tuple[rule_text.RuleGroup, ...], key: str) -> rule_text.RuleLine:
    return next(line for group in groups for line in group.lines if line.key == key)


def test_describe_marks_a_value_that_differs_from_the_profile_default() -> None:
    """RULES.md 0: a table starts from a profile and may override single keys."""
    rules = make_rules("casino_cash", {"button_mode": "dead"})
    groups = describe(rules)

    button = _line(groups, "button_mode")
    assert button.differs
    assert button.label == "Dead button"
    assert button.default == "moving"
    assert button.default_label == "Moving button"
    assert not _line(groups, "straddle_allowed").differs  # casino_cash's own true


def test_describe_compares_a_tournament_with_its_tournament_defaults() -> None:
    """RULES.md 0: tda_tournament's dead button is its default, not a change."""
    rules = make_rules("tda_tournament", {"mode": "tournament", "structure": "fixed_limit"})
    groups = describe(rules)
    assert not any(line.differs for group in groups for line in group.lines)
    assert _line(groups, "button_mode").label == "Dead button"


@pytest.mark.parametrize(
    ("key", "values", "reason"),
    [
        ("fl_cap_bets", {"structure": "no_limit"}, "Fixed limit only."),
        ("fl_short_allin", {"structure": "pot_limit"}, "Fixed limit only."),
        ("pl_min_raise", {"structure": "fixed_limit"}, "Pot limit only."),
        ("sixplus_flush_beats_full_house", {"game": "holdem"}, "Texas 6+ only."),
        ("sixplus_trips_beat_straight", {"game": "holdem"}, "Texas 6+ only."),
        ("straddle_allowed", {"mode": "tournament"}, "Cash tables only"),
        ("bb_ante", {"mode": "tournament"}, "blind schedule"),
        ("missed_sb_fallback", {"missed_blind_policy": "S3_blind_penalties"}, "S3"),
        ("draw_tiebreak", {"initial_button": "first_seated"}, "drawn"),
    ],
)
def test_options_that_do_not_apply_say_why(key: str, values: dict[str, str], reason: str) -> None:
    """RULES.md 1 (6+ options), 3 (straddle: cash only), 4, 5.3-5.4 (by structure)."""
    base = make_rules("casino_cash").as_dict()
    assert reason in not_applicable(key, {**base, **values})


@pytest.mark.parametrize(
    ("key", "values"),
    [
        ("fl_cap_bets", {"structure": "fixed_limit"}),
        ("pl_min_raise", {"structure": "pot_limit"}),
        ("sixplus_flush_beats_full_house", {"game": "sixplus"}),
        ("straddle_allowed", {"mode": "cash"}),
        ("missed_sb_fallback", {"missed_blind_policy": "S0_missed_blinds"}),
        ("draw_tiebreak", {"initial_button": "draw"}),
        ("button_mode", {"mode": "tournament"}),
    ],
)
def test_options_that_apply_have_no_reason(key: str, values: dict[str, str]) -> None:
    base = make_rules("casino_cash").as_dict()
    assert not_applicable(key, {**base, **values}) == ""


def test_a_tournament_offers_only_the_tda_missed_blind_policy() -> None:
    """RULES.md 4: TDA_tournament goes with mode=tournament, and only there."""
    assert allowed_values("missed_blind_policy", {"mode": "tournament"}) == ("TDA_tournament",)
    cash = allowed_values("missed_blind_policy", {"mode": "cash"})
    assert "TDA_tournament" not in cash
    assert "S2_casino" in cash
    assert allowed_values("fl_cap_bets", {}) == NUMBERS["fl_cap_bets"]
    assert allowed_values("table_all_in", {}) == (False, True)


def test_describe_values_without_defaults_marks_nothing() -> None:
    values = make_rules("texas_6plus").as_dict()
    groups = describe_values(values)
    assert not any(line.differs for group in groups for line in group.lines)
    assert _line(groups, "game").label == "Texas 6+"
