"""The field as the public and the desk read it: standings, payouts, the results, the ICM deal
on offer, the seat lookup and the tournaments listed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Count, F, Q, Sum

from tournaments.models import Entry, Tournament
from tournaments.selectors.books import chips_in_play
from tournaments.selectors.prizes import prize_table
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


@dataclass(frozen=True, slots=True, kw_only=True)
class Standings:
    players_left: int
    entries: int
    total_chips: int  # chips in play: issued less colour-ups (the ledger's books)
    average_stack: int  # chips in play / players left
    counted_chips: int  # what the players' counts add up to (short of it after a desk bust)
    places_paid: int
    next_payout: Decimal | None  # what the next player out receives
    prize_pool: Decimal
    rows: tuple[StandingRow, ...]

    @property
    def counts_short(self) -> bool:
        """The counts add up to less (or more) than the chips in play: count the tables before
        a deal is computed from them."""
        return self.counted_chips != self.total_chips


def tournament_list(*, public: bool = False) -> Any:
    return tournaments_seen(planned=not public).annotate(
        players_left=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE))
    )


def tournament_standings(tournament: Tournament, *, limit: int | None = None) -> Standings:
    """Rank by chips. Chips in play and the average come from the chips issued (the ledger's
    books), as a tournament clock shows them, not from the counts: a bust typed on the desk
    takes the player's last count off the tables although the chips went to someone (three
    queries and the prize table: the field with its counts, the chips in play, then the rows in
    chip order)."""
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
        )
        for i, (pk, name, chips, source, at, table, seat) in enumerate(rows_qs)
    )
    prizes = prize_table(tournament) if totals["entries"] else ()
    left = totals["left"] or 0
    paid = len(prizes)
    next_payout = prizes[left - 1] if 1 < left <= paid else None  # none once a winner is left
    return Standings(
        players_left=left,
        entries=totals["entries"],
        total_chips=in_play,
        average_stack=in_play // left if left else 0,
        counted_chips=int(totals["counted"] or 0),
        places_paid=paid,
        next_payout=next_payout,
        prize_pool=sum(prizes, Decimal(0)),
        rows=rows,
    )


def tournament_payouts(tournament: Tournament) -> list[dict[str, Any]]:
    """Each paid place with its prize and, once decided, who finished there."""
    prizes = prize_table(tournament)
    finished: dict[int | None, list[dict[str, Any]]] = {}
    for place, name, prize in Entry.objects.filter(
        tournament=tournament, finishing_place__isnull=False
    ).values_list("finishing_place", "player__name", "prize"):
        finished.setdefault(place, []).append({"name": name, "prize": prize})
    return [
        {"place": i + 1, "prize": prize, "players": finished.get(i + 1, [])}
        for i, prize in enumerate(prizes)
    ]


def results_rows(tournament: Tournament) -> list[tuple[int | None, str, int, Decimal | None]]:
    """The results so far, as the one export gives them: place, name, entry number and prize of
    every entry that played; the players still in first (no place yet), by chips, then
    everyone out, by place."""
    rows = (
        Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.Status.UNREGISTERED)
        .order_by(F("finishing_place").asc(nulls_first=True), "-chips", "player__name", "number")
        .values_list("finishing_place", "player__name", "number", "prize")
    )
    return list(rows)


def seat_lookup(tournament: Tournament, query: str) -> list[dict[str, Any]]:
    """Players whose name contains the query, with their table and seat (public)."""
    query = " ".join(query.split())
    if len(query) < 2:
        return []
    return [
        {"name": name, "table": table, "seat": seat, "status": status}
        for name, table, seat, status in Entry.objects.filter(
            tournament=tournament, player__name__icontains=query
        )
        .exclude(status=Entry.Status.UNREGISTERED)
        .order_by("player__name", "-number")
        .values_list("player__name", "table__number", "seat", "status")[:20]
    ]
