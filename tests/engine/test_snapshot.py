"""The stored hand state as JSON (`dealer/engine/snapshot.py`): every state reached by real play
comes back equal, as plain JSON values; anything else is refused with `SnapshotError`, and only
that, so the cache can fall back to the log.

The states come from the property tests' hands (every profile and structure, straddles, dead
posts, unknown cards, dead hands and misdeals) and from the PHH samples (real hands)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer.engine import HandState, apply, deal_setup, make_rules, start_hand
from dealer.engine.phh import parse_phh, verify
from dealer.engine.setup import Stakes
from dealer.engine.snapshot import SnapshotError, state_from_json, state_to_json
from tests.engine.scripted import play as play_script
from tests.engine.test_properties import Scenario, play, scenarios
from tests.examples import examples

ROUND_TRIPS = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SAMPLES = Path(__file__).resolve().parent / "phh_samples"


def through_json(state: HandState) -> HandState:
    """The state stored as JSON text and read back, as the cache does."""
    return state_from_json(json.loads(json.dumps(state_to_json(state), allow_nan=False)))


def only_plain_json(value: object) -> bool:
    """Dicts with string keys, lists, strings, integers, booleans and nulls: nothing else."""
    if isinstance(value, dict):
        return all(type(k) is str and only_plain_json(v) for k, v in value.items())
    if isinstance(value, list):
        return all(only_plain_json(v) for v in value)
    return value is None or type(value) in (str, int, bool)


def states_of(final: HandState) -> list[HandState]:
    """Every state of a hand, from its start, by its log."""
    states = [start_hand(final.setup)]
    for action in final.log:
        states.append(apply(states[-1], action))
    assert states[-1] == final
    return states


@ROUND_TRIPS
@given(scenario=scenarios(), data=st.data())
def test_every_state_of_a_hand_comes_back_equal_from_plain_json(
    scenario: Scenario, data: st.DataObject
) -> None:
    for state in play(data, scenario).states:
        assert only_plain_json(state_to_json(state))
        assert through_json(state) == state


@pytest.mark.parametrize(
    "name",
    ["dwan_ivey_2009.phh", "nt_6max_side_pots.phh", "ft_hand.phh", "pt_hand.phh", "straddle.phh"],
)
def test_every_state_of_a_real_hand_comes_back_equal(name: str) -> None:
    final = verify(parse_phh((SAMPLES / name).read_text(encoding="utf-8")))
    for state in states_of(final):
        assert through_json(state) == state


def _a_state() -> HandState:
    """Mid-hand, on the flop: a bet to call, a fold behind, cards and a log to read."""
    rules = make_rules("casino_cash", {"straddle_allowed": True})
    setup = deal_setup(rules, Stakes(small_blind=1, big_blind=2, ante=1), [200, 150, 90, 300])
    return play_script(start_hand(setup), "r6 f c c | /As Kd 7c | b10")


def _set(path: tuple[Any, ...], value: object) -> Any:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _drop(key: str) -> Any:
    return lambda data: data.pop(key)


MALFORMED = {
    "a field missing": _drop("stacks"),
    "a field unknown": _set(("pickle",), "anything"),
    "a count as text": _set(("dead",), "3"),
    "a count as a float": _set(("high",), 10.0),
    "a count as a boolean": _set(("street",), True),
    "a flag as a number": _set(("capped",), 0),
    "no such phase": _set(("phase",), "over"),
    "no such street": _set(("street",), 4),
    "a stack as text": _set(("stacks", 1), "150"),
    "a stack list too short": _set(("stacks",), [1, 2, 3]),
    "folds not a list": _set(("folded",), {"0": False}),
    "no such player to act": _set(("actor",), 4),
    "no such card": _set(("board",), "AsKd1c"),
    "half a card": _set(("board",), "AsK"),
    "an unknown card shown": _set(("shown", 0), "As??"),
    "cards as a list": _set(("board",), ["As", "Kd", "7c"]),
    "no such action": _set(("log", 0, "kind"), "exec"),
    "an action field unknown": _set(("log", 0, "code"), "print(1)"),
    "an action that is not an object": _set(("log", 0), "call"),
    "an action amount as text": _set(("log", 0, "amount"), "6"),
    "no such rule option": _set(("setup", "rules", "structure"), "spread_limit"),
    "a rule option unknown": _set(("setup", "rules", "__class__"), "Rules"),
    "a rule flag as text": _set(("setup", "rules", "bb_ante"), "false"),
    "a player's hole cards unknown": _set(("setup", "players", 0, "hole"), "????"),
    "one player": _set(("setup", "players"), [{}]),
    "a set-up the engine refuses": lambda data: data["setup"]["players"].__delitem__(
        slice(1, None)
    ),
    "not an object": lambda data: data.clear() or data.update({"state": None}),
}


@pytest.mark.parametrize("spoil", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_value_that_is_not_a_stored_state_is_refused(spoil: Any) -> None:
    data = state_to_json(_a_state())
    spoil(data)
    with pytest.raises(SnapshotError) as refused:
        state_from_json(data)
    assert refused.value.code == "bad_snapshot"


@pytest.mark.parametrize("value", [None, [], "state", 3, {"setup": None}])
def test_a_value_of_another_shape_is_refused(value: object) -> None:
    with pytest.raises(SnapshotError):
        state_from_json(value)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value that holds a value."""
    found = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


STATE_JSON = state_to_json(_a_state())
PATHS = _paths(STATE_JSON)


@settings(max_examples=examples(400), deadline=None)
@given(path=st.sampled_from(PATHS), value=JSON_VALUES)
def test_any_value_anywhere_is_read_as_a_state_or_refused_with_a_snapshot_error(
    path: tuple[Any, ...], value: object
) -> None:
    data = copy.deepcopy(STATE_JSON)
    _set(path, value)(data)
    try:
        state = state_from_json(data)
    except SnapshotError:
        return
    # Accepted: then every field has the engine's own type, and the state is written and read
    # back like any other (a value of another type would be refused on the way back).
    assert isinstance(state, HandState)
    assert through_json(state) == state
