"""Where every card of a hand is (docs/rules.md, "Every card has one place").

The ledger is read off the hand's state: the hole cards, the board, and the fields the dealer-error
procedures fill (`burns`, `next_burn`, `aside`). It knows every card the dealer entered and, for the
cards not entered ("flop dealt" with no cards), how many lie in each place, so the stub's count is
always known. A card has one place: a card out of play (a burn card, an exposed hole card waiting to
be the burn, a premature card set aside, a boxed card) cannot be dealt, entered in a hand or shown.

Places: `deck` (the stub), `hole` (a live hand), `mucked` (a hand folded, mucked or killed),
`board`, `burn`, `exposed` (face up on the stub, the next burn: S2), `out` (set aside until a
later street's deal, when it is shuffled back into the stub: S2) and `dead` (out for the rest of
the hand).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum

from dealer.engine.cards import Card
from dealer.engine.rules import Game
from dealer.engine.state import STREET_NAMES, HandState

__all__ = [
    "CardLedger",
    "Entry",
    "Place",
    "card_ledger",
    "card_places",
    "refusal",
    "stub_count",
]


class Place(StrEnum):
    DECK = "deck"
    HOLE = "hole"
    MUCKED = "mucked"
    BOARD = "board"
    BURN = "burn"
    EXPOSED = "exposed"
    OUT = "out"
    DEAD = "dead"


OUT_OF_PLAY = frozenset({Place.BURN, Place.EXPOSED, Place.OUT, Place.DEAD})
"""Places a card cannot be dealt or played from."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One card that left the stub: its identity (None when not entered) and where it is.
    `player` for a hand's cards; `back` for a card set aside: the street whose deal returns it."""

    card: Card | None
    place: Place
    player: int | None = None
    back: int | None = None


def _deck_size(state: HandState) -> int:
    return 36 if state.setup.rules.game is Game.SIXPLUS else 52


def _entries(state: HandState) -> Iterator[Entry]:
    for player, hole in enumerate(state.holes):
        gone = state.folded[player] or state.mucked[player]
        place = Place.MUCKED if gone else Place.HOLE
        for card in hole or (None, None):
            yield Entry(card, place, player=player)
    for card in state.board + state.board2:  # the second run's cards too (RIT)
        yield Entry(card, Place.BOARD)
    for card in state.burns:
        yield Entry(card, Place.BURN)
    for card in state.next_burn or ():
        yield Entry(card, Place.EXPOSED)
    for card, back in state.aside:
        yield Entry(card, Place.DEAD if back is None else Place.OUT, back=back)


def stub_count(state: HandState) -> int:
    """Cards left in the stub: the deck less every card dealt, burned or set aside."""
    board = len(state.board) + len(state.board2)
    dealt = 2 * state.player_count + board + len(state.burns) + len(state.aside)
    return _deck_size(state) - dealt - len(state.next_burn or ())


@dataclass(frozen=True, slots=True)
class CardLedger:
    """Every card that left the stub, and the counts per place (the stub's included)."""

    size: int  # 52, or 36 for Texas 6+
    entries: tuple[Entry, ...]

    @property
    def counts(self) -> Mapping[Place, int]:
        counts = Counter(entry.place for entry in self.entries)
        counts[Place.DECK] = self.size - len(self.entries)
        return counts

    @property
    def stub(self) -> int:
        return self.size - len(self.entries)

    def known(self) -> dict[Card, Entry]:
        """The entered cards and where each one is."""
        return {entry.card: entry for entry in self.entries if entry.card is not None}

    def place_of(self, card: Card) -> Place:
        """Where a card is: an entered place, else the stub (as far as the ledger knows)."""
        entry = self.known().get(card)
        return Place.DECK if entry is None else entry.place


def card_ledger(state: HandState) -> CardLedger:
    """The hand's card ledger, as far as the dealer entered the cards."""
    return CardLedger(size=_deck_size(state), entries=tuple(_entries(state)))


def refusal(entry: Entry) -> tuple[str, str]:
    """Why a card in this place cannot be dealt, entered or shown again: (code, sentence end)."""
    if entry.place in (Place.HOLE, Place.MUCKED, Place.BOARD):
        return "duplicate_card", "is already in play in this hand"
    if entry.place is Place.BURN:
        return "card_out_of_play", "is a burn card: it is out of play"
    if entry.place is Place.EXPOSED:
        return (
            "card_out_of_play",
            "was exposed and taken from the hand: it is the next burn card (S2)",
        )
    if entry.place is Place.OUT:
        assert entry.back is not None
        return (
            "card_out_of_play",
            f"was taken out of play (S2): it goes back into the stub when the "
            f"{STREET_NAMES[entry.back]} is dealt",
        )
    return "card_out_of_play", "is out of play for this hand (a boxed card is scrap paper, R)"


def card_places(state: HandState) -> dict[Card, Entry]:
    """Every entered card and its place."""
    return {entry.card: entry for entry in _entries(state) if entry.card is not None}
