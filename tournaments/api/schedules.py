"""Blind schedules (templates): list, create, retrieve, replace the levels."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.serializer_helpers import ReturnDict

from common.api.base import FloorApi
from common.api.errors import WRITE_ERRORS, responses
from common.limits import MAX_INT
from tournaments.api.lookups import get_schedule
from tournaments.limits import MAX_LEVEL_SECONDS, MAX_LEVELS
from tournaments.models import BlindSchedule
from tournaments.services.events import schedule_create, schedule_replace_levels

TAGS = ["schedules"]


class LevelInputSerializer(serializers.Serializer):
    """One row: blinds and ante (chips), duration (seconds), or a break. The schedule's own
    rules (small blind at most the big blind, blinds never going down, ...) are the service's."""

    small_blind = serializers.IntegerField(min_value=0, max_value=MAX_INT, required=False)
    big_blind = serializers.IntegerField(min_value=0, max_value=MAX_INT, required=False)
    ante = serializers.IntegerField(min_value=0, max_value=MAX_INT, required=False)
    bb_ante = serializers.BooleanField(required=False)
    smallest_chip = serializers.IntegerField(
        min_value=1,
        max_value=MAX_INT,
        required=False,
        help_text="the smallest chip in play (default 1): split pots are divided in it, and "
        "the blinds and ante are multiples of it",
    )
    duration = serializers.IntegerField(min_value=0, max_value=MAX_LEVEL_SECONDS)
    is_break = serializers.BooleanField(required=False)
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)


class LevelFieldsSerializer(serializers.Serializer):
    """One row as every reader sees it: a schedule's, a tournament's and the clock's levels."""

    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    bb_ante = serializers.BooleanField()
    smallest_chip = serializers.IntegerField(help_text="the smallest chip in play")
    duration = serializers.IntegerField(help_text="seconds")
    is_break = serializers.BooleanField()
    note = serializers.CharField()


class LevelOutputSerializer(LevelFieldsSerializer):
    order = serializers.IntegerField()


class ScheduleLevelsInputSerializer(serializers.Serializer):
    levels: serializers.ListSerializer[object] = serializers.ListSerializer(
        child=LevelInputSerializer(), max_length=MAX_LEVELS
    )


class ScheduleInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    levels: serializers.ListSerializer[object] = serializers.ListSerializer(
        child=LevelInputSerializer(), max_length=MAX_LEVELS
    )


class ScheduleOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()
    levels = LevelOutputSerializer(many=True, source="levels.all")


def render_schedule(schedule: BlindSchedule) -> ReturnDict[str, object]:
    schedule = BlindSchedule.objects.prefetch_related("levels").get(pk=schedule.pk)
    return ScheduleOutputSerializer(schedule).data


class SchedulesApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(ScheduleOutputSerializer(many=True), 403))
    def get(self, request: Request) -> Response:
        """Every blind schedule with its levels."""
        schedules = BlindSchedule.objects.prefetch_related("levels")
        return Response(ScheduleOutputSerializer(schedules, many=True).data)

    @extend_schema(
        tags=TAGS,
        request=ScheduleInputSerializer,
        responses=responses(ScheduleOutputSerializer, 400, 403, 409, status=201),
    )
    def post(self, request: Request) -> Response:
        """Create a schedule; a level the clock cannot run is refused with its code
        (`small_blind_above_big_blind`, `blinds_decrease`, ...)."""
        data = ScheduleInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        schedule = schedule_create(actor=request.user, **data.validated_data)
        return Response(render_schedule(schedule), status=201)


class ScheduleApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(ScheduleOutputSerializer, 403, 404))
    def get(self, request: Request, pk: int) -> Response:
        return Response(render_schedule(get_schedule(pk)))


class ScheduleLevelsApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=ScheduleLevelsInputSerializer,
        responses=responses(ScheduleOutputSerializer, *WRITE_ERRORS),
    )
    def put(self, request: Request, pk: int) -> Response:
        """Replace every level of the template (tournaments keep their own copy)."""
        schedule = get_schedule(pk)
        data = ScheduleLevelsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        schedule = schedule_replace_levels(
            schedule=schedule, actor=request.user, **data.validated_data
        )
        return Response(render_schedule(schedule))
