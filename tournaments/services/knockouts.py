"""Who eliminated whom: the `Knockout` rows, written with the bust they belong to and removed
with it (an undone bust, a reopened hand), so that the bounties worked out from them
(`tournaments.selectors.bounties`) always follow the busts as they stand.

Only the bust services call these, inside their transaction and under the tournament's lock.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from tournaments.errors import FloorInvalid
from tournaments.models import Entry, Knockout, Tournament


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
