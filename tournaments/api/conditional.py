"""Conditional GET for the public polling endpoints: ETag and If-None-Match (304).

The ETag is the SHA-1 of the payload's canonical JSON (sorted keys, no spaces), so it changes
exactly when what the page shows changes, on every web process alike, with nothing stored.
Fields that move with every request (the server's time, a countdown) are passed as `volatile`:
they are sent in a 200 but left out of the tag, which is then weak (`W/"..."`): two answers with
the same weak tag mean the same thing (RFC 9110, 8.8.1).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

# Caches (the browser, a proxy) may keep the answer but must ask again before using it.
CACHE_CONTROL = "no-cache"


def payload_etag(payload: Mapping[str, Any], *, weak: bool = False) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), cls=DjangoJSONEncoder)
    digest = hashlib.sha1(canonical.encode(), usedforsecurity=False).hexdigest()
    return f'W/"{digest}"' if weak else f'"{digest}"'


def _opaque(tag: str) -> str:
    tag = tag.strip()
    return tag[2:] if tag.startswith("W/") else tag


def none_match(request: Request, etag: str) -> bool:
    """True when If-None-Match names `etag` (weak comparison) or is `*`."""
    header = request.headers.get("If-None-Match", "")
    if not header:
        return False
    tags = [_opaque(tag) for tag in header.split(",")]
    return "*" in tags or _opaque(etag) in tags


def conditional_response(
    request: Request,
    payload: Mapping[str, Any],
    *,
    volatile: Mapping[str, Any] | None = None,
) -> Response:
    """200 with the payload and its ETag, or 304 (no body) when the client has it already."""
    etag = payload_etag(payload, weak=volatile is not None)
    headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL}
    if none_match(request, etag):
        return Response(status=304, headers=headers)
    return Response({**payload, **(volatile or {})}, headers=headers)


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="the ETag of the last answer: 304 Not Modified while it still holds",
)
ETAG_HEADER = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="the answer's version, for If-None-Match",
    response=[200, 304],
)
