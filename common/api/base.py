"""What every API view of both apps shares: strict JSON parsing, writes answered once per
`client_id`, directors only unless a view opens itself, input validation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from common.api.errors import FloorAutoSchema
from common.api.once import AnsweredOnce
from common.api.permissions import IsDirector


class FloorJSONParser(JSONParser):
    """JSON nested too deep for the parser is a bad request (400), not a server error."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as error:
            raise ParseError("JSON parse error - the document is nested too deeply.") from error


class FloorApi(AnsweredOnce, APIView):
    """Base of every API view: closed to all but directors unless a view opens itself; each
    write answered once per `client_id` (`common.api.once`) unless it opts out."""

    parser_classes = (FloorJSONParser, FormParser, MultiPartParser)
    permission_classes: Sequence[type[BasePermission]] = (IsDirector,)
    schema = FloorAutoSchema()


def valid(serializer_class: type[Any], request: Request) -> dict[str, Any]:
    """The request's input checked by `serializer_class` (400 with each field's error)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class LazyAuthentication:
    """For the public polled views: the request's user is looked up when the view asks for it,
    not before every request (DRF's default), so that a phone's poll reads no session, user or
    token (DRF documents this override of `perform_authentication`)."""

    def perform_authentication(self, request: Request) -> None:
        return None
