"""Setting up recurring work (issue 26): the schedule generator and its templates, copies of a
schedule and of a tournament, archiving events and players."""

from __future__ import annotations

from dataclasses import asdict

from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import WRITE_ERRORS, responses
from common.errors import from_value_error
from common.limits import MAX_INT
from tournaments.api import events, schedules
from tournaments.api.lookups import get_schedule, get_tournament
from tournaments.api.players import PlayerOutputSerializer
from tournaments.selectors.players import player_get
from tournaments.services.archive import player_archive, tournament_archive
from tournaments.services.setup import schedule_copy, schedule_generate, tournament_copy
from tournaments.structures import MAX_LEVELS, TEMPLATES, PlanError, plan_from, template_get

TAGS = ["set-up"]


class PlanFieldsSerializer(serializers.Serializer):
    """The generator's inputs (rule SG-1, docs/rules.md); each left out is the template's."""

    small_blind = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)
    big_blind = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)
    level_minutes = serializers.IntegerField(min_value=1, max_value=24 * 60, required=False)
    increase = serializers.RegexField(
        r"^(standard|[0-9]{1,3})$",
        required=False,
        help_text='"standard" (the next value of the ladder 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 '
        'x 10^n) or a whole percentage ("30")',
    )
    levels = serializers.IntegerField(
        min_value=1, max_value=MAX_LEVELS, required=False, help_text="playing levels"
    )
    break_every = serializers.IntegerField(
        min_value=0, max_value=MAX_LEVELS, required=False, help_text="0: no breaks"
    )
    break_minutes = serializers.IntegerField(min_value=1, max_value=24 * 60, required=False)
    antes_from = serializers.IntegerField(
        min_value=0,
        max_value=MAX_LEVELS,
        required=False,
        help_text="the first level with a big-blind ante (equal to the big blind); 0: none",
    )
    smallest_chip = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)


class GenerateInputSerializer(PlanFieldsSerializer):
    name = serializers.CharField(max_length=120)
    template = serializers.ChoiceField(
        choices=[t.key for t in TEMPLATES], required=False, help_text="a built-in starting point"
    )


class TemplateOutputSerializer(PlanFieldsSerializer):
    key = serializers.CharField()
    name = serializers.CharField()


class CopyInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, help_text="the copy's name")


class ArchiveInputSerializer(serializers.Serializer):
    archived = serializers.BooleanField(default=True, help_text="false: back to the lists")


class ScheduleTemplatesApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(TemplateOutputSerializer(many=True), 403))
    def get(self, request: Request) -> Response:
        """The generator's built-in templates (Turbo, Standard, Deep) and their inputs."""
        rows = [{"key": t.key, "name": t.name, **asdict(t.plan)} for t in TEMPLATES]
        return Response(TemplateOutputSerializer(rows, many=True).data)


class ScheduleGenerateApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=GenerateInputSerializer,
        responses=responses(schedules.ScheduleOutputSerializer, 400, 403, 409, status=201),
    )
    def post(self, request: Request) -> Response:
        """A whole blind schedule in one request, from a template and/or the inputs (rounded to
        the smallest chip by rule SG-1). 400 `plan_incomplete`, `not_in_smallest_chips`,
        `bad_increase`, ...; 409 `duplicate_schedule`."""
        data = GenerateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        name = values.pop("name")
        key = values.pop("template", None)
        try:
            plan = plan_from(template_get(key) if key else None, **values)
        except PlanError as error:
            raise from_value_error(error) from error
        schedule = schedule_generate(name=name, plan=plan, actor=request.user)
        return Response(schedules.render_schedule(schedule), status=201)


class ScheduleCopyApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=CopyInputSerializer,
        responses=responses(schedules.ScheduleOutputSerializer, *WRITE_ERRORS, status=201),
    )
    def post(self, request: Request, pk: int) -> Response:
        """A new schedule with this one's levels (409 `duplicate_schedule`)."""
        data = CopyInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        copy = schedule_copy(schedule=get_schedule(pk), actor=request.user, **data.validated_data)
        return Response(schedules.render_schedule(copy), status=201)


class TournamentCopyApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=CopyInputSerializer,
        responses=responses(events.TournamentOutputSerializer, *WRITE_ERRORS, status=201),
    )
    def post(self, request: Request, pk: int) -> Response:
        """A new planned tournament with this one's settings, levels, payout settings and
        rules, without its entries (409 `copy_single_only` for a multi-flight event)."""
        data = CopyInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = get_tournament(request, pk)
        copy = tournament_copy(tournament=tournament, actor=request.user, **data.validated_data)
        return Response(events.render_tournament(copy), status=201)


class TournamentArchiveApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=ArchiveInputSerializer,
        responses=responses(events.TournamentOutputSerializer, *WRITE_ERRORS),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Hide the event from the lists, keeping its data (`archived: false` brings it back).
        409 `paid_entries` (paid and not finished), `tournament_running`, `archive_the_event`."""
        data = ArchiveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_archive(
            tournament=get_tournament(request, pk),
            archived=data.validated_data["archived"],
            actor=request.user,
        )
        return Response(events.render_tournament(tournament))


class PlayerArchiveApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=ArchiveInputSerializer,
        responses=responses(PlayerOutputSerializer, *WRITE_ERRORS),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Hide a player with no entries from the search (409 `player_has_entries`);
        `archived: false` brings one back."""
        data = ArchiveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_get(pk)
        if player is None:
            raise NotFound("There is no such player.")
        player = player_archive(
            player=player, archived=data.validated_data["archived"], actor=request.user
        )
        return Response(PlayerOutputSerializer(player).data)


urls: list[URLPattern] = [
    path("schedules/templates/", ScheduleTemplatesApi.as_view(), name="api-schedule-templates"),
    path("schedules/generate/", ScheduleGenerateApi.as_view(), name="api-schedule-generate"),
    path("schedules/<int:pk>/copy/", ScheduleCopyApi.as_view(), name="api-schedule-copy"),
    path("tournaments/<int:pk>/copy/", TournamentCopyApi.as_view(), name="api-tournament-copy"),
    path(
        "tournaments/<int:pk>/archive/",
        TournamentArchiveApi.as_view(),
        name="api-tournament-archive",
    ),
    path("players/<int:pk>/archive/", PlayerArchiveApi.as_view(), name="api-player-archive"),
]
