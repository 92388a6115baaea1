"""A finished hand opened again to correct it."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone

from common.actors import Actor
from common.errors import FloorInvalid
from dealer.cash.seats.services import cash_hand_reopen
from dealer.engine import HandState
from dealer.models import Hand, HandEvent
from dealer.selectors import reopen_refusal
from dealer.services.results import hand_ref, seat_results
from dealer.services.writes import Result, hand_write
from tournaments.services.hands import entries_hand_reopen


@transaction.atomic
def hand_reopen(
    *, hand: Hand | int, reason: str, client_id: str, version: int, actor: Actor = None
) -> Result:
    """Open a finished hand again to correct it: its result is reversed through the chip ledger
    (a tournament's stacks, busts, places and prizes; a cash table's stacks, rake and drop), and
    the dealer undoes and re-enters what was wrong; its next end writes the corrected result.
    A dealer may reopen the table's latest hand before the next one starts; a director may
    reopen the table's last completed hand at any time, as long as no hand is in progress
    there (`dealer.selectors.reopen_refusal`)."""
    if not reason.strip():
        raise FloorInvalid("reason_required", "Say why the hand is reopened.")

    def check(locked: Hand) -> None:
        refusal = reopen_refusal(locked, actor)
        if refusal is not None:
            raise refusal

    def make(
        locked: Hand, state: HandState, payload: Mapping[str, object]
    ) -> tuple[HandState, dict[str, object]]:
        if locked.plan:
            cash_hand_reopen(hand=locked, reason=reason, actor=actor)
        else:
            entries_hand_reopen(
                table=locked.table,
                hand=hand_ref(locked),
                results=seat_results(locked, state.finishing_stacks),
                now=timezone.now(),
                actor=actor,
                reason=reason,
            )
        return state, {**payload, "actions": []}

    return hand_write(
        hand,
        client_id=client_id,
        version=version,
        actor=actor,
        kind=HandEvent.Kind.REOPEN,
        payload={"reason": reason},
        make=make,
        check=check,
    )
