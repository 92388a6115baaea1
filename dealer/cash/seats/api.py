"""Cash tables over the REST API: every write the seats page offers (open a table, seat a
player, sit out, come back, top up, leave, the waiting list, the button draw) and the reads
(the list, one table, the next hand's plan), through the same services and the same read model
as the pages.

Who: directors and dealers read; a director opens tables; a write to a table needs `can_write`
(a director, or the dealer assigned to the table), as on the seats page. Each write answers the
table as it is now (`selectors.cash_table_view`); a refusal is the service's `{code, detail}`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi, valid
from common.api.errors import ErrorSerializer, responses
from common.api.permissions import IsDirector, IsDirectorOrDealer
from dealer.cash.games import waitlist
from dealer.cash.seats import serializers as s
from dealer.cash.seats import services
from dealer.cash.seats.selectors import (
    cash_next_hand,
    cash_seat_get,
    cash_table_get,
    cash_table_list,
    cash_table_view,
    cash_waitlist_entry_get,
)
from dealer.services import check_writer
from tournaments.api.rules import (
    READ,
    WRITE,
    RulesApi,
    RulesInputSerializer,
    rules_answer,
    rules_set_from,
)
from tournaments.api.rules import TAGS as RULES_TAGS
from tournaments.models import Table

TAGS = ["cash"]


def write_responses(
    *, status: int = 200, ok: object = s.CashTableOutputSerializer
) -> dict[int, object]:
    return {
        **responses(ok, 400, 403, 404, status=status),
        409: OpenApiResponse(
            ErrorSerializer,
            description="Refused by the floor rules in the table's current state (`seat_taken`, "
            "`already_seated`, `in_hand`, `over_maximum`, ...).",
        ),
    }


class CashApi(FloorApi):
    """Directors and dealers read; each write checks `can_write` on the table, and is answered
    once per `client_id` (`common.api.once`)."""

    permission_classes: Sequence[type[BasePermission]] = (IsDirectorOrDealer,)


def writable(request: Request, pk: int) -> Table:
    """The cash table, if this user may change it (403 otherwise, before the input is read)."""
    table = cash_table_get(pk)
    check_writer(request.user, table)
    return table


def table_answer(pk: int, *, status: int = 200) -> Response:
    """The table as it is now, read again after a write."""
    view = cash_table_view(cash_table_get(pk))
    return Response(s.CashTableOutputSerializer(view).data, status=status)


# --- the tables ------------------------------------------------------------------------------


class CashTablesApi(CashApi):
    def get_permissions(self) -> list[BasePermission]:
        """Dealers read the list; only the floor opens tables, as on the cash tables page."""
        if self.request.method == "POST":
            return [IsDirector()]
        return [permission() for permission in self.permission_classes]

    @extend_schema(
        tags=TAGS, responses=responses(s.CashTableSummaryOutputSerializer(many=True), 403)
    )
    def get(self, request: Request) -> Response:
        """Every cash table by number, with its game, stakes, players and waiting list."""
        tables = cash_table_list()
        return Response(s.CashTableSummaryOutputSerializer(tables, many=True).data)

    @extend_schema(
        tags=TAGS,
        request=s.CashTableInputSerializer,
        responses=write_responses(status=201),
    )
    def post(self, request: Request) -> Response:
        """Open a cash table (directors): its game, stakes, buy-in range, seats and house rules,
        checked as the engine reads them (400 `bad_stakes`, `bad_buy_in`, `bad_seat_count`,
        `unknown_option`, `bad_option_value`, `not_cash`; 409 `table_number_taken`)."""
        values = valid(s.CashTableInputSerializer, request)
        table = services.cash_table_create(actor=request.user, **values)
        return table_answer(table.pk, status=201)


class CashTableApi(CashApi):
    @extend_schema(tags=TAGS, responses=responses(s.CashTableOutputSerializer, 400, 403, 404))
    def get(self, request: Request, pk: int) -> Response:
        """One cash table, as its seats page shows it: every seat with its player, chips,
        status and what the player owes to come in, the waiting list, the last button draw and
        the next hand's plan (or why none can start)."""
        return Response(s.CashTableOutputSerializer(cash_table_view(cash_table_get(pk))).data)


