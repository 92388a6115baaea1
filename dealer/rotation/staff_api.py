"""Staff accounts over the REST API, the twins of the desk's Staff page (/staff/), through the
same services (`dealer.rotation.staff`) and list (`staff_list`). Directors only."""

from __future__ import annotations

from collections.abc import Sequence

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import FloorApi, valid
from common.api.errors import responses
from common.api.permissions import IsDirector
from config import request_time
from dealer.rotation import serializers as s
from dealer.rotation import staff
from dealer.rotation.selectors import staff_list

TAGS = ["staff"]


def row_answer(user_id: int, *, status: int = 200) -> Response:
    return Response(s.StaffRowSerializer(staff_list(user_id=user_id)[0]).data, status=status)


class StaffApi(FloorApi):
    permission_classes: Sequence[type[BasePermission]] = (IsDirector,)

    @extend_schema(tags=TAGS, responses=responses(s.StaffRowSerializer(many=True), 403))
    def get(self, request: Request) -> Response:
        """The dealer and floor accounts, active first: never a PIN or a password."""
        return Response(s.StaffRowSerializer(staff_list(), many=True).data)

    @extend_schema(
        tags=TAGS,
        request=s.StaffInputSerializer,
        responses=responses(s.StaffRowSerializer, 400, 403, 409, status=201),
    )
    def post(self, request: Request) -> Response:
        """A dealer (`pin`, stored hashed) or a floor account (`password`). 400 `bad_username`,
        `bad_name`, `bad_pin` (not 4 to 6 digits), `bad_password`; 409 `username_taken`."""
        data = valid(s.StaffInputSerializer, request)
        names = {"username": data["username"], "name": data["name"], "actor": request.user}
        if data["role"] == "dealer":
            user = staff.staff_dealer_create(pin=data["pin"], at=request_time.now(), **names)
        else:
            user = staff.staff_floor_create(password=data["password"], **names)
        return row_answer(user.pk, status=201)


class StaffPinApi(FloorApi):
    permission_classes: Sequence[type[BasePermission]] = (IsDirector,)

    @extend_schema(
        tags=TAGS,
        request=s.PinInputSerializer,
        responses=responses(s.StaffRowSerializer, 400, 403, 404),
    )
    def post(self, request: Request, pk: int) -> Response:
        """A dealer's new PIN (400 `bad_pin`, `not_a_dealer`; 404 `no_such_user`): the old one
        stops working and a PIN lock is lifted."""
        pin = valid(s.PinInputSerializer, request)["pin"]
        staff.dealer_pin_set(user_id=pk, pin=pin, actor=request.user, at=request_time.now())
        return row_answer(pk)


class StaffDeactivateApi(FloorApi):
    permission_classes: Sequence[type[BasePermission]] = (IsDirector,)

    @extend_schema(
        tags=TAGS, request=None, responses=responses(s.StaffRowSerializer, 403, 404, 409)
    )
    def post(self, request: Request, pk: int) -> Response:
        """The account can no longer sign in: its sessions and tokens stop working at once, its
        tables have no dealer, it leaves the shift list (404 `no_such_user`; 409
        `own_account`, `administrator`). Sent again, it answers the same."""
        staff.staff_deactivate(user_id=pk, actor=request.user, at=request_time.now())
        return row_answer(pk)
