"""What a tablet's hand does to the tournament: who it holds while it is played, and its result.

The dealer's services own the hand; these own what it changes on the floor. A hand's start
marks its entries as in the hand (`Entry.live_hand`): the floor waits for it before changing
their chips or seats. Its end writes each player's result to the chip ledger as a difference
from the hand's start (so a change the floor made meanwhile is added to, never overwritten),
busts the players left with nothing (by the hand and by the books), carries out the moves that
waited for the hand, and counts the table's hand-for-hand hand. Reopening a finished hand
reverses all of that through the ledger.

Locks: the tournament row first, then the table's, then the entries' (the floor's own writes
take the same order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from common.actors import Actor
from common.errors import FloorError
from tournaments.models import ChipMove, Entry, Table, Tournament
from tournaments.selectors.books import FLOOR_COUNTS
from tournaments.services.audit import audit_record
from tournaments.services.busts import Bust, entries_bust
from tournaments.services.clocks import hand_for_hand_table_done
from tournaments.services.knockouts import Eliminator
from tournaments.services.ledger import HandRef, chips_moves
from tournaments.services.locks import lock_tournament
from tournaments.services.places import check_seats_free, places_clear
from tournaments.services.tables import entries_make_pending_moves
from tournaments.services.versions import tournament_bump


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatResult:
    """One dealt player's stack at the hand's start and at its end; for a player the hand left
    with nothing, who knocked them out (the winners of the pot that took their last chips)."""

    entry_id: int
    start: int
    finish: int
    eliminated_by: tuple[Eliminator, ...] = ()


def entries_enter_hand(*, tournament: Tournament, entries: Sequence[Entry], hand_id: int) -> None:
    """Mark the entries dealt in a new hand. An entry already in a hand in progress (at another
    table, after a move) is refused: nobody plays two hands at once."""
    busy = [e for e in entries if e.live_hand_id is not None]
    if busy:
        names = ", ".join(e.player.name for e in busy)
        raise FloorError(
            "in_another_hand",
            f"{names} {'is' if len(busy) == 1 else 'are'} still in a hand at another table: "
            "deal when that hand ends.",
        )
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(live_hand_id=hand_id)


def entries_hand_end(
    *,
    table: Table,
    hand: HandRef,
    results: Sequence[SeatResult],
    void: bool,
    now: datetime,
    actor: Actor = None,
) -> None:
    """A tablet's hand at a tournament table is over (or void, a misdeal): its result in the
    ledger, its busts, the moves that waited for it (after a misdeal, for the redeal), and the
    table's hand-for-hand hand."""
    tournament = lock_tournament(table.tournament_id or 0)
    ids = [r.entry_id for r in results]
    entries = {
        e.pk: e for e in Entry.objects.filter(pk__in=ids).select_related("player").order_by("pk")
    }
    Entry.objects.filter(pk__in=ids, live_hand_id=hand.hand_id).update(live_hand=None)
    if void:
        tournament_bump(tournament.pk)  # no chip moves (they move the version), but seats may
        Table.objects.filter(pk=table.pk, hand_for_hand_round__gt=0).update(
            hand_for_hand_round=tournament.hand_for_hand_round - 1
        )
    else:
        chips_moves(
            changes=[(entries[r.entry_id], r.finish - r.start) for r in results],
            kind=ChipMove.Kind.HAND,
            now=now,
            actor=actor,
            hand=hand,
        )
        # Out: left with nothing by the hand AND by the books. A player the hand cleaned out
        # may hold chips the floor gave since the hand began (an add-on bought before a
        # finished hand was reopened and corrected): they play on with those.
        cleaned_out = [r for r in results if not r.finish]
        left = dict(
            Entry.objects.filter(pk__in=[r.entry_id for r in cleaned_out]).values_list(
                "pk", "chips"
            )
        )
        busts = [
            Bust(entry_id=r.entry_id, starting_stack=r.start, eliminated_by=r.eliminated_by)
            for r in cleaned_out
            if left.get(r.entry_id) == 0
        ]
        if busts:
            entries_bust(tournament=tournament, busts=busts, now=now, actor=actor, hand=hand)
    # A misdeal is dealt again with the same button, blinds and players: the moves that wait
    # for the hand wait for the redeal's end, unless the table is broken and deals no redeal.
    if not void or Table.objects.filter(pk=table.pk, is_broken=True).exists():
        entries_make_pending_moves(tournament=tournament, entry_ids=ids, actor=actor)
    if not void and tournament.hand_for_hand:
        hand_for_hand_table_done(tournament=tournament, now=now, actor=actor)


