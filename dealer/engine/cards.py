"""Cards, decks and card text for the dealer engine (RULES.md section 1).

A card is written as a rank character followed by a suit character, as in ``As`` or ``Td``:
ranks ``23456789TJQKA`` and suits ``s h d c`` (spades, hearts, diamonds, clubs). That suit order
is also the suit strength used for draws and the odd chip (R: spades > hearts > diamonds > clubs);
it never breaks a tie between poker hands.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from dealer.engine.errors import Invalid

__all__ = [
    "RANKS",
    "SUITS",
    "Card",
    "CardError",
    "DeckKind",
    "deck",
    "format_cards",
    "is_in_deck",
    "parse_cards",
    "parse_cards_unknown",
    "shuffled_deck",
    "suit_strength",
]

RANKS = "23456789TJQKA"
"""Rank characters from lowest (2) to highest (A); a card's ``rank`` is 2 + the position here."""

SUITS = "shdc"
"""Suit characters from strongest to weakest: spades, hearts, diamonds, clubs."""

UNKNOWN = "??"
"""How an unknown (face-down) card is written, as in PHH's ``????`` for two hole cards."""

_SUIT_STRENGTH = {"s": 3, "h": 2, "d": 1, "c": 0}

# Bit layout of Card._code, read by ranking.py's fast evaluator. Summing the codes of a hand
# gives, in one integer, a 3-bit count per rank (bits 0..38) and a 4-bit count per suit (bits
# 40..55); no field can overflow into the next with at most 7 distinct cards.
RANK_FIELD_BITS = 3
SUIT_FIELD_SHIFT = 40
SUIT_FIELD_BITS = 4

_HINT = "use a rank 2-9, T, J, Q, K, A and a suit s, h, d, c (for example As or Td)"


class CardError(Invalid, ValueError):
    """Text or a value that is not a card, or a card given twice.

    ``code`` is a stable machine-readable reason for API clients; ``str(error)`` (and ``detail``)
    is a message a person can act on. Still a ``ValueError`` for the parsers that catch one.
    """

    code = "bad_card"

    def __init__(self, message: str, *, text: str = "") -> None:
        super().__init__(self.code, message)
        self.message = message
        self.text = text
        """The offending piece of input, when there is one."""


def suit_strength(suit: str) -> int:
    """Strength of a suit for draws and odd chips: spades 3, hearts 2, diamonds 1, clubs 0 (R).

    Suits never break ties between poker hands (R); this is only for the button draw and the
    ``high_card_by_suit`` odd-chip option (RULES.md sections 2 and 6).
    """
    try:
        return _SUIT_STRENGTH[suit.lower()]
    except (KeyError, AttributeError):
        raise CardError(f"{suit!r} is not a suit: use s, h, d or c.", text=str(suit)) from None


def _bad_card_message(text: str) -> str:
    return f"{text!r} is not a card: {_HINT}."


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One playing card: ``rank`` 2..14 (14 = ace) and ``suit`` one of ``"shdc"``.

    Equality and hashing use rank and suit. Cards sort by rank, then by suit strength
    (clubs < diamonds < hearts < spades), which is only a display and draw order (R).
    """

    rank: int
    suit: str
    # Precomputed once so the hand evaluator needs one attribute read per card, not a dict
    # lookup (hashing a dataclass is a Python-level call). Excluded from eq, hash and repr.
    _code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rank = self.rank
        # bool is an int subclass; True would otherwise pass as a rank of 1.
        if type(rank) is not int or not 2 <= rank <= 14 or self.suit not in _SUIT_STRENGTH:
            shown = f"rank={rank!r}, suit={self.suit!r}"
            raise CardError(
                f"Card({shown}) is not a card: rank must be 2..14 and suit one of "
                "'s', 'h', 'd', 'c'.",
                text=shown,
            )
        code = (1 << (RANK_FIELD_BITS * (rank - 2))) | (
            1 << (SUIT_FIELD_SHIFT + SUIT_FIELD_BITS * SUITS.index(self.suit))
        )
        object.__setattr__(self, "_code", code)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card such as ``"As"`` or ``"td"``.

        The rank character is case-insensitive, the suit may be lower or upper case and
        surrounding whitespace is ignored. Anything else (``"10s"``, ``"A♠"``, ``"??"``) raises
        :class:`CardError`.
        """
        stripped = text.strip() if isinstance(text, str) else ""
        card = _CARD_BY_TEXT.get(stripped)
        if card is None:
            card = _CARD_BY_TEXT.get(stripped[:1].upper() + stripped[1:].lower())
        if card is None:
            raise CardError(_bad_card_message(str(text)), text=str(text))
        return card

    @property
    def index(self) -> int:
        """A unique number 0..51: ``(rank - 2) * 4 + position of the suit in "shdc"``."""
        return (self.rank - 2) * 4 + SUITS.index(self.suit)

    @property
    def rank_char(self) -> str:
        """The rank as written in card text: ``"2"``..``"9"``, ``"T"``, ``"J"``, ``"Q"``, ...."""
        return RANKS[self.rank - 2]

    def __str__(self) -> str:
        return RANKS[self.rank - 2] + self.suit

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.rank, _SUIT_STRENGTH[self.suit]) < (other.rank, _SUIT_STRENGTH[other.suit])


