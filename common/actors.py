"""Who makes a write: `Actor`, the type of every service's `actor` (issue 28).

A page or the API passes `request.user` (a user signed in, or Django's anonymous user for a
phone's write); a task, a command or a test passes None. Services record it in the audit log and
check roles with it (`common.roles`); none reads more of it than a user model has.
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User

Actor: TypeAlias = User | AnonymousUser | None


def signed_in(actor: Actor) -> User | None:
    """The user to record as who did it: the signed-in user, or None (the system, a phone)."""
    return actor if isinstance(actor, User) and actor.is_authenticated else None
