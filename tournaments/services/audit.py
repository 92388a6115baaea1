"""The audit log: every director action, who did it and when."""

from __future__ import annotations

from typing import Any

from tournaments.models import AuditEvent, Tournament
from tournaments.services.versions import tournament_bump


def audit_record(
    *, tournament: Tournament | None, actor: Any, action: str, **detail: Any
) -> AuditEvent:
    """Append one audit event. `actor` is the signed-in user (None for the system)."""
    user = actor if getattr(actor, "is_authenticated", False) else None
    tournament_bump(tournament.pk if tournament is not None else None)
    return AuditEvent.objects.create(
        tournament=tournament, actor=user, action=action, detail=detail
    )
