"""Sign-in for API tokens, sign-out, and the director's list of devices and lockouts.

A tablet signs in with a username, a password and a device label, and gets a token of its own
(`config.authentication`: stored as a digest, expiring when unused). Password guessing is
bounded three times, before any password is hashed (the "--- Auth ---" settings,
docs/operations.md "Sign-in lockout policy"): a rate takes `sign_in` (20 a minute) tries from
one client, whatever they are (`config.authentication.SignInThrottle`, on the pages' sign-in
doors too); django-axes locks an account on one client after 5 failures there, for 15 minutes;
an account failing from many clients is slowed down for the clients that failed on it
(`config.sign_in_gate`), never locked. All answer 429 with Retry-After.
"""

from __future__ import annotations

from typing import NoReturn

from django.contrib.auth import authenticate, user_logged_in
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from common.api.base import FloorApi, LazyAuthentication
from common.api.errors import ErrorSerializer, responses
from common.limits import MAX_ID
from config import request_time
from config.authentication import SignInThrottle, TokenAuthentication
from config.sign_in_gate import SLOWED
from tournaments import selectors
from tournaments.selectors.access import sign_in_refused
from tournaments.services.access import (
    device_revoke,
    device_sign_in,
    lockout_unlock,
    token_sign_out,
    user_devices_revoke,
)

TAGS = ["auth"]


