"""Eliminations: finishing places and prizes, and the undo of a mistaken bust."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from itertools import groupby
from typing import Any

from django.db import transaction
from django.db.models import Max

from tournaments import payouts
from tournaments.models import Entry, Tournament
from tournaments.services.audit import audit_record
from tournaments.services.entries import lock_tournament
from tournaments.services.errors import FloorError, from_value_error


@dataclass(frozen=True, slots=True, kw_only=True)
class Bust:
    """One player out on a hand, with the stack they started that hand with."""

    entry_id: int
    starting_stack: int


def prize_table(tournament: Tournament) -> tuple[Decimal, ...]:
    """Each paid place's prize, from the entries, rebuys and add-ons and the payout table."""
    counts = Entry.objects.filter(tournament=tournament).exclude(status=Entry.Status.UNREGISTERED)
    entries = counts.count()
    rebuys = sum(counts.values_list("rebuys", flat=True))
    addons = counts.filter(addon=True).count()
    try:
        pool = payouts.prize_pool(
            entries,
            rebuys,
            addons,
            tournament.buy_in,
            tournament.rebuy_price,
            tournament.addon_price,
            tournament.guarantee,
        )
        if tournament.payout_percentages:
            table = payouts.PayoutTable(
                percentages=tuple(Decimal(str(p)) for p in tournament.payout_percentages)
            )
        else:
            table = payouts.default_payout_table(max(entries, 1))
        return payouts.payouts(pool, table, tournament.payout_unit)
    except ValueError as error:
        raise from_value_error(error, status=409) from error


@transaction.atomic
def entries_bust(
    *, tournament: Tournament, busts: Sequence[Bust], now: datetime, actor: Any = None
) -> list[Entry]:
    """Record the players out on one hand.

    Several busts on one hand are placed by the stack each started the hand with (the bigger
    stack finishes higher); equal stacks share the place and split its prizes. In hand-for-hand
    play (RP-8) everyone out on the same hand shares the place.
    """
    tournament = lock_tournament(tournament)
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        raise FloorError("not_running", "Busts are recorded while the tournament is running.")
    ids = [b.entry_id for b in busts]
    if not ids or len(set(ids)) != len(ids):
        raise FloorError("bad_busts", "Name each busted entry once.", status=400)
    entries = {
        e.pk: e
        for e in Entry.objects.filter(pk__in=ids, tournament=tournament).select_related("player")
    }
    for bust in busts:
        entry = entries.get(bust.entry_id)
        if entry is None:
            raise FloorError(
                "not_found", f"Entry {bust.entry_id} is not in this tournament.", status=404
            )
        if entry.status != Entry.Status.ACTIVE or entry.table_id is None:
            raise FloorError(
                "not_seated", f"{entry.player.name} is not seated in play, so cannot bust."
            )
    left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    if len(busts) >= left:
        raise FloorError("no_winner", "At least one player must remain: the last one wins.")
    prizes = prize_table(tournament)
    group = (
        Entry.objects.filter(tournament=tournament).aggregate(g=Max("bust_group"))["g"] or 0
    ) + 1
    ordered = sorted(busts, key=lambda b: -b.starting_stack)
    if tournament.hand_for_hand:
        ties = [list(ordered)]
    else:
        ties = [list(g) for _, g in groupby(ordered, key=lambda b: b.starting_stack)]
    place = left - len(busts) + 1  # the best place among this hand's busts
    for tied in ties:
        span = list(range(place, place + len(tied)))
        shares = payouts.split_places(prizes, span, unit=tournament.payout_unit)
        for bust, share in zip(tied, shares, strict=True):
            entry = entries[bust.entry_id]
            entry.status = Entry.Status.BUSTED
            entry.finishing_place = place
            entry.prize = share if share > 0 else None
            entry.bust_stack = bust.starting_stack
            entry.bust_group = group
            entry.busted_at = now
            entry.chips = 0
            entry.save()
        place += len(tied)
    if left - len(busts) == 1:
        _crown_winner(tournament, prizes)
    audit_record(
        tournament=tournament,
        actor=actor,
        action="entries_bust",
        group=group,
        busts=[
            {
                "entry": b.entry_id,
                "player": entries[b.entry_id].player.name,
                "place": entries[b.entry_id].finishing_place,
                "starting_stack": b.starting_stack,
            }
            for b in busts
        ],
    )
    return [entries[b.entry_id] for b in busts]


def _crown_winner(tournament: Tournament, prizes: Sequence[Decimal]) -> None:
    winner = Entry.objects.get(tournament=tournament, status=Entry.Status.ACTIVE)
    winner.finishing_place = 1
    winner.prize = prizes[0] if prizes else None
    winner.save(update_fields=["finishing_place", "prize"])


@transaction.atomic
def entries_unbust(*, tournament: Tournament, actor: Any = None) -> list[Entry]:
    """Undo the most recent bust (all players out on that hand): they play on with the stacks
    they started the hand with, in their seats; places and prizes are cleared."""
    tournament = lock_tournament(tournament)
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
    for entry in entries:
        if entry.table is None or entry.table.is_broken:
            # The balancing plan only knows tables in play: a player back at a broken table
            # would be seated nowhere.
            where = f"table {entry.table.number}" if entry.table else "the table"
            raise FloorError(
                "table_broken",
                f"{entry.player.name}'s seat was at {where}, which has been broken since: "
                "the bust can no longer be undone.",
            )
        taken = Entry.objects.filter(
            table=entry.table, seat=entry.seat, status=Entry.Status.ACTIVE
        ).exists()
        if taken:
            raise FloorError(
                "seat_taken",
                f"{entry.player.name}'s seat has been given to another "
                "player: move that player first.",
            )
    Entry.objects.filter(
        tournament=tournament, status=Entry.Status.ACTIVE, finishing_place=1
    ).update(finishing_place=None, prize=None)
    for entry in entries:
        entry.status = Entry.Status.ACTIVE
        entry.chips = entry.bust_stack or 0
        entry.finishing_place = entry.prize = entry.busted_at = None
        entry.bust_group = entry.bust_stack = None
        entry.save()
    audit_record(
        tournament=tournament,
        actor=actor,
        action="entries_unbust",
        group=group,
        players=[e.player.name for e in entries],
    )
    return entries
