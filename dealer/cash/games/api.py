"""Games and waiting lists over the REST API: the desk's writes (create, open, close, stakes,
deal at a table, must-move, break, the list: add, call next, seated, no-show, remove) and the
public ones (the live games, joining a list from a phone, a place by its code).

Who: directors write and read the desk's endpoints, dealers read them; the public endpoints
need no account and show names only to the player who holds the code. Each desk write answers
the game as it is now (`game_selectors.cash_game_view`); a refusal is the service's
`{code, detail}`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi, valid
from common.api.errors import ErrorSerializer, responses
from common.api.permissions import IsDirector, IsDirectorOrDealer
from config.authentication import ListJoinThrottle
from dealer.cash.games import lookups, waitlist
from dealer.cash.games import serializers as s
from dealer.cash.games import services as games
from dealer.cash.games.selectors import (
    cash_game_get,
    cash_game_list,
    cash_game_view,
    game_entry_get,
    list_join_rate_refusal,
    list_lookup_rate_refusal,
    waitlist_place,
)
from dealer.cash.seats.api import table_answer
from dealer.cash.seats.selectors import cash_table_get
from dealer.cash.seats.serializers import CashTableOutputSerializer

TAGS = ["cash games"]


def write_responses(*, status: int = 200, ok: object = s.GameOutputSerializer) -> dict[int, object]:
    return {
        **responses(ok, 400, 403, 404, status=status),
        409: OpenApiResponse(
            ErrorSerializer,
            description="Refused in the game's current state (`hand_in_progress`, "
            "`game_closed`, `already_waiting`, `no_open_seat`, `not_called`, ...).",
        ),
    }


TABLE_RESPONSES = write_responses(ok=CashTableOutputSerializer)


def game_answer(pk: int, *, status: int = 200) -> Response:
    """The game as it is now, read again after a write (held seats that ran out freed first)."""
    waitlist.waitlist_expire_on_read()
    return Response(s.GameOutputSerializer(cash_game_view(cash_game_get(pk))).data, status=status)


class GameApi(FloorApi):
    """Directors write (each write answered once per `client_id`, `common.api.once`);
    directors and dealers read."""

    def get_permissions(self) -> list[BasePermission]:
        if self.request.method in ("GET", "HEAD", "OPTIONS"):
            return [IsDirectorOrDealer()]
        return [IsDirector()]


# --- the games -----------------------------------------------------------------------------------


class GamesApi(GameApi):
    @extend_schema(tags=TAGS, responses=responses(s.GameOutputSerializer(many=True), 403))
    def get(self, request: Request) -> Response:
        """Every game with its tables, open seats and list (called players first)."""
        waitlist.waitlist_expire_on_read()
        return Response(s.GameOutputSerializer(cash_game_list(), many=True).data)

    @extend_schema(tags=TAGS, request=s.GameInputSerializer, responses=write_responses(status=201))
    def post(self, request: Request) -> Response:
        """Create a game and stakes, open for its list (400 `bad_stakes`, `bad_hold`; 409
        `game_name_taken`)."""
        game = games.cash_game_create(actor=request.user, **valid(s.GameInputSerializer, request))
        return game_answer(game.pk, status=201)


class GameDetailApi(GameApi):
    @extend_schema(tags=TAGS, responses=responses(s.GameOutputSerializer, 403, 404))
    def get(self, request: Request, pk: int) -> Response:
        """One game: its tables with their open seats, and its list."""
        return game_answer(pk)


class GameOpenApi(GameApi):
    @extend_schema(tags=TAGS, request=None, responses=write_responses())
    def post(self, request: Request, pk: int) -> Response:
        """Open the game's list to players."""
        games.cash_game_open(game=cash_game_get(pk), actor=request.user)
        return game_answer(pk)


class GameCloseApi(GameApi):
    @extend_schema(tags=TAGS, request=None, responses=write_responses())
    def post(self, request: Request, pk: int) -> Response:
        """Close the game: its empty tables close and its list is cleared (409
        `game_has_players`: break it first)."""
        games.cash_game_close(game=cash_game_get(pk), actor=request.user)
        return game_answer(pk)


class GameStakesApi(GameApi):
    @extend_schema(tags=TAGS, request=s.StakesInputSerializer, responses=write_responses())
    def post(self, request: Request, pk: int) -> Response:
        """New blinds (and buy-in range) for the game and all its tables, between hands (400
        `bad_stakes`, `bad_buy_in`; 409 `hand_in_progress`)."""
        values = valid(s.StakesInputSerializer, request)
        games.cash_game_stakes_change(game=cash_game_get(pk), actor=request.user, **values)
        return game_answer(pk)


