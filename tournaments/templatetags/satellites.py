"""`{% load satellites %}` then `{% satellite_card tournament %}` on the desk's payouts page: a
satellite's seats, remainder and winners with the one-click registration in the target (the
read model is `selectors.satellites.satellite_view`; nothing shown for another event)."""

from __future__ import annotations

from django import template

from common.errors import FloorError
from tournaments.models import Tournament
from tournaments.selectors.satellites import satellite_view

register = template.Library()


@register.inclusion_tag("desk/_satellite.html", takes_context=True)
def satellite_card(context: template.Context, tournament: Tournament) -> dict[str, object]:
    try:
        view = satellite_view(tournament) if tournament.satellite_target_id else None
    except FloorError:
        view = None
    return {"tournament": tournament, "satellite": view, "csrf_token": context.get("csrf_token")}
