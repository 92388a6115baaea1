"""Reads of the dealer's records, as plain data for the pages and the API alike.

The procedure log is read here and nowhere else: the director's page, the API's JSON pages and
its CSV export all take their rows from `procedure_log`, so their filters and columns agree.
What a caller may see of the cards is decided in `dealer.card_gate`, for every answer.
The hands a director may reopen (`hands_reopenable`) are read here for the table plan
(`tournaments.selectors.table_plan`); `dealer.services.hand_reopen` decides and writes.
The hand writes' read-only checks live here too (issue 28): who may write to a table's hands
(`can_write`), why a hand may not start (`start_refusal`) or be reopened (`reopen_refusal`),
what a procedure would do (`procedure_preview`), and the audits `manage.py check_hands` and
`check_chips` run (`check_hands`, `check_hand_chips`). The services raise what they return, so
a page's button and the write it makes agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef, Subquery

from common.actors import Actor
from common.errors import FloorError, FloorForbidden, FloorInvalid
from common.roles import is_director
from dealer.engine import procedures
from dealer.engine.errors import EngineError
from dealer.hand_log import hand_replay, hand_snapshot, hand_state
from dealer.models import Hand, ProcedureLog
from dealer.state_cache import unpack_state
from tournaments.hands import HandRules, ReopenOffer
from tournaments.models import ChipMove, Entry, Table, Tournament
from tournaments.roles import may_deal


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
    progress: what a director may reopen there (`reopen_refusal`). One query."""
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


# --- checks of the hand writes (read-only; `dealer.services` raises what they find) -----


def can_write(user: Actor, table: Table) -> bool:
    """Directors may write to every hand; a dealer only to the tables assigned to them
    (`tournaments.roles.may_deal`)."""
    return may_deal(user, table)


def start_refusal(table: Table, *, in_progress: bool) -> FloorError | None:
    """Why no hand may start at the table now, from the table's own state (None: a hand may
    start, as far as the table goes; `hand_start` then checks the players and the clock).
    `in_progress`: the table has a hand in progress. The tablet shows its start button by it."""
    tournament = table.tournament
    if tournament is None:
        if not table.is_open:
            return FloorError("table_closed", f"{table} is closed.")
    elif tournament.hand_for_hand and tournament.status in (
        Tournament.Status.RUNNING,
        Tournament.Status.PAUSED,
    ):
        # RP-8: the clock is stopped and each table deals one hand, then waits for the others.
        if not in_progress and table.hand_for_hand_round >= tournament.hand_for_hand_round:
            return FloorError(
                "hand_for_hand_wait",
                f"Hand for hand: {table} has played this hand. Wait until every table has "
                "finished theirs.",
            )
    elif tournament.status != Tournament.Status.RUNNING:
        return FloorError("not_running", "Hands are dealt while the tournament clock runs.")
    if tournament is not None and table.is_broken:
        return FloorError("table_broken", f"{table} is broken: its players have moved.")
    if in_progress:
        return FloorError("hand_in_progress", "Finish the hand in progress first.")
    return None


def reopen_refusal(hand: Hand, actor: Actor) -> FloorError | None:
    """Why `actor` may not reopen `hand` now, by the hand's own rules (None: they may, as far
    as the hand goes; `hand_reopen` then checks the players). The tablet offers its "Reopen the
    last hand" by it, and `dealer.services.hand_reopen` raises what it says."""
    if hand.status == Hand.Status.VOID:
        return FloorError("hand_void", "A misdeal is dealt again, not reopened.")
    if hand.status != Hand.Status.COMPLETE:
        return FloorError("hand_in_progress", "This hand is still in progress: undo instead.")
    later = Hand.objects.filter(table_id=hand.table_id, number__gt=hand.number)
    if later.filter(status=Hand.Status.COMPLETE).exists():
        return FloorError(
            "not_last_hand",
            f"Hand {hand.number} is not the last hand played at {hand.table}: only the last "
            "one can be reopened.",
        )
    director = actor is None or is_director(actor)
    if later.exists() and not director:
        # Checked before the hand in progress: the dealer's answer is the floor, either way.
        return FloorForbidden(
            "next_hand_started",
            f"The next hand at {hand.table} has started since: ask the floor to reopen "
            f"hand {hand.number}.",
        )
    if later.filter(status=Hand.Status.IN_PROGRESS).exists():
        return FloorError(
            "hand_in_progress", f"{hand.table} has a hand in progress: finish it first."
        )
    return None


