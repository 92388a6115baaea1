"""Serializer fields the floor's serializers share.

The three `status` choice sets (a tournament's, an entry's, the clock's) are schema components
with their own names (`TournamentStatus`, `EntryStatus`, `ClockStatus`): left to drf-spectacular
they would all be named after the field, "Status", and collide.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.utils import Direction, extend_schema_field
from rest_framework import serializers

from common.limits import MAX_INT
from dealer.engine.rules import SIXPLUS_RANKING_OPTIONS, OptionValue
from tournaments.clock import ClockStatus
from tournaments.models import Entry, Tournament

if TYPE_CHECKING:
    from drf_spectacular.openapi import AutoSchema


class NamedChoiceField(serializers.ChoiceField):
    """A choice field whose choice set is one named schema component."""

    schema_name = ""
    values: tuple[str, ...] = ()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=[(value, value) for value in self.values], **kwargs)


class TournamentStatusField(NamedChoiceField):
    schema_name = "TournamentStatus"
    values = tuple(Tournament.Status.values)


class EntryStatusField(NamedChoiceField):
    schema_name = "EntryStatus"
    values = tuple(Entry.Status.values)


class ClockStatusField(NamedChoiceField):
    schema_name = "ClockStatus"
    values = tuple(status.value for status in ClockStatus)


class NamedChoiceFieldExtension(OpenApiSerializerFieldExtension):
    target_class = NamedChoiceField
    match_subclasses = True

    def map_serializer_field(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, str]:
        field = self.target
        component = ResolvedComponent(
            name=field.schema_name,
            type=ResolvedComponent.SCHEMA,
            object=field.schema_name,
            schema={"type": "string", "enum": list(field.values)},
        )
        auto_schema.registry.register_on_missing(component)
        return component.ref


class SixPlusChoicesSerializer(serializers.Serializer):
    """The Texas 6+ ranking choices, offered wherever a 6+ game is made (a tournament, a cash
    table) as fields of their own and moved into `rule_overrides` (the engine refuses them for
    hold'em with its own sentence)."""

    sixplus_flush_beats_full_house = serializers.BooleanField(
        required=False,
        help_text="Texas 6+ only: a flush beats a full house (most short-deck rooms); the same "
        "as the rule override of that name",
    )
    sixplus_trips_beat_straight = serializers.BooleanField(
        required=False,
        help_text="Texas 6+ only: three of a kind beats a straight; the same as the rule "
        "override of that name",
    )

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        chosen = {key: attrs.pop(key) for key in SIXPLUS_RANKING_OPTIONS if key in attrs}
        if chosen:
            given = attrs.get("rule_overrides") or {}
            assert isinstance(given, dict)  # `RuleOverridesField`'s value
            attrs["rule_overrides"] = {**given, **chosen}
        return attrs


OPTION_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
MAX_OPTION_TEXT = 40


@extend_schema_field({"oneOf": [{"type": "boolean"}, {"type": "integer"}, {"type": "string"}]})
class RuleValueField(serializers.Field):
    """One rule option's value: true or false, a whole number, or a short word."""

    default_error_messages = {  # noqa: RUF012 - DRF's own convention
        "invalid": "A rule option's value is true, false, a whole number or a short word."
    }

    def to_internal_value(self, data: object) -> OptionValue:
        if isinstance(data, bool):
            return data
        if isinstance(data, int) and -MAX_INT <= data <= MAX_INT:
            return data
        if isinstance(data, str) and len(data) <= MAX_OPTION_TEXT:
            return serializers.CharField(max_length=MAX_OPTION_TEXT).run_validation(data)
        self.fail("invalid")

    def to_representation(self, value: OptionValue) -> OptionValue:
        return value


class RuleOverridesField(serializers.DictField):
    """Rule options by their RULES.md names; the engine checks each name and value."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=RuleValueField(), **kwargs)

    def to_internal_value(self, data: dict[str, object]) -> dict[str, OptionValue]:
        values: dict[str, OptionValue] = super().to_internal_value(data)
        for key in values:
            if not OPTION_NAME.match(key):
                raise serializers.ValidationError(
                    "A rule option's name is a word in lower case, like button_mode."
                )
        return values
