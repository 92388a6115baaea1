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
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.http.response import HttpResponseBase
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

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


def conditional(
    request: Any,
    etag: str,
    build: Callable[[], R],
    *,
    version: tuple[int, int] | None = None,
    until: datetime | None = None,
) -> R | HttpResponseBase:
    """304 Not Modified when the client holds `etag` already; otherwise `build()`, tagged.
    `request` is Django's or DRF's (which passes its headers through). With `version`, the
    (tournament id, version) the tag was made from, for a URL whose first number is that
    tournament's id, the tag is remembered for the middleware's fast 304s, until the version
    moves or `until` passes."""
    headers = HttpResponse()
    _tag(headers, etag)
    answer = get_conditional_response(request, etag=etag, response=headers)
    if answer is not None and answer is not headers:
        return answer
    response = build()
    _tag(response, etag)
    if version is not None:
        _remember(request.get_full_path(), etag, version, until)
    return response


# The tags this process remembered lately: a poller asking again with a stale tag gets its 200
# without another write to the cache (the entry is there; the cache keeps it REMEMBER_SECONDS).
_remembered_here: dict[str, float] = {}
_HERE_SECONDS = 30.0


def _remember(path: str, etag: str, version: tuple[int, int], until: datetime | None) -> None:
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
        # `add`, not `set`: a write's commit may have stored a newer version meanwhile.
        cache.add(version_key(tournament_id), number, REMEMBER_SECONDS)


class NotModifiedMiddleware:
    """Answers a GET whose If-None-Match names a remembered, still current tag with a 304 at
    once, from one read of the cache (see the module's docstring); every other request goes
    on untouched."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        header = request.META.get("HTTP_IF_NONE_MATCH")
        if header and request.method in ("GET", "HEAD"):
            answer = self._not_modified(request, header)
            if answer is not None:
                return answer
        return self.get_response(request)

    def _not_modified(self, request: HttpRequest, header: str) -> HttpResponseBase | None:
        path = request.get_full_path()
        tournament = _FIRST_ID.search(request.path_info)
        if tournament is None:
            return None
        counter = version_key(int(tournament.group(1)))
        keys = [_remembered_key(path, tag) for tag in parse_etags(header)[:3]]
        found = cache.get_many([*keys, counter])
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
