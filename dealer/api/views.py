"""The dealer's hands: start one, read its state (polled with ETag), record actions, undo, and
read its event log. One thin view per operation; the rules live in `dealer.services`.

Who: directors and dealers read every hand; a write needs `can_write` (a director, or the dealer
assigned to the table). Every write carries `client_id` and `version` (DESIGN.md "Interfaces").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import Generic, NotRequired, TypedDict, TypeVar, cast

from django.db.models import F
from django.http.response import HttpResponseBase
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ParseError, UnsupportedMediaType, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi
from common.api.errors import ErrorSerializer, responses
from common.api.permissions import IsDirectorOrDealer
from common.errors import FloorError
from config import request_time
from config.conditional import ETAG_HEADER, IF_NONE_MATCH, conditional
from config.exceptions import status_of
from dealer.api import serializers as s
from dealer.card_gate import card_sight
from dealer.codec import AwardView, HandSnapshot, SeatRow
from dealer.models import Hand, HandEvent
from dealer.services import (
    check_writer,
    hand_record_action,
    hand_reopen,
    hand_start,
    hand_undo,
)
from tournaments.models import Table

TAGS = ["hands"]

STALE = OpenApiResponse(
    s.StaleVersionSerializer,
    description="Refused by the rules (`code`, `detail`), or `stale_version`: the hand moved on "
    "since `version`, or `stale_tap`: another seat than `expected_seat` is to act; with both, "
    "`state` is the hand as it is now.",
)


def write_responses(ok: object, *, status: int = 200) -> dict[int, object]:
    return {**responses(ok, 400, 403, 404, status=status), 409: STALE}


class DealerApi(FloorApi):
    """Directors and dealers read; the writes check `can_write` on the hand's table. A hand's
    writes bind each tap to the hand's version and keep their `client_id` with the action
    (`dealer.services`), so they do not go through `common.api.once` as well."""

    permission_classes = (IsDirectorOrDealer,)
    answers_once = False


def get_table(pk: int) -> Table:
    table = Table.objects.filter(pk=pk).first()
    if table is None:
        raise NotFound("There is no such table.")
    return table


def get_hand(pk: int) -> Hand:
    hand = (
        Hand.objects.select_related("table")
        .defer("rules", "state", "engine_state")
        .filter(pk=pk)
        .first()
    )
    if hand is None:
        raise NotFound("There is no such hand.")
    return hand


Input = TypeVar("Input")


def writer_input(request: Request, pk: int, validate: Callable[[object], Input]) -> Input:
    """A hand write's input, checked. The service checks the writer on the table it reads with
    the hand's lock (no query of its own); input refused here (400) is first checked the same
    way, so that someone who may not write to the hand hears that (403), as before any write."""
    try:
        return validate(request.data)
    except (ValidationError, ParseError, UnsupportedMediaType):
        table = Table.objects.filter(hands__pk=pk).first()
        if table is None:
            raise NotFound("There is no such hand.") from None
        check_writer(request.user, table)
        raise


class HandWriteInput(TypedDict):
    """A hand write's input (`HandWriteInputSerializer`): its client id and the version seen."""

    client_id: str
    version: int


class ActionInput(HandWriteInput):
    action: dict[str, object]  # `ActionSerializer`'s fields given
    expected_seat: NotRequired[int | None]
    deal_unentered: bool


class ReasonedInput(HandWriteInput):
    """An undo's or a reopening's input."""

    reason: str


class SharedInput(Generic[Input]):
    """An input serializer's checks, from one instance made once per process. DRF builds a
    serializer's fields anew (a deep copy) every time one is made, which cost a tablet's write
    more than the checks themselves; the checks keep no state on the instance, so valid input
    goes through the shared one. Invalid input is checked again by a new serializer, for the
    very errors `is_valid` gives (a 400 with field errors, as everywhere)."""

    def __init__(self, serializer_class: type[serializers.Serializer]) -> None:
        self.serializer_class = serializer_class
        self.shared = serializer_class()

    def validated(self, data: object) -> Input:
        """The valid input, as the serializer's fields name it (`Input` names them too)."""
        try:
            return cast("Input", dict(self.shared.run_validation(data)))
        except ValidationError:
            serializer = self.serializer_class(data=data)
            serializer.is_valid(raise_exception=True)
            return cast("Input", dict(serializer.validated_data))


