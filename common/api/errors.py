"""The error bodies of the API (both apps'), as serializers for the OpenAPI schema.

Every error answers `{"code", "detail"}` (see `config.exceptions`); every 400 adds `errors`, the
field errors (`non_field_errors` for a problem of the whole request). `responses(...)` builds an
`@extend_schema` responses mapping with them; `FloorAutoSchema` adds to every operation the
answers any of them may give whatever it does: 503 when the database is down, and 415 for a
body in a type the API does not read.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="stable, for programs: `duplicate_registration`")
    detail = serializers.CharField(help_text="a sentence for the director")


class ValidationErrorSerializer(ErrorSerializer):
    errors = serializers.JSONField(  # type: ignore[assignment]  # the wire name
        help_text="the field errors: field name to a list of messages (nested for lists); "
        "`non_field_errors` for a problem of the whole request"
    )


_DESCRIPTIONS = {
    400: "The request is invalid: malformed JSON, a field error, or a value the rules refuse.",
    403: "Not signed in, or not allowed (directors only).",
    404: "No such tournament, schedule or entry.",
    409: "Refused by the floor rules in the tournament's current state.",
    415: "`unsupported_media_type`: the body is not JSON (nor a form).",
    503: "`unavailable`: the database is not answering; retry after `Retry-After` seconds.",
}


def responses(ok: object, *errors: int, status: int = 200) -> dict[int, object]:
    """`{status: ok, 400: ..., 403: ..., ...}` for `@extend_schema(responses=...)`."""
    mapping: dict[int, object] = {status: ok}
    for code in errors:
        body = ValidationErrorSerializer if code == 400 else ErrorSerializer
        mapping[code] = OpenApiResponse(body, description=_DESCRIPTIONS[code])
    return mapping


WRITE_ERRORS = (400, 403, 404, 409)


class FloorAutoSchema(AutoSchema):
    """The schema of an API view, with the answers every view may give (see the module)."""

    def _get_response_bodies(self, direction: Any = "response") -> Any:
        bodies = super()._get_response_bodies(direction)
        extra = [503]
        if self.method in ("POST", "PUT", "PATCH") and self.get_request_serializer():
            extra.append(415)
        for code in extra:
            body = OpenApiResponse(ErrorSerializer, description=_DESCRIPTIONS[code])
            bodies.setdefault(
                str(code),
                self._get_response_for_code(body, str(code), media_types=["application/json"]),
            )
        return bodies
