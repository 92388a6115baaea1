"""Who may open the dealer's pages and who may write to a table's hands.

Dealers and directors see the tablets; only the dealer assigned to a table, or a director, writes to
its hands: the roles are `common.roles` and `tournaments.roles`, the same for the API. Anonymous
users go to the sign-in page. A tablet write refused for who the user is answers a bare 403
(`refused_for_role`), never the tablet.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase, HttpResponseForbidden
from django.shortcuts import get_object_or_404

from common.errors import FloorForbidden
from common.roles import may_see_tables
from dealer.selectors import can_write
from tournaments.models import Table

P = ParamSpec("P")
View = Callable[Concatenate[HttpRequest, P], HttpResponseBase]


def dealer_required(view: View[P]) -> View[P]:
    """The dealer's pages are for dealers and directors: anonymous users go to the sign-in page,
    other signed-in users are refused."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not may_see_tables(request.user):
            raise PermissionDenied("The dealer's tablet is for dealers and tournament staff.")
        return view(request, *args, **kwargs)

    return wrapped


def table_get(pk: int) -> Table:
    return get_object_or_404(Table.objects.select_related("tournament", "dealer"), pk=pk)


def require_write(request: HttpRequest, table: Table) -> None:
    if not can_write(request.user, table):
        raise PermissionDenied(f"{table} is not assigned to you: ask the floor.")


# The codes of the services' refusals for who the user is (not for the hand's rules).
ROLE_REFUSALS = frozenset({"permission_denied", "not_your_push"})


def refused_for_role(error: Exception) -> HttpResponseForbidden | None:
    """A write refused for who the user is answers a bare 403: nothing of the table (names,
    stacks, the pot, who acts) is read or shown to someone who may not write to it."""
    if isinstance(error, FloorForbidden) and error.code in ROLE_REFUSALS:
        return HttpResponseForbidden(error.detail, content_type="text/plain; charset=utf-8")
    return None
