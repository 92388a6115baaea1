"""The live updates as JSON for media sites (issue 27): the event's story, newest first, the
same story the page and the Atom feed tell (`dealer.story`)."""

from __future__ import annotations

from django.http import HttpResponse
from django.http.response import HttpResponseBase
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request

from common.api.base import FloorApi, LazyAuthentication
from common.api.errors import responses
from config.conditional import ETAG_HEADER, IF_NONE_MATCH, conditional
from dealer.story import tournament_story
from tournaments.api.lookups import get_tournament_head
from tournaments.selectors import cached, tournament_full, version_tag
from tournaments.selectors.versions import version_mark

TAGS = ["results"]


class StoryEntryOutputSerializer(serializers.Serializer):
    id = serializers.CharField(help_text='stays the same while the entry exists: "out-12"')
    kind = serializers.ChoiceField(
        choices=["level", "break", "elimination", "showdown", "final_table", "winner"]
    )
    at = serializers.DateTimeField()
    title = serializers.CharField()
    text = serializers.CharField()
    details = serializers.DictField(
        help_text="the facts by kind: level {level, blinds}; break {leaders: [{name, chips}]}; "
        "elimination {player, place, prize, eliminated_by}; showdown {table, hand, shown: "
        "[{player, cards}], board, won: [{player, chips}]} (only the cards shown face up at the "
        "showdown); final_table {players}; winner {player, prize}"
    )


class StoryOutputSerializer(serializers.Serializer):
    tournament_id = serializers.IntegerField()
    name = serializers.CharField()
    updated = serializers.DateTimeField(allow_null=True, help_text="the newest entry's time")
    entries = StoryEntryOutputSerializer(many=True, help_text="newest first")


class LiveApi(LazyAuthentication, FloorApi):
    permission_classes = (AllowAny,)

    @extend_schema(
        tags=TAGS,
        parameters=[IF_NONE_MATCH, ETAG_HEADER],
        responses={**responses(StoryOutputSerializer, 404), 304: None},
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        """Public: the event's story, newest first: level changes, eliminations with place,
        prize and who knocked the player out, showdowns with the cards shown face up, the chip
        leaders at each break, the final table and the winner. Poll with If-None-Match: 304
        until something changes."""
        tournament = get_tournament_head(request, pk)

        def serialize() -> bytes:
            story = tournament_story(tournament_full(tournament))
            return bytes(JSONRenderer().render(StoryOutputSerializer(story).data))

        def build() -> HttpResponse:
            body = cached(tournament, "live-api", serialize)
            return HttpResponse(body, content_type="application/json")

        etag = f'"{version_tag(tournament, "live")}"'
        return conditional(request, etag, build, version=version_mark(tournament))
