"""The API's fields for chips and money, bounded so that every value fits its column.

A value outside them is a field error (400) before any service runs, never a database error. The
bounds themselves are `common.limits` (and the floor's own, `tournaments.limits`).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rest_framework import serializers

from common.limits import MAX_INT


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
