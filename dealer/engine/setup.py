"""What a hand starts from: the players in order, their stacks and their forced bets.

Players are listed clockwise starting from the first seat left of the button, so the button (when
a player holds it) is the last one. This is also PHH's order (p1 = first seat left of the button),
and it makes "clockwise from the button" simply ascending index order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer.engine.cards import Card
from dealer.engine.errors import ConfigError
from dealer.engine.rules import (
    HeadsUpButtonPosts,
    MissedBlindPolicy,
    MissedSbFallback,
    Rules,
    ShortBlind,
)

MAX_PLAYERS = 10


@dataclass(frozen=True, slots=True, kw_only=True)
class Stakes:
    """The amounts of a level or a cash game. `unit` is the smallest chip in play."""

    small_blind: int
    big_blind: int
    ante: int = 0
    small_bet: int = 0  # fixed-limit small bet; 0 means "equal to the big blind" (S3, S4)
    straddle: int = 0  # 0 means "twice the big blind" (S4)
    unit: int = 1

    @property
    def limit_small_bet(self) -> int:
        return self.small_bet or self.big_blind

    @property
    def straddle_amount(self) -> int:
        return self.straddle or 2 * self.big_blind

    def hand(
        self,
        rules: Rules,
        players: tuple[PlayerSetup, ...],
        *,
        button_index: int | None,
        bring_in_index: int,
    ) -> HandSetup:
        """The engine's set-up of a hand played at these stakes: the one place the stakes
        become the hand's blinds, limit bet and chip unit (tournament and cash tables alike)."""
        return HandSetup(
            rules=rules,
            players=players,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            small_bet=self.limit_small_bet,
            unit=self.unit,
            button_index=button_index,
            bring_in_index=bring_in_index,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerSetup:
    """One player dealt in. `blind` is a live forced bet at its nominal size (a short stack posts
    what it has); `dead` is dead money posted (a missed small blind); `ante` is their ante."""

    stack: int
    seat: int = 0
    name: str = ""
    blind: int = 0
    dead: int = 0
    ante: int = 0
    hole: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class HandSetup:
    """Everything the engine needs to play one hand."""

    rules: Rules
    players: tuple[PlayerSetup, ...]
    small_blind: int
    big_blind: int
    small_bet: int  # fixed limit: the unit on preflop and flop; doubled on turn and river
    unit: int = 1
    button_index: int | None = None  # None when the button is a dead (empty) seat
    # The player whose blind or straddle preflop action starts after (the BB or the straddler).
    bring_in_index: int = 0

    def __post_init__(self) -> None:
        check_setup(self)

    @property
    def player_count(self) -> int:
        return len(self.players)


def check_setup(setup: HandSetup) -> None:
    """Refuse a set-up that cannot be dealt, with a sentence the director can act on."""
    count = len(setup.players)
    if not 2 <= count <= MAX_PLAYERS:
        raise ConfigError(
            f"A hand needs 2 to {MAX_PLAYERS} players, not {count}.", code="bad_player_count"
        )
    if setup.big_blind <= 0 or setup.small_blind < 0 or setup.small_blind > setup.big_blind:
        raise ConfigError(
            "Blinds must be positive, with the small blind at most the big blind.",
            code="bad_blinds",
        )
    if setup.small_bet <= 0 or setup.unit <= 0:
        raise ConfigError(
            "The limit bet size and the chip unit must be positive.", code="bad_stakes"
        )
    if not 0 <= setup.bring_in_index < count:
        raise ConfigError("The big blind position is not one of the players.", code="bad_blinds")
    for index, player in enumerate(setup.players):
        if player.stack < 1 or min(player.blind, player.dead, player.ante) < 0:
            raise ConfigError(
                f"Player {index + 1} has no chips or a negative post: only players "
                "with chips are dealt in.",
                code="bad_stack",
            )


def half_rule_blind(stack: int, blind: int, unit: int) -> str:
    """S2's half rule for a short blind (`short_blind=half_rule`, RULES.md section 3, W17).

    Returns "full" (half the blind or more counts as a full blind, posted all-in), "short" (dealt in
    all-in for what they have; the next player posts the blind) or "out" (less than one chip unit:
    not dealt in).
    """
    if stack < unit:
        return "out"
    if 2 * stack >= blind:
        return "full"
    return "short"


def deal_setup(
    rules: Rules,
    stakes: Stakes,
    stacks: Sequence[int],
    *,
    seats: Sequence[int] | None = None,
    names: Sequence[str] | None = None,
    straddle: bool = False,
    button_index: int | None = -1,
    holes: Sequence[tuple[Card, ...] | None] | None = None,
) -> HandSetup:
    """Standard forced bets for players listed clockwise from the seat left of the button.

    The small blind is the first player, the big blind the second (S0-S4); heads-up the button posts
    the small blind unless `heads_up_button_posts=big` (T 34-B; S0). A straddle (S4) is posted by
    the player left of the big blind. With `bb_ante` the big blind pays the whole ante (T).
    `button_index=-1` means the last player holds the button; None means a dead button.
    """
    count = len(stacks)
    if count < 2:
        raise ConfigError("A hand needs at least 2 players with chips.", code="bad_player_count")
    if straddle and not rules.straddle_allowed:
        raise ConfigError(
            "Straddles are not allowed at this table (straddle_allowed=false).",
            code="straddle_not_allowed",
        )
    if straddle and count < 3:
        raise ConfigError("A straddle needs at least 3 players.", code="straddle_not_allowed")
    blinds = [0] * count
    if count == 2:
        small_first = rules.heads_up_button_posts is HeadsUpButtonPosts.SMALL
        sb_index, bb_index = (1, 0) if small_first else (0, 1)
    else:
        sb_index, bb_index = 0, 1
    blinds[sb_index] = stakes.small_blind
    blinds[bb_index] = stakes.big_blind
    bring_in = bb_index
    if rules.short_blind is ShortBlind.HALF_RULE and count > 2:
        bring_in = _apply_half_rule(blinds, stacks, bb_index, stakes)
    if straddle:
        bring_in += 1
        if bring_in >= count:  # the straddle would land on a blind (short-handed, half rule)
            raise ConfigError(
                "No player is left of the big blind to straddle.", code="straddle_not_allowed"
            )
        blinds[bring_in] = stakes.straddle_amount
    antes = [stakes.ante] * count
    if rules.bb_ante:
        antes = [0] * count
        antes[bb_index] = stakes.ante
    players = tuple(
        PlayerSetup(
            stack=stacks[i],
            seat=seats[i] if seats else i + 1,
            name=names[i] if names else f"p{i + 1}",
            blind=blinds[i],
            ante=antes[i],
            hole=holes[i] if holes else None,
        )
        for i in range(count)
    )
    return stakes.hand(
        rules,
        players,
        button_index=count - 1 if button_index == -1 else button_index,
        bring_in_index=bring_in,
    )


def _apply_half_rule(
    blinds: list[int], stacks: Sequence[int], bb_index: int, stakes: Stakes
) -> int:
    """W17: a big blind with less than half of it goes all-in; the next player posts the blind."""
    if half_rule_blind(stacks[bb_index], stakes.big_blind, stakes.unit) != "short":
        return bb_index
    blinds[bb_index] = stacks[bb_index]
    next_index = (bb_index + 1) % len(blinds)
    blinds[next_index] = stakes.big_blind
    return next_index


def missed_blind_posts(
    rules: Rules, *, missed_small: bool, missed_big: bool, small_blind: int, big_blind: int
) -> tuple[int, int]:
    """What a returning player posts as (live, dead) under `missed_blind_policy` (RULES.md 4).

    Missing the big blind (or both) costs the big blind live and the small blind dead (S0, S2, S3;
    W14). Missing only the small blind costs the small blind dead (`missed_sb_fallback=sb_dead`, R)
    or a big-blind-sized live amount (`bb_live_s3`; S3's penalty, always under
    `S3_blind_penalties`; W15, A1). In tournaments absent players are blinded off, so nothing is
    ever owed (T).
    """
    policy = rules.missed_blind_policy
    if policy is MissedBlindPolicy.TDA_TOURNAMENT or not (missed_small or missed_big):
        return 0, 0
    if missed_big:
        return big_blind, small_blind
    if (
        policy is MissedBlindPolicy.S3_BLIND_PENALTIES
        or rules.missed_sb_fallback is MissedSbFallback.BB_LIVE_S3
    ):
        return big_blind, 0
    return 0, small_blind
