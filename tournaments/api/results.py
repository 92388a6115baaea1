"""What players and the public read: standings (polled with ETag), payouts, seat lookup; and
for the director, the ICM deal and the results export (CSV)."""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal

from django.http import Http404, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi, LazyAuthentication
from common.api.errors import ErrorSerializer, ValidationErrorSerializer, responses
from common.api.limits import amount_field
from common.limits import MAX_NAME
from config.conditional import ETAG_HEADER, IF_NONE_MATCH, Keep, conditional
from tournaments.api.fields import EntryStatusField
from tournaments.api.lookups import get_tournament, get_tournament_head
from tournaments.models import Tournament
from tournaments.selectors import (
    cached,
    deal_offer,
    results_rows,
    seat_lookup,
    tournament_full,
    tournament_payouts,
    tournament_standings,
    version_tag,
)
from tournaments.selectors.bounties import bounty_columns
from tournaments.selectors.versions import version_mark
from tournaments.spreadsheet import safe_cell

TAGS = ["results"]
MAX_STANDINGS = 20000


class StandingRowOutputSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry_id = serializers.IntegerField()
    name = serializers.CharField()
    chips = serializers.IntegerField()
    chips_source = serializers.CharField(
        help_text='where the count comes from: "after hand 41 at table 3", "counted (at the break)"'
    )
    chips_at = serializers.DateTimeField(allow_null=True, help_text="when it was written")
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    bounty_won = amount_field(
        allow_null=True, help_text="bounty cash won so far (null: the event has no bounties)"
    )
    head = amount_field(
        allow_null=True, help_text="progressive knockout: the bounty on the player's head now"
    )
    estimated_since = serializers.CharField(
        allow_null=True,
        help_text="the stack is an estimate: it was given the chips of this busted player by a "
        "bust typed on the desk (KO-4) and has not been counted since; null once counted",
    )


class StandingsOutputSerializer(serializers.Serializer):
    players_left = serializers.IntegerField()
    entries = serializers.IntegerField()
    total_chips = serializers.IntegerField(
        help_text="chips in play: the chips issued (buy-ins, rebuys, add-ons, bonuses) "
        "less colour-ups"
    )
    average_stack = serializers.IntegerField(help_text="total_chips / players_left")
    counted_chips = serializers.IntegerField(
        help_text="what the players' counts add up to; short of total_chips by the chips no "
        "count holds yet (a bust recorded on the desk)"
    )
    unassigned_chips = serializers.IntegerField(
        help_text="chips in play no stack holds yet (desk busts naming no eliminator, until the "
        "tables are counted): the rows' chips and these add up to total_chips"
    )
    places_paid = serializers.IntegerField()
    next_payout = amount_field(allow_null=True, help_text="what the next player out receives")
    min_cash = amount_field(
        allow_null=True,
        help_text="the smallest prize (the last paid place): the next payout before the money",
    )
    prize_pool = amount_field()
    rows = StandingRowOutputSerializer(many=True)


class StandingsFilterSerializer(serializers.Serializer):
    limit = serializers.IntegerField(
        min_value=0, max_value=MAX_STANDINGS, required=False, help_text="the top rows only"
    )


class PayoutPlayerOutputSerializer(serializers.Serializer):
    name = serializers.CharField()
    prize = amount_field(allow_null=True)


class PayoutPlaceOutputSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    prize = amount_field()
    players = PayoutPlayerOutputSerializer(many=True, help_text="who finished there, once known")


class PayoutsOutputSerializer(serializers.Serializer):
    prize_pool = amount_field()
    places = PayoutPlaceOutputSerializer(many=True)


class IcmRowOutputSerializer(serializers.Serializer):
    name = serializers.CharField()
    chips = serializers.IntegerField()
    icm = amount_field(help_text="Malmuth-Harville equity")
    chip_chop = amount_field()


class SeatLookupFilterSerializer(serializers.Serializer):
    q = serializers.CharField(max_length=MAX_NAME, help_text="part of the name, 2 letters or more")


class SeatLookupOutputSerializer(serializers.Serializer):
    name = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    status = EntryStatusField()
    place = serializers.IntegerField(
        allow_null=True, help_text="the place the player finished in, once out; else null"
    )
    prize = amount_field(allow_null=True, help_text="what that place won; null: nothing")


