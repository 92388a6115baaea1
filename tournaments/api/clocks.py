"""The tournament clock: the one clock feed (polled with ETag by the big screen, the desk, the
tablets and other clients) and the director's controls.

The feed is `selectors.clock_feed`, sent as it is: the pages embed the same dictionary. It is
stable while nothing changes: a running clock is sent as the moment its level ends (`ends_at`),
not as a countdown, so its ETag (the tournament's version and the level in force) holds for the
whole level. The fields that move every second (`server_time`, `seconds_left`,
`overtime_seconds`, `seconds_to_next_break`) are sent with a 200 but are not part of the ETag; a
page counts down itself from `ends_at`, setting its own clock by `server_time`, and keeps doing
so through any number of 304 answers.

The JSON feed is kept for the public's next requests (`config.conditional.Keep`, issue 28): the
rest of it once per ETag, those four fields (`selectors.clock.ClockTail`) worked out at each
answer, so that a kept 200 is as right at its second as a built one.
"""

from __future__ import annotations

from typing import TypedDict

from django.http import HttpResponse
from django.http.response import HttpResponseBase
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi, LazyAuthentication
from common.api.errors import WRITE_ERRORS, responses
from common.api.limits import amount_field
from common.limits import MAX_SMALL_INT
from config import request_time
from config.conditional import ETAG_HEADER, IF_NONE_MATCH, Keep, conditional
from tournaments.api.fields import ClockStatusField, TournamentStatusField
from tournaments.api.lookups import get_tournament, get_tournament_head
from tournaments.api.schedules import LevelFieldsSerializer
from tournaments.limits import MAX_LEVEL_SECONDS
from tournaments.models import Tournament
from tournaments.selectors import clock_etag, clock_feed
from tournaments.selectors.clock import clock_tail
from tournaments.selectors.versions import version_mark
from tournaments.services.clocks import (
    clock_add_time,
    clock_hand_for_hand_hand,
    clock_pause,
    clock_resume,
    clock_set_level,
    clock_start,
    tournament_set_hand_for_hand,
)

TAGS = ["clock"]


class ClockOutputSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    tournament_status = TournamentStatusField()
    finished = serializers.BooleanField(help_text="the tournament is over")
    status = ClockStatusField()
    level_index = serializers.IntegerField(help_text="schedule row, from 0 (breaks count)")
    level_number = serializers.IntegerField(allow_null=True, help_text="null on a break")
    label = serializers.CharField(  # type: ignore[assignment]  # the wire name
        help_text='"Level 5" or "Break"'
    )
    level = LevelFieldsSerializer()
    next_level = LevelFieldsSerializer(allow_null=True)
    is_last_level = serializers.BooleanField(help_text="no row follows: overtime at its end")
    blinds = serializers.CharField(help_text='the level in words: "100 / 200, ante 200 (BB ante)"')
    next_blinds = serializers.CharField(help_text='the next row in words; "" on the last level')
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(
        allow_null=True, help_text="running: when the level ends (past: overtime); else null"
    )
    next_break_at = serializers.DateTimeField(
        allow_null=True, help_text="running: when the next break starts; else null"
    )
    remaining_seconds = serializers.IntegerField(
        allow_null=True, help_text="paused or not started: the level's time left; else null"
    )
    hand_for_hand = serializers.BooleanField(
        help_text="hand-for-hand play (RP-8) is on: the clock stands still, it is not a pause"
    )
    hand_for_hand_hand = serializers.IntegerField(
        allow_null=True,
        help_text="during hand-for-hand, the hand-for-hand hand being played (send it as `hand` "
        "to hand-for-hand/hand/); else null",
    )
    players_left = serializers.IntegerField()
    entries = serializers.IntegerField()
    average_stack = serializers.IntegerField()
    places_paid = serializers.IntegerField()
    prize_pool = amount_field()
    next_payout = amount_field(
        allow_null=True, help_text="what the next player out receives; null before the money"
    )
    min_cash = amount_field(
        allow_null=True, help_text="the smallest prize (the last paid place); null if none yet"
    )
    break_note = serializers.CharField(
        help_text="the note of the break on the clock or of the one coming next "
        '("Colour-up: remove the 25s"); "" if none'
    )
    floor_message = serializers.CharField(
        help_text='the floor\'s message to the room, shown on the screens and phones; "" if none'
    )
    server_time = serializers.DateTimeField(help_text="not in the ETag")
    seconds_left = serializers.IntegerField(help_text="at server_time; not in the ETag")
    overtime_seconds = serializers.IntegerField(help_text="at server_time; not in the ETag")
    seconds_to_next_break = serializers.IntegerField(
        allow_null=True, help_text="at server_time; not in the ETag"
    )


class ClockSetLevelInputSerializer(serializers.Serializer):
    index = serializers.IntegerField(
        min_value=0, max_value=MAX_SMALL_INT, help_text="schedule row, from 0 (breaks count)"
    )


