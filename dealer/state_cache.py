"""A hand's engine state stored with the hand, so that the next write need not replay the log.

The log stays the truth: a write uses the stored state only when it is exactly what this server
wrote for the hand's current version, and replays the log otherwise. The stored value is the
pickled `HandState` after a header: a mark, the hand and the version it belongs to, a fingerprint
of the engine's source code, and an HMAC of all of it keyed by the SECRET_KEY. A state stored by
another version of the engine (after a deploy), under another key, for another hand or another
version of it, or changed in the database is ignored, and only bytes this server signed are ever
unpickled. The services also check that the state starts from the hand's setup as stored now
(seats, stakes, rules: a fix made to them in the admin), or replay.
`manage.py check_hands` compares every stored state with the replay.
"""

from __future__ import annotations

import hashlib
import hmac
import pickle
import sys
from functools import cache
from pathlib import Path

from django.conf import settings

from dealer.engine import HandState

_MARK = b"FDE1"
_DIGEST = hashlib.sha256
_HEAD = len(_MARK) + 8 + 4 + 16  # mark, hand, version, engine fingerprint
_MAC = _DIGEST().digest_size


@cache
def engine_fingerprint() -> bytes:
    """16 bytes that change whenever the engine's code (or Python's minor version) does."""
    root = Path(sys.modules["dealer.engine"].__file__ or "").parent
    digest = _DIGEST(f"python {sys.version_info[0]}.{sys.version_info[1]}".encode())
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.digest()[:16]


def _mac(data: bytes) -> bytes:
    key = _DIGEST(b"floordesk hand engine state\0" + settings.SECRET_KEY.encode()).digest()
    return hmac.new(key, data, _DIGEST).digest()


def _head(hand: int, version: int) -> bytes:
    return _MARK + hand.to_bytes(8, "big") + version.to_bytes(4, "big") + engine_fingerprint()


def pack_state(state: HandState, hand: int, version: int) -> bytes:
    """The bytes to store with hand `hand` at `version` (after its `version`-th event)."""
    signed = _head(hand, version) + pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    return signed[:_HEAD] + _mac(signed) + signed[_HEAD:]


def unpack_state(stored: bytes | memoryview | None, hand: int, version: int) -> HandState | None:
    """The state stored for hand `hand` at `version`, or None when there is none this server can
    trust for it (the caller then replays the log)."""
    if not stored:
        return None
    data = bytes(stored)
    head, mac, body = data[:_HEAD], data[_HEAD : _HEAD + _MAC], data[_HEAD + _MAC :]
    if head != _head(hand, version) or not hmac.compare_digest(mac, _mac(head + body)):
        return None
    state = pickle.loads(body)  # signed by this server: checked just above
    return state if isinstance(state, HandState) else None
