"""Players across the series: the director's search, a player's record with contact (read
and changed by the director only), and a player's public results (no contact)."""

from __future__ import annotations

from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import WRITE_ERRORS, responses
from common.api.limits import amount_field
from common.limits import MAX_NAME
from common.roles import is_director
from tournaments.api import series
from tournaments.models import Player
from tournaments.selectors.players import (
    MAX_PAGE,
    PAGE_SIZE,
    player_get,
    player_public_get,
    player_results,
    player_search,
)
from tournaments.services.players import (
    EMAIL_MAX,
    NUMBER_MAX,
    PHONE_MAX,
    player_update,
    players_merge,
)

TAGS = ["players"]


class PlayerSearchInputSerializer(serializers.Serializer):
    q = serializers.CharField(
        max_length=MAX_NAME,
        required=False,
        allow_blank=True,
        help_text='any part of the name, accents optional ("jose" finds José), or "#1042"',
    )
    page = serializers.IntegerField(min_value=1, max_value=MAX_PAGE, required=False)
    archived = serializers.BooleanField(default=False, help_text="the archived players too")


class PlayerHitOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    number = serializers.CharField()
    entries = serializers.IntegerField(help_text="entries played in every event")
    is_archived = serializers.BooleanField()


class PlayerPageOutputSerializer(serializers.Serializer):
    query = serializers.CharField()
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    page_size = serializers.SerializerMethodField()
    results = PlayerHitOutputSerializer(many=True, source="rows")

    def get_page_size(self, _: object) -> int:
        return PAGE_SIZE


class PlayerOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    number = serializers.CharField()
    email = serializers.CharField()
    phone = serializers.CharField()
    is_archived = serializers.BooleanField(help_text="hidden from the search")
    created_at = serializers.DateTimeField()


class PlayerUpdateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=MAX_NAME, required=False)
    number = serializers.CharField(
        max_length=NUMBER_MAX, required=False, allow_blank=True, help_text='"" clears it'
    )
    email = serializers.CharField(max_length=EMAIL_MAX, required=False, allow_blank=True)
    phone = serializers.CharField(max_length=PHONE_MAX, required=False, allow_blank=True)


# `{"from": id}`: "from" is a Python keyword, so the class is built with the field by name.
PlayerMergeInputSerializer = type(
    "PlayerMergeInputSerializer",
    (serializers.Serializer,),
    {
        "from": serializers.IntegerField(
            min_value=1, help_text="the id of the player merged into this one (then deleted)"
        )
    },
)


class ResultRowOutputSerializer(serializers.Serializer):
    tournament_id = serializers.IntegerField()
    tournament = serializers.CharField()
    series = serializers.CharField(allow_null=True)
    status = serializers.CharField(help_text="the event's status")
    entry_number = serializers.IntegerField()
    entries_in_event = serializers.IntegerField()
    entry_status = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    prize = amount_field(allow_null=True, help_text="cash; a seat won is `seat_in`")
    seat_in = serializers.CharField(allow_null=True, help_text="a satellite seat won: the event")
    seat_value = amount_field(allow_null=True)
    ticket_from = serializers.CharField(
        allow_null=True, help_text="the satellite whose seat paid this entry"
    )
    bounty = amount_field(allow_null=True, help_text="bounties won, in an event with bounties")


class PlayerResultsOutputSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    events = serializers.IntegerField()
    entries = serializers.IntegerField()
    cashes = serializers.IntegerField()
    winnings = amount_field(help_text="cash prizes and bounties")
    bounties = amount_field()
    seats = serializers.IntegerField(help_text="satellite seats won")
    tickets = amount_field(help_text="what the seats won are worth")
    rows = ResultRowOutputSerializer(many=True)


def _player(pk: int) -> Player:
    player = player_get(pk)
    if player is None:
        raise NotFound("There is no such player.")
    return player


class PlayersApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        operation_id="players_search",
        parameters=[PlayerSearchInputSerializer],
        responses=responses(PlayerPageOutputSerializer, 400, 403),
    )
    def get(self, request: Request) -> Response:
        """Director: players by name or number, a page of 50 at a time; the archived ones only
        with `?archived=true`."""
        query = PlayerSearchInputSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        found = player_search(
            query.validated_data.get("q", ""),
            page=query.validated_data.get("page", 1),
            archived=query.validated_data["archived"],
        )
        return Response(PlayerPageOutputSerializer(found).data)


class PlayerApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(PlayerOutputSerializer, 403, 404))
    def get(self, request: Request, pk: int) -> Response:
        """Director: the player's record, contact included."""
        return Response(PlayerOutputSerializer(_player(pk)).data)

    @extend_schema(
        tags=TAGS,
        request=PlayerUpdateInputSerializer,
        responses=responses(PlayerOutputSerializer, *WRITE_ERRORS),
    )
    def patch(self, request: Request, pk: int) -> Response:
        """Director: change the name, number or contact (only what is sent). 409 `name_taken`,
        `number_taken`; 400 `bad_number`, `bad_email`, `bad_phone`, `bad_name`."""
        player = _player(pk)
        data = PlayerUpdateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_update(player=player, actor=request.user, **data.validated_data)
        return Response(PlayerOutputSerializer(player).data)


class PlayerMergeApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=PlayerMergeInputSerializer,
        responses=responses(PlayerOutputSerializer, *WRITE_ERRORS),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Director: merge the player `from` into this one (the same person registered twice):
        their entries, results, cash seats and list places become this player's, and `from` is
        deleted. 409 `both_playing` while both play the same event that is not finished, 409
        `both_seated` when both hold a seat at one table or a place on one list; 400
        `same_player`; 404 `not_found`."""
        data = PlayerMergeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = players_merge(keep=pk, merge=data.validated_data["from"], actor=request.user)
        return Response(PlayerOutputSerializer(player).data)


class PlayerResultsApi(FloorApi):
    permission_classes = (AllowAny,)

    @extend_schema(tags=TAGS, responses=responses(PlayerResultsOutputSerializer, 404))
    def get(self, request: Request, pk: int) -> Response:
        """Public: the player's name and results (no contact); events still planned are left
        out for all but directors. A player with no result the public may see (only on a cash
        game's list, or only in planned events) answers 404 as a missing one, but to directors."""
        director = is_director(request.user)
        player = player_get(pk) if director else player_public_get(pk)
        if player is None:
            raise NotFound("There is no such player.")
        results = player_results(player, public=not director)
        return Response(PlayerResultsOutputSerializer(results).data)


urls: list[URLPattern] = [
    path("players/", PlayersApi.as_view(), name="api-players"),
    path("players/<int:pk>/", PlayerApi.as_view(), name="api-player"),
    path("players/<int:pk>/merge/", PlayerMergeApi.as_view(), name="api-player-merge"),
    path("players/<int:pk>/results/", PlayerResultsApi.as_view(), name="api-player-results"),
    *series.urls,
]
