"""The audit log: every director action, who did it and when."""

from __future__ import annotations

from typing import Any

from tournaments.models import AuditEvent, Tournament


def audit_record(
    *, tournament: Tournament | None, actor: Any, action: str, **detail: Any
) -> AuditEvent:
    """Append one audit event. `actor` is the signed-in user (None for the system)."""
    user = actor if getattr(actor, "is_authenticated", False) else None
    return AuditEvent.objects.create(
        tournament=tournament, actor=user, action=action, detail=detail
    )
