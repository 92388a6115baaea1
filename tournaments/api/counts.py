"""A table's count sheet: the stacks counted at one table (at a break, at the end of a day, after
a colour-up), recorded together or not at all (the desk's count sheet does the same)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import WRITE_ERRORS, responses
from common.api.limits import chips_field
from common.limits import MAX_ID
from config import request_time
from tournaments.api.entries import EntryOutputSerializer
from tournaments.models import Table
from tournaments.services.counts import SHEET_KINDS, ChipCount, table_record_counts

TAGS = ["entries"]
MAX_COUNTS = 10  # a table's seats


class ChipCountInputSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    chips = chips_field(help_text="the stack counted (at least 1)")


class TableCountsInputSerializer(serializers.Serializer):
    note = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        default="",
        help_text='the occasion: "at the break", "end of day 1"',
    )
    kind = serializers.ChoiceField(
        choices=[str(kind) for kind in SHEET_KINDS],
        default="count",
        help_text="`count`, or `colour_up` for the stacks after a colour-up or chip race",
    )
    smallest_chip = serializers.IntegerField(
        min_value=1,
        max_value=1_000_000,
        required=False,
        allow_null=True,
        default=None,
        help_text="a `colour_up` only: the smallest chip in play after it (the 25s coloured up: "
        "100); the level in play and the later ones are raised to it",
    )
    counts = serializers.ListField(
        child=ChipCountInputSerializer(), min_length=1, max_length=MAX_COUNTS
    )


class TableCountsApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=TableCountsInputSerializer,
        responses=responses(EntryOutputSerializer(many=True), *WRITE_ERRORS),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Record the stacks counted at a tournament table, one ledger row per player. If any
        count is refused (a player in a hand in progress: 409 `in_hand`; a player not at this
        table: 409 `not_at_table`; a count below 1: 400 `bad_chips`; a count, or the sheet's sum,
        above the chips in play: 409 `count_over_chips_in_play`), nothing is written and
        `detail` names every refused player. A colour-up with `smallest_chip` raises the levels
        from the one in play on (400 `smallest_chip_lower`, `bad_smallest_chip`,
        `not_in_smallest_chips`). Answers the entries counted."""
        table = Table.objects.filter(pk=pk, tournament__isnull=False).first()
        if table is None:
            raise NotFound("There is no such tournament table.")
        data = TableCountsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entries = table_record_counts(
            table=table,
            counts=[ChipCount(**row) for row in data.validated_data["counts"]],
            kind=data.validated_data["kind"],
            note=data.validated_data["note"],
            smallest_chip=data.validated_data["smallest_chip"],
            now=request_time.now(),
            actor=request.user,
        )
        return Response(EntryOutputSerializer(entries, many=True).data)
