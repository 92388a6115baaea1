"""The dealer rotation over the REST API, the twins of the desk's board (/floor/dealers/) and
the tablet's sign-in, through the same services and read model.

Who: directors and dealers read the board; directors set the plan, the shift list and start the
rotation; the push's sign-in is for the incoming dealer, the table's dealer or a director.
"""

from __future__ import annotations

from collections.abc import Sequence

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi, valid
from common.api.errors import WRITE_ERRORS, responses
from common.api.permissions import IsDirector, IsDirectorOrDealer
from common.errors import FloorNotFound
from config import request_time
from config.authentication import session_hand_over
from dealer.rotation import serializers as s
from dealer.rotation import services
from dealer.rotation.selectors import rotation_board
from tournaments.models import Table
from tournaments.services.access import device_hand_over

TAGS = ["rotation"]


def board_answer(*, status: int = 200) -> Response:
    board = rotation_board(at=request_time.now())
    return Response(s.BoardSerializer(board).data, status=status)


class RotationBoardApi(FloorApi):
    permission_classes: Sequence[type[BasePermission]] = (IsDirectorOrDealer,)

    @extend_schema(tags=TAGS, responses=responses(s.BoardSerializer, 403))
    def get(self, request: Request) -> Response:
        """The board: each table's dealer now, who is due and late, who is next, the next push,
        the breaks, the shift list and the plan."""
        return board_answer()


class RotationPlanApi(FloorApi):
    permission_classes: Sequence[type[BasePermission]] = (IsDirector,)

    @extend_schema(
        tags=TAGS, request=s.PlanSerializer, responses=responses(s.BoardSerializer, 400, 403)
    )
    def put(self, request: Request) -> Response:
        """Set the plan (400 `bad_down`, `bad_downs_before_break`, `bad_break`); it applies from
        the next start of the rotation."""
        services.rotation_plan_set(actor=request.user, **valid(s.PlanSerializer, request))
        return board_answer()


class RotationShiftsApi(FloorApi):
    permission_classes: Sequence[type[BasePermission]] = (IsDirector,)

    @extend_schema(
        tags=TAGS,
        request=s.ShiftInputSerializer,
        responses=responses(s.BoardSerializer, 400, 403, 409, status=201),
    )
    def post(self, request: Request) -> Response:
        """Put a dealer on shift (400 `not_a_dealer`, 409 `already_on_shift`); a running
        rotation takes them in from its next push."""
        dealer = valid(s.ShiftInputSerializer, request)["dealer"]
        services.dealer_shift_start(dealer_id=dealer, at=request_time.now(), actor=request.user)
        return board_answer(status=201)


class RotationShiftEndApi(FloorApi):
    permission_classes: Sequence[type[BasePermission]] = (IsDirector,)

    @extend_schema(tags=TAGS, request=None, responses=responses(s.BoardSerializer, 403, 404, 409))
    def post(self, request: Request, dealer_id: int) -> Response:
        """Take a dealer off shift (404 `not_on_shift`): they finish their down."""
        services.dealer_shift_end(dealer_id=dealer_id, at=request_time.now(), actor=request.user)
        return board_answer()


class RotationStartApi(FloorApi):
    permission_classes: Sequence[type[BasePermission]] = (IsDirector,)

    @extend_schema(tags=TAGS, request=None, responses=responses(s.BoardSerializer, 403, 409))
    def post(self, request: Request) -> Response:
        """Write the schedule for the dealers on shift and the open tables, from now or from
        the next push of a running rotation (409 `no_dealers_on_shift`, `no_open_tables`)."""
        services.rotation_start(at=request_time.now(), actor=request.user)
        return board_answer()


class TableSignInApi(FloorApi):
    # The answer carries the incoming dealer's token, never stored for a repeat; and a wrong
    # PIN must be counted, not rolled back with a claim (`dealer.rotation.pins`).
    answers_once = False
    permission_classes: Sequence[type[BasePermission]] = (IsDirectorOrDealer,)

    @extend_schema(
        tags=TAGS,
        request=s.SignInInputSerializer,
        responses=responses(s.SignInOutputSerializer, *WRITE_ERRORS),
    )
    def post(self, request: Request, pk: int) -> Response:
        """The push: the incoming dealer of the down due at this table gives their PIN and the
        table is theirs (403 `not_your_push`, `wrong_pin`; 409 `no_push_due`,
        `hand_in_progress`, `no_pin`, `pin_locked`: five wrong PINs in a row lock it for five
        minutes). The device is the incoming dealer's from then on: a session becomes theirs;
        a token stops working and the answer carries their new token for this device."""
        pin = valid(s.SignInInputSerializer, request)["pin"]
        table = Table.objects.filter(pk=pk).first()
        if table is None:
            raise FloorNotFound("no_table", "There is no such table.")
        now = request_time.now()
        down = services.down_sign_in(table=table, actor=request.user, pin=pin, at=now)
        answer: dict[str, object] = {
            "table_id": pk, "dealer_id": down.dealer_id, "signed_in_at": down.signed_in_at,
        }  # fmt: skip
        if down.dealer_id == request.user.pk:
            pass  # signed in on their own device: it is theirs already
        elif request.auth is not None:
            _device, answer["token"] = device_hand_over(token=request.auth, user=down.dealer,
                                                        now=now)  # fmt: skip
        else:
            session_hand_over(request._request, down.dealer)
        return Response(s.SignInOutputSerializer(answer).data)
