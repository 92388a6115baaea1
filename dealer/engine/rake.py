"""The house's take from a cash hand's pots (RULES.md 6.5): a percentage (to two places: 2.5%)
with a cap, or a fixed drop, plus a promotional (jackpot) drop kept apart from the rake, all taken
from the pots before they are awarded.

Off unless the table's rules set `rake_percent` or `rake_fixed_drop`; tournaments never rake
(`check_rules` refuses it). The rake is worked out on everything in the middle at the award
(uncalled bets already returned), in whole chip units rounded down, and taken from the main pot
first, then from each side pot in order, so a winner of a side pot pays only what the main pot
could not cover.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealer.engine.pots import Pot
from dealer.engine.rules import Rules, hundredths


def rake_due(rules: Rules, pot: int, *, flop_seen: bool, unit: int = 1) -> int:
    """The rake from a hand whose pots hold `pot` chips in all (RULES.md 6.5).

    Nothing when the rules take none, when the hand ended before the flop under "no flop, no
    drop", or when the pot is under `rake_min_pot`. Otherwise the fixed drop, or the percentage
    rounded down; either is held to `rake_cap` (0 = no cap), to whole units and to the pot.
    """
    if rules.is_tournament or not (rules.rake_percent or rules.rake_fixed_drop):
        return 0
    if rules.rake_no_flop_no_drop and not flop_seen:
        return 0
    if pot <= 0 or pot < rules.rake_min_pot:
        return 0
    rake = rules.rake_fixed_drop or pot * hundredths(rules.rake_percent) // 10_000
    if rules.rake_cap:
        rake = min(rake, rules.rake_cap)
    rake -= rake % max(unit, 1)
    return max(0, min(rake, pot))


def drop_due(rules: Rules, pot: int, *, flop_seen: bool, rake: int, unit: int = 1) -> int:
    """The promotional or jackpot drop from a hand whose pots hold `pot` chips, of which `rake`
    goes to the house (docs/rules.md "The promotional drop"): `promo_drop` chips from a pot of at
    least `promo_drop_min_pot`, none before the flop under "no flop, no drop", in whole units and
    never more than what the rake leaves in the pot."""
    if rules.is_tournament or not rules.promo_drop:
        return 0
    if rules.rake_no_flop_no_drop and not flop_seen:
        return 0
    if pot <= 0 or pot < rules.promo_drop_min_pot:
        return 0
    drop = min(rules.promo_drop, pot - rake)
    return max(0, drop - drop % max(unit, 1))


def take_rake(pots: Sequence[Pot], rake: int) -> tuple[tuple[Pot, ...], tuple[int, ...]]:
    """The pots with `rake` taken out, main pot first, and the rake taken from each
    (RULES.md 6.5). The pots' players are unchanged; a pot may be left empty."""
    left = rake
    raked: list[Pot] = []
    taken: list[int] = []
    for pot in pots:
        part = min(left, pot.amount)
        left -= part
        raked.append(Pot(amount=pot.amount - part, eligible=pot.eligible))
        taken.append(part)
    return tuple(raked), tuple(taken)
