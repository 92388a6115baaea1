"""Where a refusal gets its HTTP status, for the API and the pages alike.

`status_of` is the one table: every domain error (`dealer.engine.errors.DomainError`: the
engine's, the floor services', the floor's pure modules') has a kind, and the kind picks the
status: `Invalid` 400, `Forbidden` 403, `NotFound` 404, `Conflict` 409. Pages that answer a
refusal with a status call it too, so a page and the API never disagree.

The API's exception handler answers every error as `{"code", "detail"}` with the right status:

- a domain error: `status_of` and its own code, with what a floor refusal adds to its answer
  (`FloorError.answer_fields`: a `likely_same_player` registration's `candidates`; a hand
  written against an older version, 409 `stale_version`, with the hand's current `state`, so
  the tablet can redraw without another request);
- invalid input: 400 `{"code": "invalid", "detail": <the first problem>, "errors": {field:
  [messages]}}`;
- DRF's own errors keep their status with their code: `parse_error` (malformed JSON, 400),
  `not_authenticated` / `permission_denied` (403), `not_found` (404), `method_not_allowed`, ...;
- a database refusal that validation did not catch (a race on a unique row, a value out of a
  column's range): 409 `conflict` or 400 `out_of_range`, logged, never a 500;
- the database not answering (`OperationalError`, `InterfaceError`), or Redis outside the
  cache (`redis.ConnectionError`, `redis.TimeoutError`): 503 `unavailable` with `Retry-After`,
  logged once (pages get the same from `config.outage.OutageMiddleware`).

Every 400 carries `errors`, as the schema says (`common.api.errors`): the field errors, or
`{"non_field_errors": [detail]}` for a problem of the whole request (malformed JSON, a value the
rules refuse), so a client reads one shape.

Outside DRF, `not_found` is Django's 404 handler: JSON under `/api/`, the HTML page elsewhere.

Anything else is a bug and stays a 500.
"""

from __future__ import annotations

import logging
import sys
from typing import Any, TypeVar

import redis
from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

from common.errors import FloorError
from dealer.engine.errors import Conflict, DomainError, Forbidden, Invalid, NotFound, kind_of

logger = logging.getLogger(__name__)
AnyResponse = TypeVar("AnyResponse", bound=HttpResponseBase)

STATUS_OF_KIND: dict[type[DomainError], int] = {
    Invalid: 400,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
}


def status_of(error: DomainError) -> int:
    """The HTTP status of a refusal, chosen by its kind (see the module docstring)."""
    return STATUS_OF_KIND[kind_of(error)]


API_PREFIX = "/api/"
RETRY_AFTER_SECONDS = 5
UNAVAILABLE_DETAIL = "The floor's database is not answering; try again in a few seconds."
NOT_FOUND_DETAIL = "There is nothing at this address in the floor's API."


def is_api_request(request: HttpRequest) -> bool:
    """Under `/api/` an answer is JSON, whatever went wrong; elsewhere a page."""
    return request.path_info.startswith(API_PREFIX)


# Redis not answering: the cache turns this into a miss (config/cache.py), but a call that does
# reach a view (anything outside the cache's reads and writes) is an outage too, not a bug.
REDIS_OUTAGES = redis.ConnectionError | redis.TimeoutError


def is_outage(exc: BaseException) -> bool:
    """The database (or Redis) is down or unreachable: the client should try again, it did
    nothing wrong."""
    return isinstance(exc, OperationalError | InterfaceError | REDIS_OUTAGES)


def unavailable(response: AnyResponse, exc: BaseException, path: str) -> AnyResponse:
    """Make `response` the 503 of an outage: `Retry-After`, logged here once (Django's request
    log would add a second line without the cause: `_has_been_logged` is its own flag)."""
    logger.error("The database is not answering (%s): %s", path, exc)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


def unavailable_response(request: HttpRequest, exc: BaseException) -> HttpResponseBase:
    """The 503 a page or a non-DRF API view answers during an outage."""
    if is_api_request(request):
        body = {"code": "unavailable", "detail": UNAVAILABLE_DETAIL}
        return unavailable(JsonResponse(body, status=503), exc, request.path)
    page = HttpResponse(
        "<!doctype html><title>Try again</title>"
        f"<h1>Try again in a few seconds</h1><p>{UNAVAILABLE_DETAIL}</p>",
        status=503,
    )
    return unavailable(page, exc, request.path)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 handler (`handler404`): `{"code": "not_found", "detail"}` for an address
    under `/api/` that no view answers (`/api/hands/abc/`), Django's page for the rest."""
    if is_api_request(request):
        return JsonResponse({"code": "not_found", "detail": NOT_FOUND_DETAIL}, status=404)
    return defaults.page_not_found(request, exception)


BAD_REQUEST_DETAIL = (
    "The request could not be read: too many fields, too large, or a header the server "
    "refuses. Send it again as the API describes it."
)
SERVER_ERROR_DETAIL = "Something went wrong on the server; it is logged. Try again."


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400 handler (`handler400`): a request Django itself refused before any view
    (too many fields, too large a body, a bad Host): JSON with `errors` under `/api/`, as every
    400 of the API, Django's page for the rest."""
    if is_api_request(request):
        body = {
            "code": "bad_request",
            "detail": BAD_REQUEST_DETAIL,
            "errors": {"non_field_errors": [BAD_REQUEST_DETAIL]},
        }
        return JsonResponse(body, status=400)
    return defaults.bad_request(request, exception)


def server_error(request: HttpRequest) -> HttpResponseBase:
    """Django's 500 handler (`handler500`), for an error no view caught (one raised inside a
    middleware, a session saved after the view): an outage is still a 503 with Retry-After,
    and under `/api/` the answer is JSON."""
    exc = sys.exc_info()[1]
    if exc is not None and is_outage(exc):
        return unavailable_response(request, exc)
    if is_api_request(request):
        return JsonResponse({"code": "server_error", "detail": SERVER_ERROR_DETAIL}, status=500)
    return defaults.server_error(request)


def _error(code: str, detail: str, status: int, **extra: object) -> Response:
    set_rollback()
    if status == 400:
        extra.setdefault("errors", {"non_field_errors": [detail]})
    return Response({"code": code, "detail": detail, **extra}, status=status)


def _first_problem(errors: object, path: str = "") -> str:
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


def _join(path: str, key: object) -> str:
    """`levels` + 2 -> `levels[2]`; `levels[2]` + `big_blind` -> `levels[2].big_blind`."""
    if key == "non_field_errors":
        return path
    if isinstance(key, int) or str(key).isdigit():
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def _invalid(errors: object) -> Response:
    if not isinstance(errors, dict):
        errors = {"non_field_errors": errors}
    return _error("invalid", _first_problem(errors), 400, errors=errors)


def floor_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """REST_FRAMEWORK's EXCEPTION_HANDLER; `context` is DRF's, passed on to its own handler."""
    if isinstance(exc, FloorError):
        return _error(exc.code, exc.detail, status_of(exc), **exc.answer_fields())
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
    if is_outage(exc):
        outage = _error("unavailable", UNAVAILABLE_DETAIL, 503)
        return unavailable(outage, exc, context["request"].path)
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
    if response.status_code == 400:  # parse_error
        response.data["errors"] = {"non_field_errors": [str(exc.detail)]}
    return response
