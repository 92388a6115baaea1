"""Who may call the API: directors, dealers, the public (the roles are `common.roles`, the same
for the pages)."""

from __future__ import annotations

from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from common.roles import is_director, may_see_tables


class IsDirector(BasePermission):
    """Every write, the registration desk and the audit log."""

    message = "Only a tournament director may do this."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return is_director(request.user)


class IsDirectorOrDealer(BasePermission):
    """The tables, seats and stacks: directors, and dealers who run the tables."""

    message = "Only a tournament director or a dealer may see this."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return may_see_tables(request.user)


class PublicReadDirectorWrite(BasePermission):
    """A path whose GET is public (standings, clock, tournaments) and whose writes are not."""

    message = IsDirector.message

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in ("GET", "HEAD", "OPTIONS") or is_director(request.user)
