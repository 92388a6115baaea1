"""Bounds of what the API accepts, so every value fits its column and the clock's arithmetic.

A value outside them is a field error (400) before any service runs, never a database error.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rest_framework import serializers

from tournaments.limits import (
    MAX_ENTRIES_PER_PLAYER,
    MAX_ID,
    MAX_INT,
    MAX_LEVEL_NUMBER,
    MAX_LEVEL_SECONDS,
    MAX_LEVELS,
    MAX_NAME,
    MAX_SMALL_INT,
    SEATS_PER_TABLE,
)

__all__ = [
    "MAX_ENTRIES_PER_PLAYER",
    "MAX_ID",
    "MAX_INT",
    "MAX_LEVELS",
    "MAX_LEVEL_NUMBER",
    "MAX_LEVEL_SECONDS",
    "MAX_NAME",
    "MAX_SMALL_INT",
    "SEATS_PER_TABLE",
    "chips_field",
    "money_field",
]


def chips_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(max_value=MAX_INT, **kwargs)


def money_field(*, digits: int = 10, **kwargs: Any) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=digits,
        decimal_places=2,
        min_value=Decimal("0"),
        **kwargs,
    )


def amount_field(**kwargs: Any) -> serializers.DecimalField:
    """Money computed by the floor (prize pool, prizes, deals), sent as a string."""
    return serializers.DecimalField(max_digits=20, decimal_places=2, **kwargs)
