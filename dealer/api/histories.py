"""Hand histories as PHH files (docs/phh.md, "Exporting"): one hand, a table's session, a
tournament. A history holds every hole card dealt, shown or not: a hand's or a table's is for
directors and the table's dealer, a tournament's for directors.

The history is TOML (`application/x-toml`), sent as a file to save (Content-Disposition); a
session or a tournament is streamed, hand by hand. Errors are JSON `{"code", "detail"}` like
everywhere else, whatever the client accepts.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request

from common.api.errors import ErrorSerializer, ValidationErrorSerializer
from common.limits import MAX_INT
from common.roles import is_director
from dealer.api.views import DealerApi, get_table
from dealer.card_gate import card_sight
from dealer.histories import hand_phh, table_phh_stream, tournament_phh_stream
from dealer.models import Hand
from tournaments.api.lookups import get_tournament
from tournaments.models import Table

TAGS = ["histories"]
MEDIA_TYPE = "application/x-toml"
CONTENT_TYPE = f"{MEDIA_TYPE}; charset=utf-8"


def _errors(*codes: int, conflict: str = "") -> dict[tuple[int, str], OpenApiResponse]:
    described = {
        403: "Not signed in, or neither a director nor a dealer.",
        404: "No such hand, table or tournament.",
        400: "`since` or `until` is not a hand number, or `until` comes before `since`.",
        409: conflict,
    }
    return {
        (code, "application/json"): OpenApiResponse(
            ValidationErrorSerializer if code == 400 else ErrorSerializer,
            description=described[code],
        )
        for code in codes
    }


def _phh(description: str) -> dict[tuple[int, str], OpenApiResponse]:
    return {(200, MEDIA_TYPE): OpenApiResponse(OpenApiTypes.STR, description=description)}


class SessionQuerySerializer(serializers.Serializer):
    since = serializers.IntegerField(
        min_value=1, max_value=MAX_INT, required=False, help_text="the first hand number"
    )
    until = serializers.IntegerField(
        min_value=1, max_value=MAX_INT, required=False, help_text="the last hand number"
    )

    def validate(self, attrs: dict[str, int]) -> dict[str, int]:
        since, until = attrs.get("since"), attrs.get("until")
        if since is not None and until is not None and until < since:
            raise serializers.ValidationError(
                {"until": f"The last hand ({until}) comes before the first ({since})."}
            )
        return attrs


class HistoryApi(DealerApi):
    """A PHH file. The history itself is an HttpResponse of its own; DRF's negotiation only
    picks how errors are written, and they are JSON whatever the client accepts."""

    renderer_classes = (JSONRenderer,)

    def perform_content_negotiation(
        self, request: Request, force: bool = False
    ) -> tuple[BaseRenderer, str]:
        return JSONRenderer(), JSONRenderer.media_type


# A history holds every hole card dealt, shown or not: only for those who may see them
# (`dealer.card_gate`).
HOLE_CARDS_REFUSAL = (
    "Hand histories show the players' hole cards: only directors and the table's dealer may "
    "download them."
)


def _check_may_see_hole_cards(request: Request, table: Table) -> None:
    if not card_sight(request.user, table).hole_cards:
        raise PermissionDenied(HOLE_CARDS_REFUSAL)


def _attachment(filename: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{filename}"'}


def _prefix(table: Table) -> str:
    where = "cash" if table.tournament_id is None else f"tournament-{table.tournament_id}"
    return f"{where}-table-{table.number}"


class HandPhhApi(HistoryApi):
    @extend_schema(
        tags=TAGS,
        responses={
            **_phh("The hand as a PHH file (TOML)."),
            **_errors(
                403,
                404,
                409,
                conflict="`hand_in_progress` (no history until the hand is over: none of its "
                "cards is given), `hand_void` (a misdeal), or `not_representable`: PHH cannot "
                "say the hand (a dead hand, a board claim, dead posts).",
            ),
        },
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        """One completed hand as PHH: variant, blinds and antes, starting stacks, every action,
        names and seats, finishing stacks, and the event, table, hand number, level and time."""
        hand = (
            Hand.objects.select_related("table", "table__tournament")
            .defer("state")
            .filter(pk=pk)
            .first()
        )
        if hand is None:
            raise NotFound("There is no such hand.")
        _check_may_see_hole_cards(request, hand.table)
        text = hand_phh(hand)
        filename = f"{_prefix(hand.table)}-hand-{hand.number}.phh"
        return HttpResponse(text, content_type=CONTENT_TYPE, headers=_attachment(filename))


def _stream(parts: Iterator[str], filename: str) -> StreamingHttpResponse:
    return StreamingHttpResponse(
        (part.encode("utf-8") for part in parts),
        content_type=CONTENT_TYPE,
        headers=_attachment(filename),
    )


class TablePhhApi(HistoryApi):
    @extend_schema(
        tags=TAGS,
        parameters=[SessionQuerySerializer],
        responses={
            **_phh(
                "The table's completed hands in hand order, as a multi-hand PHH file (TOML "
                "tables `[1]`, `[2]`, ...); a hand PHH cannot say is a `# Left out` comment."
            ),
            **_errors(400, 403, 404),
        },
    )
    def get(self, request: Request, pk: int) -> StreamingHttpResponse:
        """A table's session as PHH: its completed hands, `since` to `until` (hand numbers, both
        included, optional). Void hands and the hand in progress are left out."""
        table = get_table(pk)
        _check_may_see_hole_cards(request, table)
        query = SessionQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        since, until = query.validated_data.get("since"), query.validated_data.get("until")
        filename = _prefix(table)
        if since is not None or until is not None:
            filename += f"-hands-{since or 1}-{until or 'last'}"
        parts = table_phh_stream(table, since=since, until=until)
        return _stream(parts, f"{filename}.phhs")


class TournamentPhhApi(HistoryApi):
    @extend_schema(
        tags=TAGS,
        responses={
            **_phh(
                "Every completed hand of every table, table by table, as a multi-hand PHH file "
                "(TOML tables `[1]`, `[2]`, ...), streamed."
            ),
            **_errors(403, 404),
        },
    )
    def get(self, request: Request, pk: int) -> StreamingHttpResponse:
        """A tournament's hands as PHH, table by table in table order: every completed hand.
        Void hands and hands in progress are left out."""
        tournament = get_tournament(request, pk)
        # Every table's hole cards: those who may see them at every table (`dealer.card_gate`
        # at each table: a director; a dealer sees only their own).
        if not is_director(request.user):
            raise PermissionDenied(HOLE_CARDS_REFUSAL)
        parts = tournament_phh_stream(tournament)
        return _stream(parts, f"tournament-{tournament.pk}.phhs")
