"""Who eliminated whom: the `Knockout` rows, written with the bust they belong to and removed
with it (an undone bust, a reopened hand), so that the bounties worked out from them
(`tournaments.selectors.bounties`) always follow the busts as they stand.

A bust typed on the desk also moves the busted player's chips to the eliminators through the
ledger (KO-4): `knockout_chips_move`, taken back by `knockout_chips_return` when the bust is
undone.

Only the bust services call these, inside their transaction and under the tournament's lock.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from common.actors import Actor
from common.errors import FloorInvalid
from tournaments.models import ChipMove, Entry, Knockout, Tournament
from tournaments.services.ledger import chips_moves


@dataclass(frozen=True, slots=True, kw_only=True)
class Eliminator:
    """A player who knocked a busted entry out, with their part of it: the chips they won of
    the pot that took the busted player's last chips (KO-1), or 1 each when the desk names
    several players (equal parts)."""

    entry_id: int
    share: int = 1


def eliminators_equal(entry_ids: Iterable[int]) -> tuple[Eliminator, ...]:
    """The players the desk names, each with an equal part (KO-2), in the order named, each
    once."""
    return tuple(Eliminator(entry_id=pk) for pk in dict.fromkeys(entry_ids))


def check_eliminators(
    *,
    tournament: Tournament,
    named: Mapping[int, Sequence[Eliminator]],
    busted: Collection[int],
) -> None:
    """Refuse an eliminator who is not a player still in this tournament, or who is out on the
    same hand (400 `bad_eliminator`); and a share that is not positive (400 `bad_share`)."""
    wanted = {e.entry_id for eliminators in named.values() for e in eliminators}
    if not wanted:
        return
    names = dict(
        Entry.objects.filter(pk__in=wanted, tournament=tournament, status=Entry.Status.ACTIVE)
        .order_by("pk")
        .values_list("pk", "player__name")
    )
    for eliminators in named.values():
        for eliminator in eliminators:
            pk = eliminator.entry_id
            if pk in busted:
                raise FloorInvalid(
                    "bad_eliminator",
                    f"Entry {pk} is out on this hand too: a player out cannot be the one who "
                    "knocked another out.",
                )
            if pk not in names:
                raise FloorInvalid(
                    "bad_eliminator",
                    f"Entry {pk} is not a player still in this tournament: name a player "
                    "still in as the one who knocked them out.",
                )
            if eliminator.share <= 0:
                raise FloorInvalid("bad_share", f"{names[pk]}'s share must be positive.")


def knockouts_record(
    *,
    tournament: Tournament,
    named: Mapping[int, Sequence[Eliminator]],
    group: int,
    now: datetime,
    hand_id: int | None = None,
) -> list[Knockout]:
    """One `Knockout` row per eliminator of each busted entry (`named`: busted entry id ->
    eliminators), in the order given: the bounties are paid in this order (KO-3)."""
    rows = [
        Knockout(
            tournament=tournament,
            busted_id=busted,
            eliminator_id=eliminator.entry_id,
            share=eliminator.share,
            bust_group=group,
            hand_id=hand_id,
            created_at=now,
        )
        for busted, eliminators in named.items()
        for eliminator in eliminators
    ]
    return Knockout.objects.bulk_create(rows)


def knockouts_clear(entries: Iterable[Entry]) -> int:
    """Remove the knockouts of entries coming back into play (their bust undone, their hand
    reopened): the bounties they paid are paid no longer. Returns how many rows went."""
    deleted, _ = Knockout.objects.filter(busted__in=[e.pk for e in entries]).delete()
    return deleted


def split_chips(chips: int, shares: Sequence[int]) -> list[int]:
    """`chips` split in proportion to `shares`, each part rounded down, the odd chips left over
    to the first share: the rule the bounty's money follows (KO-3), applied to the busted stack
    (KO-4)."""
    total = sum(shares)
    parts = [chips * share // total for share in shares]
    parts[0] += chips - sum(parts)
    return parts


def knockout_chips_move(
    *,
    busted: Entry,
    chips: int,
    eliminators: Sequence[Eliminator],
    now: datetime,
    actor: Actor = None,
) -> list[ChipMove]:
    """Move the `chips` a desk bust took off `busted` to its eliminators, one ledger row each,
    split as its bounty is (KO-4). Nobody counted those stacks: each row says it is an estimate,
    and the stack stays one until its next count (`books.stacks_estimated`)."""
    if not eliminators or not chips:
        return []
    receiving = Entry.objects.select_related("player").in_bulk([e.entry_id for e in eliminators])
    parts = split_chips(chips, [e.share for e in eliminators])
    return chips_moves(
        changes=[
            (receiving[e.entry_id], part)
            for e, part in zip(eliminators, parts, strict=True)
            if part
        ],
        kind=ChipMove.Kind.KNOCKOUT,
        now=now,
        actor=actor,
        note=f"knocked out {busted}",
        from_entry=busted,
    )


def knockout_chips_return(
    *, busted: Entry, since: int, now: datetime, actor: Actor = None
) -> list[ChipMove]:
    """Take back the chips moved from `busted` by its bust (the ledger rows after row `since`,
    its bust row), from each eliminator: the undo of `knockout_chips_move`. An eliminator who no
    longer holds them is refused (409 `negative_chips`), as any change below zero is."""
    moved: dict[int, int] = defaultdict(int)
    for entry_id, delta in ChipMove.objects.filter(
        from_entry=busted, kind=ChipMove.Kind.KNOCKOUT, pk__gt=since
    ).values_list("entry_id", "delta"):
        moved[entry_id] += delta
    giving = Entry.objects.select_related("player").in_bulk([pk for pk, n in moved.items() if n])
    return chips_moves(
        changes=[(giving[pk], -moved[pk]) for pk in sorted(giving)],
        kind=ChipMove.Kind.KNOCKOUT,
        now=now,
        actor=actor,
        note=f"bust of {busted} undone",
        from_entry=busted,
    )