# Every card exists once here so parsing returns shared instances and never rebuilds a code.
_ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(2, 15) for suit in SUITS)
_CARD_BY_TEXT: dict[str, Card] = {str(card): card for card in _ALL_CARDS}

_SEPARATORS = re.compile(r"[\s,]+")


def _tokens(text: str) -> list[str]:
    """Split card text on whitespace and commas, then each piece into 2-character chunks.

    Chunking makes PHH's concatenated form (``"AsTd6c"``, ``"????"``) and spaced text
    (``"As Td 6c"``) parse the same way.
    """
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not card text: {_HINT}.", text=str(text))
    chunks: list[str] = []
    for piece in _SEPARATORS.split(text.strip()):
        if not piece:
            continue
        if len(piece) % 2:
            raise CardError(
                f"{piece!r} is not a card or a run of cards: each card is 2 characters, {_HINT}.",
                text=piece,
            )
        chunks.extend(piece[i : i + 2] for i in range(0, len(piece), 2))
    return chunks


def _check_unique(cards: Iterable[Card | None]) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card is None:
            continue
        if card in seen:
            raise CardError(
                f"{str(card)!r} is given twice: each card can appear only once.", text=str(card)
            )
        seen.add(card)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards such as ``"As Td 6c"``, ``"AsTd6c"`` (PHH) or ``"As, Td, 6c"``.

    Empty text gives ``()``. Raises :class:`CardError` for text that is not a card and for a
    card given twice (a deck holds each card once, S4: no joker).
    """
    cards = tuple(Card.parse(chunk) for chunk in _tokens(text))
    _check_unique(cards)
    return cards


def parse_cards_unknown(text: str) -> tuple[Card | None, ...]:
    """Like :func:`parse_cards`, but ``"??"`` stands for an unknown card and gives ``None``.

    PHH writes two unknown hole cards as ``"????"``. Known cards must still be distinct.
    """
    cards = tuple(None if chunk == UNKNOWN else Card.parse(chunk) for chunk in _tokens(text))
    _check_unique(cards)
    return cards


def format_cards(cards: Iterable[Card | None], sep: str = " ") -> str:
    """Write cards as text, ``"??"`` for an unknown card: ``"As Td ??"``.

    ``sep=""`` gives PHH's concatenated form, which :func:`parse_cards_unknown` reads back.
    """
    return sep.join(UNKNOWN if card is None else str(card) for card in cards)


class DeckKind(StrEnum):
    """Which deck a game uses (RULES.md section 1)."""

    STANDARD = "standard52"
    """52 cards, 2 to ace in four suits, no joker (S4)."""
    SIXPLUS = "sixplus36"
    """Texas 6+: 36 cards, 6 to ace in four suits, no joker (S0)."""


_LOWEST_RANK = {DeckKind.STANDARD: 2, DeckKind.SIXPLUS: 6}
_DECKS: dict[DeckKind, tuple[Card, ...]] = {
    kind: tuple(card for card in _ALL_CARDS if card.rank >= low)
    for kind, low in _LOWEST_RANK.items()
}


def lowest_rank(kind: DeckKind) -> int:
    """The lowest rank in the deck: 2 for the 52-card deck, 6 for Texas 6+ (S0)."""
    return _LOWEST_RANK[DeckKind(kind)]


def deck(kind: DeckKind) -> tuple[Card, ...]:
    """All cards of a deck in a fixed order (by rank, then spades, hearts, diamonds, clubs).

    52 cards for :attr:`DeckKind.STANDARD` (S4), 36 cards 6..A for :attr:`DeckKind.SIXPLUS` (S0).
    """
    return _DECKS[DeckKind(kind)]


def is_in_deck(card: Card, kind: DeckKind) -> bool:
    """Whether the card belongs to that deck: every card for 52 cards, ranks 6..A for 6+ (S0)."""
    return card.rank >= _LOWEST_RANK[DeckKind(kind)]


def shuffled_deck(kind: DeckKind, rng: random.Random) -> list[Card]:
    """A new shuffled copy of the deck; the caller owns the randomness (seed it for replays)."""
    cards = list(deck(kind))
    rng.shuffle(cards)
    return cards