def check_reopen(*, table: Table, hand: HandRef, results: Sequence[SeatResult]) -> None:
    """Whether the tournament side allows a finished hand to be reopened: every player must
    still be where the hand left them (at this table, or out on it) and in no other hand."""
    tournament = table.tournament
    if tournament is None:
        return
    if tournament.status == Tournament.Status.FINISHED:
        raise FloorError("tournament_finished", "The tournament is finished: its hands are final.")
    entries = list(
        Entry.objects.filter(pk__in=[r.entry_id for r in results]).select_related("player", "table")
    )
    out_on_this_hand = _out_on_hand(hand, entries)
    _check_not_counted_since(hand, entries)
    for entry in entries:
        if entry.live_hand_id is not None:
            raise FloorError(
                "in_another_hand",
                f"{entry.player.name} is in another hand now: reopen this one when it ends.",
            )
        if entry.status == Entry.Status.ACTIVE and entry.table_id != table.pk:
            raise FloorError(
                "moved",
                f"{entry.player.name} has moved to another table since: the hand can no "
                "longer be reopened.",
            )
        if entry.status == Entry.Status.UNREGISTERED:
            raise FloorError("moved", f"{entry.player.name} is no longer registered.")
        if entry.status == Entry.Status.BUSTED and entry.pk not in out_on_this_hand:
            # Reversing the hand would hand chips back to an entry that is out of play.
            raise FloorError(
                "out_since",
                f"{entry.player.name} has been recorded out since this hand: undo that bust "
                "first, then reopen the hand.",
            )


def _out_on_hand(hand: HandRef, entries: Sequence[Entry]) -> set[int]:
    """The entries this hand busted and still out on it: their latest bust row is this hand's
    (a bust row of an earlier end, reopened and corrected since, does not count)."""
    latest: dict[int, int | None] = {}
    for entry_id, hand_id in (
        ChipMove.objects.filter(entry__in=entries, kind=ChipMove.Kind.BUST)
        .order_by("entry_id", "pk")
        .values_list("entry_id", "hand_id")
    ):
        latest[entry_id] = hand_id
    busted = {e.pk for e in entries if e.status == Entry.Status.BUSTED}
    return {pk for pk, hand_id in latest.items() if hand_id == hand.hand_id and pk in busted}


def _check_not_counted_since(hand: HandRef, entries: Sequence[Entry]) -> None:
    """A count or correction the floor made after the hand already holds its result: reversing
    the hand under it would make the count wrong (or a stack negative). The floor corrects the
    count instead. A hand played before the chip ledger began has no result in it to reverse."""
    ended = ChipMove.objects.filter(hand_id=hand.hand_id, kind=ChipMove.Kind.HAND).order_by("-pk")
    last = ended.values_list("pk", flat=True).first()
    if last is None:
        raise FloorError(
            "before_ledger",
            "This hand was played before the chip ledger began: it cannot be reopened. "
            "Correct the stacks with a count instead.",
        )
    counted = (
        ChipMove.objects.filter(entry__in=entries, pk__gt=last, kind__in=FLOOR_COUNTS)
        .select_related("entry__player")
        .first()
    )
    if counted is not None:
        raise FloorError(
            "counted_since",
            f"{counted.entry.player.name}'s stack has been counted since this hand: the count "
            "holds its result. Correct the count instead of reopening the hand.",
        )


def entries_hand_reopen(
    *,
    table: Table,
    hand: HandRef,
    results: Sequence[SeatResult],
    now: datetime,
    actor: Actor = None,
    reason: str = "",
) -> None:
    """Reverse a finished hand's result so that it can be corrected: each player's chips go
    back by what the hand gave or took (a `hand_reversed` row), the players it busted come back
    to their seats with their places and prizes cleared, and they are in the hand again."""
    tournament = lock_tournament(table.tournament_id or 0)
    check_reopen(table=table, hand=hand, results=results)
    entries = {
        e.pk: e
        for e in Entry.objects.filter(pk__in=[r.entry_id for r in results])
        .select_related("player", "table")
        .order_by("pk")
    }
    out_ids = _out_on_hand(hand, list(entries.values()))
    out = [entries[pk] for pk in sorted(out_ids)]
    if out:
        check_seats_free(out)
        places_clear(tournament, out)
    played = ChipMove.objects.filter(hand_id=hand.hand_id, kind=ChipMove.Kind.HAND)
    last = dict(played.order_by("pk").values_list("entry_id", "delta"))
    chips_moves(
        changes=[(entries[pk], -delta) for pk, delta in last.items() if pk in entries],
        kind=ChipMove.Kind.HAND_REVERSED,
        now=now,
        actor=actor,
        hand=hand,
        note=reason,
    )
    Entry.objects.filter(pk__in=list(entries)).filter(Q(status=Entry.Status.ACTIVE)).update(
        live_hand_id=hand.hand_id
    )
    audit_record(
        tournament=tournament,
        actor=actor,
        action="hand_reopen",
        table=hand.table_number,
        hand=hand.hand_number,
        reason=reason,
        players_back=[e.player.name for e in out],
    )
