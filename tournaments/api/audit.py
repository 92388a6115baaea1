"""The audit log: every director action, newest first, read a page at a time."""

from __future__ import annotations

from typing import TypedDict

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import responses
from common.limits import MAX_ID
from tournaments.models import AuditEvent

TAGS = ["audit"]
PAGE = 100
MAX_PAGE = 1000


class AuditFilterSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)
    action = serializers.CharField(max_length=60, required=False)
    before = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="events older than this id"
    )
    limit = serializers.IntegerField(min_value=1, max_value=MAX_PAGE, default=PAGE)


class AuditEventOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    tournament = serializers.IntegerField(source="tournament_id", allow_null=True)
    actor = serializers.CharField(source="actor.username", allow_null=True)
    action = serializers.CharField()
    detail = serializers.JSONField()


class AuditPageOutputSerializer(serializers.Serializer):
    results = AuditEventOutputSerializer(many=True)
    next_before = serializers.IntegerField(
        allow_null=True, help_text="pass as `before` for the next (older) page; null at the end"
    )


class AuditFilters(TypedDict, total=False):
    """`AuditFilterSerializer`'s checked input: a filter sent is there, one not sent is not."""

    tournament: int
    action: str
    before: int
    limit: int


def _events(filters: AuditFilters) -> list[AuditEvent]:
    events = AuditEvent.objects.select_related("actor").order_by("-pk")
    if "tournament" in filters:
        events = events.filter(tournament_id=filters["tournament"])
    if "action" in filters:
        events = events.filter(action=filters["action"])
    if "before" in filters:
        events = events.filter(pk__lt=filters["before"])
    return list(events[: filters["limit"] + 1])


class AuditLogApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        parameters=[AuditFilterSerializer],
        responses=responses(AuditPageOutputSerializer, 400, 403),
    )
    def get(self, request: Request) -> Response:
        """Directors: who did what and when, newest first; filter by tournament or action."""
        query = AuditFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        limit = query.validated_data["limit"]
        events = _events(query.validated_data)
        more = len(events) > limit
        page = {"results": events[:limit], "next_before": events[limit - 1].pk if more else None}
        return Response(AuditPageOutputSerializer(page).data)
