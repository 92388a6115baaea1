"""Dealer-error procedures (RULES.md 8) applied to a hand and logged for the floor."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction

from common.actors import Actor, signed_in
from dealer.codec import action_to_dict
from dealer.engine import HandState, apply
from dealer.engine.procedures import Remedy
from dealer.models import Hand, HandEvent, ProcedureLog
from dealer.selectors import procedure_remedy
from dealer.services.writes import Result, hand_write


@transaction.atomic
def hand_run_procedure(
    *,
    hand: Hand | int,
    trigger: str,
    player_seat: int | None = None,
    details: Mapping[str, object] | None = None,
    client_id: str,
    version: int,
    actor: Actor = None,
) -> tuple[Result, ProcedureLog | None]:
    """Apply a dealer-error procedure's effect to the hand and log it for the floor. The floor's
    own decisions (`floor_misdeal`, `floor_dead_hand`, with `details["note"]` as the reason) are
    triggers too, so the tablet page and the API write them here and they are logged alike.
    A resend answers the first answer and logs nothing again (the log is None)."""
    ran: list[Remedy] = []

    def make(
        locked: Hand, state: HandState, payload: Mapping[str, object]
    ) -> tuple[HandState, dict[str, object]]:
        remedy = procedure_remedy(locked, trigger, player_seat, details)
        ran.append(remedy)
        for action in remedy.actions:
            state = apply(state, action)
        record = {**payload, **_record(remedy, trigger, player_seat)}
        return state, {**record, "actions": [action_to_dict(a) for a in remedy.actions]}

    result = hand_write(
        hand,
        client_id=client_id,
        version=version,
        actor=actor,
        kind=HandEvent.Kind.PROCEDURE,
        payload={},
        make=make,
        resend_any_version=True,
    )
    if result.event is None:
        return result, None
    remedy = ran[0]
    log = ProcedureLog.objects.create(
        hand=result.hand,
        table=result.hand.table,
        dealer=signed_in(actor),
        trigger=trigger,
        title=remedy.title,
        steps=list(remedy.steps),
        effect=str(remedy.effect.value),
        player_seat=player_seat,
        rule=remedy.rule or "",
    )
    return result, log


def _record(remedy: Remedy, trigger: str, player_seat: int | None) -> dict[str, object]:
    """What the hand's log keeps of the procedure run."""
    return {
        "trigger": trigger,
        "title": remedy.title,
        "steps": list(remedy.steps),
        "effect": str(remedy.effect.value),
        "player_seat": player_seat,
        "rule": remedy.rule,
        "option": remedy.option,
    }