class GameBreakApi(GameApi):
    @extend_schema(tags=TAGS, request=s.BreakInputSerializer, responses=write_responses())
    def post(self, request: Request, pk: int) -> Response:
        """Break the game: its tables close, their players go to the top of its list (or of
        `to_game`'s) in seat order (409 `hand_in_progress`, `game_closed`). Answers the game
        whose list took them."""
        to = valid(s.BreakInputSerializer, request).get("to_game")
        target = cash_game_get(to) if to else None
        games.cash_game_break(game=cash_game_get(pk), to_game=target, actor=request.user)
        return game_answer(target.pk if target else pk)


class GameTablesApi(GameApi):
    @extend_schema(
        tags=TAGS, request=s.AttachInputSerializer, responses=write_responses(status=201)
    )
    def post(self, request: Request, pk: int) -> Response:
        """Deal the game at a cash table: it takes the game's name, stakes, rules and rake and
        opens (400 `not_cash`, `bad_buy_in`; 409 `hand_in_progress`, `game_closed`,
        `table_in_use`: players sit there for another game, send `confirm`)."""
        values = valid(s.AttachInputSerializer, request)
        table = cash_table_get(values.pop("table"))
        games.cash_game_table_attach(
            game=cash_game_get(pk), table=table, actor=request.user, **values
        )
        return game_answer(pk, status=201)


class TableStakesApi(GameApi):
    @extend_schema(tags=TAGS, request=s.StakesInputSerializer, responses=TABLE_RESPONSES)
    def post(self, request: Request, pk: int) -> Response:
        """New blinds (and buy-in range) at one cash table, between hands (409
        `hand_in_progress`). Answers the table."""
        values = valid(s.StakesInputSerializer, request)
        games.cash_table_stakes_change(table=cash_table_get(pk), actor=request.user, **values)
        return table_answer(pk)


class TableMustMoveApi(GameApi):
    @extend_schema(tags=TAGS, request=s.MustMoveInputSerializer, responses=TABLE_RESPONSES)
    def post(self, request: Request, pk: int) -> Response:
        """Make the table a must-move table feeding `main` (null: no longer); both deal the
        same game (400 `not_same_game`, `main_is_must_move`). Answers the table."""
        main_id = valid(s.MustMoveInputSerializer, request)["main"]
        main = cash_table_get(main_id) if main_id else None
        games.cash_table_must_move_set(table=cash_table_get(pk), main=main, actor=request.user)
        return table_answer(pk)


class TableCloseApi(GameApi):
    @extend_schema(tags=TAGS, request=s.CloseInputSerializer, responses=TABLE_RESPONSES)
    def post(self, request: Request, pk: int) -> Response:
        """Close one cash table: its players move with their stacks to open seats of the
        game's other tables in `order`, the rest to the top of the game's list with their
        stacks; nobody is cashed out (409 `hand_in_progress`, `no_game`). Answers the table."""
        order = valid(s.CloseInputSerializer, request)["order"]
        games.cash_table_close(table=cash_table_get(pk), order=order, actor=request.user)
        return table_answer(pk)


# --- the list ------------------------------------------------------------------------------------


class GameListApi(GameApi):
    @extend_schema(tags=TAGS, request=s.JoinInputSerializer, responses=write_responses(status=201))
    def post(self, request: Request, pk: int) -> Response:
        """Put a player at the end of the list (409 `game_closed`, `already_waiting`,
        `already_seated`)."""
        name = valid(s.JoinInputSerializer, request)["player_name"]
        waitlist.game_waitlist_join(game=cash_game_get(pk), player_name=name, actor=request.user)
        return game_answer(pk, status=201)


class GameCallNextApi(GameApi):
    @extend_schema(tags=TAGS, request=None, responses=write_responses())
    def post(self, request: Request, pk: int) -> Response:
        """Call whoever is next (a must-move player first at a main table) to the first open
        seat, held for the game's hold time (409 `no_open_seat`, `list_empty`)."""
        waitlist.waitlist_expire_calls()
        waitlist.game_waitlist_call_next(game=cash_game_get(pk), actor=request.user)
        return game_answer(pk)


class EntrySeatApi(GameApi):
    @extend_schema(tags=TAGS, request=s.SeatInputSerializer, responses=write_responses())
    def post(self, request: Request, pk: int, entry_pk: int) -> Response:
        """The called player takes the held seat with their buy-in (a must-move player moves
        with their chips) (400 `buy_in_required`, `bad_buy_in`; 409 `not_called`)."""
        entry = game_entry_get(cash_game_get(pk), entry_pk)
        values = valid(s.SeatInputSerializer, request)
        games.game_waitlist_seat(entry=entry, actor=request.user, **values)
        return game_answer(pk)


