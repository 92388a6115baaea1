"""The dealer's entries: an action or cards, and an undo."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction

from common.actors import Actor
from common.errors import FloorInvalid
from dealer.codec import action_from_dict, action_to_dict
from dealer.engine import HandState, apply, start_hand
from dealer.engine.actions import BETTING_KINDS
from dealer.engine.errors import RuleViolation
from dealer.engine.hand import unentered_deal
from dealer.hand_log import groups_in_force, hand_setup, log_entries
from dealer.models import Hand, HandEvent
from dealer.services.writes import Result, StaleTapError, hand_write


def player_of_seat(hand: Hand, action: Mapping[str, object]) -> dict[str, object]:
    """The action with its `seat` read as `player`, the index in `hand.seats` (from the left of
    the button); a seat or player not dealt in is refused (400)."""
    seats = [row["seat"] for row in hand.seats]
    action = dict(action)
    seat = action.pop("seat", None)
    player = action.get("player")
    if seat is not None:
        if seat not in seats:
            raise FloorInvalid("not_in_hand", f"Seat {seat} is not dealt in this hand.")
        if player is not None and player != seats.index(seat):
            raise FloorInvalid(
                "seat_player_mismatch",
                f"Seat {seat} is player {seats.index(seat)}, not player {player}.",
            )
        action["player"] = seats.index(seat)
    elif isinstance(player, int) and not 0 <= player < len(seats):
        raise FloorInvalid("not_in_hand", f"Player {player} is not dealt in this hand.")
    if "pot" in action:  # an award names its pot and its winners' seats
        action["amount"] = action.pop("pot")
    if "seats" in action:
        winners = action.pop("seats")
        if not isinstance(winners, list | tuple):
            raise RuleViolation("List the winners as seat numbers.", code="bad_action")
        for seat in winners:
            if seat not in seats:
                raise FloorInvalid("not_in_hand", f"Seat {seat} is not dealt in this hand.")
        action["winners"] = [seats.index(seat) for seat in winners]
    return action


def check_tap_seat(hand: Hand, state: HandState, expected_seat: int | None) -> None:
    """The seat a tap's button was drawn for is still the one to act; `None`: not checked."""
    if expected_seat is None:
        return
    to_act = hand.seats[state.actor] if state.actor is not None else None
    if to_act is None or to_act["seat"] != expected_seat:
        raise StaleTapError(hand, drawn_for=expected_seat, to_act=to_act)


@transaction.atomic
def hand_record_action(
    *,
    hand: Hand | int,
    action: Mapping[str, object],
    client_id: str,
    version: int,
    actor: Actor = None,
    expected_seat: int | None = None,
    deal_unentered: bool = False,
    at_table: int | None = None,
) -> Result:
    """Record one entry: a betting action, board cards, a show or muck (engine rules apply).
    `deal_unentered`: the board cards due were dealt without being entered, and this betting
    action is the next street's first: both are one entry (one tap, one undo).
    The player may be named by `seat` (a seat number) instead of `player` (the engine index).
    `expected_seat`: the seat to act when the button was drawn; a tap that finds another one to
    act is refused (`stale_tap`). A resend of a recorded tap still answers its first answer: the
    version check comes first. `at_table`: the table the caller named (a tablet's URL): a hand
    at another table is not found (checked in the statement that locks the hand)."""

    def make(
        locked: Hand, state: HandState, payload: Mapping[str, object]
    ) -> tuple[HandState, dict[str, object]]:
        dealt = [unentered_deal(state)] if payload.get("deal_unentered") else []
        for deal in dealt:
            state = apply(state, deal)
        check_tap_seat(locked, state, expected_seat)
        engine_action = action_from_dict(player_of_seat(locked, action))
        if dealt and engine_action.kind not in BETTING_KINDS:
            raise FloorInvalid(
                "deal_unentered_betting_only",
                "Only a betting action says the board was dealt without its cards.",
            )
        new = apply(state, engine_action)
        return new, {"actions": [action_to_dict(a) for a in (*dealt, engine_action)]}

    flag = {"deal_unentered": True} if deal_unentered else {}
    return hand_write(
        hand,
        client_id=client_id,
        version=version,
        actor=actor,
        kind=HandEvent.Kind.ACTION,
        payload={"action": action, **flag},
        make=make,
        at_table=at_table,
    )


@transaction.atomic
def hand_undo(
    *, hand: Hand | int, reason: str, client_id: str, version: int, actor: Actor = None
) -> Result:
    """Cancel the latest entry still in force (a correction event: nothing is deleted)."""

    def make(
        locked: Hand, state: HandState, payload: Mapping[str, object]
    ) -> tuple[HandState, dict[str, object]]:
        groups = groups_in_force(log_entries(locked))
        if not groups:
            raise RuleViolation("Nothing to undo in this hand.", code="nothing_to_undo")
        new = start_hand(hand_setup(locked))
        for action in [a for group in groups[:-1] for a in group]:
            new = apply(new, action)
        return new, {"reason": reason, "undone": [action_to_dict(a) for a in groups[-1]]}

    if not reason.strip():
        raise FloorInvalid("reason_required", "Say why the entry is undone.")
    return hand_write(
        hand,
        client_id=client_id,
        version=version,
        actor=actor,
        kind=HandEvent.Kind.UNDO,
        payload={"reason": reason},
        make=make,
    )
