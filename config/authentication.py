"""Who is signing in: the API's tokens, the sessions' user, and the client's address.

A tablet or another API client signs in for a token (`POST /api/auth/token/`, with a device
label; `tournaments/api/auth.py`) and sends `Authorization: Token <key>` on every request after:
no session, no CSRF token. The tokens are django-rest-knox's: one per sign-in, so one per
device; only a digest of the key is stored; each expires `API_TOKEN_HOURS` (12) after its last
use (knox moves the expiry on at most every `MIN_REFRESH_INTERVAL`, one UPDATE). A director
revokes them at /desk/access/; a user who is deactivated or leaves the dealer group loses them
all at once (`tournaments.services.access`). Browser pages keep the session.

Nothing about a user is remembered between requests: every request reads its token or its
session's user from the database, with the dealer role in the same query (`common.roles.
in_dealer_group`), so a change to a user, a token or the dealer group holds for every web
process at its next request, on the pages and the API alike. (Each process used to remember
checked tokens and session users for 30 s; that saved about 1.3 ms of CPU per tablet write, but
a removed dealer could keep writing from another process meanwhile.)

This module is imported while DRF's settings load: it must not import DRF's views.
"""

from __future__ import annotations

import binascii
from functools import cache
from hmac import compare_digest
from typing import Any, cast

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.db import connection
from django.http import HttpRequest
from django.utils import timezone
from knox import auth as knox_auth
from knox.crypto import hash_token
from knox.models import AuthToken, get_token_model
from knox.settings import CONSTANTS, knox_settings
from rest_framework import exceptions
from rest_framework.throttling import SimpleRateThrottle

from common.roles import DEALER_FLAG, in_dealer_group


def client_address(request: HttpRequest) -> str | None:
    """The address of the device sending `request`, for the sign-in lockouts (django-axes) and
    the API's throttles (DRF's `NUM_PROXIES`, the same rule): behind `PROXY_COUNT` proxies, each
    of which appends the address it saw to X-Forwarded-For, the one the outermost proxy saw;
    with no proxy, the connection's."""
    proxies = int(getattr(settings, "PROXY_COUNT", 0))
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies > 0 and forwarded:
        seen = [address.strip() for address in forwarded.split(",")]
        return seen[-min(proxies, len(seen))] or None
    return request.META.get("REMOTE_ADDR")


# A user id that no user has: the session user's statement is built once with it in its place.
_ANY_USER = -7_310_024


@cache
def _session_user_sql(vendor: str) -> tuple[str, tuple[object, ...], int]:
    """The statement reading a user by id with the dealer role (`in_dealer_group`), as the ORM
    writes it for this database, its parameters, and the place of the user's id among them.
    Built once per process: building the ORM's query for it on every request cost more than the
    database's work (the role is still read by the statement on every request)."""
    users = get_user_model()._default_manager.annotate(**{DEALER_FLAG: in_dealer_group("pk")})
    sql, params = users.filter(pk=_ANY_USER).query.sql_with_params()
    return sql, tuple(params), list(params).index(_ANY_USER)


class FloorBackend(ModelBackend):
    """Django's sign-in by username and password; a session's user is read with the dealer role
    in one query (`common.roles`), as a token's is, by a statement built once."""

    def get_user(self, user_id: int | str) -> User | None:  # the session keeps it as text
        try:
            pk = int(user_id)
        except (TypeError, ValueError):
            return None
        sql, params, place = _session_user_sql(connection.vendor)
        values = [*params[:place], pk, *params[place + 1 :]]
        user = next(iter(get_user_model()._default_manager.raw(sql, values)), None)
        return user if user is not None and self.user_can_authenticate(user) else None


class TokenAuthentication(knox_auth.TokenAuthentication):
    """knox's token check in one query (the token, its user and the user's dealer role), without
    knox's read of all the user's other tokens on every request: expired tokens are deleted when
    they are next sent, and when their user signs in again."""

    def authenticate_credentials(self, token: bytes) -> tuple[User, AuthToken]:
        try:
            key = token.decode("utf-8")
            digest = hash_token(key)
        except (UnicodeDecodeError, TypeError, binascii.Error) as error:
            raise exceptions.AuthenticationFailed("Invalid token.") from error
        candidates = (
            get_token_model()
            .objects.filter(token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH])
            .select_related("user")
            .annotate(**{DEALER_FLAG: in_dealer_group("user_id")})
        )
        for auth_token in candidates:
            if not compare_digest(digest, auth_token.digest):
                continue
            if auth_token.expiry is not None and auth_token.expiry < timezone.now():
                auth_token.delete()
                raise exceptions.AuthenticationFailed("The token has expired: sign in again.")
            if knox_settings.AUTO_REFRESH and auth_token.expiry is not None:
                self.renew_token(auth_token)
            setattr(auth_token.user, DEALER_FLAG, getattr(auth_token, DEALER_FLAG))
            return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed("Invalid token.")


