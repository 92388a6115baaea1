"""The API's token authentication (REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"]).

A tablet or another API client signs in once for a token (`POST /api/auth/token/`,
`tournaments/api/auth.py`) and sends `Authorization: Token <key>` on every request after: no
session, no CSRF token. The tokens are Django REST framework's (`rest_framework.authtoken`): one
per user, deleted to revoke (admin, "Tokens"), refused once the user is inactive. Browser pages
keep the session: the tablet page, the dashboard, and the API called from them.

This module is imported while DRF's settings load: it must not import DRF's views.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token


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


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token check, with the token's user read in one plain SQL query: the ORM's work
    for this lookup cost more than the database's, on every tablet request."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        sql, fields = _token_user_sql()
        with connection.cursor() as cursor:
            cursor.execute(sql, [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        user = get_user_model().from_db(connection.alias, [f.attname for f in fields], row)
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return user, Token(key=key, user=user)
