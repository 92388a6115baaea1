"""The Redis cache: values signed with the project's key, and an outage taken as a miss.

Signed values (`SignedSerializer`). Django's `RedisSerializer` pickles every value but an int,
and unpickles whatever it reads back: anyone who can write to Redis (a neighbour on its network,
a leaked password, another application sharing the server) can then run code in every web
process with the first request that reads the key (an anonymous poll with `If-None-Match` reads
a tournament's version key). Here a pickled value is stored behind an HMAC-SHA256 of its bytes,
with a key derived from `SECRET_KEY` (`SECRET_KEY_FALLBACKS` are accepted while rotating); a
value whose signature does not verify is never unpickled: it is logged and read as a miss, so
the answer is built from the database again. Ints stay raw as Django stores them (`incr` needs
them, and reading one back runs no code).

An outage (`TolerantRedisCache`). A cache is a copy: when Redis does not answer, a read is a
miss and a write is skipped, logged, and the request goes on from the database (sessions are
`cached_db`, so a signed-in page reads its session from its table). The first failure opens a
short circuit (`BREAKER_SECONDS`): the requests after it do not wait for a timeout each. A key
this process could not write or delete while Redis was away may hold an older value when Redis
answers again (a network that dropped, a server restarted from its dump): such keys are deleted
before this process reads anything else once Redis is back, and by a thread that tries every
`BREAKER_SECONDS` meanwhile (other processes read them too), so a remembered ETag is not taken
for a changed answer (`config.conditional`).
"""

from __future__ import annotations

import hmac
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import timedelta
from functools import cached_property
from typing import TYPE_CHECKING, SupportsInt, TypeVar, overload

import redis
from django.conf import settings
from django.core.cache.backends.redis import RedisCache, RedisCacheClient, RedisSerializer
from django.utils.crypto import salted_hmac

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

logger = logging.getLogger("floordesk.cache")

SALT = "floordesk.cache.SignedSerializer"
SIGNATURE_BYTES = 32  # SHA-256
BREAKER_SECONDS = 2.0
STALE_KEYS_KEPT = 10_000

# What a Redis that does not answer raises: refused, reset, timed out, still loading its dump.
REDIS_DOWN: tuple[type[Exception], ...] = (redis.ConnectionError, redis.TimeoutError)

T = TypeVar("T")
# A key as the Redis client takes it (redis-py's `KeyT`), and a time to keep a value (seconds).
Key = str | bytes | memoryview
Expiry = int | timedelta

# The circuit's clock (tests move it on instead of waiting).
clock = time.monotonic


class UnsignedValueError(ValueError):
    """A value in the cache that this project did not sign (or signed with a retired key)."""


def _signature(payload: bytes, secret: str) -> bytes:
    return salted_hmac(SALT, payload, secret=secret, algorithm="sha256").digest()


class SignedSerializer(RedisSerializer):
    """`RedisSerializer` with every pickle signed: `signature + pickle`; ints raw."""

    # Django's own returns an int as it is (for `incr`), where django-stubs says bytes.
    def dumps(self, obj: object) -> bytes | int:  # type: ignore[override]
        data: bytes | int = super().dumps(obj)
        if isinstance(data, int):
            return data
        return _signature(data, settings.SECRET_KEY) + data

    @overload
    def loads(self, data: SupportsInt) -> int: ...
    @overload
    def loads(self, data: ReadableBuffer) -> object: ...
    def loads(self, data: SupportsInt | ReadableBuffer) -> object:
        if not isinstance(data, bytes | bytearray | memoryview):
            return int(data)
        raw = bytes(data)
        try:
            return int(raw)
        except ValueError:
            pass
        signature, payload = raw[:SIGNATURE_BYTES], raw[SIGNATURE_BYTES:]
        for secret in (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS):
            if hmac.compare_digest(signature, _signature(payload, secret)):
                return super().loads(payload)  # Django's unpickling, of bytes we signed
        raise UnsignedValueError("the value is not signed with the project's key")


