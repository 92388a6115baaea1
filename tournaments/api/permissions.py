"""Who may call the floor API: directors (staff), dealers (group "dealer"), the public."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from tournaments.models import DEALER_GROUP


def is_director(user: Any) -> bool:
    """A tournament director is a signed-in staff user."""
    return bool(user and user.is_authenticated and user.is_staff)


def is_dealer(user: Any) -> bool:
    """A dealer is a signed-in member of the "dealer" group (one query, or none when the user's
    groups were read with the user, as the API token sign-in does)."""
    return bool(
        user
        and user.is_authenticated
        and any(group.name == DEALER_GROUP for group in user.groups.all())
    )


class IsDirector(BasePermission):
    """Every write, the registration desk and the audit log."""

    message = "Only a tournament director may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        return is_director(request.user)


class IsDirectorOrDealer(BasePermission):
    """The tables, seats and stacks: directors, and dealers who run the tables."""

    message = "Only a tournament director or a dealer may see this."

    def has_permission(self, request: Request, view: Any) -> bool:
        return is_director(request.user) or is_dealer(request.user)


class PublicReadDirectorWrite(BasePermission):
    """A path whose GET is public (standings, clock, tournaments) and whose writes are not."""

    message = IsDirector.message

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in ("GET", "HEAD", "OPTIONS") or is_director(request.user)
