"""Who may write to a table's hands, and see its hidden cards: a director, or a dealer assigned
to that table (the floor assigns only members of the group). The roles themselves (director,
dealer) are `common.roles`, the same for every front door.
"""

from __future__ import annotations

from common.actors import Actor
from common.roles import is_dealer, is_director
from tournaments.models import Table


def may_deal(user: Actor, table: Table) -> bool:
    """May write to the hands of `table`: a director, or the dealer assigned to it."""
    if is_director(user):
        return True
    # The cheap test first: `is_dealer` may read the user's groups.
    return user is not None and table.dealer_id == user.pk and is_dealer(user)


def may_see_hole_cards(user: Actor, table: Table) -> bool:
    """Cards a player has not shown at the table (hole cards entered, a mucked hand): those who
    may deal its hands (directors and the table's dealer). The answers ask it through
    `dealer.card_gate.card_sight`, which decides what everyone else reads of them."""
    return may_deal(user, table)