class CashNextHandApi(CashApi):
    @extend_schema(tags=TAGS, responses=responses(s.NextHandOutputSerializer, 400, 403, 404, 409))
    def get(self, request: Request, pk: int) -> Response:
        """Cash tables: the next hand's plan (button, blinds, who posts what, live or dead, who
        waits and why, who may straddle). Send its `signature` as `plan` when starting the hand.
        400 `not_cash` for a tournament table; 409 when no hand can start
        (`not_enough_players`, `no_button`)."""
        return Response(s.NextHandOutputSerializer(cash_next_hand(cash_table_get(pk))).data)


class CashButtonDrawApi(CashApi):
    @extend_schema(tags=TAGS, request=None, responses=write_responses(status=201))
    def post(self, request: Request, pk: int) -> Response:
        """The high-card draw for the first button (before the first hand, two players seated
        at least): answers the table, the draw's cards in `button_draw` (409
        `already_dealing`, `not_enough_players`)."""
        table = writable(request, pk)
        services.cash_table_draw_button(table=table, rng=random.SystemRandom(), actor=request.user)
        return table_answer(pk, status=201)


# --- seats -----------------------------------------------------------------------------------


class CashSeatsApi(CashApi):
    @extend_schema(
        tags=TAGS, request=s.CashSeatInputSerializer, responses=write_responses(status=201)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Seat a player with their buy-in and entry choice (400 `bad_seat`, `bad_buy_in`,
        `choice_not_offered`; 409 `seat_taken`, `already_seated`). A player on the waiting
        list leaves it."""
        table = writable(request, pk)
        values = valid(s.CashSeatInputSerializer, request)
        services.cash_seat_take(table=table, actor=request.user, **values)
        return table_answer(pk, status=201)


class CashSeatSitOutApi(CashApi):
    @extend_schema(tags=TAGS, request=None, responses=write_responses())
    def post(self, request: Request, pk: int, seat_pk: int) -> Response:
        """The player sits out from the next hand: the blinds that pass the seat are missed."""
        seat = cash_seat_get(writable(request, pk), seat_pk)
        services.cash_seat_sit_out(cash_seat=seat, actor=request.user)
        return table_answer(pk)


class CashSeatBackApi(CashApi):
    @extend_schema(tags=TAGS, request=s.CashBackInputSerializer, responses=write_responses())
    def post(self, request: Request, pk: int, seat_pk: int) -> Response:
        """The player is back: posts what is owed now (`post`) or waits for the big blind
        (`wait_bb`)."""
        seat = cash_seat_get(writable(request, pk), seat_pk)
        values = valid(s.CashBackInputSerializer, request)
        services.cash_seat_return(cash_seat=seat, choice=values["choice"], actor=request.user)
        return table_answer(pk)


class CashSeatTopUpApi(CashApi):
    @extend_schema(tags=TAGS, request=s.CashTopUpInputSerializer, responses=write_responses())
    def post(self, request: Request, pk: int, seat_pk: int) -> Response:
        """Add chips between hands, up to the maximum buy-in (400 `bad_amount`; 409 `in_hand`,
        `at_maximum`, `over_maximum`, `under_minimum`)."""
        seat = cash_seat_get(writable(request, pk), seat_pk)
        values = valid(s.CashTopUpInputSerializer, request)
        services.cash_seat_top_up(cash_seat=seat, amount=values["amount"], actor=request.user)
        return table_answer(pk)


class CashSeatCorrectApi(CashApi):
    @extend_schema(tags=TAGS, request=s.CashCorrectInputSerializer, responses=write_responses())
    def post(self, request: Request, pk: int, seat_pk: int) -> Response:
        """The floor sets a stack to the chips on the table, with a reason: one correction row
        of the ledger, with who and why (403 `floor_only` for a dealer; 400 `reason_required`;
        409 `in_hand`, `no_change`)."""
        seat = cash_seat_get(writable(request, pk), seat_pk)
        values = valid(s.CashCorrectInputSerializer, request)
        services.cash_seat_correct(
            cash_seat=seat, chips=values["chips"], reason=values["reason"], actor=request.user
        )
        return table_answer(pk)


class CashSeatLeaveApi(CashApi):
    @extend_schema(
        tags=TAGS, request=None, responses=write_responses(ok=s.CashLeaveOutputSerializer)
    )
    def post(self, request: Request, pk: int, seat_pk: int) -> Response:
        """The player leaves with their chips: answers how many, who was called to the seat (a
        game's table, someone waiting), and the table (409 `in_hand` while the player is in the
        hand in progress)."""
        seat = cash_seat_get(writable(request, pk), seat_pk)
        left = services.cash_seat_leave(cash_seat=seat, actor=request.user)
        table = cash_table_view(cash_table_get(pk))
        called = left.called.player.name if left.called else None
        body = {
            "seat": seat.seat,
            "player": seat.player.name,
            "chips": left.chips,
            "called": called,
            "table": table,
        }
        return Response(s.CashLeaveOutputSerializer(body).data)


class CashSeatMoveApi(CashApi):
    @extend_schema(tags=TAGS, request=s.CashMoveInputSerializer, responses=write_responses())
    def post(self, request: Request, pk: int, seat_pk: int) -> Response:
        """A table change or must-move within a game: the player takes the whole stack to
        `to_seat` at `to_table` (no buy-in check). Answers the table moved to (409 `in_hand`,
        `other_game`, `seat_taken`, `seat_held`, `already_seated`, `table_closed`)."""
        seat = cash_seat_get(writable(request, pk), seat_pk)
        values = valid(s.CashMoveInputSerializer, request)
        target = writable(request, values["to_table"])  # a move changes both tables
        services.cash_seat_move(
            cash_seat=seat,
            to_table=target,
            to_seat=values["to_seat"],
            choice=values["choice"],
            actor=request.user,
        )
        return table_answer(target.pk)


class CashSeatChangeApi(CashApi):
    @extend_schema(tags=TAGS, request=s.SeatChangeInputSerializer, responses=write_responses())
    def post(self, request: Request, pk: int, seat_pk: int) -> Response:
        """The player asks for another seat or table of the game (`cancel`: asks no more): on the
        game's seat-change list, offered a seat that opens before the waiting list (400
        `no_game`)."""
        seat = cash_seat_get(writable(request, pk), seat_pk)
        if valid(s.SeatChangeInputSerializer, request)["cancel"]:
            waitlist.seat_change_cancel(cash_seat=seat, actor=request.user)
        else:
            waitlist.seat_change_ask(cash_seat=seat, actor=request.user)
        return table_answer(pk)


# --- the waiting list ------------------------------------------------------------------------


class CashWaitlistApi(CashApi):
    @extend_schema(
        tags=TAGS, request=s.CashWaitlistInputSerializer, responses=write_responses(status=201)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Put a player on the table's waiting list (409 `already_seated`, `already_waiting`)."""
        table = writable(request, pk)
        values = valid(s.CashWaitlistInputSerializer, request)
        services.cash_waitlist_add(
            table=table, player_name=values["player_name"], actor=request.user
        )
        return table_answer(pk, status=201)


