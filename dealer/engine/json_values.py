"""JSON as Python types: what `json.loads` gives back and what `json.dumps` takes.

One recursive type for values that are JSON and nothing narrower is known of them: a stored
event's payload, a document read from a file, an answer passed along unchanged. A reader that
needs a field narrows it (`isinstance`) where it reads it; a shape the code knows is a
`TypedDict` next to the code that writes it (`dealer.codec.StateSnapshot`). Plain Python, so the
engine, the apps and config may all use it.
"""

from __future__ import annotations

from typing import TypeAlias

JsonValue: TypeAlias = "str | int | float | bool | list[JsonValue] | dict[str, JsonValue] | None"
"""Any JSON value: a string, a number, a boolean, null, a list or an object of JSON values."""

JsonObject: TypeAlias = "dict[str, JsonValue]"
"""A JSON object: the top of a stored payload or document."""
