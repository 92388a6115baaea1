"""Tournaments: list, create from a schedule, retrieve with settings and levels, update settings
and levels, open registration, finish, accept a deal."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.serializer_helpers import ReturnDict

from common.api.base import FloorApi
from common.api.errors import WRITE_ERRORS, responses
from common.api.limits import chips_field, money_field
from common.api.permissions import PublicReadDirectorWrite
from common.roles import is_director
from config import request_time
from tournaments.api.fields import SixPlusChoicesSerializer, TournamentStatusField
from tournaments.api.lookups import get_tournament
from tournaments.api.schedules import LevelInputSerializer, LevelOutputSerializer
from tournaments.limits import MAX_ENTRIES_PER_PLAYER, MAX_LEVEL_NUMBER, MAX_LEVELS, SEATS_PER_TABLE
from tournaments.models import BlindSchedule, Series, Tournament
from tournaments.selectors import tournament_list
from tournaments.selectors.windows import sales_open
from tournaments.services.archive import tournament_delete
from tournaments.services.deals import DEAL_METHODS, tournament_accept_deal
from tournaments.services.entries import registration_open
from tournaments.services.events import (
    tournament_create,
    tournament_finish,
    tournament_open_registration,
    tournament_update,
)
from tournaments.services.prices import tournament_reprice

TAGS = ["tournaments"]


class PercentagesField(serializers.ListField):
    """Payout percentages, first place first; stored as JSON numbers. Whether they add up to
    100 and never increase is the payout rules' business (`payout_not_100`, ...)."""

    child = serializers.DecimalField(max_digits=7, decimal_places=3, min_value=Decimal("0"))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=1000, **kwargs)

    def to_internal_value(self, data: list[object]) -> list[int | float]:
        values = super().to_internal_value(data)
        return [int(v) if v == v.to_integral_value() else float(v) for v in values]


class SatelliteSettingsInputSerializer(serializers.Serializer):
    """The series a tournament belongs to, and the event a satellite wins seats in."""

    series = serializers.PrimaryKeyRelatedField(
        queryset=Series.objects.all(), allow_null=True, required=False, help_text="a series id"
    )
    satellite_target = serializers.PrimaryKeyRelatedField(
        queryset=Tournament.objects.all(),
        allow_null=True,
        required=False,
        help_text="a satellite: the event its prizes are seats in (another, not finished: 400 "
        "`bad_satellite_target`); null: not a satellite",
    )
    seat_value = money_field(
        required=False, help_text="a seat's value; 0: the target's buy-in and fee (and bounty)"
    )


class TournamentSettingsInputSerializer(SatelliteSettingsInputSerializer):
    """Every setting is optional: what is left out keeps its default (or its current value)."""

    name = serializers.CharField(max_length=120, required=False)
    game = serializers.ChoiceField(choices=Tournament.Game.choices, required=False)
    structure = serializers.ChoiceField(choices=Tournament.Structure.choices, required=False)
    rule_profile = serializers.CharField(max_length=30, required=False)
    rule_overrides = serializers.DictField(required=False, help_text="rule option: value")
    buy_in = money_field(required=False, help_text="the part that goes to the prize pool")
    fee = money_field(required=False)
    starting_stack = chips_field(min_value=1, required=False)
    seats_per_table = serializers.IntegerField(
        min_value=SEATS_PER_TABLE[0], max_value=SEATS_PER_TABLE[1], required=False
    )
    late_registration_level = serializers.IntegerField(
        min_value=0, max_value=MAX_LEVEL_NUMBER, required=False
    )
    max_entries_per_player = serializers.IntegerField(
        min_value=1, max_value=MAX_ENTRIES_PER_PLAYER, required=False
    )
    rebuy_price = money_field(required=False)
    rebuy_chips = chips_field(min_value=0, required=False)
    rebuy_until_level = serializers.IntegerField(
        min_value=0, max_value=MAX_LEVEL_NUMBER, required=False
    )
    addon_price = money_field(required=False)
    addon_chips = chips_field(min_value=0, required=False)
    addon_level = serializers.IntegerField(
        min_value=0,
        max_value=MAX_LEVEL_NUMBER,
        required=False,
        help_text="the add-on is taken during this level and the break after it; 0: on the "
        "first break after the last rebuy level. A level the schedule does not have: 400",
    )
    guarantee = money_field(digits=12, required=False)
    payout_percentages = PercentagesField(required=False)
    payout_unit = money_field(required=False)
    icm_enabled = serializers.BooleanField(required=False)
    bounty_kind = serializers.ChoiceField(
        choices=Tournament.Bounty.choices,
        required=False,
        help_text="none, fixed, or progressive (half of each bounty won onto the winner's own)",
    )
    bounty = money_field(
        required=False,
        help_text="the bounty on each entry, on top of the buy-in: not in the prize pool; more "
        "than 0 with a bounty kind (400 `bad_bounty`); locked once started (409)",
    )


class TournamentUpdateInputSerializer(TournamentSettingsInputSerializer):
    """Settings to change, and optionally the tournament's whole schedule (`levels`): once
    started, only the levels after the one in play may differ (`level_played`)."""

    levels: serializers.ListSerializer[object] = serializers.ListSerializer(
        child=LevelInputSerializer(), max_length=MAX_LEVELS, required=False
    )


