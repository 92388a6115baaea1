"""The dealer API's hot writes check their input with one serializer made once per process
(`dealer.api.views.SharedInput`): whatever a client sends, the answer is the one a new serializer
gives, the same data or the same errors, in any order (the shared one keeps no state)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from dealer.api import serializers as s
from dealer.api.views import ACTION_INPUT, UNDO_INPUT, SharedInput
from tests.dealer.test_api_robustness import JUNK_ACTIONS, JUNK_OBJECTS

GOOD_ACTIONS: list[Any] = [
    {"kind": "call"},
    {"kind": "fold", "seat": 3},
    {"kind": "raise", "seat": 10, "amount": 2_000},
    {"kind": "bet", "player": 0, "amount": 0, "reason": ""},
    {"kind": "deal_board", "cards": ["As", " kd ", "??"]},
    {"kind": "show", "seat": 1, "cards": ["Th", "9h"], "player": None, "amount": None},
    {"kind": "muck", "seat": 2, "reason": "  mucked  "},
]


def _inputs() -> list[Any]:
    bodies: list[Any] = [*JUNK_OBJECTS, None, [], "call", 5]
    for action, client_id, version in itertools.product(
        [*GOOD_ACTIONS, *JUNK_ACTIONS, None, "call"], ["a", " b ", "", None], [0, 7, "3", -1]
    ):
        bodies.append({"client_id": client_id, "version": version, "action": action})
    bodies += [{"client_id": "u", "version": 2, "reason": reason} for reason in ["", " x ", 5]]
    random.Random(5).shuffle(bodies)
    return bodies


def _fresh(serializer_class: type[serializers.Serializer], data: Any) -> tuple[str, Any]:
    serializer = serializer_class(data=data)
    if serializer.is_valid():
        return "valid", dict(serializer.validated_data)
    return "invalid", serializer.errors


def _shared(shared: SharedInput, data: Any) -> tuple[str, Any]:
    try:
        return "valid", shared.validated(data)
    except ValidationError as error:
        return "invalid", error.detail


@pytest.mark.parametrize(
    ("shared", "serializer_class"),
    [(ACTION_INPUT, s.ActionInputSerializer), (UNDO_INPUT, s.UndoInputSerializer)],
)
def test_the_shared_serializer_answers_as_a_new_one_for_any_input(shared, serializer_class):
    outcomes = set()
    for data in _inputs():
        got, expected = _shared(shared, data), _fresh(serializer_class, data)
        assert got == expected, data
        outcomes.add(got[0])
    assert outcomes == {"valid", "invalid"}
