"""How the API's schema describes its token sign-in (drf-spectacular cannot guess it for our own
authentication class): `Authorization: Token <key>`, a key from `POST /api/auth/token/`.

Imported when the apps are ready (`tournaments.apps`), so that the extension is registered
before any schema is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drf_spectacular.extensions import OpenApiAuthenticationExtension

if TYPE_CHECKING:
    from drf_spectacular.openapi import AutoSchema


class TokenScheme(OpenApiAuthenticationExtension):
    target_class = "config.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": (
                "A device's token from `POST /api/auth/token/`, sent as `Token <key>`; it "
                "expires after `API_TOKEN_HOURS` (12) without use."
            ),
        }
