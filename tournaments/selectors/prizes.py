"""What the prizes are: each paid place's prize by the payout table (`prize_table`), what each
place and each player gets (`payouts_get`: the one answer every reader asks, an accepted deal
included) and the deal on offer to the players left (`deal_offer`, ICM and a chip chop). Reads
only: the places and prizes are written by `tournaments.services.places`, a deal by
`tournaments.services.deals`, both from these.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal, TypedDict

from django.db.models import Count, Q, QuerySet, Sum

from common.errors import FloorError, from_value_error
from dealer.engine.errors import Conflict
from tournaments import icm, payouts
from tournaments.models import Entry, Tournament
from tournaments.selectors.tickets import satellite_prize_table


def prize_table(tournament: Tournament) -> tuple[Decimal, ...]:
    """Each paid place's prize, from the entries, rebuys and add-ons and the payout table."""
    if tournament.kind != Tournament.Kind.SINGLE:
        return event_prize_table(tournament)  # flights and days share their event's prizes
    field = Entry.objects.filter(tournament=tournament)
    return _prizes(tournament, field, satellite=True)


def event_prize_table(tournament: Tournament) -> tuple[Decimal, ...]:
    """The prizes of a multi-flight event, for the event itself and for each of its later days:
    the pool and the payout table come from every entry of every flight (re-entries count) at
    the event's buy-in, rebuy and add-on prices, guarantee and payout table; the last day's
    places are the event's top places. A flight pays nothing (the money is paid on the last
    day), so its prize table is empty."""
    if tournament.kind == Tournament.Kind.FLIGHT:
        return ()
    event = tournament if tournament.kind == Tournament.Kind.EVENT else tournament.parent
    if event is None:
        return ()
    field = Entry.objects.filter(tournament__parent=event, tournament__kind=Tournament.Kind.FLIGHT)
    return _prizes(event, field, satellite=False)


def _prizes(
    settings: Tournament, field: QuerySet[Entry], *, satellite: bool
) -> tuple[Decimal, ...]:
    """The prizes a field of entries pays under a tournament's settings (prices, guarantee,
    payout table and unit); a satellite pays seats first, then cash."""
    counts = field.exclude(status=Entry.Status.UNREGISTERED).aggregate(
        entries=Count("pk"), rebuys=Sum("rebuys"), addons=Count("pk", filter=Q(addon=True))
    )
    entries = counts["entries"]
    try:
        pool = payouts.prize_pool(
            entries,
            counts["rebuys"] or 0,
            counts["addons"],
            settings.buy_in,
            settings.rebuy_price,
            settings.addon_price,
            settings.guarantee,
        )
        seats = satellite_prize_table(settings, pool) if satellite else None
        if seats is not None:
            return seats
        if settings.payout_percentages:
            table = payouts.PayoutTable(
                percentages=tuple(Decimal(str(p)) for p in settings.payout_percentages)
            )
        else:
            table = payouts.default_payout_table(max(entries, 1))
        return payouts.payouts(pool, table, settings.payout_unit)
    except ValueError as error:
        raise from_value_error(error, kind=Conflict) from error


@dataclass(frozen=True, slots=True, kw_only=True)
class Placed:
    """An entry with a finishing place and what it won (None: nothing)."""

    place: int
    entry_id: int
    name: str
    prize: Decimal | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Payouts:
    """What each place and each player gets.

    `places`: each paid place's prize, first place first: the payout table's, or once the
    players left accepted a deal, the deal's amount for each place it settled (a deal among more
    players than the table pays adds their places). `placed`: every entry with a place, by place
    then name, with its own prize (tied places split theirs). `deal`: the method of the accepted
    deal, if any."""

    places: tuple[Decimal, ...] = ()
    placed: tuple[Placed, ...] = ()
    deal: str | None = None
    by_entry: Mapping[int, Decimal | None] = field(default_factory=dict)

    @property
    def pool(self) -> Decimal:
        return sum(self.places, Decimal(0))

    def prize_of(self, entry_id: int) -> Decimal | None:
        """What the entry won (None: nothing, or no place yet)."""
        return self.by_entry.get(entry_id)


def payouts_get(tournament: Tournament, *, places: bool = True, players: bool = True) -> Payouts:
    """What each place (`places`) and each player (`players`) gets: the one answer of the desk's
    Payouts tab, the public pages, the payouts, standings and results API, the CSV and the
    screens. A reader that needs only one half asks for it (one query fewer, and a payout
    table that cannot be used is refused only to a reader of the places: 409)."""
    deal = tournament.deal or {}
    paid = prize_table(tournament) if places else ()
    if places and deal:
        dealt = sorted((int(p["place"]), Decimal(p["amount"])) for p in deal["players"])
        paid = tuple(amount for _, amount in dealt) + paid[len(dealt) :]
    placed: tuple[Placed, ...] = ()
    if players:
        rows = (
            Entry.objects.filter(tournament=tournament, finishing_place__isnull=False)
            .order_by("finishing_place", "player__name", "pk")
            .values_list("finishing_place", "pk", "player__name", "prize")
        )
        placed = tuple(
            Placed(place=place or 0, entry_id=pk, name=name, prize=prize)
            for place, pk, name, prize in rows
        )
    return Payouts(
        places=paid,
        placed=placed,
        deal=deal.get("method"),
        by_entry={p.entry_id: p.prize for p in placed},
    )


DealMethod = Literal["icm", "chip_chop"]  # a deal's way to share the prizes: a `DealRow` key


class DealRow(TypedDict):
    """A player left, with what each deal would pay them."""

    entry_id: int
    name: str
    chips: int
    icm: Decimal
    chip_chop: Decimal


def deal_offer(tournament: Tournament) -> list[DealRow]:
    """An ICM deal (Malmuth-Harville) and a chip chop for the players left, at most 10, biggest
    stack first, from their counted stacks: the amounts a deal pays, rounded to the payout unit
    and adding up to the prizes of the places still to be won. The desk shows it, the API
    serves it, and `tournament_accept_deal` pays it."""
    if not tournament.icm_enabled:
        raise FloorError(
            "icm_disabled", "The ICM deal calculator is switched off for this tournament."
        )
    if tournament.deal:
        raise FloorError(
            "deal_accepted",
            "A deal was accepted: the players left took the amounts on the Payouts tab, and "
            "the tournament is finished.",
        )
    left = list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .order_by("-chips", "pk")
        .values_list("pk", "player__name", "chips")
    )
    prizes = prize_table(tournament)[: len(left)]
    stacks = [chips for _, _, chips in left]
    unit = tournament.payout_unit
    try:
        equities = icm.icm_equities(stacks, prizes, unit=unit)
        chop = icm.chip_chop(stacks, prizes, unit=unit)
    except ValueError as error:
        raise from_value_error(error, kind=Conflict) from error
    return [
        {"entry_id": pk, "name": name, "chips": chips, "icm": eq, "chip_chop": ch}
        for (pk, name, chips), eq, ch in zip(left, equities, chop, strict=True)
    ]