class SignInRefused(exceptions.APIException):
    """429 with Retry-After (DRF's handler sets it from `wait`)."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "too_many_attempts"

    def __init__(self, detail: str, *, wait: float, code: str = default_code) -> None:
        super().__init__(detail, code)
        self.wait = max(1, round(wait))


class TokenInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)
    device = serializers.CharField(
        max_length=80,
        required=False,
        allow_blank=True,
        default="",
        help_text='what the token is for, shown on the director\'s desk: "Table 3 tablet"',
    )


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="send as `Authorization: Token <token>`; shown once")
    expires = serializers.DateTimeField(
        allow_null=True, help_text="moves on with each use: an unused token expires"
    )
    device = serializers.IntegerField(help_text="the device's id (`/api/auth/devices/<id>/`)")


class SignedInWithToken(BasePermission):
    message = "Sign out with the token to revoke: `Authorization: Token <key>`."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method != "DELETE" or request.auth is not None


_TOO_MANY = OpenApiResponse(
    ErrorSerializer,
    description="`too_many_attempts`: the account is locked on this device after failed "
    "sign-ins (or the device, with SIGN_IN_LOCK_DEVICES); `slowed_down`: the account failed "
    "from many devices, this one included, and this device waits a few seconds; "
    "`throttled`: too many sign-ins from this device. Retry-After says when to retry.",
)


class TokenApi(LazyAuthentication, FloorApi):
    """Sign in for an API token (POST), or sign out (DELETE, with the token)."""

    permission_classes = (AllowAny, SignedInWithToken)
    # A sign-in's answer carries the token: never stored for a repeat (and a failed try must
    # count, not roll back with a claim). Signing in again simply makes another token.
    answers_once = False
    # The password is the credential to sign in: no session, no CSRF. Signing out needs the token.
    authentication_classes = (TokenAuthentication,)

    def get_authenticate_header(self, request: Request) -> str:
        return ""  # no token: 403, as everywhere in this API (not 401)

    def get_throttles(self) -> list[BaseThrottle]:
        return [SignInThrottle()] if self.request.method == "POST" else []

    def throttled(self, request: Request, wait: float | None) -> NoReturn:
        raise SignInRefused(
            selectors.sign_in_rate_refusal(wait or 60), wait=wait or 60, code="throttled"
        )

    @extend_schema(
        tags=TAGS,
        request=TokenInputSerializer,
        responses={**responses(TokenOutputSerializer, 400), 429: _TOO_MANY},
    )
    def post(self, request: Request) -> Response:
        """A new token for this device. A wrong username or password, or an inactive user,
        answers 400 `invalid`; an account locked on this device 429 `too_many_attempts`; an
        account slowed down, for a device that failed on it, 429 `slowed_down`."""
        data = TokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        django_request = request._request  # django-axes counts the failures on it
        user = authenticate(
            django_request,
            username=data.validated_data["username"],
            password=data.validated_data["password"],
        )
        if user is None:
            if getattr(django_request, "axes_locked_out", False):
                refused = sign_in_refused(slowed=getattr(django_request, SLOWED, None))
                raise SignInRefused(refused.detail, wait=refused.wait, code=refused.code)
            raise serializers.ValidationError(
                "Unable to sign in with that username and password.", code="authorization"
            )
        device, key = device_sign_in(
            user=user, label=data.validated_data["device"], now=request_time.now()
        )
        user_logged_in.send(sender=type(user), request=django_request, user=user)
        answer = {"token": key, "expires": device.token.expiry, "device": device.pk}
        return Response(TokenOutputSerializer(answer).data)

    @extend_schema(tags=TAGS, request=None, responses=responses(None, 403, status=204))
    def delete(self, request: Request) -> Response:
        """Sign out: the token sending this request stops working."""
        token_sign_out(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- the director's view: devices and lockouts ----------------------------------------------


class DeviceOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    user = serializers.IntegerField(source="user_id")
    username = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # the wire name
    created = serializers.DateTimeField()
    expires = serializers.DateTimeField(allow_null=True)
    last_used = serializers.DateTimeField(
        allow_null=True, help_text="to within 5 minutes (when the expiry last moved on)"
    )


class DevicesFilterSerializer(serializers.Serializer):
    user = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)


class DevicesApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        parameters=[DevicesFilterSerializer],
        responses=responses(DeviceOutputSerializer(many=True), 400, 403),
    )
    def get(self, request: Request) -> Response:
        """Directors: the devices signed in with a token that still works, by user."""
        query = DevicesFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = selectors.device_list(
            now=request_time.now(), user_id=query.validated_data.get("user")
        )
        return Response(DeviceOutputSerializer(rows, many=True).data)


class DeviceApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(None, 403, 404, status=204))
    def delete(self, request: Request, pk: int) -> Response:
        """Directors: the device's token stops working at once."""
        device_revoke(device_id=pk, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class UserDevicesApi(FloorApi):
    @extend_schema(
        tags=TAGS,
        responses=responses(
            inline_serializer("DevicesRevokedOutput", {"revoked": serializers.IntegerField()}),
            403,
            404,
            status=200,
        ),
    )
    def delete(self, request: Request, pk: int) -> Response:
        """Directors: every token of the user stops working at once; answers `{"revoked": n}`."""
        revoked = user_devices_revoke(user_id=pk, actor=request.user)
        return Response({"revoked": revoked})


class LockoutOutputSerializer(serializers.Serializer):
    id = serializers.CharField(
        help_text="`account_device:<username>:<address>` (an account locked on a device), "
        "`account:<username>` (an account slowed down) or `device:<address>`"
    )
    kind = serializers.ChoiceField(choices=["account_device", "account", "device"])
    name = serializers.CharField(help_text="the username, or the device's address")
    address = serializers.CharField(
        allow_null=True, help_text="the device an `account_device` is locked on"
    )
    failures = serializers.IntegerField()
    last_failure = serializers.DateTimeField()
    locked_until = serializers.DateTimeField()


class LockoutsApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(LockoutOutputSerializer(many=True), 403))
    def get(self, request: Request) -> Response:
        """Directors: the accounts locked on a device, the devices locked, and the accounts
        slowed down after failed sign-ins from many devices."""
        rows = selectors.lockout_list(now=request_time.now())
        return Response(LockoutOutputSerializer(rows, many=True).data)


class LockoutApi(FloorApi):
    @extend_schema(tags=TAGS, responses=responses(None, 403, 404, status=204))
    def delete(self, request: Request, lockout_id: str) -> Response:
        """Directors: the account (on that device, or slowed down: everywhere) or the device
        may sign in again at once."""
        lockout_unlock(lockout_id=lockout_id, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
