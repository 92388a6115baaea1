"""The OpenAPI schema describes the dealer's answers as they are: every field the hand state and
its legal actions carry is documented, and nothing documented is missing from them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from dealer.services import hand_start
from tests.dealer.test_services import event

pytestmark = pytest.mark.django_db


def _components(client: Client) -> dict[str, Any]:
    response = client.get(reverse("api-schema"), HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()["components"]["schemas"]


def test_the_hand_state_and_its_legal_actions_are_documented_field_for_field(
    client: Client,
) -> None:
    state = hand_start(table=event(4)).state
    schemas = _components(client)

    assert set(schemas["HandStateOutput"]["properties"]) == set(state)
    assert set(schemas["LegalOutput"]["properties"]) == set(state["legal"])


def _ref(schema: dict[str, Any]) -> str | None:
    """The component a property points to (itself, or as the items of a list), if any."""
    for candidate in (schema, schema.get("items", {}), *schema.get("allOf", ())):
        if "$ref" in candidate:
            return str(candidate["$ref"]).rsplit("/", 1)[-1]
    return None


def test_every_nested_part_of_the_hand_state_is_documented_field_for_field(client: Client) -> None:
    state = hand_start(table=event(4)).state
    schemas = _components(client)
    checked = []
    for name, schema in schemas["HandStateOutput"]["properties"].items():
        component, value = _ref(schema), state[name]
        if component is None or not schemas[component].get("properties") or not value:
            continue
        for item in value if isinstance(value, list) else [value]:
            assert set(schemas[component]["properties"]) == set(item), (name, component)
        checked.append(name)
    assert {"players", "legal", "stakes"} <= set(checked)
