"""Who may see which page, and the tournament a URL names."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import url_has_allowed_host_and_scheme

from common.errors import FloorError
from common.roles import is_director
from tournaments.models import Entry, Tournament
from tournaments.selectors import tournaments_seen

View = Callable[..., HttpResponse]


def director_required(view: View) -> View:
    """Dashboard pages are for directors (staff): anonymous users go to the login page, other
    signed-in users are refused."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_director(request.user):
            raise PermissionDenied("The director dashboard is for tournament staff.")
        return view(request, *args, **kwargs)

    return wrapped


def tournament_get(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


def public_tournament_get(pk: int) -> Tournament:
    """A tournament the public may see: any but a planned one."""
    return get_object_or_404(tournaments_seen(planned=False), pk=pk)


def entry_get(tournament: Tournament, pk: int) -> Entry:
    return get_object_or_404(Entry.objects.select_related("player"), pk=pk, tournament=tournament)


def report_refusal(request: HttpRequest, error: FloorError) -> None:
    """Show a service's refusal at the top of the next page, in its own words."""
    messages.error(request, error.detail)


def safe_next(request: HttpRequest, url: str | None, *, default: str) -> str:
    """Where a form's `next` leads back to: a path on this site, else `default`. Django's check
    alone lets a relative "-1" through, which `redirect()` then takes for a URL's name."""
    if url and url.startswith("/"):
        allowed = {request.get_host()}
        if url_has_allowed_host_and_scheme(url, allowed, require_https=request.is_secure()):
            return url
    return default