class StandingsApi(LazyAuthentication, FloorApi):
    permission_classes = (AllowAny,)

    @extend_schema(
        tags=TAGS,
        parameters=[StandingsFilterSerializer, IF_NONE_MATCH, ETAG_HEADER],
        responses={**responses(StandingsOutputSerializer, 400, 404), 304: None},
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        """Public: players by chips. Poll with If-None-Match: 304 until something changes."""
        tournament = get_tournament_head(request, pk)
        query = StandingsFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        limit = query.validated_data.get("limit")

        def serialize() -> bytes:
            standings = tournament_standings(tournament_full(tournament), limit=limit)
            return bytes(JSONRenderer().render(StandingsOutputSerializer(standings).data))

        def build() -> HttpResponse:
            # The JSON as rendered once per version: no serializer or renderer on a poll.
            body = cached(tournament, f"standings-api-{limit}", serialize)
            return HttpResponse(body, content_type="application/json")

        etag = f'"{version_tag(tournament, "standings", limit)}"'
        # Kept for the next pollers when asked as the view writes it (`?limit=100`, or nothing):
        # another spelling of the same query would be a key of its own.
        canonical = "" if limit is None else f"limit={limit}"
        keep = Keep() if request.query_params.urlencode() == canonical else None
        return conditional(request, etag, build, version=version_mark(tournament), keep=keep)


class PayoutsApi(FloorApi):
    permission_classes = (AllowAny,)

    @extend_schema(tags=TAGS, responses=responses(PayoutsOutputSerializer, 404, 409))
    def get(self, request: Request, pk: int) -> Response:
        """Public: the prize of each paid place and, once decided, who finished there."""
        places = tournament_payouts(get_tournament(request, pk))
        pool = sum((place["prize"] for place in places), Decimal(0))
        return Response(PayoutsOutputSerializer({"prize_pool": pool, "places": places}).data)


class IcmApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(IcmRowOutputSerializer(many=True), 403, 404, 409))
    def get(self, request: Request, pk: int) -> Response:
        """An ICM deal and a chip chop for the players left (at most 10)."""
        rows = deal_offer(get_tournament(request, pk))
        return Response(IcmRowOutputSerializer(rows, many=True).data)


class SeatLookupApi(LazyAuthentication, FloorApi):
    permission_classes = (AllowAny,)

    @extend_schema(
        tags=TAGS,
        parameters=[SeatLookupFilterSerializer, IF_NONE_MATCH, ETAG_HEADER],
        responses={**responses(SeatLookupOutputSerializer(many=True), 400, 404), 304: None},
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        """Public: find a player's table and seat by part of the name (20 answers at most), or
        the place and prize of a player out. Poll with If-None-Match: 304 until the tournament
        changes (a move, a balance, a broken table, a bust)."""
        tournament = get_tournament_head(request, pk)
        query = SeatLookupFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        text = query.validated_data["q"]

        def build() -> Response:
            rows = seat_lookup(tournament, text)
            return Response(SeatLookupOutputSerializer(rows, many=True).data)

        digest = hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
        etag = f'"{version_tag(tournament, "seats-api", digest)}"'
        return conditional(request, etag, build, version=version_mark(tournament))


# --- results export ------------------------------------------------------------------------

CSV_HEADER = ("place", "name", "entry_number", "prize")


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Iterable[Iterable[object]] | None,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, object] | None = None,
    ) -> bytes:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\r\n").writerows(data or ())
        return buffer.getvalue().encode(self.charset)


# `?format=json` (or `Accept: application/json`) answers a CSV file's rows as JSON.
CSV_ROWS_AS_JSON = OpenApiResponse(
    {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
    description="the same rows, header first, as JSON (`?format=json`)",
)


class CsvExportApi(FloorApi):
    """A CSV file (or its rows as JSON); its errors are JSON like everywhere else."""

    renderer_classes = (CSVRenderer, JSONRenderer)

    def perform_content_negotiation(
        self, request: Request, force: bool = False
    ) -> tuple[BaseRenderer, str]:
        # DRF answers an unknown `?format=` 404, as for a format suffix in the path: here it
        # is a query parameter, and a wrong value is a field error.
        try:
            return super().perform_content_negotiation(request, force)
        except Http404:
            raise ValidationError({"format": ["Choose csv or json."]}) from None

    def handle_exception(self, exc: Exception) -> Response:
        response = super().handle_exception(exc)
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return response


def results_csv_rows(tournament: Tournament) -> Iterable[Sequence[str]]:
    """The header, then `selectors.results_rows`, each cell safe to open in a spreadsheet; an
    event with bounties has their columns too (`bounties.bounty_columns`)."""
    yield CSV_HEADER + bounty_columns(tournament)
    for row in results_rows(tournament):
        yield tuple(safe_cell(value) for value in row)


class ResultsCsvApi(CsvExportApi):
    @extend_schema(
        tags=TAGS,
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR,
                description="place,name,entry_number,prize: the players still in (no place "
                "yet) by chips, then everyone out by place; with bounties, also knockouts, "
                "bounty_won and (progressive) head",
            ),
            (200, "application/json"): CSV_ROWS_AS_JSON,
            (400, "application/json"): ValidationErrorSerializer,
            (403, "application/json"): ErrorSerializer,
            (404, "application/json"): ErrorSerializer,
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        """The results so far as CSV, the one export (the desk's button downloads it): every
        entry that played, the players still in first."""
        tournament = get_tournament(request, pk)
        filename = f"{slugify(tournament.name) or 'tournament'}-{tournament.pk}-results.csv"
        return Response(
            list(results_csv_rows(tournament)),
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )
