"""The room's screens through the API: the director's screens (list, add, change, remove), the
floor's message to the room, and the public board a screen polls beside the clock feed (chip
leaders, the payouts page by page, the final result), with an ETag named by the tournament's
version."""

from __future__ import annotations

from typing import Any

from django.http.response import HttpResponseBase
from django.urls import URLPattern, path, reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi, LazyAuthentication
from common.api.errors import WRITE_ERRORS, responses
from common.api.limits import amount_field
from config import request_time
from config.conditional import ETAG_HEADER, IF_NONE_MATCH, conditional
from tournaments.api.clocks import ClockOutputSerializer
from tournaments.api.lookups import get_tournament, get_tournament_head
from tournaments.models import Screen, Tournament
from tournaments.selectors import clock_feed
from tournaments.selectors.screens import board_etag, screen_board, screen_get, screen_list
from tournaments.selectors.versions import version_mark
from tournaments.services.screens import (
    screen_create,
    screen_delete,
    screen_update,
    tournament_set_floor_message,
)

TAGS = ["screens"]
T = "tournaments/<int:pk>/"


class ScreenOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    layout = serializers.ChoiceField(choices=Screen.Layout.choices)
    sound = serializers.BooleanField(help_text="chimes at each level change and at one minute")
    url = serializers.SerializerMethodField(help_text="the page to open on the TV")

    def get_url(self, screen: Screen) -> str:
        return reverse("public-screen", args=[screen.tournament_id, screen.pk])


class ScreenInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=60)
    layout = serializers.ChoiceField(
        choices=Screen.Layout.choices,
        default=Screen.Layout.CLASSIC,
        help_text="classic: the big clock; sidebar: the clock with payouts and chip leaders; "
        "payouts: a payouts board with the clock line",
    )
    sound = serializers.BooleanField(default=False)


class ScreenPatchSerializer(ScreenInputSerializer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, partial=True, **kwargs)


class FloorMessageInputSerializer(serializers.Serializer):
    message = serializers.CharField(
        max_length=200, allow_blank=True, help_text='shown on every screen and phone; "" removes it'
    )


class LeaderOutputSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    chips = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)


class PayoutLineOutputSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    prize = amount_field()
    players = serializers.ListField(
        child=serializers.CharField(), help_text="who finished there (names), once decided"
    )


class ResultLineOutputSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    name = serializers.CharField()
    prize = amount_field(allow_null=True)


class BoardOutputSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    leaders = LeaderOutputSerializer(many=True, help_text="the 10 biggest stacks of players in")
    payout_pages = serializers.ListField(
        child=PayoutLineOutputSerializer(many=True),
        help_text="the paid places, 10 to a page, first place first",
    )
    result = ResultLineOutputSerializer(
        many=True, help_text="once finished: the top 9 places, the winner first; else []"
    )


def _screen(tournament: Tournament, screen_pk: int) -> Screen:
    screen = screen_get(tournament, screen_pk)
    if screen is None:
        raise NotFound("There is no such screen.")
    return screen


class ScreensApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(ScreenOutputSerializer(many=True), 403, 404))
    def get(self, request: Request, pk: int) -> Response:
        """The tournament's screens, each with the page to open on its TV."""
        screens = screen_list(get_tournament(request, pk))
        return Response(ScreenOutputSerializer(screens, many=True).data)

    @extend_schema(
        tags=TAGS,
        request=ScreenInputSerializer,
        responses=responses(ScreenOutputSerializer, *WRITE_ERRORS, status=201),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Add a screen: a name, a layout and whether it chimes."""
        tournament = get_tournament(request, pk)
        data = ScreenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        screen = screen_create(tournament=tournament, actor=request.user, **data.validated_data)
        return Response(ScreenOutputSerializer(screen).data, status=201)


class ScreenApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(ScreenOutputSerializer, 403, 404))
    def get(self, request: Request, pk: int, screen_pk: int) -> Response:
        screen = _screen(get_tournament(request, pk), screen_pk)
        return Response(ScreenOutputSerializer(screen).data)

    @extend_schema(
        tags=TAGS,
        request=ScreenPatchSerializer,
        responses=responses(ScreenOutputSerializer, *WRITE_ERRORS),
    )
    def patch(self, request: Request, pk: int, screen_pk: int) -> Response:
        """Change the name, layout or sound (only those sent)."""
        screen = _screen(get_tournament(request, pk), screen_pk)
        data = ScreenPatchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        screen = screen_update(screen=screen, actor=request.user, **data.validated_data)
        return Response(ScreenOutputSerializer(screen).data)

    @extend_schema(tags=TAGS, responses=responses(None, 403, 404, status=204))
    def delete(self, request: Request, pk: int, screen_pk: int) -> Response:
        screen = _screen(get_tournament(request, pk), screen_pk)
        screen_delete(screen=screen, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FloorMessageApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=FloorMessageInputSerializer,
        responses=responses(ClockOutputSerializer, *WRITE_ERRORS),
    )
    def put(self, request: Request, pk: int) -> Response:
        """Show a message to the room on every screen and phone ("" takes it down); answers the
        clock feed, which carries it as `floor_message`."""
        tournament = get_tournament(request, pk)
        data = FloorMessageInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_set_floor_message(
            tournament=tournament, actor=request.user, **data.validated_data
        )
        return Response(clock_feed(tournament, request_time.now()).as_dict())


class BoardApi(LazyAuthentication, FloorApi):
    permission_classes = (AllowAny,)

    @extend_schema(
        tags=TAGS,
        parameters=[IF_NONE_MATCH, ETAG_HEADER],
        responses={**responses(BoardOutputSerializer, 404), 304: None},
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        """Public: what the screens show beside the clock. Poll with If-None-Match: 304 until
        the tournament's version moves (a chip, a bust, a prize, the end of the event)."""
        tournament = get_tournament_head(request, pk)
        return conditional(
            request,
            board_etag(tournament),
            lambda: Response(screen_board(tournament)),
            version=version_mark(tournament),
        )


urls: list[URLPattern] = [
    path(T + "screens/", ScreensApi.as_view(), name="api-screens"),
    path(T + "screens/<int:screen_pk>/", ScreenApi.as_view(), name="api-screen"),
    path(T + "floor-message/", FloorMessageApi.as_view(), name="api-floor-message"),
    path(T + "board/", BoardApi.as_view(), name="api-screen-board"),
]
