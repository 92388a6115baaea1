"""A hand read back from what it stores: its set-up (`hand_setup`), its log (`log_entries`), the
entries still in force once the undos are taken out (`split_undone`, `groups_in_force`,
`effective_actions`), and its engine state now (`hand_state`: the state stored with the hand when
it can be trusted, else the replay of the log).

Reads only, below the writes: `dealer.services` writes a hand and reads it back through these,
and the read models (the hand histories, the tablet's log) read it the same way, so a state is
rebuilt one way everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from dealer.codec import HandSnapshot, action_from_dict, state_snapshot
from dealer.engine import HandSetup, HandState, PlayerSetup, apply, start_hand
from dealer.engine.actions import Action
from dealer.engine.json_values import JsonObject
from dealer.engine.rules import Rules
from dealer.models import Hand, HandEvent
from dealer.state_cache import unpack_state


def hand_setup(hand: Hand) -> HandSetup:
    rules = Rules(**hand.rules)
    stakes = hand.stakes
    players = tuple(
        PlayerSetup(
            stack=s["stack"],
            seat=s["seat"],
            name=s.get("name", ""),
            blind=s.get("blind", 0),
            dead=s.get("dead", 0),
            ante=s.get("ante", 0),
        )
        for s in hand.seats
    )
    return HandSetup(
        rules=rules,
        players=players,
        small_blind=stakes["small_blind"],
        big_blind=stakes["big_blind"],
        small_bet=stakes["small_bet"],
        unit=stakes.get("unit", 1),
        button_index=stakes.get("button_index"),
        bring_in_index=stakes["bring_in_index"],
    )


T = TypeVar("T")

# One entry of the log as a replay reads it: the event's kind and its engine actions (as stored).
LogEntry = tuple[str, list[JsonObject]]


def split_undone(entries: Sequence[T], is_undo: Callable[[T], bool]) -> tuple[list[T], list[T]]:
    """The log's entries still in force, oldest first, and the ones an undo cancelled: an undo
    cancels the latest entry still in force (undos themselves are in neither list)."""
    in_force: list[T] = []
    cancelled: list[T] = []
    for entry in entries:
        if not is_undo(entry):
            in_force.append(entry)
        elif in_force:
            cancelled.append(in_force.pop())
    return in_force, cancelled


def groups_in_force(log: list[LogEntry]) -> list[list[Action]]:
    """The log's groups of engine actions still in force, oldest first: each action or
    procedure event is one group (a reopening is none); an undo takes out the latest group."""
    entries = [entry for entry in log if entry[0] != HandEvent.Kind.REOPEN]
    in_force, _ = split_undone(entries, lambda entry: entry[0] == HandEvent.Kind.UNDO)
    return [[action_from_dict(a) for a in actions or ()] for _, actions in in_force]


def effective_actions(log: list[LogEntry]) -> list[Action]:
    """The actions in force: every action and procedure action, minus the ones undone."""
    return [action for group in groups_in_force(log) for action in group]


def log_entries(hand: Hand) -> list[LogEntry]:
    """The hand's log, oldest first: each event's kind and engine actions (not the stored
    answers, which are most of each row)."""
    rows = hand.events.order_by("seq").values_list("kind", "payload")
    return [(kind, payload.get("actions", [])) for kind, payload in rows]


def hand_replay(hand: Hand) -> HandState:
    """The hand's state, rebuilt from its start and its log."""
    state = start_hand(hand_setup(hand))
    for action in effective_actions(log_entries(hand)):
        state = apply(state, action)
    return state


def stored_state(hand: Hand) -> HandState | None:
    """The engine state stored with the hand, when it is the one this server wrote for this hand
    at its current version and it starts from the hand's setup as stored now (the seats, stakes
    or rules may have been fixed in the admin since); else None."""
    stored = unpack_state(hand.engine_state, hand.pk, hand.version)
    return stored if stored is not None and stored.setup == hand_setup(hand) else None


def hand_state(hand: Hand) -> HandState:
    """The hand's state now: the stored engine state when it can be trusted (`stored_state`),
    else the replay of the log."""
    stored = stored_state(hand)
    return stored if stored is not None else hand_replay(hand)


def hand_snapshot(hand: Hand, state: HandState) -> HandSnapshot:
    """The state snapshot a hand stores with each version (`Hand.state`), and every answer to a
    write carries: the hand's positions and stakes, with the engine's state as the codec writes it
    (`dealer.codec.state_snapshot`)."""
    return {
        "hand": hand.pk,
        "table": hand.table.number,
        "number": hand.number,
        "version": hand.version,
        "status": hand.status,
        "button_seat": hand.button_seat,
        "small_blind_seat": hand.small_blind_seat,
        "big_blind_seat": hand.big_blind_seat,
        "stakes": {k: hand.stakes[k] for k in ("small_blind", "big_blind", "ante")},
        # Reopened: the hand is in progress again while the engine's state still has its end.
        **state_snapshot(
            state, hand.seats, reopened=hand.status == Hand.Status.IN_PROGRESS and state.is_over
        ),
    }