class TournamentCreateInputSerializer(TournamentSettingsInputSerializer, SixPlusChoicesSerializer):
    schedule = serializers.PrimaryKeyRelatedField(queryset=BlindSchedule.objects.all())
    name = serializers.CharField(max_length=120)


class TournamentListInputSerializer(serializers.Serializer):
    archived = serializers.BooleanField(
        default=False, help_text="directors: the archived tournaments too"
    )


class TournamentListOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = TournamentStatusField()
    game = serializers.ChoiceField(choices=Tournament.Game.choices)
    structure = serializers.ChoiceField(choices=Tournament.Structure.choices)
    buy_in = serializers.DecimalField(max_digits=10, decimal_places=2)
    fee = serializers.DecimalField(max_digits=10, decimal_places=2)
    starting_stack = serializers.IntegerField()
    players_left = serializers.IntegerField()
    is_archived = serializers.BooleanField(help_text="hidden from the lists (`?archived=true`)")
    created_at = serializers.DateTimeField()


class TournamentOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = TournamentStatusField()
    registration_open = serializers.BooleanField()
    game = serializers.ChoiceField(choices=Tournament.Game.choices)
    structure = serializers.ChoiceField(choices=Tournament.Structure.choices)
    rule_profile = serializers.CharField()
    rule_overrides = serializers.DictField()
    buy_in = serializers.DecimalField(max_digits=10, decimal_places=2)
    fee = serializers.DecimalField(max_digits=10, decimal_places=2)
    starting_stack = serializers.IntegerField()
    seats_per_table = serializers.IntegerField()
    late_registration_level = serializers.IntegerField()
    max_entries_per_player = serializers.IntegerField()
    rebuy_price = serializers.DecimalField(max_digits=10, decimal_places=2)
    rebuy_chips = serializers.IntegerField()
    rebuy_until_level = serializers.IntegerField()
    addon_price = serializers.DecimalField(max_digits=10, decimal_places=2)
    addon_chips = serializers.IntegerField()
    addon_level = serializers.IntegerField()
    rebuy_open = serializers.BooleanField(help_text="a rebuy is taken now")
    addon_open = serializers.BooleanField(help_text="the add-on is taken now")
    guarantee = serializers.DecimalField(max_digits=12, decimal_places=2)
    payout_percentages = serializers.ListField(child=serializers.FloatField())
    payout_unit = serializers.DecimalField(max_digits=10, decimal_places=2)
    icm_enabled = serializers.BooleanField()
    bounty_kind = serializers.ChoiceField(choices=Tournament.Bounty.choices)
    bounty = serializers.DecimalField(max_digits=10, decimal_places=2)
    series = serializers.IntegerField(source="series_id", allow_null=True)
    satellite_target = serializers.IntegerField(
        source="satellite_target_id", allow_null=True, help_text="a satellite's target event"
    )
    seat_value = serializers.DecimalField(
        max_digits=10, decimal_places=2, help_text="0: the target's buy-in and fee"
    )
    hand_for_hand = serializers.BooleanField()
    break_order = serializers.ListField(child=serializers.IntegerField())
    deal = serializers.DictField(
        help_text="the deal the players left accepted: method, total, players (entry, player, "
        "chips, place, amount); {} without one"
    )
    is_archived = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    levels = LevelOutputSerializer(many=True, source="levels.all")


def render_tournament(tournament: Tournament) -> ReturnDict[str, object]:
    tournament = Tournament.objects.prefetch_related("levels").get(pk=tournament.pk)
    now = request_time.now()
    tournament.registration_open = registration_open(tournament, now)  # type: ignore[attr-defined]
    tournament.rebuy_open = sales_open(tournament, now, "rebuy")  # type: ignore[attr-defined]
    tournament.addon_open = sales_open(tournament, now, "addon")  # type: ignore[attr-defined]
    return TournamentOutputSerializer(tournament).data


class TournamentsApi(FloorApi):
    permission_classes = (PublicReadDirectorWrite,)

    @extend_schema(
        tags=TAGS,
        parameters=[TournamentListInputSerializer],
        responses=responses(TournamentListOutputSerializer(many=True), 400),
    )
    def get(self, request: Request) -> Response:
        """Public: every tournament but the planned ones (directors see those too); the
        archived ones are left out, but for a director asking `?archived=true`."""
        query = TournamentListInputSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        director = is_director(request.user)
        tournaments = tournament_list(
            public=not director, archived=director and query.validated_data["archived"]
        )
        return Response(TournamentListOutputSerializer(tournaments, many=True).data)

    @extend_schema(
        tags=TAGS,
        request=TournamentCreateInputSerializer,
        responses=responses(TournamentOutputSerializer, 400, 403, 409, status=201),
    )
    def post(self, request: Request) -> Response:
        """Create a tournament with its own copy of the schedule's levels."""
        data = TournamentCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_create(actor=request.user, **data.validated_data)
        return Response(render_tournament(tournament), status=201)


