"""The immutable state of one hand; the transitions live in `hand.py` and `showdown.py`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from dealer.engine.actions import Action
from dealer.engine.cards import Card
from dealer.engine.pots import Pot, side_pots
from dealer.engine.setup import HandSetup

T = TypeVar("T")

STREET_NAMES = ("preflop", "flop", "turn", "river")
BOARD_SIZES = (0, 3, 4, 5)  # board cards showing during each street


class Phase(StrEnum):
    BETTING = "betting"  # a player is due to act
    DEALING = "dealing"  # the next board card(s) are due
    SHOWDOWN = "showdown"  # hands are shown or mucked
    COMPLETE = "complete"  # every pot is awarded
    VOID = "void"  # misdeal: every chip returned


@dataclass(frozen=True, slots=True, kw_only=True)
class Award:
    """One pot's outcome: winners in odd-chip order with their shares and hand descriptions.
    `amount` is what the winners share, after the pot's `rake`."""

    pot: int  # 0 = main pot, 1.. side pots
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    hands: tuple[str, ...]  # description of each winner's hand ("" when won uncontested)
    rake: int = 0  # the house's take from this pot before the award (RULES.md 6.5)
    run: int = 0  # run it twice: the board (1 or 2) that awarded this half; 0 = run once


@dataclass(frozen=True, slots=True, kw_only=True)
class OutOfTurn:
    """An action out of turn waiting for its player's turn (T 53-A): `action` is the betting
    action to apply then, `facing` the bet to match when it was made. It stands if the bet to
    match is still `facing` when the turn comes; otherwise the player has every option."""

    action: Action
    facing: int

    @property
    def player(self) -> int:
        assert self.action.player is not None
        return self.action.player