class _Circuit:
    """The state of one Redis server, shared by every thread of the process: open (skip Redis)
    until a moment after its last failure, and the keys left stale meanwhile."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open_until = 0.0
        self.failing = False
        self.stale: set[Key] = set()
        self.retrying: threading.Thread | None = None
        self.retired = False  # forgotten by `circuits_reset`: its thread stops

    def is_open(self) -> bool:
        return clock() < self.open_until

    def trip(self, error: Exception) -> None:
        with self.lock:
            first, self.failing = not self.failing, True
            self.open_until = clock() + BREAKER_SECONDS
        if first:
            logger.warning("The cache is not answering; reading from the database: %s", error)

    def answered(self) -> None:
        if self.failing:
            with self.lock:
                self.failing = False
            logger.warning("The cache answers again")

    def mark_stale(self, keys: list[Key]) -> None:
        with self.lock:
            full = len(self.stale) >= STALE_KEYS_KEPT
            if not full:
                self.stale.update(keys)
        if full and keys:
            # Bounded memory in a long outage; such a key keeps its older value until it expires
            # (a remembered tag: REMEMBER_SECONDS).
            logger.warning("Too many cache keys to delete once Redis answers; %s kept as is", keys)

    def take_stale(self) -> list[Key]:
        with self.lock:
            keys, self.stale = list(self.stale), set()
        return keys

    def retry_in_background(self, forget: Callable[[], bool]) -> None:
        """Delete the stale keys from a thread, every `BREAKER_SECONDS` until they are gone
        (`forget` says so): another process reads them as soon as Redis is back, whether this
        one has a request to make or not."""
        with self.lock:
            if self.retrying is not None and self.retrying.is_alive():
                return
            self.retrying = threading.Thread(
                target=self._retry, args=(forget,), name="cache-stale-keys", daemon=True
            )
            self.retrying.start()

    def _retry(self, forget: Callable[[], bool]) -> None:
        while not self.retired:
            time.sleep(BREAKER_SECONDS)
            if forget() and not self.stale:
                return


_circuits: dict[tuple[str, ...], _Circuit] = {}
_circuits_lock = threading.Lock()


def circuit_of(servers: Iterable[str]) -> _Circuit:
    name = tuple(servers)
    with _circuits_lock:
        return _circuits.setdefault(name, _Circuit())


def circuits_reset() -> None:
    """Forget every failure and stale key (tests start each with a closed circuit)."""
    with _circuits_lock:
        for circuit in _circuits.values():
            circuit.retired = True
        _circuits.clear()


class TolerantRedisCacheClient(RedisCacheClient):
    """Django's client, with an unsigned value read as a miss and an outage as a miss or a
    skipped write (see the module's docstring)."""

    # Set by Django's client: the servers, and the serializer from OPTIONS["serializer"].
    _servers: list[str]
    _serializer: RedisSerializer

    @cached_property
    def _circuit(self) -> _Circuit:
        return circuit_of(self._servers)

    def _guarded(self, run: Callable[[], T], fallback: T, written: Iterable[Key] = ()) -> T:
        circuit = self._circuit
        if circuit.is_open():
            self._mark_stale(written)
            return fallback
        try:
            self._forget_stale()
            answer = run()
        except REDIS_DOWN as error:
            circuit.trip(error)
            self._mark_stale(written)
            return fallback
        circuit.answered()
        return answer

    def _mark_stale(self, written: Iterable[Key]) -> None:
        keys = list(written)
        if keys:
            self._circuit.mark_stale(keys)
            self._circuit.retry_in_background(self._forget_stale_now)

    def _forget_stale_now(self) -> bool:
        try:
            self._forget_stale()
        except REDIS_DOWN:
            return False
        return True

    def _forget_stale(self) -> None:
        stale = self._circuit.take_stale()
        if not stale:
            return
        try:
            super().delete_many(stale)
        except REDIS_DOWN:
            self._circuit.mark_stale(stale)
            raise
        logger.info("Deleted %d keys of the cache written while it was not answering", len(stale))

    def _load(self, key: Key, data: bytes | str) -> object:
        raw = data.encode() if isinstance(data, str) else data  # a client decoding answers
        try:
            return self._serializer.loads(raw)
        except UnsignedValueError:
            # Deleted, so that an `add` (a remembered ETag) may store a signed one again.
            logger.warning("Deleted an unsigned value found in the cache at %s", key)
            self.get_client(key, write=True).delete(key)
            return None

    def get(self, key: Key, default: object) -> object:
        def run() -> object:
            data = self.get_client(key).get(key)
            value = None if data is None else self._load(key, data)
            return default if value is None else value

        return self._guarded(run, default)

    def get_many(self, keys: Iterable[Key]) -> dict[Key, object]:
        keys = list(keys)

        def run() -> dict[Key, object]:
            found = zip(keys, self.get_client(None).mget(keys), strict=True)
            loaded = {key: self._load(key, data) for key, data in found if data is not None}
            return {key: value for key, value in loaded.items() if value is not None}

        return self._guarded(run, {})

    def has_key(self, key: Key) -> bool:
        return self._guarded(lambda: RedisCacheClient.has_key(self, key), False)

    def add(self, key: Key, value: object, timeout: Expiry | None) -> bool:
        # Not left stale when it fails: an `add` writes nothing over an older value, and what it
        # may have written before the connection dropped was current (a later write that makes
        # it stale deletes it, and that delete is kept if it fails).
        return self._guarded(lambda: RedisCacheClient.add(self, key, value, timeout), False)

    def set(self, key: Key, value: object, timeout: Expiry | None) -> None:
        self._guarded(lambda: RedisCacheClient.set(self, key, value, timeout), None, [key])

    def set_many(self, data: Mapping[Key, object], timeout: Expiry) -> None:
        self._guarded(lambda: RedisCacheClient.set_many(self, data, timeout), None, list(data))

    def touch(self, key: Key, timeout: Expiry) -> bool:
        return self._guarded(lambda: RedisCacheClient.touch(self, key, timeout), False, [key])

    def delete(self, key: Key) -> bool:
        return self._guarded(lambda: RedisCacheClient.delete(self, key), False, [key])

    def delete_many(self, keys: Iterable[Key]) -> None:
        keys = list(keys)
        self._guarded(lambda: RedisCacheClient.delete_many(self, keys), None, keys)


class TolerantRedisCache(RedisCache):
    """Django's `RedisCache` with `TolerantRedisCacheClient`: the project's cache backend.
    `incr`, `decr` and `clear` still raise during an outage (nothing here uses them; a Redis
    error that reaches a view answers 503, `config.exceptions.is_outage`)."""

    def __init__(self, server: str | list[str], params: dict[str, object]) -> None:
        super().__init__(server, params)
        self._class = TolerantRedisCacheClient
