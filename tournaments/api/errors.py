"""The error bodies of the floor API, as serializers for the OpenAPI schema.

Every error answers `{"code", "detail"}` (see `config.exceptions`); invalid input adds `errors`,
the field errors. `responses(...)` builds an `@extend_schema` responses mapping with them.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="stable, for programs: `duplicate_registration`")
    detail = serializers.CharField(help_text="a sentence for the director")


class ValidationErrorSerializer(ErrorSerializer):
    errors = serializers.JSONField(  # type: ignore[assignment]  # the wire name
        help_text="the field errors: field name to a list of messages (nested for lists)"
    )


_DESCRIPTIONS = {
    400: "The request is invalid: malformed JSON, a field error, or a value the rules refuse.",
    403: "Not signed in, or not allowed (directors only).",
    404: "No such tournament, schedule or entry.",
    409: "Refused by the floor rules in the tournament's current state.",
}


def responses(ok: Any, *errors: int, status: int = 200) -> dict[int, Any]:
    """`{status: ok, 400: ..., 403: ..., ...}` for `@extend_schema(responses=...)`."""
    mapping: dict[int, Any] = {status: ok}
    for code in errors:
        body = ValidationErrorSerializer if code == 400 else ErrorSerializer
        mapping[code] = OpenApiResponse(body, description=_DESCRIPTIONS[code])
    return mapping


WRITE_ERRORS = (400, 403, 404, 409)
