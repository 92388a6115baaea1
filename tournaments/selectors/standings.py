"""The field as the public and the desk read it: standings, payouts, the results, the ICM deal
on offer, the seat lookup and the tournaments listed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import TypedDict

from django.db.models import Count, F, Q, QuerySet, Sum

from tournaments.models import Entry, Tournament
from tournaments.names import fold
from tournaments.selectors.books import chips_in_play, stacks_estimated
from tournaments.selectors.bounties import Bounties, bounty_cells, event_bounties
from tournaments.selectors.prizes import payouts_get
from tournaments.selectors.tickets import seat_places
from tournaments.selectors.versions import tournaments_seen


@dataclass(frozen=True, slots=True, kw_only=True)
class StandingRow:
    rank: int
    entry_id: int
    name: str
    chips: int
    chips_source: str  # where the count comes from: "after hand 41 at table 3"
    chips_at: datetime | None  # when it was written
    table: int | None
    seat: int | None
    # An event with bounties: the bounty cash the player has won, and (progressive) the bounty
    # on their head now (`selectors.bounties`).
    bounty_won: Decimal | None = None
    head: Decimal | None = None
    # The stack is an estimate: it was given a desk bust's chips (KO-4), named here by the busted
    # player, and has not been counted since.
    estimated_since: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Standings:
    players_left: int
    entries: int
    total_chips: int  # chips in play: issued less colour-ups (the ledger's books)
    average_stack: int  # chips in play / players left
    counted_chips: int  # what the players' counts add up to (short of it after a desk bust)
    places_paid: int
    next_payout: Decimal | None  # what the next player out receives
    # The smallest prize (the last paid place): what the phone and the screens show as the next
    # payout before the money, when the next player out receives nothing.
    min_cash: Decimal | None = None
    prize_pool: Decimal
    rows: tuple[StandingRow, ...]

    @property
    def unassigned_chips(self) -> int:
        """Chips in play that no player's stack holds yet: those of desk busts that named
        nobody (KO-4), until the tables are counted. The stacks and these add up to the chips
        in play (0 when the counts add up to more)."""
        return max(self.total_chips - self.counted_chips, 0)

    @property
    def counts_short(self) -> bool:
        """The counts add up to less (or more) than the chips in play: count the tables before
        a deal is computed from them."""
        return self.counted_chips != self.total_chips


def tournament_list(*, public: bool = False, archived: bool = False) -> QuerySet[Tournament]:
    """The tournaments of the lists (the public's without the planned ones); the archived ones
    (`services.archive`) only with `archived`."""
    rows = tournaments_seen(planned=not public)
    if not archived:
        rows = rows.filter(is_archived=False)
    return rows.annotate(
        players_left=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE))
    )


def tournament_standings(tournament: Tournament, *, limit: int | None = None) -> Standings:
    """Rank by chips. Chips in play and the average come from the chips issued (the ledger's
    books), as a tournament clock shows them, not from the counts: a bust typed on the desk
    takes the player's last count off the tables although the chips went to someone (three
    queries and the prize table: the field with its counts, the chips in play, then the rows in
    chip order, and the stacks that are estimates). What the counts lack of the chips in play
    is `unassigned_chips`."""
    totals = Entry.objects.filter(tournament=tournament).aggregate(
        left=Count("pk", filter=Q(status=Entry.Status.ACTIVE)),
        entries=Count("pk", filter=~Q(status=Entry.Status.UNREGISTERED)),
        counted=Sum("chips", filter=Q(status=Entry.Status.ACTIVE)),
    )
    in_play = chips_in_play(tournament)
    rows_qs = (
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .order_by("-chips", "pk")
        .values_list(
            "pk", "player__name", "chips", "chips_source", "chips_at", "table__number", "seat"
        )
    )
    if limit is not None:
        rows_qs = rows_qs[:limit]
    bounties = event_bounties(tournament) if limit != 0 else None
    estimated = stacks_estimated(tournament) if limit != 0 else {}
    rows = tuple(
        StandingRow(
            rank=i + 1,
            entry_id=pk,
            name=name,
            chips=chips,
            chips_source=source,
            chips_at=at,
            table=table,
            seat=seat,
            estimated_since=estimated.get(pk),
            **_bounty_fields(bounties, pk),
        )
        for i, (pk, name, chips, source, at, table, seat) in enumerate(rows_qs)
    )
    paid_out = payouts_get(tournament, players=False) if totals["entries"] else None
    prizes = paid_out.places if paid_out else ()
    left = totals["left"] or 0
    paid = len(prizes)
    # None once a winner is left, or once a deal has paid the players left.
    over = left <= 1 or (paid_out is not None and paid_out.deal is not None)
    next_payout = prizes[left - 1] if not over and left <= paid else None
    return Standings(
        players_left=left,
        entries=totals["entries"],
        total_chips=in_play,
        average_stack=in_play // left if left else 0,
        counted_chips=int(totals["counted"] or 0),
        places_paid=paid,
        next_payout=next_payout,
        min_cash=prizes[-1] if prizes else None,
        prize_pool=sum(prizes, Decimal(0)),
        rows=rows,
    )


def _bounty_fields(bounties: Bounties | None, entry_id: int) -> dict[str, Decimal | None]:
    """A player still in's bounties for their standings row (nothing without bounties)."""
    if bounties is None:
        return {}
    entry = bounties.of(entry_id, in_play=True)
    return {"bounty_won": entry.won, "head": entry.head if bounties.progressive else None}


