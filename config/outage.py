"""A database outage answers 503 with `Retry-After`, not a 500 (issue 12).

When PostgreSQL restarts or the network to it drops, every request fails with an
`OperationalError` or `InterfaceError`. That is not the client's fault nor a bug to page anyone
about per request: a tablet should wait a few seconds and resend (its writes carry a client id,
so a resend is safe), a director should see a page saying so. This middleware turns the error
into that answer for pages and non-DRF views; the API's views get the same from the DRF exception
handler (`config.exceptions`), which sees the error first. Both log it once.

Errors raised inside another middleware (a session read before the view or saved after it) do
not reach a `process_exception`: Django's 500 handler (`config.exceptions.server_error`) answers
them with the same 503 (tests/operations/test_database_outage.py).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

from config.exceptions import is_outage, unavailable_response


class OutageMiddleware:
    """`process_exception`: a view that met a database outage answers 503 (JSON under
    `/api/`, a short page elsewhere)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponseBase | None:
        if is_outage(exception):
            return unavailable_response(request, exception)
        return None
