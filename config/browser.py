"""The Permissions-Policy header: the browser features our pages never use, switched off.

A page that is made to carry someone else's script (or a frame) still cannot ask for the camera,
the microphone, the location or a payment. The features and their allowed origins are the
PERMISSIONS_POLICY setting; the Content-Security-Policy is django-csp's (csp.middleware) and the
Referrer-Policy Django's (SECURE_REFERRER_POLICY). See docs/operations.md, "Browser security
headers".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase


def permissions_policy(features: Mapping[str, Sequence[str]]) -> str:
    """The header's value: `camera=()` for a feature no one may use, `name=(self "https://x")`
    for one that the listed origins may use ("self" is written bare, origins quoted)."""

    def allowlist(origins: Sequence[str]) -> str:
        return " ".join(origin if origin in ("self", "*") else f'"{origin}"' for origin in origins)

    return ", ".join(f"{name}=({allowlist(origins)})" for name, origins in features.items())


class PermissionsPolicyMiddleware:
    """Adds the Permissions-Policy header to every answer that has none of its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.value = permissions_policy(getattr(settings, "PERMISSIONS_POLICY", {}))

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if self.value:
            response.headers.setdefault("Permissions-Policy", self.value)
        return response
