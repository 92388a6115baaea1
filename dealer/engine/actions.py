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
    # The card ledger (RULES.md 8, docs/rules.md "Every card has one place"): what the dealer-error
    # procedures do to cards. BURN names the burn card(s) of the next board deal: an exposed hole
    # card (S2), the extra card dealt around (R), cards entered by the dealer, or none at all.
    # SET_ASIDE takes cards out of play, until the deal of street `amount` or (None) for the rest
    # of the hand. PREMATURE records board cards of street `amount` turned too soon (S2).
    BURN = "burn"
    SET_ASIDE = "set_aside"
    PREMATURE = "premature"
    # Run it twice (docs/rules.md "Run it twice"): the players all in before the river agree to
    # deal the rest of the board twice; the dealer then deals run 1, then run 2.
    RUN_TWICE = "run_twice"
    # A player acted out of turn (T 53-A, docs/rules.md "Action out of turn"): `player` is the
    # player who acted, `declared` what they did (a betting kind) and `amount` a bet or raise-to
    # total. A fold stands at once; anything else waits for the player's turn, where the engine
    # applies it if the action to that player has not changed.
    OUT_OF_TURN = "out_of_turn"
    # Showdown by tap (docs/rules.md "Showdown by tap"): the dealer pushes pot `amount` (0 main,
    # 1.. side pots) to `winners`, with or without the players' cards entered.
    AWARD = "award"


BETTING_KINDS = frozenset({Kind.FOLD, Kind.CHECK, Kind.CALL, Kind.BET, Kind.RAISE, Kind.ALL_IN})
LEDGER_KINDS = frozenset({Kind.BURN, Kind.SET_ASIDE, Kind.PREMATURE})


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    """One entry of a hand. `amount` is a bet or raise-to total for this street; `declared` is
    the betting action of an action out of turn (`Kind.OUT_OF_TURN` only)."""

    kind: Kind
    player: int | None = None
    amount: int | None = None
    cards: tuple[Card | None, ...] = ()
    reason: str = ""
    declared: Kind | None = None
    winners: tuple[int, ...] = ()  # AWARD only: the players (indices) who win the pot

    def __str__(self) -> str:
        parts = [self.kind.value]
        if self.declared is not None:
            parts.append(self.declared.value)
        if self.player is not None:
            parts.insert(0, f"p{self.player + 1}")
        if self.amount is not None:
            parts.append(str(self.amount))
        if self.cards:
            parts.append("".join("??" if c is None else str(c) for c in self.cards))
        if self.winners:
            parts.append("to " + ",".join(f"p{w + 1}" for w in self.winners))
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


def take_back_board(reason: str = "", *, keep_burn: bool = True) -> Action:
    """Take the last street's board cards back. `keep_burn=False` when the street's burn was
    missed (R): the burn counted for it never happened, so the redeal burns again. Otherwise its
    burn stays and the redeal takes no new one (S2, S4). Stored as `amount=0` for a missed burn."""
    return Action(kind=Kind.TAKE_BACK_BOARD, reason=reason, amount=None if keep_burn else 0)


def burn(cards: tuple[Card | None, ...], player: int | None = None, reason: str = "") -> Action:
    """The burn card(s) of the next board deal; `()` for a deal with no burn. With `player`, the
    card is taken from that player's hand (an exposed hole card becomes the burn, S2)."""
    return Action(kind=Kind.BURN, cards=cards, player=player, reason=reason)


def set_aside(
    cards: tuple[Card | None, ...],
    back: int | None = None,
    player: int | None = None,
    reason: str = "",
) -> Action:
    """Cards out of play: until the deal of street `back` (1 flop .. 3 river), when they are
    shuffled back into the stub, or for the rest of the hand (None: a boxed card, S2; R). With
    `player`, the card is taken from that player's hand."""
    return Action(kind=Kind.SET_ASIDE, cards=cards, amount=back, player=player, reason=reason)


def premature(cards: tuple[Card | None, ...], street: int, reason: str = "") -> Action:
    """Board cards of `street` (1 flop, 2 turn, 3 river) turned before its betting round (S2)."""
    return Action(kind=Kind.PREMATURE, cards=cards, amount=street, reason=reason)


def run_twice() -> Action:
    """The players still in agreed to run the rest of the board twice."""
    return Action(kind=Kind.RUN_TWICE)


def out_of_turn(player: int, declared: Kind, amount: int | None = None, reason: str = "") -> Action:
    """`player` acted out of turn with `declared` (fold, check, call, bet, raise or all-in; a bet
    or raise to `amount`), T 53-A."""
    return Action(
        kind=Kind.OUT_OF_TURN, player=player, declared=declared, amount=amount, reason=reason
    )


def reveal_board(cards: tuple[Card | None, ...]) -> Action:
    return Action(kind=Kind.REVEAL_BOARD, cards=cards)


def award(pot: int | None, winners: tuple[int, ...]) -> Action:
    """The dealer pushes pot `pot` (0 the main pot, 1.. side pots, in the order of the showdown's
    pots) to `winners`, one or more players splitting it (docs/rules.md "Showdown by tap").
    `pot=None`: every pot not pushed yet that all the winners are in (one tap on the best hand)."""
    return Action(kind=Kind.AWARD, amount=pot, winners=tuple(winners))
