"""Everything that can happen in a hand, as small immutable values.

Betting actions are made by the player whose turn it is (`player` may be given to check that the
dealer entered it for the right seat). Dealing, showing, mucking and the dealer-error operations
name their player or cards explicitly.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dealer.engine.cards import Card


class Kind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"
    DEAL_HOLE = "deal_hole"
    DEAL_BOARD = "deal_board"
    SHOW = "show"
    MUCK = "muck"
    CLAIM_BOARD = "claim_board"
    KILL = "kill"  # dead hand: the player's chips stay in the pot (R)
    MISDEAL = "misdeal"  # void: every chip returned, same button (T)
    # The last street's board cards go back for a redeal (RULES.md 8: a flop with too many cards,
    # a burn error found before that street's betting); refused once betting on it has started.
    TAKE_BACK_BOARD = "take_back_board"
    # Board cards that were dealt but not entered ("flop dealt") are entered later, for example
    # at the showdown, where the pots need the whole board.
    REVEAL_BOARD = "reveal_board"


BETTING_KINDS = frozenset({Kind.FOLD, Kind.CHECK, Kind.CALL, Kind.BET, Kind.RAISE, Kind.ALL_IN})


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    """One entry of a hand. `amount` is a bet or raise-to total for this street."""

    kind: Kind
    player: int | None = None
    amount: int | None = None
    cards: tuple[Card | None, ...] = ()
    reason: str = ""

    def __str__(self) -> str:
        parts = [self.kind.value]
        if self.player is not None:
            parts.insert(0, f"p{self.player + 1}")
        if self.amount is not None:
            parts.append(str(self.amount))
        if self.cards:
            parts.append("".join("??" if c is None else str(c) for c in self.cards))
        return " ".join(parts)


def fold(player: int | None = None) -> Action:
    return Action(kind=Kind.FOLD, player=player)


def check(player: int | None = None) -> Action:
    return Action(kind=Kind.CHECK, player=player)


def call(player: int | None = None) -> Action:
    return Action(kind=Kind.CALL, player=player)


def bet(amount: int, player: int | None = None) -> Action:
    return Action(kind=Kind.BET, amount=amount, player=player)


def raise_to(amount: int, player: int | None = None) -> Action:
    return Action(kind=Kind.RAISE, amount=amount, player=player)


def all_in(player: int | None = None) -> Action:
    return Action(kind=Kind.ALL_IN, player=player)


def deal_board(cards: tuple[Card | None, ...]) -> Action:
    return Action(kind=Kind.DEAL_BOARD, cards=cards)


def deal_hole(player: int, cards: tuple[Card | None, ...]) -> Action:
    return Action(kind=Kind.DEAL_HOLE, player=player, cards=cards)


def show(player: int, cards: tuple[Card | None, ...] = ()) -> Action:
    return Action(kind=Kind.SHOW, player=player, cards=cards)


def muck(player: int) -> Action:
    return Action(kind=Kind.MUCK, player=player)


def claim_board(player: int) -> Action:
    return Action(kind=Kind.CLAIM_BOARD, player=player)


def kill(player: int, reason: str = "") -> Action:
    return Action(kind=Kind.KILL, player=player, reason=reason)


def misdeal(reason: str = "") -> Action:
    return Action(kind=Kind.MISDEAL, reason=reason)


def take_back_board(reason: str = "") -> Action:
    return Action(kind=Kind.TAKE_BACK_BOARD, reason=reason)


def reveal_board(cards: tuple[Card | None, ...]) -> Action:
    return Action(kind=Kind.REVEAL_BOARD, cards=cards)
