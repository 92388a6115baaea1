"""The desk at scale through the API: a player moved to a chosen seat, seat locks, a table
closed (and, in `tournaments.api.tables`, a table added: POST on the tournament's tables). The
same services as the tables page (`tournaments.services.floor`)."""

from __future__ import annotations

from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import WRITE_ERRORS, responses
from tournaments.api.entries import EntryOutputSerializer
from tournaments.api.tables import PlanOutputSerializer, TableAddedOutputSerializer, render_plan
from tournaments.models import Entry, Table
from tournaments.seating import MAX_SEATS
from tournaments.services.floor import entry_move_seat, table_close, table_lock_seat

TAGS = ["tables"]
MAX_ID = 2**31 - 1


class EntryMoveInputSerializer(serializers.Serializer):
    table = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="the table's id"
    )
    table_number = serializers.IntegerField(
        min_value=1,
        max_value=9999,
        required=False,
        help_text="or the table's number in the entry's tournament",
    )
    seat = serializers.IntegerField(min_value=1, max_value=MAX_SEATS)

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        if ("table" in attrs) == ("table_number" in attrs):
            raise serializers.ValidationError("Send the table's id (table) or its number.")
        return attrs


class EntryMoveApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=EntryMoveInputSerializer,
        responses=responses(EntryOutputSerializer, *WRITE_ERRORS),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Move a player to a table and seat (audited). A player dealt in a hand in progress
        moves when it ends: the answer's `moves_to` says where, the seat is held meanwhile."""
        data = EntryMoveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table: Table | None = data.validated_data.get("table")
        if table is None:
            tournament_id = Entry.objects.filter(pk=pk).values_list("tournament_id", flat=True)
            number = data.validated_data["table_number"]
            table = Table.objects.filter(tournament_id__in=tournament_id, number=number).first()
            if table is None:
                raise NotFound(f"There is no table {number} in this entry's tournament.")
        entry = entry_move_seat(
            entry=pk, table=table, seat=data.validated_data["seat"], actor=request.user
        )
        return Response(EntryOutputSerializer(entry).data)


class SeatLockInputSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=MAX_SEATS)
    locked = serializers.BooleanField(help_text="true: lock the seat; false: unlock it")


class SeatLocksApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=SeatLockInputSerializer,
        responses=responses(TableAddedOutputSerializer, *WRITE_ERRORS),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Lock a seat (nobody is seated there: not by the draw, a late entry, balancing, a
        broken table or the final table) or unlock it; answers the table with its locked
        seats. Locking an occupied seat, or one a player moves to after their hand, is 409."""
        data = SeatLockInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = table_lock_seat(table=pk, actor=request.user, **data.validated_data)
        return Response(TableAddedOutputSerializer(table).data)


class TableCloseApi(FloorApi):
    @extend_schema(
        tags=TAGS, request=None, responses=responses(PlanOutputSerializer, 400, 403, 404, 409)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Close (break) a table now: its players move to open seats drawn at the shortest
        tables (T 10-B); a player in a hand in progress moves when it ends. Answers the moves."""
        return Response(render_plan(table_close(table=pk, actor=request.user)))


urls: list[URLPattern] = [
    path("entries/<int:pk>/move/", EntryMoveApi.as_view(), name="api-entry-move"),
    path("tables/<int:pk>/seat-locks/", SeatLocksApi.as_view(), name="api-seat-locks"),
    path("tables/<int:pk>/close/", TableCloseApi.as_view(), name="api-table-close"),
]
