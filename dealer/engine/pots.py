"""Main and side pots by contribution layers, uncalled bets and split pots (RULES.md section 6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class Pot:
    """A pot: its chips and the players (indices) who can win it. Pot 0 is the main pot."""

    amount: int
    eligible: tuple[int, ...]


def uncalled_excess(contributions: Sequence[int]) -> tuple[int | None, int]:
    """The player whose contribution exceeds everyone else's, and by how much (S1 "surplus back").

    Returns (None, 0) when the two largest contributions are equal.
    """
    if len(contributions) < 2:
        return None, 0
    top = max(range(len(contributions)), key=lambda i: contributions[i])
    second = max(c for i, c in enumerate(contributions) if i != top)
    excess = contributions[top] - second
    return (top, excess) if excess > 0 else (None, 0)


def side_pots(
    contributions: Sequence[int],
    folded: Sequence[bool],
    all_in: Sequence[bool],
    dead: int = 0,
    behind: Sequence[int] | None = None,
) -> tuple[Pot, ...]:
    """Layer the contributions into the main pot and side pots (RULES.md 6.3).

    Levels are the distinct contributions of non-folded all-in players plus the highest non-folded
    contribution. Pot k takes each player's contribution between level k-1 and level k; it is won
    by the non-folded players who reached level k. Dead money joins the main pot, and adjacent pots
    with the same contenders merge. An all-in player wins only what they paid into (S0, S3, S4).

    While betting goes on (`behind`: each player's chips not yet in), a pot is also contested by
    the players still in who can still reach its level with their chips: "players only compete
    for the pot(s) that they have contributed to" (S3) is true at the showdown, but before it a
    player yet to act is a contender for every pot they can still pay into. When the betting is
    over every contender has reached the level, and the two readings agree.
    """
    live = [i for i in range(len(contributions)) if not folded[i]]
    if not live:
        return (Pot(amount=sum(contributions) + dead, eligible=()),)
    levels = sorted(
        {contributions[i] for i in live if all_in[i]} | {max(contributions[i] for i in live)}
    )
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = tuple(
            i
            for i in live
            if contributions[i] >= level
            or (behind is not None and not all_in[i] and contributions[i] + behind[i] >= level)
        )
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(amount=pots[-1].amount + amount, eligible=eligible)
        elif amount > 0 or not pots:
            pots.append(Pot(amount=amount, eligible=eligible))
        previous = level
    # Chips above the top level can only belong to folded players whose bet was never returned;
    # they stay in the top pot so no chip is ever lost.
    leftover = sum(max(0, c - previous) for c in contributions)
    main = pots[0]
    pots[0] = Pot(amount=main.amount + dead, eligible=main.eligible)
    if leftover:
        pots[-1] = Pot(amount=pots[-1].amount + leftover, eligible=pots[-1].eligible)
    return tuple(pots)


def split_pot(amount: int, winners_in_order: Sequence[int], unit: int) -> dict[int, int]:
    """Split a pot equally in chip units among winners already listed in odd-chip order.

    The remainder goes one unit each to the first winners in that order, so nobody receives more
    than one odd chip per pot (R). Returns each winner's share.
    """
    count = len(winners_in_order)
    units, remainder = divmod(amount, unit)
    base, odd = divmod(units, count)
    shares = {}
    for position, player in enumerate(winners_in_order):
        shares[player] = (base + (1 if position < odd else 0)) * unit
    # Less than one unit left over (a pot not made of whole units) goes with the first odd chip.
    if remainder:
        shares[winners_in_order[0]] += remainder
    return shares
