"""Rule options that are choices are StrEnums: one spelling in code, the same strings stored."""

from __future__ import annotations

import dataclasses
import json
from enum import StrEnum

import pytest

from dealer.engine import ConfigError, make_rules
from dealer.engine.rules import (
    CHOICES,
    OPTIONS,
    PROFILES,
    ButtonMode,
    Game,
    MissedBlindPolicy,
    Mode,
    Rules,
    Structure,
)


def test_every_choice_option_has_an_enum_with_the_documented_values() -> None:
    choice_fields = {
        field.name
        for field in dataclasses.fields(Rules)
        if field.name != "profile" and not isinstance(field.default, bool | int)
    }
    assert set(OPTIONS) == choice_fields
    for key, enum in OPTIONS.items():
        assert CHOICES[key] == tuple(member.value for member in enum)
        assert getattr(Rules(), key) is next(iter(enum))  # the first member is the default


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_make_rules_gives_members_for_every_choice(profile: str) -> None:
    rules = make_rules(profile, {"structure": "pot_limit"})
    for key, enum in OPTIONS.items():
        assert type(getattr(rules, key)) is enum, key
    assert rules.structure is Structure.POT_LIMIT


def test_tournament_defaults_are_members() -> None:
    rules = make_rules("casino_cash", {"mode": "tournament"})
    assert rules.mode is Mode.TOURNAMENT
    assert rules.button_mode is ButtonMode.DEAD
    assert rules.missed_blind_policy is MissedBlindPolicy.TDA_TOURNAMENT
    assert rules.is_tournament


def test_stored_rules_are_the_plain_strings_and_read_back_as_members() -> None:
    rules = make_rules("texas_6plus", {"mode": "tournament"})
    stored = json.loads(json.dumps(rules.as_dict()))
    assert stored == rules.as_dict()
    assert all(type(value) is str for key, value in rules.as_dict().items() if key in OPTIONS)
    assert (stored["game"], stored["missed_blind_policy"]) == ("sixplus", "TDA_tournament")
    again = Rules(**stored)
    assert again == rules
    assert again.game is Game.SIXPLUS


def test_a_member_equals_its_string() -> None:
    """So API values, stored JSON and PHH keep their strings."""
    assert Structure.FIXED_LIMIT == "fixed_limit"
    assert f"{Structure.FIXED_LIMIT}" == "fixed_limit"
    assert isinstance(Mode.CASH, StrEnum)


def test_a_bad_value_keeps_its_sentence() -> None:
    with pytest.raises(ConfigError) as refused:
        make_rules("casino_cash", {"button_mode": "floating"})
    assert refused.value.code == "bad_option_value"
    assert refused.value.detail == (
        "Rule option 'button_mode' cannot be 'floating': use one of moving, dead."
    )