class ClientThrottle(SimpleRateThrottle):
    """A rate per client (its address, `client_address`'s rule) and per door (`scope`, a key
    of REST_FRAMEWORK's rates), whoever is signed in or not, whatever the view."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class SignInThrottle(ClientThrottle):
    """Sign-ins from one client: `sign_in` in REST_FRAMEWORK's rates (20 a minute), on every
    door: the sign-in page, the admin's and the API's token endpoint. Per client, never per
    user: the one signing in is not known yet.

    A rate, not a lockout: the tablets of a venue behind one address (a NAT) share it, and a
    dealer mistyping a password must not lock out the floor; the accounts themselves are locked
    after failures (django-axes, per account)."""

    scope = "sign_in"


class ListJoinThrottle(ClientThrottle):
    """Players joining a waiting list from one client without an account (the public join page
    and its API): `list_join` in REST_FRAMEWORK's rates. Generous, since a room's players may
    share its Wi-Fi's address, but a script cannot fill a list with made-up names."""

    scope = "list_join"


class ListLookupThrottle(ClientThrottle):
    """Lookups of one list code by a client that has had it already (joined with it, or looked
    it up with success): `list_lookup` in REST_FRAMEWORK's rates, per client and code. Loose: a
    phone polls its place every 10 s (6 a minute), and the neighbours behind the room's address
    poll codes of their own, counted apart."""

    scope = "list_lookup"

    def __init__(self, code: str) -> None:
        super().__init__()
        self.code = code

    def get_cache_key(self, request: Any, view: Any) -> str:
        ident = f"{self.get_ident(request)}_{self.code}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class ListLookupMissThrottle(ClientThrottle):
    """Lookups of codes that are on no list, per client: `list_lookup_miss` in REST_FRAMEWORK's
    rates. Strict: a player mistypes a code now and then, a script guessing codes all the time.
    Asked before the lookup (`wait_now`, which counts nothing) and counted after a miss
    (`count`), so that past the rate every code is refused, a right one included."""

    scope = "list_lookup_miss"
    num_requests: int  # set from the rate by DRF's __init__ (the stubs do not say so)
    duration: int

    def wait_now(self, request: HttpRequest) -> float | None:
        """None while this client has misses left; else the seconds until it has one again."""
        self.key = self.get_cache_key(request, None)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        if len(self.history) < self.num_requests:
            return None
        return self.wait() or 60.0

    def count(self) -> None:
        """One more miss (after `wait_now` on the same request)."""
        self.throttle_success()


def client_wait(request: HttpRequest, throttle: ClientThrottle) -> float | None:
    """None when this client may go through `throttle`'s door now (and counts the visit);
    else the seconds to wait. For the pages; the API's views list the throttle themselves."""
    # DRF's throttle reads only the request's address (and no view): a page's request will do.
    if throttle.allow_request(cast(Any, request), cast(Any, None)):
        return None
    return throttle.wait() or 60.0


def sign_in_wait(request: HttpRequest) -> float | None:
    """None when this client may try to sign in now (and counts the try); else the seconds to
    wait. For the pages' sign-in doors; the API's token endpoint uses `SignInThrottle` itself."""
    return client_wait(request, SignInThrottle())


def session_hand_over(request: HttpRequest, user: User) -> None:
    """The browser session of `request` becomes `user`'s, with no password typed: the
    rotation's push on a shared tablet, once the incoming dealer's PIN is checked
    (`dealer.rotation.services.down_sign_in`). The outgoing user's session ends (Django's
    `login` starts a new session for another user: a new key, nothing carried over)."""
    login(request, user, backend=f"{FloorBackend.__module__}.{FloorBackend.__qualname__}")
