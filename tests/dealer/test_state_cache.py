"""The engine state stored with a hand (`dealer/state_cache.py`): JSON after a header, never a
pickle. A value the server did not write for this hand, version and engine is ignored and the
log replayed; above all a pickle in the column is never unpickled, even one signed with the
development SECRET_KEY, as anyone who has read the repository could sign it."""

from __future__ import annotations

import hashlib
import hmac
import json
import pickle
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import dealer.engine
from dealer import hand_log, selectors, services, state_cache
from dealer.engine.snapshot import state_to_json
from dealer.models import Hand
from dealer.state_cache import pack_state, unpack_state
from tests.factories import seated_tournament
from tournaments.models import Table

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


@pytest.fixture
def hand() -> Hand:
    tournament = seated_tournament(players=4)
    return services.hand_start(table=Table.objects.get(tournament=tournament, number=1), now=T0)


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The hands whose log a write replayed (instead of starting from the stored state)."""
    replayed: list[int] = []
    replay = hand_log.hand_replay

    def counting(hand: Hand) -> Any:
        replayed.append(hand.pk)
        return replay(hand)

    monkeypatch.setattr(hand_log, "hand_replay", counting)
    return replayed


def _call(hand: Hand, client_id: str, version: int) -> services.Result:
    return services.hand_record_action(
        hand=hand.pk, action={"kind": "call"}, client_id=client_id, version=version
    )


def _stored(hand: Hand) -> bytes:
    value = Hand.objects.values_list("engine_state", flat=True).get(pk=hand.pk)
    assert value is not None
    return bytes(value)


def _store(hand: Hand, value: bytes) -> None:
    Hand.objects.filter(pk=hand.pk).update(engine_state=value)


# --- the attack of issue 12 --------------------------------------------------------------------

RAN: list[str] = []


def _attackers_code(text: str) -> str:
    """What a pickle may name and have called while it is read: any importable function."""
    RAN.append(text)
    return text


class _Exploit:
    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return _attackers_code, ("run in the web worker",)


def _signed_like_before(payload: object, *, hand: int, version: int, secret_key: str) -> bytes:
    """The format the server used to trust (FDE1): a pickle after a header, with an HMAC keyed
    by the SECRET_KEY; everything needed to forge one is in the repository."""
    root = Path(dealer.engine.__file__).parent
    engine = hashlib.sha256(f"python {sys.version_info[0]}.{sys.version_info[1]}".encode())
    for path in sorted(root.rglob("*.py")):
        engine.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    head = b"FDE1" + hand.to_bytes(8, "big") + version.to_bytes(4, "big") + engine.digest()[:16]
    body = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    key = hashlib.sha256(b"floordesk hand engine state\0" + secret_key.encode()).digest()
    return head + hmac.new(key, head + body, hashlib.sha256).digest() + body


def test_a_pickle_signed_with_the_published_key_is_never_unpickled_and_the_log_replayed(
    hand: Hand, replays: list[int], settings: Any
) -> None:
    _call(hand, "a", 0)
    RAN.clear()
    key = settings.SECRET_KEY  # the development key, published with the code
    forged = _signed_like_before(_Exploit(), hand=hand.pk, version=1, secret_key=key)
    _store(hand, forged)
    replays.clear()

    answer = _call(hand, "b", 1).answer

    assert RAN == []
    assert replays == [hand.pk]
    assert answer["version"] == 2
    assert [p["bet"] for p in answer["players"]].count(answer["high"]) == 3  # two calls
    assert selectors.check_hands() == []
    assert _stored(hand).startswith(b"FDJ1 ")  # written afresh, as JSON


def test_a_state_pickled_by_the_previous_version_is_ignored(hand: Hand, settings: Any) -> None:
    _call(hand, "a", 0)
    state = hand_log.hand_replay(Hand.objects.get(pk=hand.pk))
    old = _signed_like_before(state, hand=hand.pk, version=1, secret_key=settings.SECRET_KEY)
    _store(hand, old)
    assert hand_log.stored_state(Hand.objects.get(pk=hand.pk)) is None


# --- what is stored, and what is ignored -------------------------------------------------------


def test_the_stored_state_is_the_engines_json_after_a_readable_header(hand: Hand) -> None:
    _call(hand, "a", 0)
    state = hand_log.hand_replay(Hand.objects.get(pk=hand.pk))
    head, body = _stored(hand).split(b"\n", 1)
    mark, pk, version, engine, check = head.decode().split(" ")
    assert (mark, pk, version) == ("FDJ1", str(hand.pk), "1")
    assert engine == state_cache.engine_fingerprint()
    assert len(check) == 32
    assert json.loads(body) == state_to_json(state)
    assert unpack_state(_stored(hand), hand.pk, 1) == state


def test_a_state_edited_in_the_database_is_ignored(hand: Hand, replays: list[int]) -> None:
    _call(hand, "a", 0)
    head, body = _stored(hand).split(b"\n", 1)
    data = json.loads(body)
    data["stacks"][0] += 1000  # still a well-formed state, but not the one written
    _store(hand, head + b"\n" + json.dumps(data, separators=(",", ":")).encode())
    replays.clear()

    answer = _call(hand, "b", 1).answer

    assert replays == [hand.pk]
    assert answer["players"][0]["stack"] == hand.seats[0]["stack"] - answer["players"][0]["bet"]
    assert selectors.check_hands() == []


def test_a_state_stored_by_another_engine_is_ignored(
    hand: Hand, monkeypatch: pytest.MonkeyPatch
) -> None:
    _call(hand, "a", 0)
    state = unpack_state(_stored(hand), hand.pk, 1)
    assert state is not None
    monkeypatch.setattr(state_cache, "engine_fingerprint", lambda: "0" * 32)
    other = pack_state(state, hand.pk, 1)
    monkeypatch.undo()
    assert unpack_state(other, hand.pk, 1) is None
    assert unpack_state(pack_state(state, hand.pk, 1), hand.pk, 1) == state


def _with_right_check(hand: Hand, version: int, body: bytes) -> bytes:
    head = state_cache._head(hand.pk, version)
    return head + state_cache._check(head, body) + b"\n" + body


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b'{"setup": 1}', id="json_but_not_a_state"),
        pytest.param(b"not json", id="not_json"),
        pytest.param(b'{"setup": "\xff"}', id="not_utf8"),
        pytest.param(b"[" * 100_000 + b"]" * 100_000, id="nested_too_deep"),
        pytest.param(b"", id="empty"),
    ],
)
def test_a_value_written_by_other_code_with_a_right_check_is_ignored(
    hand: Hand, body: bytes, replays: list[int]
) -> None:
    _call(hand, "a", 0)
    _store(hand, _with_right_check(hand, 1, body))
    replays.clear()

    assert _call(hand, "b", 1).answer["version"] == 2

    assert replays == [hand.pk]
    assert selectors.check_hands() == []


def test_a_new_secret_key_keeps_the_stored_states(hand: Hand, settings: Any) -> None:
    """Nothing is signed any more: rotating the SECRET_KEY (issue 12) costs no replay."""
    _call(hand, "a", 0)
    settings.SECRET_KEY = "a new key, after the published one was rotated"
    assert hand_log.stored_state(Hand.objects.get(pk=hand.pk)) is not None
