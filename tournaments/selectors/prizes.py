"""What the prizes are: each paid place's prize (`prize_table`) and the deal on offer to the
players left (`deal_offer`, ICM and a chip chop). Reads only: the places and prizes are written
by `tournaments.services.places`, a deal by `tournaments.services.deals`, both from these.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import Count, Q, Sum

from dealer.engine.errors import Conflict
from tournaments import icm, payouts
from tournaments.errors import FloorError, from_value_error
from tournaments.models import Entry, Tournament


def prize_table(tournament: Tournament) -> tuple[Decimal, ...]:
    """Each paid place's prize, from the entries, rebuys and add-ons and the payout table."""
    field = Entry.objects.filter(tournament=tournament).exclude(status=Entry.Status.UNREGISTERED)
    counts = field.aggregate(
        entries=Count("pk"), rebuys=Sum("rebuys"), addons=Count("pk", filter=Q(addon=True))
    )
    entries, rebuys, addons = counts["entries"], counts["rebuys"] or 0, counts["addons"]
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
