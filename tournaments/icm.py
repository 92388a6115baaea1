"""Deal calculators for the players left in a tournament: ICM (Malmuth-Harville) and chip chop.

Pure Python, standard library only. Stacks are chips (`int`), prizes and results are money
(`decimal.Decimal`).

The model is computed in full (every finishing order, no sampling) in 60-digit decimal
arithmetic, which is exact to far below a cent; rational arithmetic would give the same amounts
a hundred times slower. Only the final amounts are rounded, to `unit` (a cent by default), and
the rounded amounts always add up exactly to the prizes in play: each amount is rounded down,
then the units left over go one each to the players with the largest rounded-off parts (on
equal parts, the bigger stack first, then the earlier player). Prizes in play that are not a
whole number of units (a pool of 9 x 55 paid in tens) are dealt too: the part below one unit
goes to the biggest stack, the deal's first place, as `payouts.payouts` gives it to first place.

Prizes are listed first place first and never increase down the places. With n players left,
the prizes in play are the first n (the ones still to be won); any more are ignored, and places
without a prize are worth nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_FLOOR, ROUND_HALF_EVEN, Decimal, localcontext

from dealer.engine.errors import Invalid

MAX_PLAYERS = 10
CENT = Decimal("0.01")
PRECISION = 60  # significant digits of the intermediate arithmetic
# Amounts are settled to this fraction of the unit before rounding, so players in the same
# position (equal stacks) compare equal whatever the order of the arithmetic.
SETTLE = Decimal("1e-20")


class IcmError(Invalid, ValueError):
    """A deal that cannot be calculated (`code` stable, `detail` for the director). The deal
    service refuses it as a `Conflict`: the event's stacks and prizes are what cannot be dealt."""


def _check_stacks(stacks: Sequence[int]) -> None:
    if not stacks:
        raise IcmError("no_players", "A deal needs at least one player.")
    if len(stacks) > MAX_PLAYERS:
        raise IcmError(
            "too_many_players",
            f"Deals are calculated for at most {MAX_PLAYERS} players; {len(stacks)} are left.",
        )
    for seat, stack in enumerate(stacks, start=1):
        if stack <= 0:
            raise IcmError(
                "bad_stack", f"Player {seat} has {stack} chips; every stack must be positive."
            )


def _prizes_in_play(players: int, prizes: Sequence[Decimal], unit: Decimal) -> list[Decimal]:
    """The prizes of places 1..players (0 for a place without a prize)."""
    if unit <= 0:
        raise IcmError("bad_unit", f"The unit must be positive (it is {unit}).")
    in_play = list(prizes[:players])
    for place, prize in enumerate(in_play, start=1):
        if prize < 0:
            raise IcmError("negative_prize", f"The prize for place {place} is negative.")
        if place > 1 and prize > in_play[place - 2]:
            raise IcmError(
                "prizes_increasing",
                f"The prize for place {place} ({prize}) is more than for place {place - 1} "
                f"({in_play[place - 2]}); list the prizes first place first.",
            )
    return in_play + [Decimal(0)] * (players - len(in_play))


def _rounded(
    amounts: Sequence[Decimal], total: Decimal, stacks: Sequence[int], unit: Decimal
) -> tuple[Decimal, ...]:
    """Round down to `unit`, then give the whole units left over to the largest rounded-off
    parts, and the part of `total` below one unit (a pool that is not a whole number of units)
    to the biggest stack, the earlier on equal stacks: the player the deal places first, as the
    payouts give it to first place. The amounts add up to `total` exactly."""
    with localcontext() as context:
        context.prec = PRECISION
        settled = [(amount / unit).quantize(SETTLE, rounding=ROUND_HALF_EVEN) for amount in amounts]
        units = [int(value.to_integral_value(rounding=ROUND_FLOOR)) for value in settled]
        whole = int((total / unit).to_integral_value(rounding=ROUND_FLOOR))
        order = sorted(range(len(amounts)), key=lambda i: (units[i] - settled[i], -stacks[i], i))
    for player in order[: whole - sum(units)]:
        units[player] += 1
    rounded = [count * unit for count in units]
    first = min(range(len(stacks)), key=lambda i: (-stacks[i], i))
    rounded[first] += total - whole * unit
    return tuple(rounded)


def finish_probabilities(
    stacks: Sequence[int], places: int | None = None
) -> tuple[tuple[Decimal, ...], ...]:
    """For each player, the chance of finishing 1st, 2nd, ... (Malmuth-Harville).

    A player wins with probability proportional to their stack; the next place is then drawn the
    same way among the players left, and so on. The recursion is memoised over the sets of
    players still to be placed (bit masks), so 10 players take 2^10 sets of at most 10 draws.
    Only the first `places` places are worked out (all by default). 60 significant digits.
    """
    _check_stacks(stacks)
    count = len(stacks)
    places = count if places is None else min(places, count)
    chances = [[Decimal(0)] * places for _ in stacks]
    full = (1 << count) - 1
    reach: dict[int, Decimal] = {full: Decimal(1)}  # P(exactly these players are unplaced)
    with localcontext() as context:
        context.prec = PRECISION
        for left in sorted(range(1, full + 1), key=lambda mask: -mask.bit_count()):
            place = count - left.bit_count()
            if place >= places or left not in reach:
                continue
            players = [i for i in range(count) if left >> i & 1]
            per_chip = reach[left] / sum(stacks[i] for i in players)
            for i in players:
                chance = per_chip * stacks[i]
                chances[i][place] += chance
                if place + 1 < places:
                    rest = left & ~(1 << i)
                    reach[rest] = reach.get(rest, Decimal(0)) + chance
    return tuple(tuple(row) for row in chances)


def icm_equities(
    stacks: Sequence[int], prizes: Sequence[Decimal], *, unit: Decimal = CENT
) -> tuple[Decimal, ...]:
    """Each player's ICM (Malmuth-Harville) equity in the prizes in play, in stack order.

    Equity = the sum over places of the chance of finishing there (`finish_probabilities`) times
    the place's prize, rounded to `unit` so the total is exactly the prizes in play
    (see the module docstring). At most 10 players.
    """
    _check_stacks(stacks)
    in_play = _prizes_in_play(len(stacks), prizes, unit)
    chances = finish_probabilities(stacks, places=len(in_play))
    with localcontext() as context:
        context.prec = PRECISION
        exact = [
            sum((chance * prize for chance, prize in zip(row, in_play, strict=True)), Decimal(0))
            for row in chances
        ]
    return _rounded(exact, sum(in_play, Decimal(0)), stacks, unit)


def chip_chop(
    stacks: Sequence[int], prizes: Sequence[Decimal], *, unit: Decimal = CENT
) -> tuple[Decimal, ...]:
    """The chip-chop deal, in stack order: everyone gets the last prize in play (the prize of
    the place the next bust would take with everyone left) plus a share of the rest of the prizes
    in play proportional to their chips.

    Simpler than ICM, and it favours big stacks: a big enough chip leader is offered more than
    first prize. Rounded to `unit` like `icm_equities`. At most 10 players.
    """
    _check_stacks(stacks)
    in_play = _prizes_in_play(len(stacks), prizes, unit)
    total = sum(in_play, Decimal(0))
    floor_prize = in_play[-1]
    rest = total - floor_prize * len(stacks)
    chips = sum(stacks)
    with localcontext() as context:
        context.prec = PRECISION
        exact = [floor_prize + rest * stack / chips for stack in stacks]
    return _rounded(exact, total, stacks, unit)
