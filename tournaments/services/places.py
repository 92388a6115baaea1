"""Finishing places and prizes: who finished where, what each place pays, and the changes a
late entry, a shared hand-for-hand place or an undone bust make to them.

Each entry has its own place; entries share one only when they went out on the same hand at one
table with equal starting stacks, or on the same hand-for-hand hand at different tables (RP-8;
`tournaments.finishing`), and then split the prizes of the places they span.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from itertools import groupby

from django.db.models import Min

from common.errors import FloorError
from tournaments import finishing, payouts
from tournaments.models import ChipMove, Entry, Tournament
from tournaments.selectors.prizes import prize_table
from tournaments.selectors.satellites import satellite_seats
from tournaments.selectors.seats import seat_map_get
from tournaments.services.knockouts import knockouts_clear
from tournaments.services.versions import tournament_bump


def places_recompute(tournament: Tournament) -> None:
    """Every busted entry's place, from the bust record alone (`finishing.finishing_places`):
    the players still in hold the places above everyone out, then the busts from the latest to
    the earliest. Players out on the same hand at one table are placed by the stack they started
    it with (the bigger finishes higher, equal stacks share, T); players out on the same
    hand-for-hand hand at different tables share (RP-8, A11).

    Worked out afresh on every bust, undone bust, reopened hand and new entry, so that no two
    entries share a place unless these rules say so, whatever order the floor worked in (a
    re-entry or a player coming back finishes above everyone already out, and a hand reopened
    and ended again keeps its place in the order: `_out_order`)."""
    left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    out = list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.BUSTED).only(
            "pk", "bust_group", "bust_round", "bust_stack", "finishing_place", "table_id"
        )
    )
    when = _out_order(out)
    places = finishing.finishing_places(
        left=left,
        out=[
            finishing.Out(
                entry_id=entry.pk,
                when=when[entry.pk],
                hand=entry.bust_group or 0,
                stack=entry.bust_stack or 0,
                table=entry.table_id,
                round=entry.bust_round,
            )
            for entry in out
        ],
    )
    changed = [entry for entry in out if entry.finishing_place != places[entry.pk]]
    for entry in changed:
        entry.finishing_place = places[entry.pk]
    Entry.objects.bulk_update(changed, ["finishing_place"])
    tournament_bump(tournament.pk)


def _out_order(out: Sequence[Entry]) -> dict[int, int]:
    """When each entry went out, as a position in the chip ledger: a bust typed on the desk at
    its bust row; a bust on a tablet's hand at that hand's first end, so that a hand reopened and
    ended again later still comes before the busts recorded after its first end. Entries out
    before the ledger began have no row: they come first (0)."""
    latest: dict[int, tuple[int, int | None]] = {}
    for entry_id, pk, hand_id in (
        ChipMove.objects.filter(entry__in=out, kind=ChipMove.Kind.BUST)
        .order_by("pk")
        .values_list("entry_id", "pk", "hand_id")
    ):
        latest[entry_id] = (pk, hand_id)
    hands = {hand_id for _, hand_id in latest.values() if hand_id is not None}
    first_end = dict(
        ChipMove.objects.filter(hand_id__in=hands, kind=ChipMove.Kind.HAND)
        .values("hand_id")
        .annotate(first=Min("pk"))
        .values_list("hand_id", "first")
    )
    order: dict[int, int] = {}
    for entry in out:
        pk, hand_id = latest.get(entry.pk, (0, None))
        order[entry.pk] = first_end.get(hand_id, pk) if hand_id is not None else pk
    return order


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
    tournament_bump(tournament.pk)


def places_shift_for_new_entry(tournament: Tournament) -> None:
    """A late entry or re-entry finishes above everyone already out: their places move down."""
    places_recompute(tournament)
    places_reprice(tournament)


def crown_winner(tournament: Tournament) -> None:
    """Place the players left at the end: the winner first, or in a satellite each of the
    last N left a seat (places 1..N by chips, the same prize)."""
    prizes = prize_table(tournament)
    if satellite_seats(tournament):
        left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        crowned = list(left.order_by("-chips", "pk"))
        for place, entry in enumerate(crowned, start=1):
            entry.finishing_place, entry.prize = place, prizes[place - 1]
        Entry.objects.bulk_update(crowned, ["finishing_place", "prize"])
        tournament_bump(tournament.pk)
        return
    winner = Entry.objects.get(tournament=tournament, status=Entry.Status.ACTIVE)
    winner.finishing_place = 1
    winner.prize = prizes[0] if prizes else None
    winner.save(update_fields=["finishing_place", "prize"])


def places_from_deal(tournament: Tournament, amounts: Sequence[tuple[int, Decimal]]) -> None:
    """The players left agreed a deal: each takes the next place in the order given (their
    chips, biggest first) and their agreed amount as the prize."""
    entries = Entry.objects.filter(tournament=tournament).in_bulk([pk for pk, _ in amounts])
    for place, (entry_id, amount) in enumerate(amounts, start=1):
        entry = entries[entry_id]
        entry.finishing_place = place
        entry.prize = amount if amount > 0 else None
    Entry.objects.bulk_update(list(entries.values()), ["finishing_place", "prize"])
    tournament_bump(tournament.pk)


def places_clear(tournament: Tournament, entries: Iterable[Entry]) -> None:
    """Bring busted entries back into play (an undone bust, a reopened hand): status, place,
    prize and bust record cleared, and who knocked them out (so the bounties follow); the
    winner, if one was crowned, is uncrowned; the places of everyone still out are worked out
    again (`places_recompute`), and their prizes."""
    back = list(entries)
    knockouts_clear(back)
    Entry.objects.filter(
        tournament=tournament, status=Entry.Status.ACTIVE, finishing_place__isnull=False
    ).update(finishing_place=None, prize=None)  # the winner, or a satellite's seat winners
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
    tournament_bump(tournament.pk)
    places_recompute(tournament)
    places_reprice(tournament)


def places_unset_survivors(tournament: Tournament) -> None:
    """The players still in have no place: a flight played down to one player crowned them,
    and the day's end (the bag) places nobody."""
    Entry.objects.filter(
        tournament=tournament, status=Entry.Status.ACTIVE, finishing_place__isnull=False
    ).update(finishing_place=None, prize=None)


def check_seats_free(entries: Iterable[Entry]) -> None:
    """Entries coming back into play need their seats: at a table still in play, not given to
    anyone since; and their players must not have re-entered since (one entry in play each)."""
    entries = list(entries)
    if not entries:
        return
    in_play = {e.table.pk: e.table for e in entries if e.table and not e.table.is_broken}
    seats = seat_map_get(tournament=entries[0].tournament_id, tables=in_play.values())
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
        if entry.seat is not None and seats.at(table).holder(entry.seat, but=entry.pk):
            raise FloorError(
                "seat_taken",
                f"{entry.player.name}'s seat has been given to another "
                "player: move that player first.",
            )
