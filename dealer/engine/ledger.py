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

`card_choice` answers the tablet's card picker: which cards of the game's deck may be named now,
and which may not (a card shown or out of play), from the table's public view of the ledger.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum

from dealer.engine.cards import Card, DeckKind, deck
from dealer.engine.rules import Game
from dealer.engine.state import STREET_NAMES, HandState, Phase, evolve

__all__ = [
    "CardChoice",
    "CardLedger",
    "Entry",
    "Place",
    "burn_and_return",
    "card_choice",
    "card_ledger",
    "card_places",
    "next_deal",
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
    return len(_game_deck(state))


def _deck_kind(state: HandState) -> DeckKind:
    """The game's deck: 36 cards for Texas 6+ (S0), 52 otherwise (S4)."""
    return DeckKind.SIXPLUS if state.setup.rules.game is Game.SIXPLUS else DeckKind.STANDARD


def _game_deck(state: HandState) -> tuple[Card, ...]:
    return deck(_deck_kind(state))


def _entries(state: HandState, *, hands: bool = True) -> Iterator[Entry]:
    """Every card that left the stub; without the players' hands when `hands` is false."""
    for player, hole in enumerate(state.holes if hands else ()):
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


@dataclass(frozen=True, slots=True)
class CardChoice:
    """The card picker's answer for this moment: the game's `deck`, and its cards that may not
    be named now (in the deck's order); every other card of the deck may be."""

    deck: DeckKind
    out_of_play: tuple[Card, ...]

    @property
    def pickable(self) -> tuple[Card, ...]:
        out = set(self.out_of_play)
        return tuple(card for card in deck(self.deck) if card not in out)


def next_deal(state: HandState) -> int | None:
    """The street whose board cards are due now (run 2's in a hand run twice), else None."""
    if state.phase is not Phase.DEALING:
        return None
    if state.street == 3 and state.runs == 2:
        return state.run2_street + 1
    return state.street + 1


def burn_and_return(state: HandState, street: int) -> HandState:
    """Before a board deal: cards set aside until this street go back into the stub (S2: shuffled
    with it), then the burn: the card named for it (an exposed hole card, S2), none when this
    deal is a redeal that keeps its first burn (S2, S4) or when the dealer said so, else one
    unseen card (S4: burn one card before the flop, the turn and the river)."""
    aside = tuple(item for item in state.aside if item[1] != street)
    if state.skip_burn == street:
        burned: tuple[Card | None, ...] = ()
    elif state.next_burn is not None:
        burned = state.next_burn
    else:
        burned = (None,)
    skip = 0 if state.skip_burn == street else state.skip_burn
    return evolve(state, aside=aside, burns=state.burns + burned, next_burn=None, skip_burn=skip)


def card_choice(state: HandState) -> CardChoice:
    """Which cards may be named now, as far as the table may know (S2, S4; docs/rules.md, "Every
    card has one place"). Not pickable: the board, the cards shown, the burns, an exposed card
    waiting to be the burn, cards set aside. When a board deal is due, the cards set aside until
    it are back in the stub (S2: "the entire flop is taken back and reshuffled"): pickable
    again. A hole card not shown is pickable too: it is the player's secret, and this answer is
    public (the engine refuses the card if it is named)."""
    deal = next_deal(state)
    # When a deal is due, the cards are named after its burn and return (the state it is dealt
    # on), as the engine checks them.
    dealt_on = state if deal is None else burn_and_return(state, deal)
    # Not the players' hands: a card in a hand is the player's own until shown (the card gate,
    # dealer/card_gate.py); the shown ones are public.
    taken = {entry.card for entry in _entries(dealt_on, hands=False) if entry.card is not None}
    for shown in state.shown:
        taken.update(shown or ())
    kind = _deck_kind(state)
    order = _DECK_ORDER[kind]
    # Written on every write (the hand's state): a few cards sorted, not the deck walked.
    return CardChoice(deck=kind, out_of_play=tuple(sorted(taken, key=order.__getitem__)))


_DECK_ORDER: dict[DeckKind, dict[Card, int]] = {
    kind: {card: index for index, card in enumerate(deck(kind))} for kind in DeckKind
}
