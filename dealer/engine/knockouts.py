"""Who eliminated whom in a finished hand: the winners of the pot that took a busted player's
last chips (our rule key KO-1, docs/rules.md "Bounties").

A player who ends the hand with no chips went all in; their chips are layered into the main pot
and the side pots like everyone's (`pots.side_pots`, RULES.md 6.3), and the last of them (the
chips at the top of their contribution) went into the highest pot they paid into. Whoever won
that pot eliminated them, each winner with their share of it, in the pot's odd-chip order:
when a split pot busts a player, every winner has a part of the knockout, in proportion.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer.engine.pots import side_pots
from dealer.engine.state import Award, HandState


@dataclass(frozen=True, slots=True, kw_only=True)
class Knockout:
    """A player out on the hand (an index into the hand's players) and who eliminated them:
    the winners of `pot`, in odd-chip order, each with the chips they won of it."""

    busted: int
    pot: int
    eliminators: tuple[int, ...]
    shares: tuple[int, ...]


def busting_pot(state: HandState, player: int) -> int:
    """The number of the pot that took `player`'s last chips (KO-1): the highest pot their
    contribution reached, counted as the award counts pots (a mucked hand gives up its claim).

    The pots are layered again with every contribution capped at the player's: the layers below
    the cap are the award's own, so the count of pots up to the cap names the pot that holds the
    player's top chip, whether or not the player's own level made a pot of its own. Who was
    all in is read from the stacks before the award (a winner of a pot has chips again)."""
    won = [0] * state.player_count
    for award in state.awards:
        for winner, share in zip(award.winners, award.shares, strict=True):
            won[winner] += share
    behind = [stack - gain for stack, gain in zip(state.stacks, won, strict=True)]
    all_in = [not f and b == 0 for f, b in zip(state.folded, behind, strict=True)]
    cap = state.contributed[player]
    capped = [min(c, cap) for c in state.contributed]
    out = [f or m for f, m in zip(state.folded, state.mucked, strict=True)]
    return len(side_pots(capped, out, all_in, state.dead)) - 1


def knockouts(state: HandState) -> tuple[Knockout, ...]:
    """Every player the finished hand left with no chips, with who eliminated them (KO-1), in
    the order of the hand's players. A hand still in play or void (a misdeal returns every
    chip) eliminates nobody."""
    if not state.awards:
        return ()
    found: list[Knockout] = []
    for player, stack in enumerate(state.stacks):
        if stack or not state.contributed[player]:
            continue
        award = _award_of(state.awards, busting_pot(state, player))
        if award is None:
            continue
        pairs = [(w, s) for w, s in zip(award.winners, award.shares, strict=True) if s > 0]
        found.append(
            Knockout(
                busted=player,
                pot=award.pot,
                eliminators=tuple(w for w, _ in pairs),
                shares=tuple(s for _, s in pairs),
            )
        )
    return tuple(found)


def _award_of(awards: tuple[Award, ...], pot: int) -> Award | None:
    """The award of pot `pot`; failing it, of the highest pot below (an uncontested hand is
    awarded as one pot, number 0)."""
    below = [a for a in awards if a.pot <= pot and a.winners]
    return max(below, key=lambda a: a.pot) if below else None
