"""Eliminations: finishing places and prizes, and the undo of a mistaken bust."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from common.actors import Actor
from common.errors import FloorError, FloorInvalid, FloorNotFound
from tournaments.models import ChipMove, Entry, Tournament
from tournaments.selectors.satellites import players_at_end
from tournaments.services.audit import audit_record
from tournaments.services.knockouts import (
    Eliminator,
    check_eliminators,
    knockout_chips_move,
    knockout_chips_return,
    knockouts_record,
)
from tournaments.services.ledger import HandRef, chips_move
from tournaments.services.locks import lock_tournament
from tournaments.services.places import (
    check_seats_free,
    crown_winner,
    places_clear,
    places_recompute,
    places_reprice,
)
from tournaments.services.seats import seats_release_held


@dataclass(frozen=True, slots=True, kw_only=True)
class Bust:
    """One player out on a hand, with the stack they started that hand with and, when known,
    who knocked them out (KO-1, KO-2): the bounties follow from these."""

    entry_id: int
    starting_stack: int
    eliminated_by: tuple[Eliminator, ...] = ()


@transaction.atomic
def entries_bust(
    *,
    tournament: Tournament,
    busts: Sequence[Bust],
    now: datetime,
    actor: Actor = None,
    hand: HandRef | None = None,
) -> list[Entry]:
    """Record the players out on one hand.

    Several busts on one hand are placed by the stack each started the hand with (the bigger
    stack finishes higher); equal stacks share the place and split its prizes (T). In
    hand-for-hand play (RP-8) players out on the same hand-for-hand hand at different tables
    share the place (`tournaments.finishing`).

    `hand` names the tablet's hand the players went out on: its end has already written their
    stacks to zero in the ledger. Without it (a bust typed on the desk) the player's last known
    stack leaves the ledger with a recorded bust row, the starting stack given may not exceed
    it, and a player dealt in a hand in progress is refused: that hand's end busts players.
    Those chips go to the players named as the eliminators, shared as the bounty is (KO-4);
    naming nobody leaves them unassigned until the tables are counted.

    Each bust may name who knocked the player out: players still in, none of them out on this
    hand (400 `bad_eliminator`); one `Knockout` row is written per eliminator.
    """
    tournament = lock_tournament(tournament)
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        raise FloorError("not_running", "Busts are recorded while the tournament is running.")
    ids = [b.entry_id for b in busts]
    if not ids or len(set(ids)) != len(ids):
        raise FloorInvalid("bad_busts", "Name each busted entry once.")
    entries = {
        e.pk: e
        for e in Entry.objects.filter(pk__in=ids, tournament=tournament).select_related("player")
    }
    for bust in busts:
        _check_bust(entries.get(bust.entry_id), bust, from_hand=hand is not None)
    named = {b.entry_id: b.eliminated_by for b in busts if b.eliminated_by}
    check_eliminators(tournament=tournament, named=named, busted=set(ids))
    left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    if len(busts) >= left:
        raise FloorError("no_winner", "At least one player must remain: the last one wins.")
    at_end = players_at_end(tournament)  # 1, or a satellite's seats
    # A tablet's hand that began before the last seat was won still ends: its result is a fact,
    # and its busts are placed among the seat winners (`crown_winner` places the rest again).
    if left <= at_end and hand is None:
        raise FloorError(
            "satellite_over",
            f"The {left} players left have each won a seat: the satellite is over.",
        )
    if hand is None:
        for bust in busts:
            entry = entries[bust.entry_id]
            stack = entry.chips
            chips_move(
                entry=entry,
                kind=ChipMove.Kind.BUST,
                delta=-stack,
                now=now,
                actor=actor,
                note=f"started the hand with {bust.starting_stack:,}",
            )
            knockout_chips_move(
                busted=entry, chips=stack, eliminators=bust.eliminated_by, now=now, actor=actor
            )
    else:
        for bust in busts:
            chips_move(
                entry=entries[bust.entry_id],
                kind=ChipMove.Kind.BUST,
                delta=0,
                now=now,
                actor=actor,
                hand=hand,
            )
    group = (
        Entry.objects.filter(tournament=tournament).aggregate(g=Max("bust_group"))["g"] or 0
    ) + 1
    if hand is not None:
        h4h_round = hand.hand_for_hand_round  # the hand's own, when it was dealt
    else:
        h4h_round = tournament.hand_for_hand_round if tournament.hand_for_hand else None
    for bust in busts:
        entry = entries[bust.entry_id]
        entry.status = Entry.Status.BUSTED
        entry.bust_stack = bust.starting_stack
        entry.bust_group = group
        entry.bust_round = h4h_round
        entry.busted_at = now
        entry.live_hand = None
    knockouts_record(
        tournament=tournament,
        named=named,
        group=group,
        now=now,
        hand_id=hand.hand_id if hand else None,
    )
    Entry.objects.bulk_update(
        list(entries.values()),
        [
            "status",
            "bust_stack",
            "bust_group",
            "bust_round",
            "busted_at",
            "live_hand",
        ],
    )
    seats_release_held(entries=entries.values())
    places_recompute(tournament)
    places_reprice(tournament)
    if left - len(busts) <= at_end:
        crown_winner(tournament)
    out = Entry.objects.select_related("player").in_bulk(ids)
    audit_record(
        tournament=tournament,
        actor=actor,
        action="entries_bust",
        group=group,
        hand=hand.hand_id if hand else None,
        busts=[
            {
                "entry": b.entry_id,
                "player": out[b.entry_id].player.name,
                "place": out[b.entry_id].finishing_place,
                "starting_stack": b.starting_stack,
                **(
                    {"eliminated_by": [e.entry_id for e in b.eliminated_by]}
                    if b.eliminated_by
                    else {}
                ),
            }
            for b in busts
        ],
    )
    return [out[b.entry_id] for b in busts]


def _check_bust(entry: Entry | None, bust: Bust, *, from_hand: bool) -> None:
    if entry is None:
        raise FloorNotFound("not_found", f"Entry {bust.entry_id} is not in this tournament.")
    if entry.status != Entry.Status.ACTIVE or entry.table_id is None:
        raise FloorError(
            "not_seated", f"{entry.player.name} is not seated in play, so cannot bust."
        )
    if from_hand:
        return
    if entry.live_hand_id is not None:
        hand = entry.live_hand
        where = f"hand {hand.number} at table {hand.table.number}" if hand else "a hand"
        raise FloorError(
            "in_hand",
            f"{entry.player.name} is in {where}: the tablet busts players when the hand ends.",
        )
    if not 1 <= bust.starting_stack <= entry.chips:
        raise FloorInvalid(
            "bad_starting_stack",
            f"{entry.player.name}'s last known stack is {entry.chips:,}: the stack at the "
            f"start of the hand is between 1 and {entry.chips:,}.",
        )


@transaction.atomic
def entries_unbust(
    *, tournament: Tournament, actor: Actor = None, now: datetime | None = None
) -> list[Entry]:
    """Undo the most recent bust typed on the desk (all players out on that hand): they play on
    with the chips the bust took off, in their seats; places and prizes are cleared. A bust
    that came from a tablet's hand is undone by reopening that hand instead."""
    tournament = lock_tournament(tournament)
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        raise FloorError(
            "not_running", "A bust is undone while the tournament is running: results are final."
        )
    group = Entry.objects.filter(tournament=tournament).aggregate(g=Max("bust_group"))["g"]
    if group is None:
        raise FloorError("nothing_to_undo", "No bust to undo.")
    entries = list(
        Entry.objects.filter(
            tournament=tournament, bust_group=group, status=Entry.Status.BUSTED
        ).select_related("player", "table")
    )
    if not entries:
        raise FloorError("nothing_to_undo", "No bust to undo.")
    rows = {
        row.entry_id: row
        for row in ChipMove.objects.filter(entry__in=entries, kind=ChipMove.Kind.BUST).order_by(
            "pk"
        )
    }
    for entry in entries:
        row = rows.get(entry.pk)
        if row is not None and row.hand_id is not None:
            raise FloorError(
                "bust_from_hand",
                f"{entry.player.name} went out on hand {row.hand_number} at table "
                f"{row.table_number}: reopen that hand to correct it.",
            )
    check_seats_free(entries)
    restore = {e.pk: -rows[e.pk].delta if e.pk in rows else (e.bust_stack or 0) for e in entries}
    places_clear(tournament, entries)
    when = now or timezone.now()
    for entry in entries:
        if entry.pk in rows:
            knockout_chips_return(busted=entry, since=rows[entry.pk].pk, now=when, actor=actor)
        chips_move(
            entry=entry, kind=ChipMove.Kind.UNBUST, delta=restore[entry.pk], now=when, actor=actor
        )
    audit_record(
        tournament=tournament,
        actor=actor,
        action="entries_unbust",
        group=group,
        players=[e.player.name for e in entries],
    )
    return entries


__all__ = ["Bust", "entries_bust", "entries_unbust"]
