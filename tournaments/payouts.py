"""Prize pool and payouts: the pool from the entries, the payout table, prizes rounded to a unit,
and tied places.

Pure Python, standard library only. Money is `decimal.Decimal`; counts are `int`. Every refusal is
a `PayoutError` with a stable `code` and a sentence a director understands.

Rounding, in one place: each prize is rounded DOWN to the prize unit (a currency unit such as
Decimal("1") or Decimal("0.01"), or a chip such as 5); what rounding leaves over goes to first
place, so the prizes always add up exactly to the prize pool. When the pool itself is not a
multiple of the unit, the part below one unit goes to first place as well (first place is then
the only prize that is not a multiple of the unit).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, ROUND_HALF_EVEN, Decimal

from dealer.engine.errors import Invalid

ZERO = Decimal("0")
HUNDRED = Decimal("100")
CENT = Decimal("0.01")

# default_payout_table pays this share of the field (rounded down) once the field has 9 entries.
PAID_SHARE = Decimal("0.15")


class PayoutError(Invalid, ValueError):
    """A prize pool, payout table or split that cannot be used (`code` stable, `detail` for the
    director). A service paying out a running event's stored settings refuses it as a
    `Conflict`: the settings, not the request, are wrong."""


def _text(amount: Decimal) -> str:
    """A Decimal without trailing zeros or exponent: 99.50 -> "99.5", 100.00 -> "100"."""
    return f"{amount.normalize():f}"


# --- prize pool ----------------------------------------------------------------------------


def prize_pool(
    entries: int,
    rebuys: int,
    addons: int,
    buy_in: Decimal,
    rebuy_price: Decimal,
    addon_price: Decimal,
    guarantee: Decimal = ZERO,
) -> Decimal:
    """The prize pool: what entries (re-entries count as entries), rebuys and add-ons put in; a
    guarantee tops it up (the pool is at least the guarantee).

    Fees are not in the prize pool: `buy_in`, `rebuy_price` and `addon_price` are the parts that
    go to the pool (the 1,000 of a "1,000 + 100" buy-in; the 100 fee is charged on top and never
    passed here). A rebuy or add-on that carries a fee is passed without it.
    """
    for name, count in (("entries", entries), ("rebuys", rebuys), ("add-ons", addons)):
        if count < 0:
            raise PayoutError("negative_count", f"The number of {name} ({count}) is negative.")
    amounts = (
        ("buy-in", buy_in),
        ("rebuy price", rebuy_price),
        ("add-on price", addon_price),
        ("guarantee", guarantee),
    )
    for name, amount in amounts:
        if amount < 0:
            raise PayoutError("negative_amount", f"The {name} ({_text(amount)}) is negative.")
    collected = entries * buy_in + rebuys * rebuy_price + addons * addon_price
    return max(collected, guarantee)


# --- payout tables -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PayoutTable:
    """The share of the prize pool of each paid place, first place first, in percent.

    Every percentage is positive, they never increase down the places (equal is allowed) and
    they add up to exactly 100.
    """

    percentages: tuple[Decimal, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "percentages", tuple(self.percentages))
        if not self.percentages:
            raise PayoutError("payout_empty", "The payout table pays no places.")
        for place, share in enumerate(self.percentages, start=1):
            if share <= 0:
                raise PayoutError(
                    "payout_not_positive",
                    f"Place {place} is paid {_text(share)}%; every paid place needs a positive "
                    "share.",
                )
        for place in range(1, len(self.percentages)):
            above, below = self.percentages[place - 1], self.percentages[place]
            if below > above:
                raise PayoutError(
                    "payout_increasing",
                    f"Place {place + 1} is paid {_text(below)}%, more than place {place} "
                    f"({_text(above)}%); a lower place is never paid more.",
                )
        total = sum(self.percentages, ZERO)
        if total != HUNDRED:
            raise PayoutError(
                "payout_not_100",
                f"The payout percentages add up to {_text(total)}%, not 100%.",
            )

    @property
    def places(self) -> int:
        """The number of places paid."""
        return len(self.percentages)


def _check_unit(unit: Decimal) -> None:
    if unit <= 0:
        raise PayoutError("bad_unit", f"The prize unit must be positive (it is {_text(unit)}).")


def _round_down(amount: Decimal, unit: Decimal) -> Decimal:
    return (amount / unit).to_integral_value(rounding=ROUND_FLOOR) * unit


def payouts(pool: Decimal, table: PayoutTable, unit: Decimal) -> tuple[Decimal, ...]:
    """Each paid place's prize, first place first.

    Each prize is the place's percentage of the pool rounded down to `unit`; the remainder goes
    to first place, so the prizes add up exactly to the pool (see the module docstring).
    """
    _check_unit(unit)
    if pool < 0:
        raise PayoutError("negative_amount", "The prize pool cannot be negative.")
    prizes = [_round_down(pool * share / HUNDRED, unit) for share in table.percentages]
    prizes[0] += pool - sum(prizes, ZERO)
    return tuple(prizes)


def places_paid(entries: int) -> int:
    """How many places `default_payout_table` pays for a field of `entries` (re-entries count).

    1 place up to 6 entries, 2 for 7-8, then 15% of the field (rounded down), at least 3.
    """
    if entries < 1:
        raise PayoutError("no_entries", "A payout table needs at least one entry.")
    if entries <= 6:
        return 1
    if entries <= 8:
        return 2
    return max(3, int(entries * PAID_SHARE))


def default_payout_table(entries: int) -> PayoutTable:
    """A standard top-heavy payout table for a field of `entries`.

    `places_paid(entries)` places, n, are paid. Place k gets a weight of 1/k + 1/n: a harmonic
    curve, which pays first place about twice second, plus a flat part that lifts the minimum
    cash to 1.5 buy-ins or more in fields up to 10,000. The percentages are the weights
    normalised to 100, rounded (half to even) to 0.01, or for a big field to the largest step of
    0.001, 0.0001, ... that is at most a tenth of the smallest share; first place takes the
    rounding difference so they add up to exactly 100. For example: 2 places 60/40,
    3 places 47.06/29.41/23.53.
    """
    count = places_paid(entries)
    weights = [Decimal(1) / place + Decimal(1) / count for place in range(1, count + 1)]
    total = sum(weights, ZERO)
    exact = [HUNDRED * weight / total for weight in weights]
    step = CENT
    while step * 10 > exact[-1]:  # a big field: finer steps keep the small prizes apart
        step /= 10
    shares = [share.quantize(step, rounding=ROUND_HALF_EVEN) for share in exact]
    shares[0] += HUNDRED - sum(shares, ZERO)
    return PayoutTable(percentages=tuple(shares))


# --- ties ----------------------------------------------------------------------------------


def split_places(
    prizes: Sequence[Decimal], places: Sequence[int], *, unit: Decimal
) -> tuple[Decimal, ...]:
    """The shares of players tied for `places` (RP-8: players busting on the same hand, with the
    same starting stack on one table or hand-for-hand across tables, share the places).

    `prizes` are the prizes of the paid places, first place first (as `payouts` gives them);
    `places` are the consecutive 1-based places the tied players cover (two players busting
    when 9th and 8th are left cover [8, 9]); places beyond the paid ones are worth nothing.
    The players share the sum of those prizes equally, each share rounded down to `unit`; the
    remainder goes to the first share, which the service gives to the tied player it lists
    first. The shares add up exactly to the prizes of the places covered.
    """
    _check_unit(unit)
    ordered = sorted(places)
    if not ordered or ordered[0] < 1:
        raise PayoutError("bad_places", "Tied players must cover places numbered from 1.")
    if ordered != list(range(ordered[0], ordered[0] + len(ordered))):
        raise PayoutError(
            "places_not_consecutive",
            f"Tied players cover consecutive places; {ordered} has a gap or a repeat.",
        )
    total = sum((prizes[place - 1] for place in ordered if place <= len(prizes)), ZERO)
    share = _round_down(total / len(ordered), unit)
    shares = [share] * len(ordered)
    shares[0] += total - share * len(ordered)
    return tuple(shares)
