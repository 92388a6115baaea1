"""Reads of the dealer's records, as plain data for the pages and the API alike.

The procedure log is read here and nowhere else: the director's page, the API's JSON pages and
its CSV export all take their rows from `procedure_log`, so their filters and columns agree.
What a caller may see of the cards is decided in `dealer.card_gate`, for every answer.
The hands a director may reopen (`hands_reopenable`) are read here for the table plan
(`tournaments.selectors.table_plan`); `dealer.services.hand_reopen` decides and writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef, Subquery

from dealer.models import Hand, ProcedureLog
from tournaments.hands import HandRules, ReopenOffer
from tournaments.models import Table, Tournament


@dataclass(frozen=True, slots=True, kw_only=True)
class ProcedureRow:
    """One procedure carried out: where, who, what happened and what was done."""

    id: int
    created_at: datetime
    tournament: int | None
    table_id: int
    table: int  # the table's number
    hand: int  # the hand's id
    hand_number: int
    dealer_id: int | None
    dealer: str | None  # the dealer's username
    trigger: str
    title: str
    steps: tuple[str, ...]
    effect: str
    player_seat: int | None
    rule: str


# Each field of a ProcedureRow and the lookup that reads it.
_COLUMNS = {
    "id": "pk",
    "created_at": "created_at",
    "tournament": "table__tournament_id",
    "table_id": "table_id",
    "table": "table__number",
    "hand": "hand_id",
    "hand_number": "hand__number",
    "dealer_id": "dealer_id",
    "dealer": "dealer__username",
    "trigger": "trigger",
    "title": "title",
    "steps": "steps",
    "effect": "effect",
    "player_seat": "player_seat",
    "rule": "rule",
}


def procedure_log(
    *,
    tournament: int | None = None,
    table: int | None = None,
    dealer: int | None = None,
    before: int | None = None,
    limit: int | None = None,
) -> list[ProcedureRow]:
    """The procedures carried out, newest first: of a tournament, a table (id) and a dealer
    (user id) when given; `before` (an id) for the next page; at most `limit` rows."""
    logs = ProcedureLog.objects.order_by("-pk")
    if tournament is not None:
        logs = logs.filter(table__tournament_id=tournament)
    if table is not None:
        logs = logs.filter(table_id=table)
    if dealer is not None:
        logs = logs.filter(dealer_id=dealer)
    if before is not None:
        logs = logs.filter(pk__lt=before)
    if limit is not None:
        logs = logs[:limit]
    rows = logs.values_list(*_COLUMNS.values()).iterator(chunk_size=500)
    return [_row(dict(zip(_COLUMNS, values, strict=True))) for values in rows]


def _row(values: dict[str, Any]) -> ProcedureRow:
    steps = tuple(str(step) for step in values.pop("steps") or ())
    return ProcedureRow(steps=steps, **values)


def procedure_log_dealers(*, tournament: int) -> list[tuple[int, str]]:
    """The dealers who appear in a tournament's procedure log, by name: (user id, username)."""
    rows = (
        ProcedureLog.objects.filter(table__tournament_id=tournament, dealer__isnull=False)
        .values_list("dealer_id", "dealer__username")
        .distinct()
        .order_by("dealer__username")
    )
    return [(pk, name) for pk, name in rows]


def hands_reopenable(table_ids: Sequence[int]) -> dict[int, ReopenOffer]:
    """Each tournament table's last completed hand, by table id, for the tables with no hand in
    progress: what a director may reopen there (`dealer.services._check_reopen`). One query."""
    last = Hand.objects.filter(table=OuterRef("pk"), status=Hand.Status.COMPLETE).order_by(
        "-number"
    )
    busy = Hand.objects.filter(table=OuterRef("pk"), status=Hand.Status.IN_PROGRESS)
    hand_ids = (
        Table.objects.filter(pk__in=table_ids, tournament__isnull=False)
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .annotate(last=Subquery(last.values("pk")[:1]), busy=Exists(busy))
        .filter(busy=False, last__isnull=False)
        .values("last")
    )
    return {
        table_id: ReopenOffer(hand_id=pk, number=number, version=version)
        for table_id, pk, number, version in Hand.objects.filter(pk__in=hand_ids).values_list(
            "table_id", "pk", "number", "version"
        )
    }


class DealerHandReader:
    """The floor's reader of the tables' hands (`tournaments.hands`), set by `dealer.apps`."""

    def tables_in_hand(self, tournament_id: int) -> list[int]:
        return sorted(
            set(
                Hand.objects.filter(
                    table__tournament_id=tournament_id, status=Hand.Status.IN_PROGRESS
                ).values_list("table__number", flat=True)
            )
        )

    def rules_in_hand(self, table_id: int) -> HandRules | None:
        playing = (
            Hand.objects.filter(table_id=table_id, status=Hand.Status.IN_PROGRESS)
            .only("number", "rules")
            .first()
        )
        return None if playing is None else HandRules(playing.number, dict(playing.rules or {}))

    def reopen_offers(self, table_ids: Sequence[int]) -> dict[int, ReopenOffer]:
        return hands_reopenable(table_ids)
