"""The registration desk: list entries, register (late registration and re-entry are the same
operation), unregister, rebuy, add-on, chip counts."""

from __future__ import annotations

from typing import TypedDict

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import WRITE_ERRORS, responses
from common.api.limits import amount_field, chips_field
from common.limits import MAX_INT, MAX_NAME
from config import request_time
from tournaments.api.fields import EntryStatusField
from tournaments.api.lookups import get_tournament
from tournaments.models import ChipMove, Entry, Tournament
from tournaments.services.entries import (
    entry_addon,
    entry_rebuy,
    entry_register,
    entry_set_chips,
    entry_unregister,
)

TAGS = ["entries"]


class HandPlaceSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    hand = serializers.IntegerField()


class SeatPlaceSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    seat = serializers.IntegerField()


class EntryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    player_name = serializers.CharField(source="player.name")
    number = serializers.IntegerField(help_text="1 for the first entry, 2 for a re-entry, ...")
    status = EntryStatusField()
    chips = serializers.IntegerField()
    chips_source = serializers.CharField(
        help_text="where the count comes from: 'after hand 41 at table 3', 'counted (at the break)'"
    )
    chips_at = serializers.DateTimeField(allow_null=True, help_text="when it was written")
    in_hand = serializers.SerializerMethodField(
        help_text="the hand in progress the player is dealt in (the floor waits for it)"
    )
    table = serializers.IntegerField(source="table.number", allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    moves_to = serializers.SerializerMethodField(
        help_text="a move that takes effect when the player's hand ends"
    )
    rebuys = serializers.IntegerField()
    addon = serializers.BooleanField()
    late = serializers.BooleanField()
    finishing_place = serializers.IntegerField(allow_null=True)
    prize = amount_field(allow_null=True)
    busted_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(HandPlaceSerializer(allow_null=True))
    def get_in_hand(self, entry: Entry) -> dict[str, int] | None:
        hand = entry.live_hand
        return None if hand is None else {"table": hand.table.number, "hand": hand.number}

    @extend_schema_field(SeatPlaceSerializer(allow_null=True))
    def get_moves_to(self, entry: Entry) -> dict[str, int] | None:
        if entry.move_to_table is None:
            return None
        return {"table": entry.move_to_table.number, "seat": entry.move_to_seat or 0}


class EntryFilterSerializer(serializers.Serializer):
    status = EntryStatusField(required=False)
    q = serializers.CharField(max_length=MAX_NAME, required=False, help_text="name contains")
    table = serializers.IntegerField(min_value=1, max_value=MAX_INT, required=False)


class EntryRegisterInputSerializer(serializers.Serializer):
    player_name = serializers.CharField(
        max_length=MAX_NAME,
        required=False,
        default="",
        trim_whitespace=False,
        allow_blank=True,
        help_text='the player\'s name, or "#1042" for the player with that number',
    )
    player = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="the id of a known player to register (a `likely_same_player` candidate); "
        "the name is then not read",
    )
    new_player = serializers.BooleanField(
        default=False,
        help_text="register a new player even when the name folds to a known player's",
    )


class EntryChipsInputSerializer(serializers.Serializer):
    chips = chips_field(help_text="the stack counted at the table (at least 1)")
    kind = serializers.ChoiceField(
        choices=[ChipMove.Kind.COUNT, ChipMove.Kind.CORRECTION, ChipMove.Kind.COLOUR_UP],
        default=ChipMove.Kind.COUNT,
        help_text="a count, a correction, or a colour-up (chips a chip race took out)",
    )
    note = serializers.CharField(
        max_length=200, required=False, default="", help_text="why or when: 'at the break'"
    )


class EntryFilters(TypedDict, total=False):
    """`EntryFilterSerializer`'s checked input: a filter sent is there, one not sent is not."""

    status: str
    q: str
    table: int


def _entries(tournament: Tournament, filters: EntryFilters) -> QuerySet[Entry]:
    entries = Entry.objects.filter(tournament=tournament).select_related(
        "player", "table", "live_hand__table", "move_to_table"
    )
    if "status" in filters:
        entries = entries.filter(status=filters["status"])
    if "q" in filters:
        entries = entries.filter(player__name__icontains=filters["q"])
    if "table" in filters:
        entries = entries.filter(table__number=filters["table"])
    return entries.order_by("player__name", "number")


class EntriesApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        parameters=[EntryFilterSerializer],
        responses=responses(EntryOutputSerializer(many=True), 400, 403, 404),
    )
    def get(self, request: Request, pk: int) -> Response:
        """The tournament's entries by name, filtered by status, name or table."""
        tournament = get_tournament(request, pk)
        filters = EntryFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        entries = _entries(tournament, filters.validated_data)
        return Response(EntryOutputSerializer(entries, many=True).data)

    @extend_schema(
        tags=TAGS,
        request=EntryRegisterInputSerializer,
        responses=responses(EntryOutputSerializer, *WRITE_ERRORS, status=201),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Register a player: before the start, during late registration (a random seat at a
        shortest table once seats are drawn) or as a re-entry of a busted player. A new name
        that folds to a known player's ("Jose Nunez" next to "José Núñez") answers 409
        `likely_same_player` with `candidates` (id, name, number): send again with `player`
        (one of their ids) or with `new_player: true`."""
        tournament = get_tournament(request, pk)
        data = EntryRegisterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_register(
            tournament=tournament, now=request_time.now(), actor=request.user, **data.validated_data
        )
        return Response(EntryOutputSerializer(entry).data, status=201)


class EntryUnregisterApi(FloorApi):
    @extend_schema(
        tags=TAGS, request=None, responses=responses(EntryOutputSerializer, 403, 404, 409)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Before the start: the entry is kept, marked unregistered."""
        entry = entry_unregister(entry=pk, actor=request.user)
        return Response(EntryOutputSerializer(entry).data)


class EntryRebuyApi(FloorApi):
    @extend_schema(
        tags=TAGS, request=None, responses=responses(EntryOutputSerializer, 403, 404, 409)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Add the rebuy chips: until the end of `rebuy_until_level` and the break after it
        (409 `rebuys_closed` after, naming the level), to a stack at or below the start."""
        entry = entry_rebuy(entry=pk, now=request_time.now(), actor=request.user)
        return Response(EntryOutputSerializer(entry).data)


class EntryAddonApi(FloorApi):
    @extend_schema(
        tags=TAGS, request=None, responses=responses(EntryOutputSerializer, 403, 404, 409)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Add the add-on chips, once per entry, in the add-on's window (the tournament's
        `addon_level`, or the first break after the last rebuy level): 409 `addon_not_yet`
        before it, `addon_closed` after it, with a sentence naming the window."""
        entry = entry_addon(entry=pk, actor=request.user, now=request_time.now())
        return Response(EntryOutputSerializer(entry).data)


class EntryChipsApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=EntryChipsInputSerializer,
        responses=responses(EntryOutputSerializer, *WRITE_ERRORS),
    )
    def put(self, request: Request, pk: int) -> Response:
        """Set the stack counted at the table (a bust is recorded with the busts instead)."""
        data = EntryChipsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_set_chips(entry=pk, actor=request.user, **data.validated_data)
        return Response(EntryOutputSerializer(entry).data)
