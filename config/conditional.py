"""Conditional GET, one way for every polled answer (the public pages, the API, the tablets).

An answer's ETag names the version of what it shows, taken from counters that writes move on
(a tournament's `version`, a hand's `version`), never from the rendered body: deciding on a 304
costs the read of the row that holds the counter, and nothing is built or rendered for it.
Django's own `get_conditional_response` compares the tag with If-None-Match (weak comparison,
`*`, several tags) and answers 304, or 412 for a failed If-Match.

`Cache-Control: no-cache` lets a browser or a proxy keep the answer but makes it ask again,
with If-None-Match, before each use.

The public pollers (thousands of phones, the big screens) take a shorter way still: an answer
tagged from a tournament's version is remembered in the cache by its URL, with that version and
the moment it stops being right by time (a clock level's end), and `NotModifiedMiddleware`
answers the next request for that URL with the same tag by a 304 before sessions, users or the
database are touched, as long as the tournament's version in the cache (`version_key`) is still
the one remembered. A write that moves the version deletes that entry at once and writes the new
version after its commit (`tournaments.services.versions`), so a remembered tag is never taken
for a changed answer; when in doubt (nothing in the cache) the request goes the whole way.

The same middleware serves the public 200s of the busiest polls (the phone's standings part, the
standings API, the clock feed) from the cache (issue 28, "render once per version and serve
that"): a view that passes `keep` has its answer (status 200, the headers as the views and the
middleware after this one left them, the body) kept by its URL and the request's `Accept`, with
the tournament's version and the moment it stops being right by time; the next request for it
gets those bytes from one read of the cache (the version, and its tags if it named some; the
body too unless this process holds a copy, checked against that version as the cache's is),
without a session, a user, a view, a query or a template. A kept answer is for one audience
only, the public: a request with a session cookie or an `Authorization` header (a director, a
dealer, a device's token) never reads one nor has its answer kept, and an answer that sets a
cookie is never kept. Parts of an answer that move with time (the clock's countdown and the
server's time) are not kept: the view gives a `tail`, called for each answer with the
request's time, whose bytes end the body.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.http.response import HttpResponseBase
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

from config import request_time

R = TypeVar("R", bound=HttpResponseBase)


def _tag(response: HttpResponseBase, etag: str) -> None:
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)


REMEMBER_SECONDS = 600
_REMEMBERED = "floordesk:not-modified:"
_FIRST_ID = re.compile(r"/(\d+)/")


def version_key(tournament_id: int) -> str:
    """The cache key of a tournament's version, as the fast 304s compare it."""
    return f"floordesk:tournament-version:{tournament_id}"


def _remembered_key(path: str, etag: str) -> str:
    # Hashed: a URL with a long query string makes a key longer than a cache accepts.
    name = f"{path}|{etag.removeprefix('W/')}".encode()
    return _REMEMBERED + hashlib.blake2b(name, digest_size=16).hexdigest()


