"""Who is who, one definition for the pages, the API, the tablets and the services.

- A **director** is a signed-in staff user: every page and every write.
- A **dealer** is a signed-in member of the "dealer" group: the tablets, the tables' plan and
  stacks. Taking an account out of the group takes its tablets away at once, on every front
  door, even from a table it is still assigned to.
- Who may **write to a table's hands**: a director, or a dealer assigned to that table (the
  floor assigns only members of the group).

Each check costs no query when the user's groups were read with the user, as the API's token
sign-in does.
"""

from __future__ import annotations

from typing import Any

from tournaments.models import DEALER_GROUP, Table


def _signed_in(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))


def is_director(user: Any) -> bool:
    return _signed_in(user) and bool(user.is_staff)


def is_dealer(user: Any) -> bool:
    """A member of the dealer group (directors are not dealers by this test)."""
    return _signed_in(user) and any(group.name == DEALER_GROUP for group in user.groups.all())


def may_see_tables(user: Any) -> bool:
    """The tablets and the tables' plan: directors and dealers."""
    return is_director(user) or is_dealer(user)


def may_deal(user: Any, table: Table) -> bool:
    """May write to the hands of `table`: a director, or the dealer assigned to it."""
    if is_director(user):
        return True
    return _signed_in(user) and table.dealer_id == user.pk and is_dealer(user)