class CashWaitlistRemoveApi(CashApi):
    @extend_schema(tags=TAGS, request=None, responses=write_responses())
    def post(self, request: Request, pk: int, entry_pk: int) -> Response:
        """Take a player off the waiting list (done already: the same answer)."""
        entry = cash_waitlist_entry_get(writable(request, pk), entry_pk)
        services.cash_waitlist_remove(entry=entry, actor=request.user)
        return table_answer(pk)


# --- the rules ------------------------------------------------------------------------------


class CashTableRulesApi(RulesApi):
    @extend_schema(tags=RULES_TAGS, responses=READ)
    def get(self, request: Request, pk: int) -> Response:
        """A cash table's rules: every option in words with its value and the profile's
        default (400 `not_cash` for a tournament's table)."""
        return rules_answer(cash_table_get(pk))

    @extend_schema(tags=RULES_TAGS, request=RulesInputSerializer, responses=WRITE)
    def put(self, request: Request, pk: int) -> Response:
        """Set a cash table's profile and options (directors), at any time: the hand in
        progress keeps its rules, the next hand is dealt with the new ones. The options left
        out take the profile's default. Answers the rules as stored."""
        table = cash_table_get(pk)
        rules_set_from(request, table)
        return rules_answer(Table.objects.get(pk=table.pk))
