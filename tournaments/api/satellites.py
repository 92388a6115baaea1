"""A satellite: its seats, remainder and seat winners, and the one call that registers the
winners in the target event (the desk's "Register the winners" button is its twin)."""

from __future__ import annotations

from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import responses
from common.api.limits import amount_field
from config import request_time
from tournaments.api.lookups import get_tournament
from tournaments.selectors.satellites import SatelliteView, SeatWinner, satellite_view
from tournaments.services.satellites import satellite_register_winners

TAGS = ["satellites"]


class SeatWinnerOutputSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField(help_text="the winning entry in the satellite")
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    place = serializers.IntegerField()
    state = serializers.ChoiceField(
        choices=["registered", "waiting", "already_in"],
        help_text="registered in the target with this seat; waiting to be; or already playing "
        "the target on an entry paid otherwise (skipped: the seat's value is owed to them)",
    )
    registered = serializers.SerializerMethodField()
    target_entry_id = serializers.IntegerField(
        allow_null=True, help_text="the player's entry in the target, if any"
    )

    def get_registered(self, winner: SeatWinner) -> bool:
        return bool(winner.state == "registered")


class SatelliteOutputSerializer(serializers.Serializer):
    tournament_id = serializers.IntegerField()
    target_id = serializers.IntegerField()
    target_name = serializers.CharField()
    target_status = serializers.CharField()
    seat_value = amount_field(help_text="a seat's value (the target's buy-in and fee when unset)")
    prize_pool = amount_field()
    seats = serializers.IntegerField(
        help_text="floor(prize_pool / seat_value); 0: the pool is paid in cash as any event"
    )
    remainder = amount_field(help_text="to place seats + 1, in cash (0: nothing)")
    remainder_place = serializers.IntegerField(allow_null=True)
    players_left = serializers.IntegerField()
    over = serializers.BooleanField(help_text="the players left are no more than the seats")
    registered = serializers.SerializerMethodField(
        help_text="every seat winner is registered in the target (or already played it)"
    )
    winners = SeatWinnerOutputSerializer(many=True)

    def get_registered(self, view: SatelliteView) -> bool:
        return bool(view.winners) and not view.waiting


class SkippedOutputSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField(help_text="`already_registered`, `no_reentry`, ...")
    detail = serializers.CharField()


class RegisteredEntryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player_name = serializers.CharField(source="player.name")
    number = serializers.IntegerField()
    ticket_from = serializers.IntegerField(source="ticket_from_id")


class WinnersRegisteredOutputSerializer(serializers.Serializer):
    registered = RegisteredEntryOutputSerializer(
        many=True, help_text="the entries made in the target now (none on a second call)"
    )
    skipped = SkippedOutputSerializer(many=True)
    satellite = SatelliteOutputSerializer()


class SatelliteApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(SatelliteOutputSerializer, 403, 404, 409))
    def get(self, request: Request, pk: int) -> Response:
        """Director: the seats the pool buys, the remainder, and each seat winner with whether
        they are registered in the target (409 `not_a_satellite` for an event with no target)."""
        view = satellite_view(get_tournament(request, pk))
        return Response(SatelliteOutputSerializer(view).data)


class SatelliteRegisterWinnersApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=None,
        responses=responses(WinnersRegisteredOutputSerializer, 403, 404, 409),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Director: register every seat winner not yet registered in the target, each entry
        paid with the seat (`ticket_from`). A second call registers nobody twice. 409
        `registration_closed` (the target's), `seats_not_won` (still running), `no_seats`,
        `not_a_satellite`."""
        done = satellite_register_winners(
            tournament=get_tournament(request, pk), now=request_time.now(), actor=request.user
        )
        return Response(WinnersRegisteredOutputSerializer(done).data)


T = "tournaments/<int:pk>/"

urls: list[URLPattern] = [
    path(T + "satellite/", SatelliteApi.as_view(), name="api-satellite"),
    path(
        T + "satellite/register-winners/",
        SatelliteRegisterWinnersApi.as_view(),
        name="api-satellite-register-winners",
    ),
]
