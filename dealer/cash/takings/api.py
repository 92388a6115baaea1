"""Rake and time over the REST API (issue 15): collect time from a seat, and the cage's report.

Who: a time charge is a write to the table (a director, or the table's dealer: `can_write`);
the cage report is for directors. Both go through the services and the read model the pages use
(`dealer.cash.takings.services`, `dealer.cash.takings.cage`).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import responses
from common.api.permissions import IsDirector
from common.errors import FloorInvalid
from common.limits import MAX_INT
from dealer.cash.seats.api import CashApi, valid, writable, write_responses
from dealer.cash.seats.selectors import cash_seat_get
from dealer.cash.takings.cage import cage_report, parse_day
from dealer.cash.takings.services import time_charge_collect, time_collect_table

TAGS = ["rake and time"]


class TimeChargeInputSerializer(serializers.Serializer):
    amount = serializers.IntegerField(
        min_value=1, max_value=MAX_INT, help_text="chips of time taken from the seat"
    )
    period_start = serializers.DateTimeField(
        required=False, help_text="any moment of the half hour paid for; now when left out"
    )


class TimeChargeOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table.number")
    seat = serializers.IntegerField()
    player = serializers.CharField(source="player.name")
    amount = serializers.IntegerField()
    period_start = serializers.DateTimeField(help_text="the half hour's start")


class CageLineOutputSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="table number, dealer id (0: none) or ISO day")
    label = serializers.CharField()  # type: ignore[assignment]  # the wire name
    hands = serializers.IntegerField()
    rake = serializers.IntegerField()
    time = serializers.IntegerField()
    total = serializers.IntegerField()


class MismatchOutputSerializer(serializers.Serializer):
    hand = serializers.IntegerField()
    table = serializers.IntegerField()
    number = serializers.IntegerField()
    started = serializers.IntegerField()
    finished = serializers.IntegerField()
    rake = serializers.IntegerField()


class CashFloatOutputSerializer(serializers.Serializer):
    came_in = serializers.IntegerField(help_text="the opening balances, buy-ins and top-ups")
    went_out = serializers.IntegerField(help_text="cash-outs")
    rake = serializers.IntegerField()
    drop = serializers.IntegerField(help_text="the promotional and jackpot drop")
    time = serializers.IntegerField()
    corrections = serializers.IntegerField(help_text="the floor's corrections, net")
    between_tables = serializers.IntegerField(
        help_text="stacks carried on the lists by players of closed tables"
    )
    at_tables = serializers.IntegerField(help_text="the chips at the seats now")
    expected = serializers.IntegerField(
        help_text="came_in + corrections - went_out - between_tables - rake - drop - time"
    )
    difference = serializers.IntegerField(help_text="at_tables - expected: 0 when they agree")
    balanced = serializers.BooleanField()


class CageOutputSerializer(serializers.Serializer):
    start = serializers.DateField()
    end = serializers.DateField()
    hands = serializers.IntegerField()
    rake = serializers.IntegerField()
    time = serializers.IntegerField()
    total = serializers.IntegerField()
    bought_in = serializers.IntegerField(help_text="buy-ins and top-ups over the days")
    cashed_out = serializers.IntegerField(help_text="cash-outs over the days")
    float_now = CashFloatOutputSerializer(
        help_text="every chip since the record began, against the chips at the seats now"
    )
    reconciled = serializers.BooleanField(
        help_text="every hand's starting chips = its finishing chips + its rake"
    )
    tables = CageLineOutputSerializer(many=True)
    dealers = CageLineOutputSerializer(many=True)
    days = CageLineOutputSerializer(many=True)
    mismatches = MismatchOutputSerializer(many=True)


class CashTimeChargeApi(CashApi):
    @extend_schema(
        tags=TAGS,
        request=TimeChargeInputSerializer,
        responses=write_responses(status=201, ok=TimeChargeOutputSerializer),
    )
    def post(self, request: Request, pk: int, seat_pk: int) -> Response:
        """Collect time from a seat for one half hour (400 `bad_amount`; 409 `in_hand`,
        `short_stack`, `already_charged`)."""
        seat = cash_seat_get(writable(request, pk), seat_pk)
        values = valid(TimeChargeInputSerializer, request)
        charge = time_charge_collect(
            cash_seat=seat,
            amount=values["amount"],
            period_start=values.get("period_start"),
            actor=request.user,
        )
        return Response(TimeChargeOutputSerializer(charge).data, status=201)


class TableTimeOutputSerializer(serializers.Serializer):
    charged = TimeChargeOutputSerializer(many=True)
    passed = serializers.ListField(
        child=serializers.DictField(), help_text="seats passed over: {seat, why}"
    )


class CashTableTimeApi(CashApi):
    @extend_schema(
        tags=TAGS,
        request=TimeChargeInputSerializer,
        responses=write_responses(status=201, ok=TableTimeOutputSerializer),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Collect the half hour's time from every seat at the table in one step; seats in the
        hand, short of chips or paid already are passed over and named (400 `bad_amount`)."""
        table = writable(request, pk)
        values = valid(TimeChargeInputSerializer, request)
        done = time_collect_table(
            table=table,
            amount=values["amount"],
            period_start=values.get("period_start"),
            actor=request.user,
        )
        body = {
            "charged": done.charged,
            "passed": [{"seat": seat, "why": why} for seat, why in done.passed],
        }
        return Response(TableTimeOutputSerializer(body).data, status=201)


class CageApi(FloorApi):
    permission_classes: Sequence[type[BasePermission]] = (IsDirector,)

    @extend_schema(
        tags=TAGS,
        parameters=[
            OpenApiParameter("start", str, description="first day, YYYY-MM-DD (today)"),
            OpenApiParameter("end", str, description="last day, YYYY-MM-DD (the first)"),
        ],
        responses=responses(CageOutputSerializer, 400, 403),
    )
    def get(self, request: Request) -> Response:
        """Rake and time per table, dealer and day, and the hands that do not reconcile
        (400 `bad_date`)."""
        start = parse_day(request.query_params.get("start"), "start")
        end = parse_day(request.query_params.get("end"), "end")
        start = start or timezone.localdate()
        if end is not None and end < start:
            raise FloorInvalid("bad_date", "The last day comes before the first.")
        report = cage_report(start=start, end=end)
        return Response(CageOutputSerializer(report).data)
