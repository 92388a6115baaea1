"""Eliminations: the players out on one hand, and the undo of the latest such hand (RP-8)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import WRITE_ERRORS, responses
from common.api.limits import chips_field
from common.limits import MAX_ID
from config import request_time
from tournaments.api.entries import EntryOutputSerializer
from tournaments.api.lookups import get_tournament
from tournaments.services.busts import Bust, entries_bust, entries_unbust
from tournaments.services.knockouts import eliminators_equal

TAGS = ["busts"]
MAX_BUSTS = 100  # players out on one hand: at most a table's worth, or hand-for-hand tables
MAX_ELIMINATORS = 10  # the winners of one pot: at most a table's worth


class BustInputSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    starting_stack = chips_field(
        min_value=1, help_text="the stack at the start of the hand: the bigger finishes higher"
    )
    eliminated_by = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        max_length=MAX_ELIMINATORS,
        required=False,
        help_text="the entries who knocked the player out (players still in, none out on this "
        "hand: 400 `bad_eliminator`), sharing the knockout equally; the bounties follow",
    )


class BustsApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=BustInputSerializer(many=True),
        responses=responses(EntryOutputSerializer(many=True), *WRITE_ERRORS),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Record the players out on one hand, as a list: places and prizes follow (equal
        starting stacks share a place; in hand-for-hand everyone out on the hand does)."""
        tournament = get_tournament(request, pk)
        data: serializers.ListSerializer[object] = serializers.ListSerializer(
            child=BustInputSerializer(), data=request.data, max_length=MAX_BUSTS
        )
        data.is_valid(raise_exception=True)
        busts = [
            Bust(
                entry_id=row["entry_id"],
                starting_stack=row["starting_stack"],
                eliminated_by=eliminators_equal(row.get("eliminated_by", ())),
            )
            for row in data.validated_data
        ]
        entries = entries_bust(
            tournament=tournament, busts=busts, now=request_time.now(), actor=request.user
        )
        return Response(EntryOutputSerializer(entries, many=True).data)


class BustsUndoApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=None,
        responses=responses(EntryOutputSerializer(many=True), 403, 404, 409),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Undo the latest bust (every player out on that hand plays on, in their seat, with
        the stack they started the hand with). Not idempotent: a second call undoes the hand
        before."""
        tournament = get_tournament(request, pk)
        entries = entries_unbust(tournament=tournament, actor=request.user)
        return Response(EntryOutputSerializer(entries, many=True).data)