class TournamentApi(FloorApi):
    permission_classes = (PublicReadDirectorWrite,)

    @extend_schema(tags=TAGS, responses=responses(TournamentOutputSerializer, 404))
    def get(self, request: Request, pk: int) -> Response:
        """Public: the settings and the tournament's own levels."""
        return Response(render_tournament(get_tournament(request, pk)))

    @extend_schema(
        tags=TAGS,
        request=TournamentUpdateInputSerializer,
        responses=responses(TournamentOutputSerializer, *WRITE_ERRORS),
    )
    def patch(self, request: Request, pk: int) -> Response:
        """Change settings and levels. Once started, the game, structure, starting stack and
        rules (409 `tournament_started`) and the levels played or in play (409 `level_played`)
        keep their values; sending them unchanged is fine."""
        tournament = get_tournament(request, pk)
        data = TournamentUpdateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_update(
            tournament=tournament, actor=request.user, now=request_time.now(), **data.validated_data
        )
        return Response(render_tournament(tournament))

    @extend_schema(tags=TAGS, responses=responses(None, 403, 404, 409, status=204))
    def delete(self, request: Request, pk: int) -> Response:
        """Delete a test event nobody entered (409 `has_entries`, `tournament_finished`,
        `has_phases`): one with entries is archived instead (POST .../archive/)."""
        tournament_delete(tournament=get_tournament(request, pk), actor=request.user)
        return Response(status=204)


class TournamentOpenRegistrationApi(FloorApi):
    @extend_schema(
        tags=TAGS, request=None, responses=responses(TournamentOutputSerializer, 403, 404, 409)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Open registration of a planned tournament."""
        tournament = get_tournament(request, pk)
        tournament = tournament_open_registration(tournament=tournament, actor=request.user)
        return Response(render_tournament(tournament))


class TournamentFinishApi(FloorApi):
    @extend_schema(
        tags=TAGS, request=None, responses=responses(TournamentOutputSerializer, 403, 404, 409)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Mark the tournament finished and stop its clock, once one player is left (409
        `players_left` before: finish when one is left, or accept a deal)."""
        tournament = get_tournament(request, pk)
        tournament = tournament_finish(tournament=tournament, actor=request.user)
        return Response(render_tournament(tournament))


class DealInputSerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=sorted(DEAL_METHODS))
    chips = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=10**12),
        max_length=10,
        required=False,
        help_text="the stacks of GET .../icm/ the players agreed on, in its order: refused with "
        "409 deal_changed if they have changed since",
    )


class TournamentDealApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=DealInputSerializer,
        responses=responses(TournamentOutputSerializer, 400, 403, 404, 409),
    )
    def post(self, request: Request, pk: int) -> Response:
        """The players left accept the ICM or chip-chop deal of GET .../icm/: places and prizes
        are written, the deal stored and the tournament finished (409 `in_hand` while one of them
        is in a hand in progress)."""
        tournament = get_tournament(request, pk)
        data = DealInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_accept_deal(
            tournament=tournament,
            method=data.validated_data["method"],
            actor=request.user,
            expected_chips=data.validated_data.get("chips"),
        )
        return Response(render_tournament(tournament))


class RepriceInputSerializer(serializers.Serializer):
    """The corrected prices (those left out keep theirs) and why."""

    buy_in = money_field(required=False)
    fee = money_field(required=False)
    rebuy_price = money_field(required=False)
    addon_price = money_field(required=False)
    bounty = money_field(required=False)
    reason = serializers.CharField(max_length=200, help_text="why the prices are corrected")


class EntryPriceOutputSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField()
    name = serializers.CharField()
    paid = serializers.DecimalField(max_digits=12, decimal_places=2, help_text="at the old prices")
    now = serializers.DecimalField(max_digits=12, decimal_places=2, help_text="at the new ones")


class RepriceOutputSerializer(serializers.Serializer):
    changes = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="each price changed: [old, new]",
    )
    entries = EntryPriceOutputSerializer(many=True)
    prize_pool_before = serializers.CharField()
    prize_pool_after = serializers.CharField()


class TournamentRepriceApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        request=RepriceInputSerializer,
        responses=responses(RepriceOutputSerializer, 400, 403, 404, 409),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Correct a price entries have paid (a PATCH of it is refused, 409 `money_locked`):
        every entry is counted at the new prices, and the audit log names each entry's change,
        old -> new. 400 `nothing_to_reprice` (a repeat: the prices are those already set),
        `reason_required`; 409 `tournament_finished`, `bounties_won`, `reprice_the_event`."""
        tournament = get_tournament(request, pk)
        data = RepriceInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        reason = values.pop("reason")
        answer = tournament_reprice(
            tournament=tournament, reason=reason, actor=request.user, **values
        )
        body = {
            "changes": {k: [f"{a:.2f}", f"{b:.2f}"] for k, (a, b) in answer.changes.items()},
            "entries": answer.entries,
            "prize_pool_before": f"{answer.pool_before:.2f}",
            "prize_pool_after": f"{answer.pool_after:.2f}",
        }
        return Response(RepriceOutputSerializer(body).data)