class EntryNoShowApi(GameApi):
    @extend_schema(tags=TAGS, request=None, responses=write_responses())
    def post(self, request: Request, pk: int, entry_pk: int) -> Response:
        """The called player did not come: the seat goes to the next (409 `not_called`)."""
        entry = game_entry_get(cash_game_get(pk), entry_pk)
        waitlist.game_waitlist_no_show(entry=entry, actor=request.user)
        return game_answer(pk)


class EntryRemoveApi(GameApi):
    @extend_schema(tags=TAGS, request=None, responses=write_responses())
    def post(self, request: Request, pk: int, entry_pk: int) -> Response:
        """Take the player off the list (done already: the same answer)."""
        entry = game_entry_get(cash_game_get(pk), entry_pk)
        waitlist.game_waitlist_remove(entry=entry, actor=request.user)
        return game_answer(pk)


# --- the public ----------------------------------------------------------------------------------


class PublicApi(FloorApi):
    permission_classes: Sequence[type[BasePermission]] = (AllowAny,)


class LiveGamesApi(PublicApi):
    @extend_schema(tags=TAGS, responses=responses(s.LiveGameOutputSerializer(many=True)))
    def get(self, request: Request) -> Response:
        """Anyone: the games running, their tables, open seats and list lengths (no names)."""
        waitlist.waitlist_expire_on_read()
        return Response(s.LiveGameOutputSerializer(cash_game_list(open_only=True), many=True).data)


class PublicJoinApi(PublicApi):
    throttle_classes = (ListJoinThrottle,)

    def throttled(self, request: Request, wait: float | None) -> NoReturn:
        raise exceptions.Throttled(wait, list_join_rate_refusal(wait or 60), "throttled")

    @extend_schema(
        tags=TAGS,
        request=s.JoinInputSerializer,
        responses={
            **write_responses(status=201, ok=s.PlaceOutputSerializer),
            409: OpenApiResponse(ErrorSerializer, description="`game_closed`"),
            429: ErrorSerializer,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        """Anyone: join the game's list with a name. Answers the place and the `code` (keep it:
        it is shown once) to check the place at `/api/lists/{code}/` (409 `game_closed`; 429
        `throttled`: too many joins from this device, `LIST_JOIN_RATE`, Retry-After says when
        to retry). Any name is taken as a new one, even one already on the list or playing the
        game: the answer tells nobody who waits or plays (the desk sorts it out)."""
        name = valid(s.JoinInputSerializer, request)["player_name"]
        entry = waitlist.game_waitlist_join(game=cash_game_get(pk), player_name=name, public=True)
        lookups.code_remember(request._request, entry.code)
        return Response(s.PlaceOutputSerializer(waitlist_place(entry.code)).data, status=201)


class PlaceApi(PublicApi):
    @extend_schema(
        tags=TAGS,
        responses={
            **responses(s.PlaceOutputSerializer, 404),
            429: OpenApiResponse(
                ErrorSerializer,
                description="`throttled`: too many codes on no list looked up from this "
                "device (`LIST_LOOKUP_MISS_RATE`), or this code too often (`LIST_LOOKUP_RATE`); "
                "Retry-After says when to retry.",
            ),
        },
    )
    def get(self, request: Request, code: str) -> Response:
        """Anyone with the code: the place on the list, or the call ("table 4, seat 6, held
        until ..."). Rate-limited per device: wrong codes strictly, a code the device has
        (joined with, or found) loosely enough to poll it every few seconds."""
        waitlist.waitlist_expire_on_read()
        try:
            place = lookups.place_lookup(request._request, code)
        except lookups.LookupRefusedError as refused:
            wait = refused.wait
            raise exceptions.Throttled(wait, list_lookup_rate_refusal(wait), "throttled") from None
        return Response(s.PlaceOutputSerializer(place).data)


class PlaceLeaveApi(PublicApi):
    @extend_schema(
        tags=TAGS,
        request=None,
        responses={
            **responses(s.PlaceOutputSerializer, 400, 404),
            409: OpenApiResponse(
                ErrorSerializer, description="`not_on_list`: left, seated or a no-show already"
            ),
            429: ErrorSerializer,
        },
    )
    def post(self, request: Request, code: str) -> Response:
        """Anyone with the code: leave the list (a called player's held seat goes to the next
        player). Answers the place, now off the list; 409 `not_on_list` when it was already,
        400 `bad_code`, 404 for a code on no list, 429 `throttled` as for the lookup."""
        if lookups.code_clean(code) is not None:  # else the service's 400 `bad_code`
            try:
                lookups.place_lookup(request._request, code)
            except lookups.LookupRefusedError as refused:
                wait = refused.wait
                raise exceptions.Throttled(
                    wait, list_lookup_rate_refusal(wait), "throttled"
                ) from None
        entry = waitlist.game_waitlist_leave(code=code)
        return Response(s.PlaceOutputSerializer(waitlist_place(entry.code)).data)
