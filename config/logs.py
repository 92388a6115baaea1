"""Logs: one JSON object per line, each carrying the id of the request it was written for.

A request's id comes from the proxy (`X-Request-ID`, when it is a sane token) or is made here;
it is answered in the same header, so a director's "it failed at 20:41" and the proxy's line
lead to every line the request wrote: the access line, a refusal, a traceback. The id lives in
a context variable, which the logging filter copies into every record.

`LOG_FORMAT=json` (the default when DEBUG is off) writes the lines for a log collector;
`LOG_FORMAT=text` writes them for a person at a terminal (the default under `make run`).
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from django.core.signals import request_finished

if TYPE_CHECKING:  # settings import this module: no Django that reads them
    from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
# What an incoming id may look like: a proxy's or a client's token, never a log line of its own.
SANE_ID = re.compile(r"[A-Za-z0-9._:@/+=-]{1,128}")

request_id: ContextVar[str] = ContextVar("request_id", default="-")

access_log = logging.getLogger("floordesk.access")

# Attributes every LogRecord has: whatever else a record carries was passed as `extra`.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}
# The access line's fields, in this order after the standard ones.
_FIELDS = ("method", "path", "status", "duration_ms")


class RequestIdMiddleware:
    """Give each request an id, answer it in `X-Request-ID`, and log one access line.

    First in MIDDLEWARE: the id is set before anything else logs, and the access line covers
    every answer, the 304s and redirects of the middleware after it included.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get(HEADER, "")
        rid = incoming if SANE_ID.fullmatch(incoming) else uuid.uuid4().hex
        # Kept until the answer is sent (`request_finished`): Django logs a 4xx answer after the
        # last middleware has returned it.
        request_id.set(rid)
        start = time.perf_counter()
        response = self.get_response(request)
        response[HEADER] = rid
        access_log.info(
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - start) * 1000, 1),
            },
        )
        return response


def _forget_request_id(**_: object) -> None:
    request_id.set("-")


request_finished.connect(_forget_request_id, dispatch_uid="config.logs.forget_request_id")


class RequestIdFilter(logging.Filter):
    """Copy the current request's id (or "-" outside a request) into every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request_id, the fields a record
    was given as `extra` (the access line's method, path, status, duration_ms), the exception."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", request_id.get()),
        }
        for key in _FIELDS:
            if key in record.__dict__:
                line[key] = record.__dict__[key]
        for key, value in record.__dict__.items():
            if key not in _STANDARD and key not in line:
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str)


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"


def logging_config(*, log_format: str, level: str) -> dict[str, object]:
    """The LOGGING setting: everything to standard error, as JSON lines or text."""
    if log_format not in {"json", "text"}:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(f"LOG_FORMAT={log_format!r}: use json or text.")
    formatter: dict[str, object] = (
        {"()": "config.logs.JsonFormatter"} if log_format == "json" else {"format": TEXT_FORMAT}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "config.logs.RequestIdFilter"}},
        "formatters": {"line": formatter},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["request_id"],
                "formatter": "line",
            },
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Through the one handler above, not Django's own console handler as well.
            "django": {"level": "INFO"},
            # The access line above replaces runserver's (and gunicorn's: config/gunicorn.conf.py).
            "django.server": {"level": "WARNING"},
        },
    }
