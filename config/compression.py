"""Compressing the public answers, and only them (docs/operations.md, "Compression").

A compressed answer that carries a secret and reflects what a stranger put in the request can
leak that secret byte by byte through its length (BREACH). So an answer is gzipped only when it
holds none: a GET or HEAD of one of the public pages or their JSON (`PUBLIC`: names, chips,
seats, the clock, the payouts), from a client that sent no credentials (no session cookie, no
Authorization header: a signed-in director may see more on the same address), whose rendering
did not use the CSRF token (the token's cookie is in every answer that did). Everything else,
the desk, the tablets, the sign-in, the API's writes and every page with a form, goes as it is.
Django's GZipMiddleware adds up to 100 random bytes to each answer on top of that (its
"Heal the BREACH" mitigation), and makes a compressed answer's ETag weak, which the
conditional GETs compare weakly anyway (config/conditional.py).

Static files are not concerned: WhiteNoise serves them, already compressed at build time.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware

# The addresses (URL names) whose answers are the same for every anonymous visitor.
PUBLIC = frozenset(
    {
        "public-standings",
        "public-state",
        "public-seat-lookup",
        "public-payouts",
        "public-clock",
        "public-screen",
        "api-clock",
        "api-screen-board",
        "api-standings",
        "api-payouts",
        "api-seat-lookup",
    }
)


def compressible(request: HttpRequest, response: HttpResponseBase) -> bool:
    """Whether the answer may be compressed: a public one, with no secret in it."""
    match = request.resolver_match
    return (
        request.method in ("GET", "HEAD")
        and match is not None
        and match.url_name in PUBLIC
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "HTTP_AUTHORIZATION" not in request.META
        and settings.CSRF_COOKIE_NAME not in response.cookies
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    )


class PublicGZipMiddleware(GZipMiddleware):
    """Django's GZipMiddleware for the answers `compressible` allows; the others untouched."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not compressible(request, response):
            return response
        return super().process_response(request, response)
