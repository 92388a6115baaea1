"""The floor's URL lookups: the tournament or schedule a path names, 404 when there is none (or
when the public may not see it). The views themselves build on `common.api.base.FloorApi`."""

from __future__ import annotations

from rest_framework.exceptions import NotFound
from rest_framework.request import Request

from common.roles import is_director
from tournaments.models import BlindSchedule, Tournament
from tournaments.selectors import tournament_head, tournaments_seen


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
    (the polled views authenticate lazily: `common.api.base.LazyAuthentication`)."""
    tournament = tournament_head(pk, planned=True)
    if tournament is None or (
        tournament.status == Tournament.Status.PLANNED and not is_director(request.user)
    ):
        raise NotFound("There is no such tournament.")
    return tournament


def get_schedule(pk: int) -> BlindSchedule:
    schedule = BlindSchedule.objects.filter(pk=pk).first()
    if schedule is None:
        raise NotFound("There is no such blind schedule.")
    return schedule
