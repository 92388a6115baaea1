"""The rules editor over the REST API: a tournament's rules (`/api/tournaments/<id>/rules/`) and a
cash table's (`/api/cash-tables/<id>/rules/`), read and set through the same selector and service
as the desk's Rules pages (`tournaments.selectors.rules`, `tournaments.services.rules`).

Directors and dealers read; only directors set (403 for dealers). PUT sets the profile and the
options wanted: the ones left out take the profile's default, and only those that differ from it
are stored. Refusals: 400 with the engine's code and sentence (`unknown_option`,
`bad_option_value`, `bad_option_combination`, `unknown_profile`, `profile_not_offered`,
`option_fixed`), 409 `tournament_started` once a tournament runs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import ErrorSerializer, responses
from common.api.permissions import IsDirector, IsDirectorOrDealer
from tournaments.api.fields import NamedChoiceField, RuleOverridesField, RuleValueField
from tournaments.api.lookups import get_tournament
from tournaments.models import Tournament
from tournaments.selectors.rules import Target, rules_view
from tournaments.services.rules import rules_lock, rules_set

# --- input ---------------------------------------------------------------------------------


class RulesInputSerializer(serializers.Serializer):
    profile = serializers.CharField(
        max_length=30,
        required=False,
        help_text="`tda_tournament` (tournaments), `casino_cash` (cash tables) or `texas_6plus` "
        "(the 36-card game); the current one when left out",
    )
    values = RuleOverridesField(
        required=False,
        default=dict,
        help_text="the options wanted, by their RULES.md names (`button_mode`, `odd_chip`, "
        "`sixplus_flush_beats_full_house`, ...): the ones left out take the profile's "
        "default. `game`, `mode` and `structure` may be sent only unchanged",
    )


# --- output --------------------------------------------------------------------------------


class OptionKindField(NamedChoiceField):
    schema_name = "RuleOptionKind"
    values = ("choice", "yes_no", "number")


class TargetKindField(NamedChoiceField):
    schema_name = "RulesTarget"
    values = ("tournament", "cash_table")


class OptionChoiceOutputSerializer(serializers.Serializer):
    value = RuleValueField()
    label = serializers.CharField()  # type: ignore[assignment]  # the wire name
    meaning = serializers.CharField(help_text="what it means at the table")


class OptionOutputSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="the option's RULES.md name")
    group = serializers.CharField()
    title = serializers.CharField()
    decides = serializers.CharField(help_text="one sentence: what the option decides")
    source = serializers.CharField(  # type: ignore[assignment]  # the wire name
        help_text="RULES.md section and the seeds (S0-S4), R, T"
    )
    kind = OptionKindField()
    value = RuleValueField(help_text="the value in force")
    label = serializers.CharField(help_text="the value in words")  # type: ignore[assignment]  # the wire name
    meaning = serializers.CharField(help_text="what the value means at the table")
    default = RuleValueField(help_text="the profile's default")
    default_label = serializers.CharField()
    differs = serializers.BooleanField(help_text="the value is not the profile's default")
    applies = serializers.BooleanField(help_text="false: plays no part in this game")
    not_applicable = serializers.CharField(allow_blank=True, help_text="why not, if not")
    editable = serializers.BooleanField(
        help_text="false: fixed by the game, the mode or the structure"
    )
    choices = OptionChoiceOutputSerializer(many=True, help_text="empty for a number")
    low = serializers.IntegerField(allow_null=True, help_text="a number's smallest value")
    high = serializers.IntegerField(allow_null=True, help_text="a number's largest value")


class OptionGroupOutputSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    options = OptionOutputSerializer(many=True)


class ProfileOutputSerializer(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # the wire name
    meaning = serializers.CharField()


class RulesOutputSerializer(serializers.Serializer):
    """A tournament's or a cash table's rules: the profile, the options it changes, every
    option in words grouped like RULES.md, and whether they may change now."""

    target = TargetKindField()
    id = serializers.IntegerField()
    name = serializers.CharField()
    profile = serializers.CharField()
    profile_label = serializers.CharField()
    profile_meaning = serializers.CharField()
    profiles = ProfileOutputSerializer(many=True, help_text="the profiles this target may take")
    overrides = serializers.DictField(
        child=RuleValueField(), help_text="the options stored: those that differ from the profile"
    )
    values = serializers.DictField(child=RuleValueField(), help_text="every option in force")
    groups = OptionGroupOutputSerializer(many=True)
    locked = ErrorSerializer(
        allow_null=True, help_text="why the rules cannot change now (`tournament_started`)"
    )


def rules_answer(target: Target) -> Response:
    view = rules_view(target)
    lock = rules_lock(target)
    body = {**dataclasses.asdict(view), "locked": None if lock is None else lock.as_dict()}
    return Response(RulesOutputSerializer(body).data)


def rules_set_from(request: Request, target: Target) -> None:
    data = RulesInputSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    values = data.validated_data
    profile = values.get("profile") or target.rule_profile
    rules_set(target=target, profile=profile, values=values["values"], actor=request.user)


# --- views ---------------------------------------------------------------------------------

TAGS = ["rules"]
READ = responses(RulesOutputSerializer, 400, 403, 404)
WRITE = responses(RulesOutputSerializer, 400, 403, 404, 409)


class RulesApi(FloorApi):
    """Directors and dealers read; directors set."""

    permission_classes: Sequence[type[BasePermission]] = (IsDirectorOrDealer,)

    def get_permissions(self) -> Sequence[Any]:
        if self.request.method == "PUT":
            return [IsDirector()]
        return super().get_permissions()


class TournamentRulesApi(RulesApi):
    @extend_schema(tags=TAGS, responses=READ)
    def get(self, request: Request, pk: int) -> Response:
        """A tournament's rules: every option in words with its value and the profile's
        default, and `locked` once the tournament has started."""
        return rules_answer(get_tournament(request, pk))

    @extend_schema(tags=TAGS, request=RulesInputSerializer, responses=WRITE)
    def put(self, request: Request, pk: int) -> Response:
        """Set a tournament's profile and options (directors), before it starts (409
        `tournament_started` while it runs). The options left out take the profile's default.
        Answers the rules as stored."""
        tournament = get_tournament(request, pk)
        rules_set_from(request, tournament)
        return rules_answer(Tournament.objects.get(pk=tournament.pk))
