"""Series: list them and create one (a tournament joins a series with its `series` setting)."""

from __future__ import annotations

from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import WRITE_ERRORS, responses
from tournaments.selectors.players import series_list
from tournaments.services.series import NAME_MAX, series_create

TAGS = ["players"]


class SeriesInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_MAX)


class SeriesOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    events = serializers.IntegerField(source="events_count", default=0)
    created_at = serializers.DateTimeField()


class SeriesApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(SeriesOutputSerializer(many=True), 403))
    def get(self, request: Request) -> Response:
        """Director: every series, the newest first, with how many events it holds."""
        return Response(SeriesOutputSerializer(series_list(), many=True).data)

    @extend_schema(
        tags=TAGS,
        request=SeriesInputSerializer,
        responses=responses(SeriesOutputSerializer, *WRITE_ERRORS, status=201),
    )
    def post(self, request: Request) -> Response:
        """Director: a new series (409 `series_taken` for a name already used)."""
        data = SeriesInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        created = series_create(name=data.validated_data["name"], actor=request.user)
        return Response(SeriesOutputSerializer(created).data, status=201)


urls: list[URLPattern] = [path("series/", SeriesApi.as_view(), name="api-series")]
