"""How the floor writes blinds, in one place: pages, the clock's JSON and the tablet."""

from __future__ import annotations


def blinds_label(small_blind: int, big_blind: int, *, ante: int = 0, bb_ante: bool = False) -> str:
    """ "1,000 / 2,000", with ", ante 2,000" when there is one and " (BB ante)" when the big
    blind pays it for the table."""
    text = f"{small_blind:,} / {big_blind:,}"
    if ante:
        text += f", ante {ante:,}"
        if bb_ante:
            text += " (BB ante)"
    return text


def ordinal(number: int) -> str:
    """A place in words as the floor writes it: "1st", "2nd", "3rd", "11th", "57th"."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