# A part of a kept answer that moves with time: its bytes at the request's time.
Tail = Callable[[datetime], bytes]


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep a public 200 for the next requests of its URL (see the module's docstring). With
    `tail`, the body `build()` makes is the fixed part and each answer ends with `tail(now)`."""

    tail: Tail | None = None


def conditional(
    request: HttpRequest,
    etag: str,
    build: Callable[[], R],
    *,
    version: tuple[int, str] | None = None,
    until: datetime | None = None,
    keep: Keep | None = None,
) -> R | HttpResponseBase:
    """304 Not Modified when the client holds `etag` already; otherwise `build()`, tagged.
    `request` is Django's or DRF's (which passes its headers through). With `version`, the
    tournament's id and its version mark (`selectors.version_mark`: the version and the
    creation time) the tag was made from, for a URL whose first number is that
    tournament's id, the tag is remembered for the middleware's fast 304s, until the version
    moves or `until` passes; with `keep` as well, the answer itself, for the fast 200s."""
    headers = HttpResponse()
    _tag(headers, etag)
    answer = get_conditional_response(request, etag=etag, response=headers)
    if answer is not None and answer is not headers:
        return answer
    response = build()
    _tag(response, etag)
    if version is not None:
        _remember(request.get_full_path(), etag, version, until)
        if keep is not None and isinstance(response, HttpResponse):
            fixed = response.content
            if keep.tail is not None:
                response.content = fixed + keep.tail(request_time.now())
            moment = until.timestamp() if until else None
            setattr(response, _KEPT_MARK, _Kept(etag, *version, moment, (), fixed, keep.tail))
    return response


# The tags this process remembered lately: a poller asking again with a stale tag gets its 200
# without another write to the cache (the entry is there; the cache keeps it REMEMBER_SECONDS).
_remembered_here: dict[str, float] = {}
_HERE_SECONDS = 30.0


def _remember(path: str, etag: str, version: tuple[int, str], until: datetime | None) -> None:
    key = _remembered_key(path, etag)
    now = time.monotonic()
    if _remembered_here.get(key, 0.0) > now:
        return
    if len(_remembered_here) > 10_000:
        _remembered_here.clear()
    _remembered_here[key] = now + _HERE_SECONDS
    tournament_id, number = version
    entry = (etag, tournament_id, number, until.timestamp() if until else None)
    if cache.add(key, entry, REMEMBER_SECONDS):
        _version_add(tournament_id, number)


def _version_add(tournament_id: int, mark: str) -> None:
    """Stores the version the fast answers compare with, read from the row: with `add`, not
    `set`, since a write's commit may have stored a newer one meanwhile. One left by another
    tournament of the same id (another database, a test database made again: a mark names
    the tournament, its creation time included, then its version after the last dot) is
    replaced: no write of this tournament can have stored it."""
    key = version_key(tournament_id)
    if cache.add(key, mark, REMEMBER_SECONDS):
        return
    found = cache.get(key)
    if found is None:  # gone since, or the cache is not answering: the next request adds it
        return
    if isinstance(found, str) and found.rpartition(".")[0] == mark.rpartition(".")[0]:
        return
    cache.set(key, mark, REMEMBER_SECONDS)


# --- kept answers (the fast 200s) ------------------------------------------------------------

_KEPT = "floordesk:kept:"
_KEPT_MARK = "floordesk_kept"
# Not kept: the length is the body's at each answer (a tail's may change).
_NOT_KEPT_HEADERS = frozenset({"content-length", "set-cookie"})
# What the pollers send as `Accept`: none (not an empty one, which DRF refuses with a 406),
# htmx's and the browsers' default, the screens' JSON.
KEPT_ACCEPTS = frozenset({None, "*/*", "application/json"})
# A request naming a condition other than If-None-Match goes the whole way (Django decides).
_OTHER_CONDITIONS = ("HTTP_IF_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_UNMODIFIED_SINCE")


@dataclass(frozen=True, slots=True)
class _Kept:
    """A kept answer as the cache holds it: its tag, the (tournament, version) it shows, the
    moment (epoch seconds) it stops being right by time, its headers, the fixed part of its
    body and the tail that ends it."""

    etag: str
    tournament_id: int
    version: str
    until: float | None
    headers: tuple[tuple[str, str], ...]
    body: bytes
    tail: Tail | None


def _public(request: HttpRequest) -> bool:
    """The one audience a kept answer is for: no session and no token (see the docstring)."""
    return (
        settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "HTTP_AUTHORIZATION" not in request.META
        and not any(name in request.META for name in _OTHER_CONDITIONS)
    )


def _kept_key(request: HttpRequest) -> str | None:
    """What a kept body depends on, besides the audience: the URL with its query string (page,
    limit, filters; a view keeps only the query strings it writes itself) and the
    representation asked for (DRF chooses it by `Accept`). None for an `Accept` other than the
    pollers' (`KEPT_ACCEPTS`): such a request goes the whole way, and its answer is not kept,
    so that made-up headers cannot fill the cache."""
    accept = request.META.get("HTTP_ACCEPT")
    if accept not in KEPT_ACCEPTS:
        return None
    name = f"{request.get_full_path()}|{accept}".encode()
    return _KEPT + hashlib.blake2b(name, digest_size=16).hexdigest()


# The kept answers this process served lately, by key: checked against the version in the cache
# as the cache's own copy is, so that a 200 reads only the version (and its tags) from Redis,
# not the body again. Bounded: the oldest goes first.
_kept_here: dict[str, _Kept] = {}
_KEPT_HERE_MOST = 128


def _hold(key: str, entry: _Kept) -> None:
    _kept_here.pop(key, None)
    _kept_here[key] = entry
    while len(_kept_here) > _KEPT_HERE_MOST:
        _kept_here.pop(next(iter(_kept_here)))


def _current(entry: _Kept, found: Mapping[str, object], counter: str) -> bool:
    """The kept answer still holds: its tournament's version in the cache is the one it was
    kept with, and its time (a clock level's end) has not passed."""
    if version_key(entry.tournament_id) != counter or found.get(counter) != entry.version:
        return False
    return entry.until is None or request_time.now().timestamp() < entry.until


def _kept_entry(key: str, counter: str, found: Mapping[str, object] | None) -> _Kept | None:
    """The kept answer at `key` if it still holds: this process's copy, else the cache's.
    `found` holds the version already read with the tags, or None: it is read here, with the
    answer unless this process holds one."""
    here = _kept_here.get(key)
    asked = False
    if found is None:
        asked = here is None
        found = cache.get_many([key, counter] if asked else [counter])
    if here is not None and _current(here, found, counter):
        return here
    entry = found.get(key) if asked else cache.get(key)
    if not isinstance(entry, _Kept) or not _current(entry, found, counter):
        return None
    _hold(key, entry)
    return entry


def _kept_answer(request: HttpRequest, kept: _Kept) -> HttpResponseBase:
    body = kept.body
    if kept.tail is not None:
        body += kept.tail(request_time.now())
    response = HttpResponse(body)
    for name, value in kept.headers:
        response[name] = value
    response["Content-Length"] = str(len(body))
    answer = get_conditional_response(request, etag=kept.etag, response=response)
    return response if answer is None else answer


def _keep(key: str, counter: str, response: HttpResponseBase) -> None:
    """Keeps an answer its view marked (`conditional(keep=...)`), with the headers it has now."""
    kept = getattr(response, _KEPT_MARK, None)
    if not isinstance(kept, _Kept) or version_key(kept.tournament_id) != counter:
        return
    if response.status_code != 200 or response.cookies or response.streaming:
        return
    if kept.until is not None and request_time.now().timestamp() >= kept.until:
        return  # right by time no longer (a clock in overtime): built at each request
    headers = tuple(
        (name, value)
        for name, value in response.headers.items()
        if name.lower() not in _NOT_KEPT_HEADERS
    )
    entry = _Kept(
        kept.etag, kept.tournament_id, kept.version, kept.until, headers, kept.body, kept.tail
    )
    cache.set(key, entry, REMEMBER_SECONDS)
    _hold(key, entry)
    _version_add(kept.tournament_id, kept.version)


class NotModifiedMiddleware:
    """Answers a GET whose If-None-Match names a remembered, still current tag with a 304 at
    once, and a public GET of a kept, still current answer with that answer, from the cache
    (see the module's docstring); every other request goes on untouched, and a public one may
    leave its answer kept on its way out."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        tournament = _FIRST_ID.search(request.path_info)
        if request.method not in ("GET", "HEAD") or tournament is None:
            return self.get_response(request)
        header = request.META.get("HTTP_IF_NONE_MATCH", "")
        path = request.get_full_path()
        tags = [_remembered_key(path, tag) for tag in parse_etags(header)[:3]] if header else []
        public = request.method == "GET" and _public(request)
        if not tags and not public:
            return self.get_response(request)
        try:
            request.get_host()  # ALLOWED_HOSTS, as the whole way checks it
        except DisallowedHost:
            return self.get_response(request)
        counter = version_key(int(tournament.group(1)))
        found: dict[str, Any] = {}
        if tags:  # the tags first: a 304 does not read a kept body
            found = cache.get_many([*tags, counter])
            answer = self._not_modified(found, tags, counter)
            if answer is not None:
                return answer
        kept = _kept_key(request) if public else None
        if kept is not None:
            entry = _kept_entry(kept, counter, found if tags else None)
            if entry is not None:
                return _kept_answer(request, entry)
        response = self.get_response(request)
        if kept is not None:
            _keep(kept, counter, response)
        return response

    def _not_modified(
        self, found: Mapping[str, Any], keys: list[str], counter: str
    ) -> HttpResponseBase | None:
        for key in keys:
            entry = found.get(key)
            if entry is None:
                continue
            etag, tournament_id, number, until = entry
            if version_key(tournament_id) != counter or found.get(counter) != number:
                continue
            if until is not None and time.time() >= until:
                continue
            response = HttpResponseNotModified()
            _tag(response, etag)
            return response
        return None


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="the ETag of the last answer: 304 Not Modified while it still holds",
)
ETAG_HEADER = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="the answer's version, for If-None-Match",
    response=[200, 304],
)
