"""The one path of every write to a hand."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.utils import timezone

from common.actors import Actor, signed_in
from common.errors import FloorConflict, FloorError, FloorForbidden
from dealer.codec import HandSnapshot, SeatRow
from dealer.engine import HandState
from dealer.engine.state import Phase
from dealer.hand_log import hand_snapshot, hand_state
from dealer.models import Hand, HandEvent
from dealer.selectors import can_write
from dealer.services import sql
from dealer.services.results import hand_end
from dealer.state_cache import pack_state
from tournaments.models import Table


class StaleVersionError(FloorConflict):
    """The write was made against an older version of the hand (a conflict: the API answers it
    with the hand's current state)."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(
            "stale_version",
            f"The hand has changed (version {hand.version}): "
            "reload it and enter the action again if it is still needed.",
        )
        self.hand = hand

    def answer_fields(self) -> dict[str, object]:
        """The hand's current state, so that the tablet redraws without another request."""
        return {"state": self.hand.state}


class StaleTapError(StaleVersionError):
    """A tap drawn for one player reached a hand where another is to act (or nobody is):
    refused like a stale version, with the hand's current state, and nothing recorded."""

    def __init__(self, hand: Hand, *, drawn_for: int, to_act: SeatRow | None) -> None:
        now = "no one is to act"
        if to_act is not None:
            now = f"{to_act['name']} (seat {to_act['seat']}) is to act"
        FloorConflict.__init__(
            self,
            "stale_tap",
            f"That button was drawn for seat {drawn_for}, but {now} now: nothing was recorded. "
            "Enter the action again if it is still needed.",
        )
        self.hand = hand


@dataclass(frozen=True, slots=True)
class Result:
    hand: Hand
    answer: HandSnapshot
    # The entry this write appended (None for a resent write's first answer): the tablet's
    # answer to a tap shows its line of the log without reading the log again.
    event: HandEvent | None = None


def check_writer(actor: Actor, table: Table) -> None:
    """Refuse (403) a write by a user who may not write to the table's hands. Writes made by
    the system itself (no actor) are not checked. The hand writes check it on the table read
    with the hand's lock, so that a dealer's write costs no query of its own for it."""
    if actor is not None and not can_write(actor, table):
        raise FloorForbidden(
            "permission_denied",
            f"Only a director or the dealer of table {table.number} may.",
        )


def answer_of(hand: Hand, client_id: str) -> HandEvent | None:
    return HandEvent.objects.filter(hand=hand, client_id=client_id).only("response").first()


# A write's own step: the locked hand, its state and the payload in; the new state and the
# payload to store out (JSON: the event's JSONField keeps it).
Make = Callable[[Hand, HandState, Mapping[str, object]], tuple[HandState, dict[str, object]]]


def check_in_progress(hand: Hand) -> None:
    """A write to a hand's entries needs the hand in progress."""
    if hand.status != Hand.Status.IN_PROGRESS:
        raise FloorError("hand_over", "This hand is over: start the next hand.")


def hand_write(
    hand: Hand | int,
    *,
    client_id: str,
    version: int,
    actor: Actor,
    kind: str,
    payload: dict[str, object],
    make: Make,
    check: Callable[[Hand], None] = check_in_progress,
    resend_any_version: bool = False,
    at_table: int | None = None,
) -> Result:
    """The one path of every write to a hand (an entry, an undo, a procedure, a reopen): the
    hand locked with its table (`at_table`: the table it must be at), the writer checked, a
    resend answered, the version checked, the write's own `check` of the hand (by default:
    in progress), then `make` turns the state and the payload into the new state and the
    payload stored; the new version is appended with its answer and, when the write ends
    the hand, its result written. A reopen leaves the hand in progress with its finished state.
    `resend_any_version`: the client id is looked for whatever version the write names (the
    procedure sheet may resend with the version its first answer gave)."""
    locked = sql.hand_locked(hand, at_table=at_table)
    check_writer(actor, locked.table)
    if resend_any_version:
        previous = answer_of(locked, client_id)
        if previous is not None:
            return Result(locked, previous.response)
    resent = resend_or_refuse(locked, client_id=client_id, version=version)
    if resent is not None:
        return resent
    check(locked)
    state, payload = make(locked, hand_state(locked), payload)
    locked.version += 1
    locked.engine_state = pack_state(state, locked.pk, locked.version)
    if kind == HandEvent.Kind.REOPEN or not state.is_over:
        locked.status, locked.ended_at = Hand.Status.IN_PROGRESS, None
    else:
        locked.status = Hand.Status.VOID if state.phase == Phase.VOID else Hand.Status.COMPLETE
        locked.ended_at = timezone.now()
    locked.state = hand_snapshot(locked, state)
    result = append(locked, kind=kind, payload=payload, client_id=client_id, actor=actor)
    if result.event is not None and locked.status != Hand.Status.IN_PROGRESS:
        hand_end(locked, state, actor)
    return result


def resend_or_refuse(hand: Hand, *, client_id: str, version: int) -> Result | None:
    """None for a write made against the hand's version; the first answer for a resend; else
    409 `stale_version`. Every stored write moves the version on, so only a write made against
    an older version can be a resend: look for it then, and spare the query on every first try."""
    if version == hand.version:
        return None
    previous = answer_of(hand, client_id)
    if previous is not None:
        return Result(hand, previous.response)
    raise StaleVersionError(hand)


def append(
    hand: Hand, *, kind: str, payload: dict[str, object], client_id: str, actor: Actor
) -> Result:
    """Store the hand (its new version, state and snapshot already set) with the write's event,
    the snapshot its answer. Another write that raced in on another connection wins: then the
    answer is this client id's earlier one, or 409 `stale_version` with the hand as it is now."""
    event = HandEvent(
        hand=hand,
        seq=hand.version,
        kind=kind,
        payload=payload,
        client_id=client_id,
        response=hand.state,
        actor=signed_in(actor),
    )
    if not sql.event_store(hand, event):
        # `hand` holds this write's unsaved state: answer with the hand as it is now.
        current = Hand.objects.select_related("table").get(pk=hand.pk)
        previous = answer_of(current, client_id)
        if previous is not None:  # this client id was used before (a client reusing its ids)
            return Result(current, previous.response)
        raise StaleVersionError(current)
    return Result(hand, hand.state, event)
