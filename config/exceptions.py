"""Where a refusal gets its HTTP status, for the API and the pages alike.

`status_of` is the one table: every domain error (`dealer.engine.errors.DomainError`: the
engine's, the floor services', the floor's pure modules') has a kind, and the kind picks the
status: `Invalid` 400, `Forbidden` 403, `NotFound` 404, `Conflict` 409. Pages that answer a
refusal with a status call it too, so a page and the API never disagree.

The API's exception handler answers every error as `{"code", "detail"}` with the right status:

- a domain error: `status_of` and its own code; a hand written against an older version
  (`StaleVersionError`, a conflict): 409 `stale_version` with the hand's current `state`, so the
  tablet can redraw without another request;
- invalid input: 400 `{"code": "invalid", "detail": <the first problem>, "errors": {field:
  [messages]}}`;
- DRF's own errors keep their status with their code: `parse_error` (malformed JSON, 400),
  `not_authenticated` / `permission_denied` (403), `not_found` (404), `method_not_allowed`, ...;
- a database refusal that validation did not catch (a race on a unique row, a value out of a
  column's range): 409 `conflict` or 400 `out_of_range`, logged, never a 500.

Anything else is a bug and stays a 500.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

from dealer.engine.errors import Conflict, DomainError, Forbidden, Invalid, NotFound, kind_of
from dealer.services import StaleVersionError

logger = logging.getLogger(__name__)

STATUS_OF_KIND: dict[type[DomainError], int] = {
    Invalid: 400,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
}


def status_of(error: DomainError) -> int:
    """The HTTP status of a refusal, chosen by its kind (see the module docstring)."""
    return STATUS_OF_KIND[kind_of(error)]


def _error(code: str, detail: str, status: int, **extra: Any) -> Response:
    set_rollback()
    return Response({"code": code, "detail": detail, **extra}, status=status)


def _first_problem(errors: Any, path: str = "") -> str:
    """The first message of a (nested) DRF error structure, with where it is: "levels[2].big_blind:
    Ensure this value is greater than or equal to 0."."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            if value:
                return _first_problem(value, _join(path, key))
    elif isinstance(errors, list):
        for index, value in enumerate(errors):
            if isinstance(value, dict | list):
                if value:
                    return _first_problem(value, _join(path, index))
            elif value:
                return f"{path}: {value}" if path else str(value)
    elif errors:
        return f"{path}: {errors}" if path else str(errors)
    return "The request is invalid."


def _join(path: str, key: Any) -> str:
    """`levels` + 2 -> `levels[2]`; `levels[2]` + `big_blind` -> `levels[2].big_blind`."""
    if key == "non_field_errors":
        return path
    if isinstance(key, int) or str(key).isdigit():
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def _invalid(errors: Any) -> Response:
    if not isinstance(errors, dict):
        errors = {"non_field_errors": errors}
    return _error("invalid", _first_problem(errors), 400, errors=errors)


def floor_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, StaleVersionError):
        return _error(exc.code, exc.detail, status_of(exc), state=exc.hand.state)
    if isinstance(exc, DomainError):
        return _error(exc.code, exc.detail, status_of(exc))
    if isinstance(exc, exceptions.ValidationError):
        return _invalid(exc.detail)
    if isinstance(exc, DjangoValidationError):
        return _invalid(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    if isinstance(exc, IntegrityError):
        logger.warning("API request refused by the database: %s", exc)
        return _error("conflict", "The request conflicts with a change just made: retry.", 409)
    if isinstance(exc, DataError):
        logger.warning("API request refused by the database: %s", exc)
        return _error("out_of_range", "A value is out of the range the floor can store.", 400)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else "error"
    response.data = {"code": code, "detail": str(exc.detail)}
    return response
