"""`{% load bounties %}` then `{% bounties_card tournament %}` on the desk's payouts page: the
bounties won, who knocked out whom, and (progressive) the bounty on each player still in. The
read model is `selectors.bounties`; nothing is shown for an event without bounties."""

from __future__ import annotations

from django import template

from tournaments.models import Entry, Tournament
from tournaments.selectors.bounties import event_bounties

register = template.Library()

# The players still in listed with their heads: the top of the field by chips.
HEAD_ROWS = 200


@register.inclusion_tag("desk/_bounties.html")
def bounties_card(tournament: Tournament) -> dict[str, object]:
    bounties = event_bounties(tournament)
    if bounties is None:
        return {"bounties": None}
    winners = sorted(
        (e for e in bounties.entries.values() if e.won or e.knocked_out),
        key=lambda e: (-e.won, e.name, e.entry_id),
    )
    still_in = list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .order_by("-chips", "pk")
        .values_list("pk", "player__name", "number", "chips")[:HEAD_ROWS]
    )
    heads = [
        {
            "name": f"{name} #{number}" if number > 1 else name,
            "chips": chips,
            "bounty": bounties.of(pk, in_play=True),
        }
        for pk, name, number, chips in still_in
    ]
    return {
        "tournament": tournament,
        "bounties": bounties,
        "winners": winners,
        "heads": heads,
        "latest": list(reversed(bounties.knockouts))[:30],
    }
