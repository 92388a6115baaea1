"""The high-card draw for the button (RULES.md section 2; S0, S3; R; T)."""

from __future__ import annotations

from collections.abc import Sequence

from dealer.engine.cards import Card, suit_strength
from dealer.engine.errors import ConfigError
from dealer.engine.rules import CHOICES, DrawTiebreak


def button_draw(cards: Sequence[Card], tiebreak: str = DrawTiebreak.SUIT) -> int:
    """Which player wins the button, given one card per player in the order they were dealt.

    The highest rank wins, ace high. Ties: `draw_tiebreak=suit` ranks suits spades > hearts >
    diamonds > clubs with no redraw (R, T); `deal_order` gives it to the tied card dealt first
    (S0). Returns the winner's position in `cards`.
    """
    if not cards:
        raise ConfigError("Deal at least one card for the button draw.", code="empty_draw")
    if tiebreak not in CHOICES["draw_tiebreak"]:
        raise ConfigError(
            f"Unknown draw tie-break '{tiebreak}': use suit or deal_order.", code="bad_option_value"
        )
    if len(set(cards)) != len(cards):
        raise ConfigError("The same card appears twice in the draw.", code="duplicate_card")
    top = max(card.rank for card in cards)
    tied = [i for i, card in enumerate(cards) if card.rank == top]
    if tiebreak == DrawTiebreak.DEAL_ORDER:
        return tied[0]
    return max(tied, key=lambda i: suit_strength(cards[i].suit))