class ClockAddTimeInputSerializer(serializers.Serializer):
    seconds = serializers.IntegerField(
        min_value=-MAX_LEVEL_SECONDS,
        max_value=MAX_LEVEL_SECONDS,
        help_text="positive adds time, negative removes it",
    )


def _render(tournament: Tournament) -> Response:
    return Response(clock_feed(tournament, request_time.now()).as_dict())


class ClockApi(LazyAuthentication, FloorApi):
    permission_classes = (AllowAny,)

    @extend_schema(
        tags=TAGS,
        parameters=[IF_NONE_MATCH, ETAG_HEADER],
        responses={**responses(ClockOutputSerializer, 404), 304: None},
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        """Public: the clock for the big screen and phones. Poll with If-None-Match: 304 until
        the level, the pause state, the time on the clock or the field changes."""
        tournament = get_tournament_head(request, pk)
        now = request_time.now()
        tag = clock_etag(tournament, now)
        version = version_mark(tournament)
        if request.accepted_renderer.format != "json":  # the browsable API: DRF renders it
            return conditional(
                request,
                tag.etag,
                lambda: Response(clock_feed(tournament, now, tag=tag).as_dict()),
                version=version,
                until=tag.until,
            )

        def fixed() -> HttpResponse:
            # All of the JSON but the fields that move with time: the tail adds them.
            feed = clock_feed(tournament, now, tag=tag)
            body = bytes(JSONRenderer().render(feed.stable))[:-1]
            return HttpResponse(body, content_type="application/json")

        keep = None if request.query_params else Keep(tail=clock_tail(tournament))
        return conditional(request, tag.etag, fixed, version=version, until=tag.until, keep=keep)


class _Schema(TypedDict):
    tags: list[str]
    request: None
    responses: dict[int, object]


_CONTROL: _Schema = {
    "tags": TAGS,
    "request": None,
    "responses": responses(ClockOutputSerializer, 403, 404, 409),
}


class ClockStartApi(FloorApi):
    @extend_schema(**_CONTROL)
    def post(self, request: Request, pk: int) -> Response:
        """Start the clock on the first level (seats must be drawn)."""
        tournament = get_tournament(request, pk)
        tournament = clock_start(tournament=tournament, now=request_time.now(), actor=request.user)
        return _render(tournament)


class ClockPauseApi(FloorApi):
    @extend_schema(**_CONTROL)
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_tournament(request, pk)
        tournament = clock_pause(tournament=tournament, now=request_time.now(), actor=request.user)
        return _render(tournament)


class ClockResumeApi(FloorApi):
    @extend_schema(**_CONTROL)
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_tournament(request, pk)
        tournament = clock_resume(tournament=tournament, now=request_time.now(), actor=request.user)
        return _render(tournament)


class ClockSetLevelApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=ClockSetLevelInputSerializer,
        responses=responses(ClockOutputSerializer, *WRITE_ERRORS),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Move the clock to a schedule row, which starts with its full time."""
        tournament = get_tournament(request, pk)
        data = ClockSetLevelInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = clock_set_level(
            tournament=tournament, now=request_time.now(), actor=request.user, **data.validated_data
        )
        return _render(tournament)


class ClockAddTimeApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=ClockAddTimeInputSerializer,
        responses=responses(ClockOutputSerializer, *WRITE_ERRORS),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Add time to the level on the clock, or remove it (at most a day either way)."""
        tournament = get_tournament(request, pk)
        data = ClockAddTimeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = clock_add_time(
            tournament=tournament, now=request_time.now(), actor=request.user, **data.validated_data
        )
        return _render(tournament)


class HandForHandInputSerializer(serializers.Serializer):
    on = serializers.BooleanField(help_text="true starts hand-for-hand, false ends it")


class HandForHandApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=HandForHandInputSerializer,
        responses=responses(ClockOutputSerializer, *WRITE_ERRORS),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Start or end hand-for-hand play (RP-8): starting stops the clock, ending restarts it;
        players out on the same hand-for-hand hand share their place."""
        tournament = get_tournament(request, pk)
        data = HandForHandInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_set_hand_for_hand(
            tournament=tournament, now=request_time.now(), actor=request.user, **data.validated_data
        )
        return _render(tournament)


class HandForHandHandInputSerializer(serializers.Serializer):
    hand = serializers.IntegerField(
        min_value=1,
        max_value=100_000,
        required=False,
        help_text="the hand-for-hand hand being declared over (the clock's "
        "`hand_for_hand_hand`): refused with 409 hand_for_hand_moved_on if it is over already",
    )


class HandForHandHandApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=HandForHandHandInputSerializer,
        responses=responses(ClockOutputSerializer, *WRITE_ERRORS),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Every table has finished its hand-for-hand hand: the stopped clock loses at most
        HAND_FOR_HAND_SECONDS (60) seconds (RP-8)."""
        tournament = get_tournament(request, pk)
        data = HandForHandHandInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = clock_hand_for_hand_hand(
            tournament=tournament,
            now=request_time.now(),
            actor=request.user,
            expected_hand=data.validated_data.get("hand"),
        )
        return _render(tournament)