@dataclass(frozen=True, kw_only=True)
class HandState:
    """Where a hand stands. Chips: `stacks` behind, `bets` this street, `contributed` in total.

    Not slotted on purpose: `evolve` copies the instance dictionary in one step.
    """

    setup: HandSetup
    phase: Phase
    street: int  # 0 preflop .. 3 river
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    contributed: tuple[int, ...]
    folded: tuple[bool, ...]
    dead: int  # dead money in the middle (RULES.md 6.1)
    high: int  # the bet to match on this street (a short blind still counts in full)
    full_level: int  # the last full bet level (fixed limit counts raises from it)
    last_full_raise: int  # size of the last full bet or raise (no limit, pot limit)
    raise_count: int  # bets and raises this street, the big blind counting as the bet
    capped: bool  # fixed limit: this street reached its cap while 3+ players could act
    acted: tuple[int, ...]  # the bet level each player last acted at this street; -1 = not yet
    actor: int | None
    aggressor: int | None  # the last player to bet or raise this street
    river_aggressor: int | None  # the last bettor or raiser of the river (shows first)
    pl_preflop_extra: int  # pot-limit pot count additions preflop (T 54-B, pl_sb_as_bb)
    board: tuple[Card | None, ...]
    holes: tuple[tuple[Card | None, ...] | None, ...]
    shown: tuple[tuple[Card, ...] | None, ...]
    mucked: tuple[bool, ...]
    claims: tuple[bool, ...]  # "playing the board" declared (RULES.md 7)
    turn_actions: int  # betting actions in turn after the blinds (RULES.md 5.6)
    chip_actions: int  # of those, the ones that put chips in
    awards: tuple[Award, ...]
    log: tuple[Action, ...]
    # The card ledger (ledger.py): cards that left the stub other than to a hand or the board.
    burns: tuple[Card | None, ...] = ()  # burned so far, in order; None = not seen
    next_burn: tuple[Card | None, ...] | None = None  # the next deal's burn; None = one unseen card
    aside: tuple[
        tuple[Card | None, int | None], ...
    ] = ()  # out of play, back at the deal of street
    skip_burn: int = (
        0  # the street whose deal takes no burn (a redeal keeps its first burn), 0 none
    )
    rake: int = 0  # the house's take from the pots at the award (RULES.md 6.5), drop included
    drop: int = 0  # of `rake`, the promotional or jackpot drop (docs/rules.md), kept apart
    # Run it twice (docs/rules.md "Run it twice"): `runs` is 2 once the players agreed, `common`
    # the board cards both runs share, `board2` the second run's cards after those. Run 1 is
    # `board` as usual, so a hand run once never looks at these.
    runs: int = 1
    common: int = 0
    board2: tuple[Card | None, ...] = ()
    # Actions out of turn waiting for their player's turn this street (T 53-A), in the order made.
    pending: tuple[OutOfTurn, ...] = ()

    # --- derived views -------------------------------------------------------------------
    @property
    def player_count(self) -> int:
        return len(self.stacks)

    @property
    def is_over(self) -> bool:
        return self.phase in (Phase.COMPLETE, Phase.VOID)

    @property
    def street_name(self) -> str:
        return STREET_NAMES[self.street]

    @property
    def all_in(self) -> tuple[bool, ...]:
        return tuple(s == 0 and not f for s, f in zip(self.stacks, self.folded, strict=True))

    @property
    def pot_total(self) -> int:
        """Everything in the middle, this street's bets included."""
        return sum(self.contributed) + self.dead

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        return tuple(p.stack for p in self.setup.players)

    @property
    def finishing_stacks(self) -> tuple[int, ...] | None:
        """Stacks after the hand, or None while it is still being played."""
        return self.stacks if self.is_over else None

    @property
    def net(self) -> tuple[int, ...]:
        """Chips won (positive) or lost by each player so far, counting what is in the pot."""
        return tuple(s - p.stack for s, p in zip(self.stacks, self.setup.players, strict=True))

    def pots(self) -> tuple[Pot, ...]:
        """Main and side pots as they stand (RULES.md 6.3), each with the players still in who
        have reached it or can still pay into it with the chips they have behind."""
        return side_pots(self.contributed, self.folded, self.all_in, self.dead, self.stacks)

    def in_hand(self) -> tuple[int, ...]:
        """Players who have not folded."""
        return tuple(i for i, f in enumerate(self.folded) if not f)

    def can_act(self, player: int) -> bool:
        """Not folded and with chips behind: the player can still take part in betting."""
        return not self.folded[player] and self.stacks[player] > 0

    def needs_to_act(self, player: int) -> bool:
        """Still owes a decision this street: never acted, or facing a bet above their own."""
        return self.can_act(player) and (self.acted[player] < 0 or self.bets[player] < self.high)

    def pending_of(self, player: int) -> OutOfTurn | None:
        """The player's action out of turn still waiting for their turn, if any (T 53-A)."""
        for entry in self.pending:
            if entry.player == player:
                return entry
        return None

    def seat_name(self, player: int) -> str:
        """How a dealer names a player: by their seat number ("seat 4")."""
        return f"seat {self.setup.players[player].seat or player + 1}"

    def board_cards_due(self) -> int:
        """How many board cards the dealer turns next (3 for the flop, 1 for turn and river);
        once run 1 is complete in a hand run twice, the second run's next street."""
        if self.phase != Phase.DEALING:
            return 0
        if self.street == 3 and self.runs == 2:
            shown = self.common + len(self.board2)
            return BOARD_SIZES[self.run2_street + 1] - shown if shown < 5 else 0
        return BOARD_SIZES[self.street + 1] - BOARD_SIZES[self.street]

    @property
    def run2_street(self) -> int:
        """The street the second run has reached (0 preflop .. 3 river), run it twice only."""
        return BOARD_SIZES.index(self.common + len(self.board2))

    def run_board(self, run: int) -> tuple[Card | None, ...]:
        """The board a run plays: run 1 is `board`, run 2 the common cards and `board2`."""
        return self.board if run == 1 else self.board[: self.common] + self.board2


def replace_at(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A copy of the tuple with one item replaced."""
    return (*values[:index], value, *values[index + 1 :])


_set_field = object.__setattr__


def evolve(state: HandState, **changes: object) -> HandState:
    """A copy of the state with some fields changed.

    Same result as `dataclasses.replace`, many times faster: a hand makes dozens of these, and
    hands per second is one of the engine's published figures (docs/performance.md).
    """
    new = object.__new__(HandState)
    _set_field(new, "__dict__", {**state.__dict__, **changes})
    return new
