"""Dealer-error procedures (RULES.md 8): preview the steps, carry one out on a hand (the floor's
misdeal and dead-hand decisions included), and the floor's log of them (JSON pages and a CSV
export for directors, read through `dealer.selectors.procedure_log` as the director's page is)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NotRequired, cast

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import ErrorSerializer, ValidationErrorSerializer, responses
from dealer.api import serializers as s
from dealer.api.views import DealerApi, HandWriteInput, write_responses, writer_input
from dealer.card_gate import check_hole_cards
from dealer.models import Hand, HandEvent
from dealer.selectors import ProcedureRow, procedure_log, procedure_preview
from dealer.services import hand_run_procedure
from tournaments.api.results import CSV_ROWS_AS_JSON, CsvExportApi
from tournaments.spreadsheet import safe_cell

TAGS = ["procedures"]
RECORD_FIELDS = ("trigger", "title", "steps", "effect", "player_seat", "rule", "option")
CSV_HEADER = (
    "when",
    "tournament",
    "table",
    "hand",
    "dealer",
    "trigger",
    "title",
    "effect",
    "seat",
    "rule",
    "steps",
)


def _plain(value: object) -> object:
    """An engine enum as its value; anything else as it is."""
    return getattr(value, "value", value)


class ProcedurePreviewApi(DealerApi):
    @extend_schema(
        tags=TAGS,
        parameters=[s.ProcedurePreviewQuerySerializer],
        responses=responses(s.RemedyOutputSerializer, 400, 403, 404, 409),
    )
    def get(self, request: Request, pk: int) -> Response:
        """What the procedure says for this hand now: the steps to read out before confirming.
        Nothing changes. Only at the tables the caller deals (a director: every table): the
        remedy and its refusals depend on the hole cards entered (`dealer.card_gate`)."""
        hand = Hand.objects.select_related("table").filter(pk=pk).first()
        if hand is None:
            raise NotFound("There is no such hand.")
        check_hole_cards(request.user, hand.table)
        query = s.ProcedurePreviewQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        remedy = procedure_preview(
            hand=hand,
            trigger=query.validated_data["trigger"],
            player_seat=query.validated_data.get("seat"),
            details=query.validated_data.get("details"),
        )
        data = {
            name: _plain(getattr(remedy, name)) for name in RECORD_FIELDS if name != "player_seat"
        }
        return Response(s.RemedyOutputSerializer(data).data)


class ProcedureInput(HandWriteInput):
    """`ProcedureInputSerializer`'s valid input."""

    trigger: str
    seat: NotRequired[int | None]
    details: dict[str, object]


def _procedure_input(data: object) -> ProcedureInput:
    serializer = s.ProcedureInputSerializer(data=data)
    serializer.is_valid(raise_exception=True)
    return cast("ProcedureInput", dict(serializer.validated_data))  # named by the fields


class HandProceduresApi(DealerApi):
    @extend_schema(
        tags=TAGS,
        request=s.ProcedureInputSerializer,
        responses=write_responses(s.ProcedureRunOutputSerializer),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Carry out a procedure: its engine actions become one event of the hand, and the floor's
        log records it. The floor's decisions are the triggers `floor_misdeal` and
        `floor_dead_hand` (a `seat` required), with `details.note` as the reason. Answers the
        new state and what was done (a resent write: the same)."""
        data = writer_input(request, pk, _procedure_input)
        client_id = data["client_id"]
        result, _ = hand_run_procedure(
            hand=pk,
            trigger=data["trigger"],
            player_seat=data.get("seat"),
            details=data["details"],
            client_id=client_id,
            version=data["version"],
            actor=request.user,
        )
        # What was done, from the event itself: the first answer and a resent one are the same.
        event = HandEvent.objects.filter(hand_id=pk, client_id=client_id).only("payload").first()
        payload = event.payload if event is not None else {}
        record = {name: payload.get(name) for name in RECORD_FIELDS}
        return Response({"state": result.answer, "procedure": record})


# --- the log ---------------------------------------------------------------------------------


class ProcedureLogApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        parameters=[s.ProcedureLogQuerySerializer],
        responses=responses(s.ProcedureLogPageOutputSerializer, 400, 403),
    )
    def get(self, request: Request) -> Response:
        """Directors: every procedure carried out, newest first; filter by tournament, table
        (id) or dealer (user id); `before` (an id) pages."""
        query = s.ProcedureLogQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        filters = dict(query.validated_data)
        limit = filters.pop("limit")
        rows = procedure_log(**filters, limit=limit + 1)
        more = len(rows) > limit
        page = {"results": rows[:limit], "next_before": rows[limit - 1].id if more else None}
        return Response(s.ProcedureLogPageOutputSerializer(page).data)


def procedure_rows(rows: Iterable[ProcedureRow]) -> Iterable[Sequence[str]]:
    """The log's rows as CSV lines, under `CSV_HEADER`."""
    yield CSV_HEADER
    for row in rows:
        yield tuple(
            safe_cell(value)
            for value in (
                row.created_at.isoformat(),
                row.tournament,
                row.table,
                row.hand_number,
                row.dealer or "",
                row.trigger,
                row.title,
                row.effect,
                row.player_seat,
                row.rule,
                " / ".join(row.steps),
            )
        )


class ProcedureLogCsvApi(CsvExportApi):
    @extend_schema(
        tags=TAGS,
        parameters=[s.ProcedureLogFilterSerializer],
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR,
                description=",".join(CSV_HEADER) + "; newest first",
            ),
            (200, "application/json"): CSV_ROWS_AS_JSON,
            (400, "application/json"): ValidationErrorSerializer,
            (403, "application/json"): ErrorSerializer,
        },
    )
    def get(self, request: Request) -> Response:
        """Directors: the procedure log as CSV, with the same filters as the JSON log."""
        query = s.ProcedureLogFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = procedure_log(**query.validated_data)
        return Response(
            list(procedure_rows(rows)),
            headers={"Content-Disposition": 'attachment; filename="procedures.csv"'},
        )