def check_hands() -> list[str]:
    """Replay every stored hand; the problems found (empty when every cache is right)."""
    problems = []
    for hand in Hand.objects.select_related("table").order_by("pk").iterator():
        try:
            state = hand_replay(hand)
        except EngineError as error:
            problems.append(f"{hand}: the log does not replay ({error.detail})")
            continue
        if hand_snapshot(hand, state) != hand.state:
            problems.append(f"{hand}: the cached state differs from the replay")
        stored = unpack_state(hand.engine_state, hand.pk, hand.version)
        if stored is not None and stored != state:
            problems.append(f"{hand}: the stored engine state differs from the replay")
    return problems


def check_hand_chips(tournament: Tournament) -> list[str]:
    """The ledger against the tournament's hands: each finished hand's rows are what the hand
    says each player won or lost, and the players of a hand in progress, only they, are marked
    as in it. Hands that ended before the tournament's ledger began (its first row: the opening
    balances) have no rows and are not read."""
    problems: list[str] = []
    hands = Hand.objects.filter(table__tournament=tournament, plan={}).select_related("table")
    began = (
        ChipMove.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("created_at", flat=True)
        .first()
    )
    if began is not None:
        hands = hands.exclude(status=Hand.Status.COMPLETE, ended_at__lt=began)
    results: dict[int | None, dict[int, int]] = {}
    for hand_id, entry_id, delta in (
        ChipMove.objects.filter(tournament=tournament, kind=ChipMove.Kind.HAND)
        .order_by("pk")
        .values_list("hand_id", "entry_id", "delta")
    ):
        results.setdefault(hand_id, {})[entry_id] = delta  # the latest end of a reopened hand
    live = dict(
        Entry.objects.filter(tournament=tournament, live_hand__isnull=False).values_list(
            "pk", "live_hand_id"
        )
    )
    for hand in hands.order_by("pk").iterator():
        if hand.status == Hand.Status.COMPLETE:
            try:
                stacks = hand_state(hand).finishing_stacks or ()
            except EngineError as error:
                problems.append(f"{hand}: the log does not replay ({error.detail})")
                continue
            expected = {
                s["entry"]: stack - s["stack"] for s, stack in zip(hand.seats, stacks, strict=True)
            }
            if results.get(hand.pk, {}) != expected:
                problems.append(f"{hand}: the ledger's result differs from the hand's")
        elif hand.status == Hand.Status.IN_PROGRESS:
            for seat in hand.seats:
                if live.pop(seat["entry"], None) != hand.pk:
                    problems.append(f"{hand}: {seat['name']} is not marked as in the hand")
    for entry_id, hand_id in live.items():
        problems.append(
            f"entry {entry_id} is marked as in hand {hand_id}, which is not in progress"
        )
    return problems


def procedure_remedy(
    hand: Hand, trigger: str, player_seat: int | None, details: Mapping[str, object] | None
) -> procedures.Remedy:
    """The procedure `trigger` for this hand now, from the engine (RULES.md 8); an unknown
    trigger or a seat not dealt in is refused (400)."""
    try:
        chosen = procedures.Trigger(trigger)
    except ValueError as error:
        known = ", ".join(t.value for t in procedures.Trigger)
        raise FloorInvalid(
            "unknown_trigger", f"Unknown procedure '{trigger}': pick one of {known}."
        ) from error
    player = None
    if player_seat is not None:
        seats = [s["seat"] for s in hand.seats]
        if player_seat not in seats:
            raise FloorInvalid("not_in_hand", f"Seat {player_seat} is not dealt in this hand.")
        player = seats.index(player_seat)
    return procedures.remedy(hand_state(hand), chosen, player=player, details=details or {})


def procedure_preview(
    *,
    hand: Hand,
    trigger: str,
    player_seat: int | None = None,
    details: Mapping[str, object] | None = None,
) -> procedures.Remedy:
    """What the procedure says for this hand now (read-only): the steps before confirming, or
    the refusal the confirmation would meet (a floor misdeal after the threshold, ...)."""
    return procedure_remedy(hand, trigger, player_seat, details)
