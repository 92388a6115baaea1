"""Template filters for the floor's labels, so that every page writes them the same way.

`{% load floor %}` then `{{ level|blinds }}`: "1,000 / 2,000, ante 2,000 (BB ante)" from anything
with `small_blind`, `big_blind`, `ante` and maybe `bb_ante` (a level, a cash table, a hand's
stakes as a dict).
"""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.safestring import mark_safe

from tournaments.labels import blinds_label, ordinal

register = template.Library()


def _value(source: object, name: str) -> int | str | None:
    # An amount (or the `bb_ante` flag, a bool: an int) of a level, a table or a stakes dict.
    return source.get(name) if isinstance(source, dict) else getattr(source, name, None)


@register.filter
def chips(amount: int | Decimal | str | None) -> str:
    """`{{ amount|chips }}`: "12,500", as `floatformat:"0g"` writes a whole number in English,
    for a fraction of its cost (the tablet writes some forty amounts on every tap). Digits and
    commas need no escaping: the answer is marked safe, which spares the template escaping it."""
    return "" if amount is None or amount == "" else mark_safe(f"{int(amount):,}")


@register.filter
def blinds(source: object) -> str:
    if source is None:
        return ""
    return blinds_label(
        int(_value(source, "small_blind") or 0),
        int(_value(source, "big_blind") or 0),
        ante=int(_value(source, "ante") or 0),
        bb_ante=bool(_value(source, "bb_ante")),
    )


@register.filter(name="ordinal")
def ordinal_filter(number: int | str | None) -> str:
    """`{{ place|ordinal }}`: "57th" ("" for no place)."""
    return "" if number is None or number == "" else ordinal(int(number))
