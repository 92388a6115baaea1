"""A place on a list looked up by its code, from a phone with no account: the code form, the
place page, its poll and the API all come through `place_lookup`, rate-limited per client.

A code is six characters out of 32 (about a billion codes), so guessing is slow only if the
guesses are few: codes that are on no list (misses) are counted strictly per client
(`LIST_LOOKUP_MISS_RATE`, `config.authentication.ListLookupMissThrottle`), and past that rate a
client is refused for every code, a right one included, or it could go on guessing and only
read the answers that are not 429. A code the client already has (it joined with it, or looked
it up with success: remembered in the cache for `SEEN_SECONDS`) is looked up apart, by a loose
rate per client and code (`LIST_LOOKUP_RATE`): a phone polling its place every 10 s is never
refused, even when someone behind the same address (the room's Wi-Fi) has used up the misses.
"""

from __future__ import annotations

from typing import Any, cast

from django.core.cache import cache
from django.http import Http404, HttpRequest

from config.authentication import ListLookupMissThrottle, ListLookupThrottle, client_wait
from dealer.cash.games.selectors import PlaceView, waitlist_place

CODE_MAX = 12  # a list code is six letters and digits; longer input is not one
SEEN_SECONDS = 24 * 3600  # longer than an evening on a list


class LookupRefusedError(Exception):
    """Too many lookups from this client: retry in `wait` seconds."""

    def __init__(self, wait: float) -> None:
        super().__init__(wait)
        self.wait = wait


def code_clean(code: str) -> str | None:
    """The code as stored (upper case), or None if it cannot be one."""
    code = code.strip().upper()
    return code if code and code.isalnum() and len(code) <= CODE_MAX else None


def _seen_key(request: HttpRequest, code: str) -> str:
    # DRF's throttles read only the request's address: a page's request will do.
    return f"list_seen_{ListLookupThrottle(code).get_ident(cast(Any, request))}_{code}"


def code_remember(request: HttpRequest, code: str) -> None:
    """This client has `code` (it joined with it): its lookups of it are counted loosely."""
    cache.set(_seen_key(request, code), True, SEEN_SECONDS)


def lookup_check(request: HttpRequest, code: str | None) -> None:
    """Raise `LookupRefusedError` if this client may not look up `code` now (None: a code that
    cannot be one), counting nothing: for the code form, which only leads to the place page."""
    if code is not None and cache.get(_seen_key(request, code)):
        return
    wait = ListLookupMissThrottle().wait_now(request)
    if wait is not None:
        raise LookupRefusedError(wait)


def place_lookup(request: HttpRequest, code: str) -> PlaceView:
    """The place with this code (`waitlist_place`), for this client, counted against its rates:
    `LookupRefusedError` past them, Http404 (and a miss counted) for a code on no list."""
    clean = code_clean(code)
    if clean is not None and cache.get(_seen_key(request, clean)):
        wait = client_wait(request, ListLookupThrottle(clean))
        if wait is not None:
            raise LookupRefusedError(wait)
        return waitlist_place(clean)
    misses = ListLookupMissThrottle()
    wait = misses.wait_now(request)
    if wait is not None:
        raise LookupRefusedError(wait)
    try:
        place = waitlist_place(clean or "")
    except Http404:
        misses.count()
        raise
    code_remember(request, place.code)
    return place
