"""API tokens for tablets and other API clients (checked by `config.authentication`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import FloorApi
from tournaments.api.errors import responses


class TokenApi(FloorApi):
    """Sign in for an API token."""

    permission_classes = (AllowAny,)
    authentication_classes = ()  # the password is the credential here: no session, no CSRF

    @extend_schema(
        tags=["auth"],
        request=AuthTokenSerializer,
        responses=responses(
            inline_serializer("TokenOutput", {"token": serializers.CharField()}), 400
        ),
    )
    def post(self, request: Request) -> Response:
        """The user's API token (made on first use): send it as `Authorization: Token <key>`.
        A wrong username or password, or an inactive user, answers 400 `invalid`."""
        data = AuthTokenSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        token, _ = Token.objects.get_or_create(user=data.validated_data["user"])
        return Response({"token": token.key})
