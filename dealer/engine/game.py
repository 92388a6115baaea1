"""Which deck and which hand order a set of rules plays with (RULES.md section 1)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import cache

from dealer.engine.cards import Card, DeckKind, is_in_deck
from dealer.engine.errors import RuleViolation
from dealer.engine.ledger import Entry, card_places, refusal
from dealer.engine.ranking import Ranker
from dealer.engine.rules import Game, Rules
from dealer.engine.state import HandState


def deck_kind_for(rules: Rules) -> DeckKind:
    """The 36-card deck for Texas 6+ (S0), the 52-card deck otherwise."""
    return DeckKind.SIXPLUS if rules.game is Game.SIXPLUS else DeckKind.STANDARD


def ranker_for(rules: Rules) -> Ranker:
    """The hand ranker for the game, with the 6+ category options applied."""
    return _ranker(
        deck_kind_for(rules),
        rules.sixplus_flush_beats_full_house,
        rules.sixplus_trips_beat_straight,
    )


@cache
def _ranker(kind: DeckKind, flush_over_full: bool, trips_over_straight: bool) -> Ranker:
    return Ranker(
        deck=kind, flush_beats_full_house=flush_over_full, trips_beat_straight=trips_over_straight
    )


def seen_cards(state: HandState) -> dict[Card, Entry]:
    """Every entered card that left the stub (a hand, the board, a burn, set aside), with where
    it is (ledger.py): none of them can be dealt or entered again."""
    return card_places(state)


def check_cards_fit(
    rules: Rules, cards: tuple[Card | None, ...], seen: Mapping[Card, Entry] | Collection[Card]
) -> None:
    """Refuse a card from outside the game's deck, or one already elsewhere in the hand: in play
    (`duplicate_card`) or out of play (`card_out_of_play`: a burn card, an exposed card waiting to
    be the burn, a card set aside)."""
    kind = deck_kind_for(rules)
    fresh: set[Card] = set()
    for card in cards:
        if card is None:
            continue
        if not is_in_deck(card, kind):
            raise RuleViolation(
                f"{card} is not in the 36-card Texas 6+ deck.", code="card_not_in_deck"
            )
        if card in fresh:
            raise RuleViolation(f"{card} is already in play in this hand.", code="duplicate_card")
        if card in seen:
            entry = seen[card] if isinstance(seen, Mapping) else None
            code, why = ("duplicate_card", "is already in play in this hand")
            if entry is not None:
                code, why = refusal(entry)
            raise RuleViolation(f"{card} {why}.", code=code)
        fresh.add(card)
