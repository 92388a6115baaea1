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
