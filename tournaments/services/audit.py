"""The audit log: every director action, who did it and when."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal

from django.db import models

from common.actors import Actor, signed_in
from dealer.engine.json_values import JsonValue
from tournaments.models import AuditEvent, Tournament
from tournaments.services.versions import tournament_bump


def audit_record(
    *, tournament: Tournament | None, actor: Actor, action: str, **detail: object
) -> AuditEvent:
    """Append one audit event. `actor` is the signed-in user (None for the system)."""
    user = signed_in(actor)
    tournament_bump(tournament.pk if tournament is not None else None)
    return AuditEvent.objects.create(
        tournament=tournament, actor=user, action=action, detail=detail
    )


def audit_changes(
    before: Mapping[str, object], after: Mapping[str, object]
) -> dict[str, list[JsonValue]]:
    """A settings change as the log keeps it: {field: [old, new]} for each field of `after`
    whose value differs from `before`'s, as plain values ("buy_in": ["50", "60"]); the audit
    page shows it as "buy_in: 50 -> 60"."""
    return {
        name: [_plain(before.get(name)), _plain(value)]
        for name, value in after.items()
        if _plain(before.get(name)) != _plain(value)
    }


def _plain(value: object) -> JsonValue:
    if isinstance(value, Decimal):
        return f"{value.normalize():f}"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, models.Model):
        return str(value)
    if value is None or isinstance(value, str | int | float | bool | list | dict):
        return value
    return str(value)
