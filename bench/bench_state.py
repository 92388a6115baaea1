"""What a write pays to get a hand's engine state and to store it: the stored state as JSON (what
`dealer/state_cache.py` stores), the pickle it replaced, and no stored state at all (replay the
log), side by side on the same hands in the same run.

Every dealer write reads the hand's state, applies one action and stores the new state. With a
stored state, reading is a decode and storing an encode; without one, reading is a replay of the
log from the hand's start and there is nothing to store. The replay here starts from the log's
JSON as the database returns it (each event's actions as dicts) and the hand's set-up as stored
(rules, seats, stakes); the query that reads the log is not counted (a real replay also pays it).

The hands are `bench_hands`' random no-limit hands (2-9 players, most reaching a showdown): a
short one, a typical one (the median number of actions) and the longest of 2,000. For each hand
the figures are per write, averaged over all of the hand's writes (the write after action k reads
the state after k actions): medians of 5 passes. Run: `python -m bench.bench_state`.
"""

from __future__ import annotations

import hashlib
import hmac
import pickle
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, TypeVar

from bench.bench_hands import RULES, STAKES, Recorded, generate
from dealer.codec import action_from_dict, action_to_dict
from dealer.engine import (
    HandSetup,
    HandState,
    PlayerSetup,
    apply,
    deal_setup,
    format_cards,
    parse_cards,
    start_hand,
)
from dealer.engine.json_values import JsonObject
from dealer.engine.rules import Rules
from dealer.state_cache import pack_state, unpack_state

PASSES = 5
HAND, VERSION = 123_456, 1


class SeatRow(TypedDict):
    """A player dealt in, as the bench keeps it (the hole cards as text)."""

    seat: int
    stack: int
    name: str
    blind: int
    ante: int
    hole: str


class StakesRow(TypedDict):
    small_blind: int
    big_blind: int
    small_bet: int
    unit: int
    button_index: int | None  # None: the button is a dead seat
    bring_in_index: int


@dataclass(frozen=True, slots=True)
class Case:
    """One hand: its states after each action, and its set-up and log as the database keeps them."""

    name: str
    states: tuple[HandState, ...]  # after 0, 1, ... all actions
    rules: dict[str, Any]  # `Rules.as_dict()`, read back as `Rules(**rules)`
    stakes: StakesRow
    seats: list[SeatRow]
    log: list[dict[str, list[JsonObject]]]  # one event payload per action

    @property
    def actions(self) -> int:
        return len(self.states) - 1


def _case(name: str, recorded: Recorded) -> Case:
    setup = deal_setup(RULES, STAKES, recorded.stacks, holes=recorded.holes)
    states = [start_hand(setup)]
    for action in recorded.actions:
        states.append(apply(states[-1], action))
    return Case(
        name=name,
        states=tuple(states),
        rules=RULES.as_dict(),
        stakes={
            "small_blind": setup.small_blind,
            "big_blind": setup.big_blind,
            "small_bet": setup.small_bet,
            "unit": setup.unit,
            "button_index": setup.button_index,
            "bring_in_index": setup.bring_in_index,
        },
        seats=[
            {
                "seat": p.seat,
                "stack": p.stack,
                "name": p.name,
                "blind": p.blind,
                "ante": p.ante,
                "hole": format_cards(p.hole or ()),
            }
            for p in setup.players
        ],
        log=[{"actions": [action_to_dict(a)]} for a in recorded.actions],
    )


