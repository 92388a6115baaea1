"""Tables: the seat draw, the tables with their seats and players, the balancing plan and its
confirmation (T 7, 10-B, 11-A, 11-D, RP-9)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.serializer_helpers import ReturnDict

from common.api.base import FloorApi
from common.api.errors import responses
from common.api.permissions import IsDirector, IsDirectorOrDealer
from tournaments.api.lookups import get_tournament
from tournaments.balancing import Move, Plan
from tournaments.models import Entry, Table, Tournament
from tournaments.selectors import table_plan
from tournaments.selectors.tables import SeatView
from tournaments.services.floor import table_add
from tournaments.services.tables import (
    table_assign_dealer,
    tournament_balance_plan,
    tournament_confirm_moves,
    tournament_draw_seats,
)

TAGS = ["tables"]


class SeatOutputSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    entry_id = serializers.IntegerField(allow_null=True)
    player_name = serializers.CharField(source="name", allow_null=True)
    chips = serializers.IntegerField(allow_null=True)
    button = serializers.BooleanField()
    in_hand = serializers.BooleanField(help_text="dealt in the hand in progress")
    moves_to = serializers.CharField(
        help_text='"table 2, seat 5": a move that waits for the end of the player\'s hand'
    )
    held_for = serializers.CharField(help_text="an open seat held for a player moving here")
    waits = serializers.CharField(help_text="why the next hand will not deal this player in")
    locked = serializers.BooleanField(help_text="an open seat the floor keeps empty")

    def to_representation(self, instance: SeatView) -> dict[str, object]:
        data = super().to_representation(instance)
        if instance.entry_id is None:  # an open seat: no player, no chips
            data["player_name"] = data["chips"] = None
        return data


class ButtonDrawOutputSerializer(serializers.Serializer):
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="in deal order")
    cards = serializers.CharField(help_text="one card per seat, in deal order")
    tiebreak = serializers.CharField()
    winner_seat = serializers.IntegerField()


class TableOutputSerializer(serializers.Serializer):
    """A table of `selectors.table_plan`, the read the desk's tables page shows."""

    id = serializers.IntegerField(source="pk")
    number = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    button_seat = serializers.IntegerField(allow_null=True)
    small_blind_seat = serializers.IntegerField(allow_null=True)
    big_blind_seat = serializers.IntegerField(allow_null=True)
    is_broken = serializers.BooleanField()
    dealer = serializers.CharField(source="dealer_name", allow_null=True)
    players = serializers.IntegerField()
    hand_number = serializers.IntegerField(
        allow_null=True, help_text="the hand in progress at the table, if any"
    )
    seats = SeatOutputSerializer(many=True, help_text="every seat from 1, open ones with nulls")
    button_draw = ButtonDrawOutputSerializer(
        allow_null=True, help_text="the latest high-card draw for the button, with its cards"
    )
    locked_seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="the seats the floor keeps empty"
    )


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

    def get_player_name(self, move: Move) -> str | None:
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


def _tables(tournament: Tournament) -> object:
    # The rows as the API sends them (a list: the stubs type a serializer's `data` a dict).
    return TableOutputSerializer(table_plan(tournament, broken=True), many=True).data


def render_plan(plan: Plan) -> ReturnDict[str, object]:
    """A plan as the API answers it, each move with its player's name."""
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
        return Response(_tables(tournament), status=201)


class TableAddInputSerializer(serializers.Serializer):
    number = serializers.IntegerField(
        min_value=1, max_value=9999, required=False, help_text="default: the next number"
    )
    seat_count = serializers.IntegerField(
        min_value=2, max_value=10, required=False, help_text="default: the event's table size"
    )


class TableAddedOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    number = serializers.IntegerField()
    seat_count = serializers.IntegerField()
    is_broken = serializers.BooleanField()
    locked_seats = serializers.ListField(child=serializers.IntegerField())


class TablesApi(FloorApi):
    def get_permissions(self) -> list[BasePermission]:
        # Directors and dealers read the tables; only a director opens one.
        if self.request.method == "POST":
            return [IsDirector()]
        return [IsDirectorOrDealer()]

    @extend_schema(tags=TAGS, responses=responses(TableOutputSerializer(many=True), 403, 404))
    def get(self, request: Request, pk: int) -> Response:
        """Directors and dealers: every table with its seats, players and stacks."""
        tournament = get_tournament(request, pk)
        return Response(_tables(tournament))

    @extend_schema(
        tags=TAGS,
        request=TableAddInputSerializer,
        responses=responses(TableAddedOutputSerializer, 400, 403, 404, 409, status=201),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Directors: open a table (before the draw the draw uses it; during play it takes
        late entries and the balancing plan fills it). A closed table's number opens it again."""
        tournament = get_tournament(request, pk)
        data = TableAddInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = table_add(tournament=tournament, actor=request.user, **data.validated_data)
        return Response(TableAddedOutputSerializer(table).data, status=201)


class BalancingPlanApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(PlanOutputSerializer, 403, 404, 409))
    def get(self, request: Request, pk: int) -> Response:
        """What the rules call for now; nothing changes until the director confirms."""
        tournament = get_tournament(request, pk)
        return Response(render_plan(tournament_balance_plan(tournament)))


class BalancingConfirmApi(FloorApi):
    @extend_schema(
        tags=TAGS, request=None, responses=responses(PlanOutputSerializer, 403, 404, 409)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Carry out the current plan (moves, broken tables or the final-table redraw) and
        answer with the plan carried out."""
        tournament = get_tournament(request, pk)
        plan = tournament_confirm_moves(tournament=tournament, actor=request.user)
        return Response(render_plan(plan))


class TableDealerInputSerializer(serializers.Serializer):
    dealer = serializers.IntegerField(
        allow_null=True, help_text="the user id of an active member of the dealer group; null: none"
    )


class TableDealerOutputSerializer(serializers.Serializer):
    table = serializers.IntegerField(source="pk")
    number = serializers.IntegerField()
    dealer = serializers.IntegerField(source="dealer_id", allow_null=True)
    dealer_name = serializers.CharField(source="dealer.username", allow_null=True, default=None)


class TableDealerApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=TableDealerInputSerializer,
        responses=responses(TableDealerOutputSerializer, 400, 403, 404),
    )
    def put(self, request: Request, pk: int) -> Response:
        """Give a table (tournament or cash) its dealer, or none: from then on only that dealer,
        or a director, writes to its hands (the desk's dealer form does the same)."""
        table = Table.objects.filter(pk=pk).first()
        if table is None:
            raise NotFound("There is no such table.")
        data = TableDealerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = table_assign_dealer(
            table=table, dealer_id=data.validated_data["dealer"], actor=request.user
        )
        return Response(TableDealerOutputSerializer(table).data)
