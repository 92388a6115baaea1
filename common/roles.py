"""Who is who, one definition for the pages, the API, the tablets and the services of both apps.

- A **director** is a signed-in staff user: every page and every write.
- A **dealer** is a signed-in member of the "dealer" group: the tablets, the tables' plan and
  stacks. Taking an account out of the group takes its tablets away at once, on every front
  door, even from a table it is still assigned to.

Who may write to a table's hands needs the table: `tournaments.roles`.

The dealer role is read from the database on every request, with the user (`in_dealer_group`:
the token check and the session's backend in `config.authentication` annotate the user with it),
so that each check costs no query of its own and every door sees a change at its next request.
"""

from __future__ import annotations

from typing import TypeGuard

from django.contrib.auth.models import AnonymousUser, Group, User
from django.db.models import Exists, OuterRef

from common.actors import Actor

# Members of this auth group are dealers: they read the floor and run the tables assigned to them.
DEALER_GROUP = "dealer"

# The attribute a user read with its role carries: True when in the dealer group.
DEALER_FLAG = "in_dealer_group"


def in_dealer_group(user_field: str) -> Exists:
    """Whether the user whose id is `user_field` (of the query's model) is a dealer, as a
    subquery: read with the user, `is_dealer` then asks the database nothing more."""
    return Exists(Group.objects.filter(user=OuterRef(user_field), name=DEALER_GROUP))


def _signed_in(user: Actor) -> TypeGuard[User | AnonymousUser]:
    return bool(user is not None and getattr(user, "is_authenticated", False))


def is_director(user: Actor) -> bool:
    return _signed_in(user) and bool(user.is_staff)


def is_dealer(user: Actor) -> bool:
    """A member of the dealer group (directors are not dealers by this test)."""
    if not _signed_in(user):
        return False
    known = getattr(user, DEALER_FLAG, None)
    if known is not None:
        return bool(known)
    return any(group.name == DEALER_GROUP for group in user.groups.all())


def may_see_tables(user: Actor) -> bool:
    """The tablets and the tables' plan: directors and dealers."""
    return is_director(user) or is_dealer(user)