class PlacedPlayer(TypedDict):
    name: str
    prize: Decimal | None


class PayoutPlace(TypedDict):
    """A paid place as `tournament_payouts` answers it."""

    place: int
    prize: Decimal
    players: list[PlacedPlayer]
    seat: str  # the event whose seat the place wins (a satellite), else ""


def tournament_payouts(tournament: Tournament) -> list[PayoutPlace]:
    """Each paid place with its prize and, once decided, who finished there, as `payouts_get`
    answers them (an accepted deal's amounts for the places it settled); in a satellite, `seat`
    names the event a place's prize is a seat in (else "")."""
    paid = payouts_get(tournament)
    seats, target = seat_places(tournament, paid.places)
    finished: dict[int, list[PlacedPlayer]] = {}
    for placed in paid.placed:
        finished.setdefault(placed.place, []).append({"name": placed.name, "prize": placed.prize})
    return [
        {
            "place": i + 1,
            "prize": prize,
            "players": finished.get(i + 1, []),
            "seat": target if i < seats else "",
        }
        for i, prize in enumerate(paid.places)
    ]


def results_rows(tournament: Tournament) -> list[tuple[object, ...]]:
    """The results so far, as the one export gives them: place, name, entry number and prize of
    every entry that played, and in an event with bounties its `bounties.bounty_columns`; the
    players still in first (no place yet), by chips, then everyone out, by place."""
    paid = payouts_get(tournament, places=False)  # each player's prize: the one answer
    rows = [
        (place, name, number, paid.prize_of(pk), pk, status)
        for place, name, number, pk, status in Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.Status.UNREGISTERED)
        .order_by(F("finishing_place").asc(nulls_first=True), "-chips", "player__name", "number")
        .values_list("finishing_place", "player__name", "number", "pk", "status")
    ]
    bounties = event_bounties(tournament)
    if bounties is None:
        return [row[:4] for row in rows]
    return [
        (*row[:4], *bounty_cells(bounties, row[4], in_play=row[5] == Entry.Status.ACTIVE))
        for row in rows
    ]


class SeatMatch(TypedDict):
    """A player `seat_lookup` found: where they sit, or the place and prize once out."""

    entry_id: int
    name: str
    table: int | None
    seat: int | None
    status: str
    place: int | None
    prize: Decimal | None


def seat_lookup(tournament: Tournament, query: str) -> list[SeatMatch]:
    """Players whose name contains the query, with their table and seat, or the place they
    finished in once out and what it won (`payouts_get`: the one answer of each player's
    prize; None when nothing). Compared folded (`names.fold`: "jose" finds "José") against
    the player's search name; the plain name too, for a row written before it had one."""
    query = " ".join(query.split())
    if len(query) < 2:
        return []
    found = Q(player__search_name__contains=fold(query)) | Q(player__name__icontains=query)
    fields = ("pk", "player__name", "table__number", "seat", "status", "finishing_place")
    matches = (
        Entry.objects.filter(found, tournament=tournament)
        .exclude(status=Entry.Status.UNREGISTERED)
        .order_by("player__name", "-number")
        .values_list(*fields)[:20]
    )
    rows: list[SeatMatch] = [
        {
            "entry_id": pk,
            "name": name,
            "table": table,
            "seat": seat,
            "status": status,
            "place": place,
            "prize": None,
        }
        for pk, name, table, seat, status, place in matches
    ]
    if any(row["place"] for row in rows):
        paid = payouts_get(tournament, places=False)
        for row in rows:
            row["prize"] = paid.prize_of(row["entry_id"])
    return rows
