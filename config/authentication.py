"""The API's token authentication (REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"]).

A tablet or another API client signs in once for a token (`POST /api/auth/token/`,
`tournaments/api/auth.py`) and sends `Authorization: Token <key>` on every request after: no
session, no CSRF token. The tokens are Django REST framework's (`rest_framework.authtoken`): one
per user, deleted to revoke (admin, "Tokens"), refused once the user is inactive. Browser pages
keep the session: the tablet page, the dashboard, and the API called from them.

A worker process remembers the tokens it has checked, with their users and the users' groups,
for `API_TOKEN_CACHE_SECONDS` (30 by default): a tablet's writes then cost no query for the
sign-in or the role check. Saving or deleting any user, token or group, or changing who is in
a group, forgets them all in the process that made the change; the other workers find out when
their entry expires. A tap on the tablet page (a session, not a token) has its user remembered
the same way (`session_user`).

This module is imported while DRF's settings load: it must not import DRF's views.
"""

from __future__ import annotations

import copy
import time
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user, get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.db.models import prefetch_related_objects
from django.db.models.signals import m2m_changed, post_delete, post_save
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

# key (a token's, or a session's user: `session_user`) -> (when to check again, the active user)
_CHECKED: dict[str, tuple[float, Any]] = {}
_CHECKED_MAX = 10_000  # a bound on memory; tokens are one per user


def forget_checked_tokens(**_: Any) -> None:
    """Every token is checked against the database again (a user or a token changed)."""
    _CHECKED.clear()


for _model in (settings.AUTH_USER_MODEL, Token, Group):
    post_save.connect(forget_checked_tokens, sender=_model, weak=False)
    post_delete.connect(forget_checked_tokens, sender=_model, weak=False)
# A user added to or taken out of a group (the dealers'), from either side.
m2m_changed.connect(forget_checked_tokens, sender=get_user_model().groups.through, weak=False)


@cache
def _token_user_sql() -> tuple[str, list[Any]]:
    user_model = get_user_model()
    fields = list(user_model._meta.concrete_fields)
    quote = connection.ops.quote_name
    sql = (
        f"SELECT {', '.join(f'u.{quote(f.column)}' for f in fields)} "
        f"FROM {quote(Token._meta.db_table)} t "
        f"JOIN {quote(user_model._meta.db_table)} u ON u.id = t.user_id WHERE t.key = %s"
    )
    return sql, fields


def _token_user(key: str) -> Any:
    sql, fields = _token_user_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [key])
        row = cursor.fetchone()
    if row is None:
        raise exceptions.AuthenticationFailed("Invalid token.")
    user = get_user_model().from_db(connection.alias, [f.attname for f in fields], row)
    if not user.is_active:
        raise exceptions.AuthenticationFailed("User inactive or deleted.")
    # Remembered with the user: the API's role check ("dealer" group) then costs no query.
    prefetch_related_objects([user], "groups")
    return user


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token check, with the token's user read in one plain SQL query (the ORM's work for
    this lookup cost more than the database's) and remembered for a while by each worker."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        now = time.monotonic()
        checked = _CHECKED.get(key)
        if checked is not None and checked[0] > now:
            user = copy.copy(checked[1])  # a request may set attributes on its user
        else:
            user = _token_user(key)
            lifetime = float(getattr(settings, "API_TOKEN_CACHE_SECONDS", 0))
            if lifetime > 0:
                if len(_CHECKED) >= _CHECKED_MAX:
                    _CHECKED.clear()
                _CHECKED[key] = (now + lifetime, copy.copy(user))
        return user, Token(key=key, user=user)


def session_user(request: Any) -> Any:
    """The signed-in user of a browser request, remembered as a token's user is: a tablet's tap
    (`dealer.views.tablet.record_action`) then reads neither the user nor the user's groups (the
    dealers' role, `tournaments.roles`), as the API's writes do not. Remembered by the session's
    user id and password hash, after Django's own sign-in check (`auth.get_user`: the session's
    backend, an active user, the password hash), which decides whenever the user is not
    remembered, or no more; forgotten as the tokens are."""
    session = getattr(request, "session", None)
    user_id = session.get(SESSION_KEY) if session is not None else None
    if session is None or user_id is None:
        return request.user
    key = f"session {user_id} {session.get(HASH_SESSION_KEY, '')}"
    now = time.monotonic()
    checked = _CHECKED.get(key)
    if checked is not None and checked[0] > now:
        return copy.copy(checked[1])
    user = get_user(request)
    lifetime = float(getattr(settings, "API_TOKEN_CACHE_SECONDS", 0))
    if user.is_authenticated and lifetime > 0:
        prefetch_related_objects([user], "groups")
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.clear()
        _CHECKED[key] = (now + lifetime, copy.copy(user))
    return user
