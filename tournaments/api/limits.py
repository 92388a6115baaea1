"""Bounds of what the API accepts, so every value fits its column and the clock's arithmetic.

A value outside them is a field error (400) before any service runs, never a database error.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rest_framework import serializers

MAX_INT = 2**31 - 1  # PositiveIntegerField on every database
MAX_SMALL_INT = 2**15 - 1  # PositiveSmallIntegerField
MAX_ID = 2**63 - 1  # BigAutoField
MAX_LEVEL_SECONDS = 24 * 60 * 60  # a level (or a break) lasts at most a day
MAX_LEVELS = 500
MAX_NAME = 80  # Player.name


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
