"""What the prizes are: each paid place's prize (`prize_table`) and the deal on offer to the
players left (`deal_offer`, ICM and a chip chop). Reads only: the places and prizes are written
by `tournaments.services.places`, a deal by `tournaments.services.deals`, both from these.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum

from dealer.engine.errors import Conflict
from tournaments import icm, payouts
from tournaments.errors import FloorError, from_value_error
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


def deal_offer(tournament: Tournament) -> list[dict[str, Any]]:
    """An ICM deal (Malmuth-Harville) and a chip chop for the players left, at most 10, biggest
    stack first, from their counted stacks: the amounts a deal pays, rounded to the payout unit
    and adding up to the prizes of the places still to be won. The desk shows it, the API
    serves it, and `tournament_accept_deal` pays it."""
    if not tournament.icm_enabled:
        raise FloorError(
            "icm_disabled", "The ICM deal calculator is switched off for this tournament."
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
