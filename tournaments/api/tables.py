"""Tables: the seat draw, the tables with their seats and players, the balancing plan and its
confirmation (T 7, 10-B, 11-A, 11-D, RP-9)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import FloorApi, get_tournament
from tournaments.api.errors import responses
from tournaments.api.permissions import IsDirectorOrDealer
from tournaments.balancing import Plan
from tournaments.models import ButtonDraw, Entry, Table, Tournament
from tournaments.services.tables import (
    tournament_balance_plan,
    tournament_confirm_moves,
    tournament_draw_seats,
)

TAGS = ["tables"]


class SeatOutputSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    entry_id = serializers.IntegerField(allow_null=True)
    player_name = serializers.CharField(allow_null=True)
    chips = serializers.IntegerField(allow_null=True)


class ButtonDrawOutputSerializer(serializers.Serializer):
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="in deal order")
    cards = serializers.CharField(help_text="one card per seat, in deal order")
    tiebreak = serializers.CharField()
    winner_seat = serializers.IntegerField()


class TableOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    button_seat = serializers.IntegerField(allow_null=True)
    small_blind_seat = serializers.IntegerField(allow_null=True)
    big_blind_seat = serializers.IntegerField(allow_null=True)
    is_broken = serializers.BooleanField()
    dealer = serializers.CharField(source="dealer.username", allow_null=True)
    players = serializers.IntegerField(source="seated_count")
    seats = serializers.SerializerMethodField()
    button_draw = serializers.SerializerMethodField()

    @extend_schema_field(SeatOutputSerializer(many=True))
    def get_seats(self, table: Any) -> Any:
        """Every seat from 1, empty ones with nulls."""
        by_seat = {entry.seat: entry for entry in table.seated}
        rows = []
        for seat in range(1, table.seat_count + 1):
            entry = by_seat.get(seat)
            rows.append(
                {
                    "seat": seat,
                    "entry_id": entry.pk if entry else None,
                    "player_name": entry.player.name if entry else None,
                    "chips": entry.chips if entry else None,
                }
            )
        return SeatOutputSerializer(rows, many=True).data

    @extend_schema_field(ButtonDrawOutputSerializer(allow_null=True))
    def get_button_draw(self, table: Any) -> Any:
        """The latest high-card draw for the button, with the cards dealt."""
        return ButtonDrawOutputSerializer(table.draws[0]).data if table.draws else None


class MoveOutputSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField()
    player_name = serializers.SerializerMethodField()
    from_table = serializers.IntegerField()
    from_seat = serializers.IntegerField()
    to_table = serializers.IntegerField()
    to_seat = serializers.IntegerField()
    reason = serializers.CharField(help_text='"balance" (T 11-A) or "break" (T 10-B)')
    next_big_blind = serializers.BooleanField()
    dealt_in_next_hand = serializers.BooleanField()
    description = serializers.CharField(source="describe")

    def get_player_name(self, move: Any) -> str | None:
        names: dict[int, str] = self.context.get("names", {})
        return names.get(move.entry_id)


class PlanOutputSerializer(serializers.Serializer):
    moves = MoveOutputSerializer(many=True)
    broken_tables = serializers.ListField(child=serializers.IntegerField())
    halted_tables = serializers.ListField(
        child=serializers.IntegerField(), help_text="stop dealing until the moves arrive (T 11-D)"
    )
    final_table = serializers.BooleanField()
    redraw_final_table = serializers.BooleanField(help_text="every seat is redrawn (RP-9)")
    is_empty = serializers.BooleanField()
    lines = serializers.ListField(child=serializers.CharField(), source="describe")


def _tables(tournament: Tournament) -> Iterable[Table]:
    seated = Entry.objects.filter(status=Entry.Status.ACTIVE, table__isnull=False)
    tables = list(
        Table.objects.filter(tournament=tournament)
        .select_related("dealer")
        .prefetch_related(
            Prefetch("entries", queryset=seated.select_related("player"), to_attr="seated"),
            Prefetch("button_draws", queryset=ButtonDraw.objects.order_by("-pk"), to_attr="draws"),
        )
        .order_by("number")
    )
    for table in tables:
        table.seated_count = len(table.seated)  # type: ignore[attr-defined]
    return tables


def _render_plan(plan: Plan) -> Any:
    ids = [move.entry_id for move in plan.moves]
    names = dict(Entry.objects.filter(pk__in=ids).values_list("pk", "player__name"))
    return PlanOutputSerializer(plan, context={"names": names}).data


class SeatDrawApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=None,
        responses=responses(TableOutputSerializer(many=True), 400, 403, 404, 409, status=201),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Draw a random seat for every registered entry (T 7) and each table's button."""
        tournament = get_tournament(request, pk)
        tournament_draw_seats(tournament=tournament, actor=request.user)
        return Response(TableOutputSerializer(_tables(tournament), many=True).data, status=201)


class TablesApi(FloorApi):
    permission_classes = (IsDirectorOrDealer,)

    @extend_schema(tags=TAGS, responses=responses(TableOutputSerializer(many=True), 403, 404))
    def get(self, request: Request, pk: int) -> Response:
        """Directors and dealers: every table with its seats, players and stacks."""
        tournament = get_tournament(request, pk)
        return Response(TableOutputSerializer(_tables(tournament), many=True).data)


class BalancingPlanApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(PlanOutputSerializer, 403, 404, 409))
    def get(self, request: Request, pk: int) -> Response:
        """What the rules call for now; nothing changes until the director confirms."""
        tournament = get_tournament(request, pk)
        return Response(_render_plan(tournament_balance_plan(tournament)))


class BalancingConfirmApi(FloorApi):
    @extend_schema(
        tags=TAGS, request=None, responses=responses(PlanOutputSerializer, 403, 404, 409)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Carry out the current plan (moves, broken tables or the final-table redraw) and
        answer with the plan carried out."""
        tournament = get_tournament(request, pk)
        plan = tournament_confirm_moves(tournament=tournament, actor=request.user)
        return Response(_render_plan(plan))
