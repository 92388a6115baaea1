"""What every floor API view shares: the request's time, strict JSON parsing, writes answered
once per `client_id`, input validation, URL lookups."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework.exceptions import NotFound, ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from tournaments.api.errors import FloorAutoSchema
from tournaments.api.once import AnsweredOnce
from tournaments.api.permissions import IsDirector
from tournaments.models import BlindSchedule, Tournament
from tournaments.roles import is_director
from tournaments.selectors import tournament_head, tournaments_seen


class FloorJSONParser(JSONParser):
    """JSON nested too deep for the parser is a bad request (400), not a server error."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as error:
            raise ParseError("JSON parse error - the document is nested too deeply.") from error


class FloorApi(AnsweredOnce, APIView):
    """Base of every floor view: closed to all but directors unless a view opens itself; each
    write answered once per `client_id` (`tournaments.api.once`) unless it opts out."""

    parser_classes = (FloorJSONParser, FormParser, MultiPartParser)
    permission_classes: Sequence[type[BasePermission]] = (IsDirector,)
    schema = FloorAutoSchema()


def valid(serializer_class: type[Any], request: Request) -> dict[str, Any]:
    """The request's input checked by `serializer_class` (400 with each field's error)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def get_tournament(request: Request, pk: int) -> Tournament:
    """The tournament named in the URL. The public does not see planned tournaments (the same
    rule as `selectors.tournament_list(public=True)`): they answer 404."""
    tournament = tournaments_seen(planned=is_director(request.user)).filter(pk=pk).first()
    if tournament is None:
        raise NotFound("There is no such tournament.")
    return tournament


def get_tournament_head(request: Request, pk: int) -> Tournament:
    """`get_tournament` reading only what an ETag needs (`selectors.tournament_head`): the
    polled answers decide on a 304 from it, and build a changed answer from the whole row.
    Who is asking is looked up only for a planned tournament, the one the public may not see
    (the polled views authenticate lazily: `LazyAuthentication`)."""
    tournament = tournament_head(pk, planned=True)
    if tournament is None or (
        tournament.status == Tournament.Status.PLANNED and not is_director(request.user)
    ):
        raise NotFound("There is no such tournament.")
    return tournament


class LazyAuthentication:
    """For the public polled views: the request's user is looked up when the view asks for it,
    not before every request (DRF's default), so that a phone's poll reads no session, user or
    token (DRF documents this override of `perform_authentication`)."""

    def perform_authentication(self, request: Request) -> None:
        return None


def get_schedule(pk: int) -> BlindSchedule:
    schedule = BlindSchedule.objects.filter(pk=pk).first()
    if schedule is None:
        raise NotFound("There is no such blind schedule.")
    return schedule
