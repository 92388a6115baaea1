"""Finishing places and prizes: who finished where, what each place pays, and the changes a
late entry, a shared hand-for-hand place or an undone bust make to them.

Each entry has its own place; entries share one only when they went out on the same hand with
equal starting stacks, or on the same hand-for-hand hand (RP-8), and then split the prizes of
the places they span.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from itertools import groupby

from django.db.models import F

from tournaments import payouts
from tournaments.models import Entry, Tournament
from tournaments.services.errors import FloorError, from_value_error


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


def place_out(
    tournament: Tournament, out: list[Entry], left_after: int, h4h_round: int | None
) -> None:
    """Places for the entries out on one hand: the best is the number left after them plus one.
    Bigger starting stacks finish higher, equal ones share; in hand-for-hand everyone out on
    the same hand-for-hand hand shares the place, at every table (the earlier tables' busts
    move down to it)."""
    if h4h_round is not None:
        earlier = list(
            Entry.objects.filter(
                tournament=tournament, status=Entry.Status.BUSTED, bust_round=h4h_round
            ).exclude(pk__in=[e.pk for e in out])
        )
        place = left_after + 1
        for entry in [*out, *earlier]:
            entry.finishing_place = place
        Entry.objects.bulk_update(earlier, ["finishing_place"])
        return
    ordered = sorted(out, key=lambda e: -(e.bust_stack or 0))
    place = left_after + 1
    for _, tied in groupby(ordered, key=lambda e: e.bust_stack):
        group = list(tied)
        for entry in group:
            entry.finishing_place = place
        place += len(group)


def places_reprice(tournament: Tournament) -> None:
    """Every placed entry's prize from the prize table as it stands: entries sharing a place
    split the prizes of the places they span (the pool grows with late entries and rebuys)."""
    prizes = prize_table(tournament)
    placed = list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.BUSTED)
        .exclude(finishing_place=None)
        .order_by("finishing_place", "pk")
    )
    changed = []
    for place, tied in groupby(placed, key=lambda e: e.finishing_place):
        group = list(tied)
        assert place is not None
        span = list(range(place, place + len(group)))
        shares = payouts.split_places(prizes, span, unit=tournament.payout_unit)
        for entry, share in zip(group, shares, strict=True):
            prize = share if share > 0 else None
            if entry.prize != prize:
                entry.prize = prize
                changed.append(entry)
    Entry.objects.bulk_update(changed, ["prize"])


def places_shift_for_new_entry(tournament: Tournament) -> None:
    """A late entry or re-entry finishes above everyone already out: their places move down one,
    so that no two entries share a place."""
    Entry.objects.filter(
        tournament=tournament, status=Entry.Status.BUSTED, finishing_place__isnull=False
    ).update(finishing_place=F("finishing_place") + 1)
    places_reprice(tournament)


def crown_winner(tournament: Tournament) -> None:
    prizes = prize_table(tournament)
    winner = Entry.objects.get(tournament=tournament, status=Entry.Status.ACTIVE)
    winner.finishing_place = 1
    winner.prize = prizes[0] if prizes else None
    winner.save(update_fields=["finishing_place", "prize"])


def places_clear(tournament: Tournament, entries: Iterable[Entry]) -> None:
    """Bring busted entries back into play (an undone bust, a reopened hand): status, place,
    prize and bust record cleared; the winner, if one was crowned, is uncrowned; anyone who
    shared a hand-for-hand place with them moves back up to the place they now share."""
    back = list(entries)
    rounds = {e.bust_round for e in back if e.bust_round is not None}
    Entry.objects.filter(
        tournament=tournament, status=Entry.Status.ACTIVE, finishing_place=1
    ).update(finishing_place=None, prize=None)
    for entry in back:
        entry.status = Entry.Status.ACTIVE
        entry.finishing_place = entry.prize = entry.busted_at = None
        entry.bust_group = entry.bust_stack = entry.bust_round = None
    Entry.objects.bulk_update(
        back,
        [
            "status",
            "finishing_place",
            "prize",
            "busted_at",
            "bust_group",
            "bust_stack",
            "bust_round",
        ],
    )
    left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    for number in rounds:
        Entry.objects.filter(
            tournament=tournament, status=Entry.Status.BUSTED, bust_round=number
        ).update(finishing_place=left + 1)
    places_reprice(tournament)


def check_seats_free(entries: Iterable[Entry]) -> None:
    """Entries coming back into play need their seats: at a table still in play, not given to
    anyone since; and their players must not have re-entered since (one entry in play each)."""
    for entry in entries:
        again = (
            Entry.objects.filter(
                tournament_id=entry.tournament_id,
                player_id=entry.player_id,
                status=Entry.Status.ACTIVE,
            )
            .exclude(pk=entry.pk)
            .first()
        )
        if again is not None:
            raise FloorError(
                "reentered",
                f"{entry.player.name} has re-entered since (entry {again.number}): the bust can "
                "no longer be undone.",
            )
        table = entry.table
        if table is None or table.is_broken:
            # The balancing plan only knows tables in play: a player back at a broken table
            # would be seated nowhere.
            where = f"table {table.number}" if table else "the table"
            raise FloorError(
                "table_broken",
                f"{entry.player.name}'s seat was at {where}, which has been broken since: "
                "the bust can no longer be undone.",
            )
        taken = (
            Entry.objects.filter(table=table, seat=entry.seat, status=Entry.Status.ACTIVE)
            .exclude(pk=entry.pk)
            .exists()
            or Entry.objects.filter(
                move_to_table=table, move_to_seat=entry.seat, status=Entry.Status.ACTIVE
            ).exists()
        )
        if taken:
            raise FloorError(
                "seat_taken",
                f"{entry.player.name}'s seat has been given to another "
                "player: move that player first.",
            )
