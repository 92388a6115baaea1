"""A hand's engine state stored with the hand, so that the next write need not replay the log.

The log stays the truth: a write uses the stored state only when it is exactly what this server
wrote for the hand's current version, and replays the log otherwise. The stored value is a text
header and the state as JSON (`dealer.engine.snapshot`):

    FDJ1 <hand> <version> <engine fingerprint> <check>\\n{"setup": ..., "log": [...]}

Plain data, never a pickle: reading it back builds the engine's values field by field and checks
each one, so whoever can write the column can at worst make the server replay the log, never run
code (a pickle would run whatever it names, and a pickle signed with a key derived from
SECRET_KEY is only as safe as that key). A state of another hand or version, one stored by
another version of the engine (after a deploy), one changed in the database (the check, a
BLAKE2 digest of header and body, differs) or one in any older format (the pickles of format
FDE1) is ignored. The digest is not a signature: it catches a damaged or hand-edited value,
cheaply; the services also check that the state starts from the hand's setup as stored now
(seats, stakes, rules: a fix made to them in the admin), or replay.
`manage.py check_hands` compares every stored state with the replay.
"""

from __future__ import annotations

import hashlib
import json
import sys
from functools import cache
from pathlib import Path

from dealer.engine import HandState
from dealer.engine.snapshot import SnapshotError, state_from_json, state_to_json

_MARK = b"FDJ1"
_CHECK = 32  # hex digits of the BLAKE2b-128 digest


@cache
def engine_fingerprint() -> str:
    """32 hex digits that change whenever the engine's code does."""
    root = Path(sys.modules["dealer.engine"].__file__ or "").parent
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _head(hand: int, version: int) -> bytes:
    return b"%s %d %d %s " % (_MARK, hand, version, engine_fingerprint().encode())


def _check(head: bytes, body: bytes) -> bytes:
    return hashlib.blake2b(head + body, digest_size=_CHECK // 2).hexdigest().encode()


def pack_state(state: HandState, hand: int, version: int) -> bytes:
    """The bytes to store with hand `hand` at `version` (after its `version`-th event)."""
    head = _head(hand, version)
    body = json.dumps(state_to_json(state), separators=(",", ":")).encode()
    return head + _check(head, body) + b"\n" + body


def unpack_state(stored: bytes | memoryview | None, hand: int, version: int) -> HandState | None:
    """The state stored for hand `hand` at `version`, or None when there is none this server can
    use for it (the caller then replays the log)."""
    if not stored:
        return None
    data = bytes(stored)
    head = _head(hand, version)
    start = len(head) + _CHECK + 1
    if not data.startswith(head) or data[start - 1 : start] != b"\n":
        return None
    body = data[start:]
    if data[len(head) : start - 1] != _check(head, body):
        return None
    try:
        return state_from_json(json.loads(body))
    except (SnapshotError, ValueError, RecursionError):
        # Cannot happen to a value this module wrote (the check above): one written by other
        # code with the right digest. ValueError covers bad UTF-8 and JSON.
        return None