def cases(count: int = 2000, seed: int = 7) -> list[Case]:
    hands = sorted(generate(count, seed), key=lambda h: len(h.actions))
    short = next(h for h in hands if len(h.stacks) >= 6)  # folded round to a raise, 6+ players
    return [
        _case("short", short),
        _case("typical", hands[len(hands) // 2]),
        _case("long", hands[-1]),
    ]


# --- the three ways to a state -----------------------------------------------------------------

# The format this module's JSON replaced: a pickle after a header, signed with an HMAC keyed by
# the SECRET_KEY. Kept here only to be measured.
_OLD_KEY = hashlib.sha256(b"floordesk hand engine state\0bench").digest()


def pickle_pack(state: HandState) -> bytes:
    body = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    return hmac.new(_OLD_KEY, body, hashlib.sha256).digest() + body


def pickle_unpack(data: bytes) -> HandState:
    mac, body = data[:32], data[32:]
    assert hmac.compare_digest(mac, hmac.new(_OLD_KEY, body, hashlib.sha256).digest())
    state = pickle.loads(body)  # the format being measured, on bytes made just above
    assert isinstance(state, HandState)
    return state


def json_pack(state: HandState) -> bytes:
    return pack_state(state, HAND, VERSION)


def json_unpack(data: bytes) -> HandState:
    state = unpack_state(data, HAND, VERSION)
    assert state is not None
    return state


def replay(case: Case, events: int) -> HandState:
    """What `dealer.hand_log.hand_replay` does once the rows are read."""
    rules = Rules(**case.rules)
    setup = HandSetup(
        rules=rules,
        players=tuple(
            PlayerSetup(
                stack=s["stack"],
                seat=s["seat"],
                name=s["name"],
                blind=s["blind"],
                ante=s["ante"],
                hole=parse_cards(s["hole"]),  # known here: the random hands' showdowns need them
            )
            for s in case.seats
        ),
        **case.stakes,
    )
    state = start_hand(setup)
    for payload in case.log[:events]:
        for data in payload["actions"]:
            state = apply(state, action_from_dict(data))
    return state


# --- timing ----------------------------------------------------------------------------------


def _median_us(works: Mapping[str, Callable[[], object]], calls: int) -> dict[str, float]:
    """Median over `PASSES` passes of the time of one call of each, in microseconds. Each pass
    times every way once, in turn, so that a busy moment of the machine touches them alike."""
    times: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(PASSES):
        for name, work in works.items():
            started = time.perf_counter()
            work()
            times[name].append((time.perf_counter() - started) / calls * 1e6)
    return {name: statistics.median(values) for name, values in times.items()}


Item = TypeVar("Item")


def _each(items: Sequence[Item], function: Callable[[Item], object]) -> Callable[[], None]:
    def work() -> None:
        for item in items:
            function(item)

    return work


def measure(case: Case, rounds: int = 20) -> dict[str, float]:
    """Per write, averaged over the hand's writes (the state after 0 .. n-1 actions is read)."""
    read = list(case.states[:-1]) * rounds
    pickles = [pickle_pack(s) for s in read]
    jsons = [json_pack(s) for s in read]
    for state, blob in zip(case.states[:-1], jsons, strict=False):
        assert json_unpack(blob) == state == pickle_unpack(pickle_pack(state))
    assert replay(case, case.actions) == case.states[-1]
    versions = list(range(case.actions)) * rounds
    works = {
        "pickle_read": _each(pickles, pickle_unpack),
        "json_read": _each(jsons, json_unpack),
        "replay_read": _each(versions, lambda k: replay(case, k)),
        "pickle_write": _each(read, pickle_pack),
        "json_write": _each(read, json_pack),
    }
    return {
        "actions": case.actions,
        **_median_us(works, len(read)),
        "pickle_bytes": statistics.mean(len(b) for b in pickles),
        "json_bytes": statistics.mean(len(b) for b in jsons),
    }


def run() -> dict[str, dict[str, float]]:
    return {case.name: measure(case) for case in cases()}


def main() -> None:
    results = run()
    print("Per write, averaged over each hand's writes; medians of 5 passes, microseconds")
    print(
        f"  {'hand':<8} {'actions':>7}  {'read: pickle':>12} {'JSON':>7} {'replay':>7}"
        f"  {'store: pickle':>13} {'JSON':>7}  {'read+store: JSON/pickle':>23}"
        f" {'replay/JSON':>11}  {'bytes: pickle':>13} {'JSON':>6}"
    )
    for name, r in results.items():
        pickle_total = r["pickle_read"] + r["pickle_write"]
        json_total = r["json_read"] + r["json_write"]
        print(
            f"  {name:<8} {r['actions']:>7.0f}  {r['pickle_read']:>12.1f} {r['json_read']:>7.1f}"
            f" {r['replay_read']:>7.1f}  {r['pickle_write']:>13.1f} {r['json_write']:>7.1f}"
            f"  {json_total / pickle_total:>22.1f}x {r['replay_read'] / json_total:>10.1f}x"
            f"  {r['pickle_bytes']:>13,.0f} {r['json_bytes']:>6,.0f}"
        )
    print("  (replay/JSON: replaying the log against reading and storing the JSON state;")
    print("   the replay also needs the query that reads the log, not counted here)")


if __name__ == "__main__":
    main()
