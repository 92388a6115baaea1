"""A deal among the players left: the prizes still to be won shared by ICM or a chip chop,
written into the places and prizes, and the tournament finished."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.db import transaction

from common.actors import Actor
from common.errors import FloorError, FloorInvalid
from tournaments.models import Entry, Tournament
from tournaments.selectors.prizes import DealMethod, deal_offer
from tournaments.services.audit import audit_record
from tournaments.services.events import tournament_close
from tournaments.services.locks import lock_tournament
from tournaments.services.places import places_from_deal

# How a deal shares the prizes in play: the key of the amount in `deal_offer`'s rows.
DEAL_METHODS: dict[str, DealMethod] = {"icm": "icm", "chip_chop": "chip_chop"}


def _check_deal_due(tournament: Tournament, method: str, left: list[Entry]) -> None:
    if method not in DEAL_METHODS:
        raise FloorInvalid("bad_method", f"'{method}' is not a deal: choose icm or chip_chop.")
    if tournament.status == Tournament.Status.FINISHED:
        raise FloorError("tournament_finished", "The tournament is finished already.")
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        raise FloorError("not_running", "A deal is made while the tournament is running.")
    if len(left) < 2:
        raise FloorError(
            "no_deal", "A deal needs at least two players left: finish the tournament instead."
        )


def _check_no_hand_in_progress(left: list[Entry]) -> None:
    busy = [entry.player.name for entry in left if entry.live_hand_id is not None]
    if busy:
        who = ", ".join(busy)
        raise FloorError(
            "in_hand",
            f"{who} {'is' if len(busy) == 1 else 'are'} in a hand in progress: "
            "accept the deal when the hand is over.",
        )


@transaction.atomic
def tournament_accept_deal(
    *,
    tournament: Tournament,
    method: str,
    actor: Actor = None,
    expected_chips: Sequence[int] | None = None,
) -> Tournament:
    """The players left accept the deal `method` ("icm" or "chip_chop") as `deal_offer`
    calculates it: each gets a finishing place by chip count (the bigger stack higher) and their
    deal amount as the prize (rounded to the payout unit, adding up to the prizes of those
    places). The deal is stored and audited, and the tournament finished. Refused (409 `in_hand`)
    while any of them is in a hand in progress. `expected_chips` are the stacks the players were
    shown (biggest first): if a hand or a count changed them since, the deal on offer is another
    one and the acceptance is refused (409 `deal_changed`)."""
    tournament = lock_tournament(tournament)
    left = list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).select_related(
            "player"
        )
    )
    _check_deal_due(tournament, method, left)
    rows = deal_offer(tournament)  # biggest stack first, as the desk shows it
    _check_no_hand_in_progress(left)
    if expected_chips is not None and list(expected_chips) != [row["chips"] for row in rows]:
        raise FloorError(
            "deal_changed",
            "The chip counts have changed since this deal was shown: look at the new amounts "
            "and accept again.",
        )
    amounts: list[tuple[int, Decimal]] = [
        (row["entry_id"], row[DEAL_METHODS[method]]) for row in rows
    ]
    places_from_deal(tournament, amounts)
    shares = [
        {
            "entry": row["entry_id"],
            "player": row["name"],
            "chips": row["chips"],
            "place": place,
            "amount": str(amount),
        }
        for place, (row, (_, amount)) in enumerate(zip(rows, amounts, strict=True), start=1)
    ]
    total = sum((amount for _, amount in amounts), Decimal(0))
    tournament.deal = {"method": method, "total": str(total), "players": shares}
    tournament_close(tournament)
    audit_record(
        tournament=tournament, actor=actor, action="deal_accept", method=method, players=shares
    )
    return tournament