ACTION_INPUT = SharedInput[ActionInput](s.ActionInputSerializer)
UNDO_INPUT = SharedInput[ReasonedInput](s.UndoInputSerializer)
REOPEN_INPUT = SharedInput[ReasonedInput](s.ReopenInputSerializer)


def present(data: Mapping[str, object]) -> dict[str, object]:
    """The fields given, without the empty ones (the service reads `seat` as `player`)."""
    return {key: value for key, value in data.items() if value not in (None, "", [])}


def winners(seats: list[SeatRow], awards: list[AwardView] | None) -> list[dict[str, int | str]]:
    """Who won how much, every pot together, in the order of the hand's seats."""
    won: dict[int, int] = defaultdict(int)
    for award in awards or ():
        for seat, share in zip(award["winners"], award["shares"], strict=False):
            won[seat] += share
    return [
        {"seat": row["seat"], "name": row.get("name", ""), "amount": won[row["seat"]]}
        for row in seats
        if row["seat"] in won
    ]


# --- a table's hands -------------------------------------------------------------------------


class TableHandsApi(DealerApi):
    @extend_schema(
        tags=TAGS,
        parameters=[s.PageQuerySerializer],
        responses=responses(s.HandHistoryOutputSerializer, 400, 403, 404),
    )
    def get(self, request: Request, pk: int) -> Response:
        """The table's hands, newest first, with who won; `before` (a hand number) pages."""
        table = get_table(pk)
        query = s.PageQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        limit = query.validated_data["limit"]
        hands = Hand.objects.filter(table=table).defer("engine_state").order_by("-number")
        if "before" in query.validated_data:
            hands = hands.filter(number__lt=query.validated_data["before"])
        rows: list[dict[str, object]] = []
        for found in hands.values(
            "id",
            "number",
            "status",
            "button_seat",
            "small_blind_seat",
            "big_blind_seat",
            "version",
            "created_at",
            "ended_at",
            "seats",
            awards=F("state__awards"),
        )[: limit + 1]:
            row = dict(found)
            del row["seats"], row["awards"]  # read as who won
            rows.append({**row, "winners": winners(found["seats"], found["awards"])})
        more = len(rows) > limit
        page = {"results": rows[:limit], "next_before": rows[limit - 1]["number"] if more else None}
        return Response(s.HandHistoryOutputSerializer(page).data)

    @extend_schema(
        tags=TAGS,
        request=s.HandStartInputSerializer,
        responses={
            **responses(s.HandStateOutputSerializer, 400, 403, 404, status=201),
            409: OpenApiResponse(
                s.StaleVersionSerializer,
                description="Refused (`not_running`, `on_break`, `not_enough_players`, "
                "`table_broken`), or `hand_in_progress` with the `state` of the hand in play: "
                "a resent start gets the hand it started this way.",
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        """Start the next hand at the table: dead button (T 32), the blinds in force now (T 23),
        every seated player dealt in (T 30)."""
        table = get_table(pk)
        check_writer(request.user, table)
        data = s.HandStartInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            hand = hand_start(
                table=table,
                actor=request.user,
                now=request_time.now(),
                straddle=data.validated_data["straddle"],
                expected_plan=data.validated_data.get("plan", ""),
            )
        except FloorError as error:
            current = Hand.objects.filter(table=table, status=Hand.Status.IN_PROGRESS).first()
            if error.code != "hand_in_progress" or current is None:
                raise
            body = {"code": error.code, "detail": error.detail, "state": current.state}
            return Response(body, status=status_of(error))
        return Response(hand.state, status=201)


class TableCurrentHandApi(DealerApi):
    @extend_schema(tags=TAGS, responses=responses(s.HandStateOutputSerializer, 403, 404))
    def get(self, request: Request, pk: int) -> Response:
        """The hand in progress at the table (404 when none is)."""
        table = get_table(pk)
        hand = (
            Hand.objects.filter(table=table, status=Hand.Status.IN_PROGRESS)
            .defer("engine_state")
            .first()
        )
        if hand is None:
            raise NotFound(f"No hand is in progress at table {table.number}.")
        return Response(hand.state)


# --- one hand --------------------------------------------------------------------------------


def hand_etag(pk: int, version: int) -> str:
    return f'"hand-{pk}-{version}"'


class HandApi(DealerApi):
    @extend_schema(
        tags=TAGS,
        parameters=[IF_NONE_MATCH, ETAG_HEADER],
        responses={**responses(s.HandStateOutputSerializer, 403, 404), 304: None},
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        """The hand's state. Poll with If-None-Match: 304 until its version changes."""
        hands = Hand.objects.filter(pk=pk)
        state: HandSnapshot | None = None
        if request.headers.get("If-None-Match"):
            # Deciding on a 304 reads the version alone, not the state.
            version = hands.values_list("version", flat=True).first()
        else:
            row = hands.values_list("version", "state").first()
            version, state = row if row else (None, None)
        if version is None:
            raise NotFound("There is no such hand.")

        def build() -> Response:
            return Response(state or hands.values_list("state", flat=True).first())

        return conditional(request, hand_etag(pk, version), build)


class HandActionsApi(DealerApi):
    @extend_schema(
        tags=TAGS,
        request=s.ActionInputSerializer,
        responses=write_responses(s.HandStateOutputSerializer),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Record one entry: a betting action, board or hole cards, a show, muck or claim, a
        dead hand or a misdeal. Answers the new state (a resent write: the original answer)."""
        data = writer_input(request, pk, ACTION_INPUT.validated)
        result = hand_record_action(
            hand=pk,
            action=present(data["action"]),
            client_id=data["client_id"],
            version=data["version"],
            actor=request.user,
            expected_seat=data.get("expected_seat"),
            deal_unentered=data.get("deal_unentered", False),
        )
        return Response(result.answer)


class HandUndoApi(DealerApi):
    @extend_schema(
        tags=TAGS,
        request=s.UndoInputSerializer,
        responses=write_responses(s.HandStateOutputSerializer),
    )
    def post(self, request: Request, pk: int) -> Response:
        """Cancel the latest entry still in force (`nothing_to_undo` when none is). Nothing is
        deleted: the undo is an event of its own, with its reason."""
        data = writer_input(request, pk, UNDO_INPUT.validated)
        result = hand_undo(hand=pk, actor=request.user, **data)
        return Response(result.answer)


class HandReopenApi(DealerApi):
    @extend_schema(
        tags=TAGS,
        request=s.ReopenInputSerializer,
        responses={
            **responses(s.HandStateOutputSerializer, 400, 404),
            403: OpenApiResponse(
                ErrorSerializer,
                description="`permission_denied`, or `next_hand_started`: a dealer reopens "
                "only the table's latest hand, before the next one starts (ask the floor).",
            ),
            409: OpenApiResponse(
                s.StaleVersionSerializer,
                description="`stale_version` with the hand's `state` now, or refused: "
                "`hand_in_progress` (this hand, or another at the table), `not_last_hand`, "
                "`hand_void` (a misdeal is dealt again), `moved`, `player_left` (cash: a player "
                "of the hand has left or changed tables since), `short_stack`, "
                "`in_another_hand`, `out_since`, `seat_taken`, `tournament_finished`.",
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        """Reopen a finished hand to correct it: its result is reversed through the
        chip ledger (a tournament's stacks, busts, places, prizes; a cash table's stacks, rake
        and drop) and the hand is in progress again, to be
        corrected with undo and new entries; its next end writes the corrected result. A dealer
        may reopen the table's latest hand before the next one starts; a director the table's
        last completed hand while no hand is in progress there."""
        data = writer_input(request, pk, REOPEN_INPUT.validated)
        result = hand_reopen(hand=pk, actor=request.user, **data)
        return Response(result.answer)


class HandEventsApi(DealerApi):
    @extend_schema(
        tags=TAGS,
        responses={
            200: s.HandEventOutputSerializer(many=True),
            403: ErrorSerializer,
            404: ErrorSerializer,
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        """The hand's log, oldest first: every action, undo and procedure, who and when. Cards
        no player has shown (hole cards dealt, a muck), wherever they sit in a payload (the
        entries an undo cancelled included), read "??" except for directors and the table's
        dealer (`dealer.card_gate`)."""
        hand = get_hand(pk)
        events = list(
            HandEvent.objects.filter(hand=hand)
            .select_related("actor")
            .defer("response")
            .order_by("seq")
        )
        sight = card_sight(request.user, hand.table)
        for event in events:
            event.payload = sight.payload(event.payload)
        return Response(s.HandEventOutputSerializer(events, many=True).data)
